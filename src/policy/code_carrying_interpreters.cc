// The interpreter rows of the code-carrying detector: how each interpreter can be handed code
// other than a program file, beyond the -c/-e flags of the reference (§6.1).
//
// Problem: every interpreter has several such ways, and each needs its option grammar to be
// found: python3 -m timeit CODE, python3 -i (a prompt after the script), no program at all
// (it is read from stdin: `echo CODE | python3`, or typed later through `process write`),
// program files that are stdin (-, /dev/stdin, /dev/fd/N, /proc/self/fd/N), perl -M'x;CODE'
// and '-w -e CODE' (two switches in one argument), node --import data:..., sed --expression=...
// and -f /dev/stdin, gawk -D (a debugger prompt), bash -s.
//
// Approach: one row per interpreter family with the options that matter, their value syntax
// (checked against python 3.11, perl 5.36, node 20, GNU sed 4.9, mawk 1.3.4, bash 5.2 and
// dash on the development machine; the others from their manuals), and where the program
// comes from. Rules decided here, argued in docs/policy.md "What strict inline eval covers":
// * python -m runs a module chosen by name, and many evaluate their arguments or open a
//   prompt (timeit, code, pdb, asyncio, cProfile, trace, unittest's callables, pickle ...):
//   every -m is a hit except a short list that only runs files or writes none (pytest without
//   its debugger options, venv, json.tool, py_compile);
// * preload flags that load a module by name or URL (node -r/--import/--loader) are hits;
//   perl -M/-m only when the argument is more than a module name (=args stays data);
// * an interpreter with no program, or a prompt flag, is a hit, decided from the command line
//   alone since later input is not analysed; options that only print (--version) are not.

#include <algorithm>
#include <array>

#include "policy/code_carrying.h"
#include "policy/code_carrying_rows.h"

namespace clawexec::policy::code_rows {
namespace {

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// --- python -----------------------------------------------------------------------------------

bool pytest_debugger_requested(std::span<const std::string> rest) {
  for (const std::string& arg : rest) {
    std::string_view name = std::string_view(arg).substr(0, arg.find('='));
    if (name.size() < 4 || !name.starts_with("--")) continue;  // "--pd", "--tr" at least
    for (std::string_view option : {"--pdb", "--pdbcls", "--trace"}) {
      if (option.starts_with(name)) return true;
    }
  }
  return false;
}

bool python_module_runs_code(std::string_view module, std::span<const std::string> rest) {
  if (module == "pytest") return pytest_debugger_requested(rest);
  for (std::string_view inert : {"venv", "json.tool", "py_compile"}) {
    if (module == inert) return false;
  }
  return true;
}

ToolRow python_row() {
  ToolRow row{.names = {"python", "python2", "python3", "pypy", "pypy3"}, .program = ProgramSource::kFileOperand};
  std::vector<OptionRule>& o = row.grammar.options;
  o = {ending(code("-c")),
       ending(labelled(code_if("-m", python_module_runs_code))),
       interactive("-i"),
       val("-W"),
       val("-X"),
       val("-Q"),
       val("--check-hash-based-pycs")};
  add_all(o, {"-h", "-?", "--help", "--help-env", "--help-xoptions", "--help-all", "-V", "--version"}, info);
  add_switch_letters(o, "bBdEIOPqRsSuvx3tU");
  return row;
}

// --- node, deno, bun --------------------------------------------------------------------------

ToolRow node_row() {
  ToolRow row{.names = {"node", "nodejs"}, .program = ProgramSource::kFileOperand};
  row.grammar.clusters = false;
  row.grammar.underscores_as_dashes = true;
  row.grammar.unknown_long = UnknownLong::kMayTakeValue;
  std::vector<OptionRule>& o = row.grammar.options;
  o = {code("-e"), code("--eval"), code("-p"), code("--print"), code("-pe"),
       interactive("-i"), interactive("--interactive"),
       // Preloads: a module resolved by name (node_modules, exports maps) or a data: URL.
       labelled(code("-r")), labelled(code("--require")), code("--import"), code("--loader"),
       code("--experimental-loader"),
       program("--test"), program("--run", Takes::kValue),
       attached("--inspect"), attached("--inspect-brk"), attached("--inspect-wait")};
  add_all(o, {"-v", "--version", "-h", "--help", "--v8-options", "-c", "--check", "--completion-bash"}, info);
  add_all(o, {"-C", "--conditions", "--input-type", "--title", "--env-file", "--env-file-if-exists", "--inspect-port",
              "--debug-port", "--disable-warning", "--dns-result-order", "--experimental-policy", "--policy-integrity",
              "--redirect-warnings", "--report-dir", "--report-directory", "--report-filename", "--report-signal",
              "--heapsnapshot-signal", "--heapsnapshot-near-heap-limit", "--diagnostic-dir", "--heap-prof-dir",
              "--heap-prof-name", "--heap-prof-interval", "--cpu-prof-dir", "--cpu-prof-name", "--cpu-prof-interval",
              "--icu-data-dir", "--openssl-config", "--tls-keylog", "--tls-cipher-list", "--trace-event-categories",
              "--trace-event-file-pattern", "--unhandled-rejections", "--secure-heap", "--secure-heap-min",
              "--test-name-pattern", "--test-reporter", "--test-reporter-destination", "--test-shard",
              "--test-skip-pattern", "--test-concurrency", "--test-timeout", "--watch-path", "--experimental-sea-config",
              "--snapshot-blob", "--max-http-header-size", "--experimental-default-type",
              "--es-module-specifier-resolution", "--experimental-specifier-resolution", "--use-largepages",
              "--localstorage-file", "--stack-trace-limit", "--allow-fs-read", "--allow-fs-write"},
          val);
  add_all(o, {"--no-warnings", "--no-deprecation", "--trace-warnings", "--trace-deprecation", "--throw-deprecation",
              "--pending-deprecation", "--trace-uncaught", "--trace-exit", "--trace-sigint", "--trace-sync-io",
              "--trace-tls", "--enable-source-maps", "--experimental-vm-modules", "--experimental-modules",
              "--experimental-wasm-modules", "--experimental-json-modules", "--experimental-import-meta-resolve",
              "--experimental-global-webcrypto", "--experimental-fetch", "--no-experimental-fetch",
              "--experimental-websocket", "--experimental-strip-types", "--experimental-transform-types",
              "--experimental-detect-module", "--experimental-require-module", "--experimental-permission",
              "--permission", "--allow-child-process", "--allow-worker", "--allow-addons", "--allow-wasi",
              "--experimental-network-imports", "--experimental-shadow-realm", "--experimental-test-coverage",
              "--experimental-report", "--experimental-wasi-unstable-preview1", "--preserve-symlinks",
              "--preserve-symlinks-main", "--abort-on-uncaught-exception", "--watch", "--watch-preserve-output",
              "--expose-gc", "--harmony", "--jitless", "--frozen-intrinsics", "--disallow-code-generation-from-strings",
              "--zero-fill-buffers", "--no-addons", "--no-global-search-paths", "--force-fips", "--enable-fips",
              "--insecure-http-parser", "--report-on-fatalerror", "--report-on-signal", "--report-uncaught-exception",
              "--report-compact", "--heap-prof", "--cpu-prof", "--prof", "--test-only", "--test-update-snapshots",
              "--no-extra-info-on-fatal-exception", "--interpreted-frames-native-stack", "--perf-basic-prof",
              "--perf-prof", "--node-memory-debug", "--no-force-async-hooks-checks", "--verify-base-objects",
              "--build-snapshot", "--experimental-eventsource", "--no-experimental-global-navigator",
              "--experimental-sqlite", "--no-experimental-require-module", "--no-experimental-detect-module"},
          sw);
  // `node inspect` starts the debugger prompt.
  row.subcommands = {{.name = "inspect", .hit = "inspect"}};
  return row;
}

bool deno_url_program(std::string_view operand) {
  for (std::string_view scheme : {"http:", "https:", "data:", "npm:", "jsr:"}) {
    if (operand.starts_with(scheme)) return true;
  }
  return false;
}

std::optional<std::string> deno_run_extra(const Argv& argv, const OptionScan& scan) {
  if (!scan.operands.empty() && deno_url_program(argv[scan.operands.front()])) return "<url>";
  return std::nullopt;
}

const ToolRow& deno_run_row() {
  static const ToolRow row = [] {
    ToolRow r{.program = ProgramSource::kFileOperand, .extra = deno_run_extra};
    r.grammar.unknown_long = UnknownLong::kSwitch;
    r.grammar.options = {labelled(code("--preload")), code("--import"), val("--config"), val("-c"),
                         val("--import-map"), val("--location"), val("--seed"), val("--v8-flags"), val("--cert"),
                         val("--ext"), val("--env-file"), val("--inspect"), val("--unstable")};
    return r;
  }();
  return row;
}

const ToolRow& plain_subcommand_row() {
  static const ToolRow row{};
  return row;
}

ToolRow deno_row() {
  ToolRow row{.names = {"deno"}, .program = ProgramSource::kFileOperand};
  add_all(row.grammar.options, {"-h", "--help", "-V", "--version"}, info);
  row.subcommands = {{.name = "eval", .hit = "eval"}, {.name = "repl", .hit = "repl"}, {.name = "run", .row = &deno_run_row()}};
  for (std::string_view name : {"test", "fmt", "lint", "task", "install", "add", "remove", "cache", "check", "compile",
                                "bench", "doc", "info", "init", "serve", "jupyter", "upgrade", "types", "vendor",
                                "completions", "coverage", "publish", "uninstall", "outdated", "clean", "lsp"}) {
    row.subcommands.push_back({.name = name, .row = &plain_subcommand_row()});
  }
  return row;
}

const ToolRow& bun_run_row() {
  static const ToolRow row = [] {
    ToolRow r{.extra = [](const Argv& argv, const OptionScan& scan) -> std::optional<std::string> {
      if (!scan.operands.empty() && is_stdin_like_program_path(argv[scan.operands.front()])) return "<stdin>";
      return std::nullopt;
    }};
    r.grammar.options = {labelled(code("-r")), labelled(code("--preload")), code("-e"), code("--eval")};
    return r;
  }();
  return row;
}

ToolRow bun_row() {
  // Bare `bun` prints help; `bun repl` is a prompt; `bun run -` reads stdin.
  ToolRow row{.names = {"bun"}, .program = ProgramSource::kNone};
  row.grammar.options = {labelled(code("-r")), labelled(code("--preload"))};
  row.subcommands = {{.name = "repl", .hit = "repl"}, {.name = "run", .row = &bun_run_row()}};
  return row;
}

// --- perl -------------------------------------------------------------------------------------

// -M/-m with more than "Module", "-Module" or "Module=args" (perl quotes the args as data).
bool perl_module_has_code(std::string_view value, std::span<const std::string>) {
  std::string_view name = value;
  if (name.starts_with("-")) name.remove_prefix(1);
  name = name.substr(0, name.find('='));
  if (name.empty()) return !value.empty() && value != "-";
  size_t i = 0;
  auto word = [&] {
    size_t begin = i;
    while (i < name.size() && is_word_char(name[i])) ++i;
    return i > begin;
  };
  if (name[0] >= '0' && name[0] <= '9') return true;
  if (!word()) return true;
  while (i < name.size()) {
    if (name.substr(i, 2) == "::") i += 2;
    else if (name[i] == '\'') i += 1;
    else return true;
    if (!word()) return true;
  }
  return false;
}

// -d[t][:Module[=args]]: the optional 't', then a module spec that runs to the end.
size_t perl_debugger_run(std::string_view rest) {
  size_t n = rest.starts_with("t") ? 1 : 0;
  if (n < rest.size() && (rest[n] == ':' || rest[n] == '=')) return rest.size();
  return n;
}

// -0[octal] or -0x[hex...]: perl takes the rest of the argument after 0x.
size_t perl_record_separator_run(std::string_view rest) {
  if (rest.starts_with("x") || rest.starts_with("X")) return rest.size();
  size_t n = 0;
  while (n < rest.size() && rest[n] >= '0' && rest[n] <= '7') ++n;
  return n;
}

size_t octal_run(std::string_view rest) {
  size_t n = 0;
  while (n < rest.size() && rest[n] >= '0' && rest[n] <= '7') ++n;
  return n;
}

// -C[number|letters] and -D[number|letters]: perl consumes the word characters (and fails on
// unknown -C letters, which ends the command before any code runs).
size_t word_run(std::string_view rest) {
  size_t n = 0;
  while (n < rest.size() && is_word_char(rest[n])) ++n;
  return n;
}

size_t digit_run(std::string_view rest) {
  size_t n = 0;
  while (n < rest.size() && rest[n] >= '0' && rest[n] <= '9') ++n;
  return n;
}

size_t one_char_run(std::string_view rest) { return rest.empty() ? 0 : 1; }

size_t to_space_run(std::string_view rest) {
  size_t n = 0;
  while (n < rest.size() && rest[n] != ' ' && rest[n] != '\t') ++n;
  return n;
}

OptionRule run_rule(std::string_view name, RunLength run, Meaning meaning = Meaning::kPlain) {
  return {.name = name, .takes = Takes::kRun, .meaning = meaning, .run = run};
}

OptionRule to_end(OptionRule rule) {
  rule.to_end = true;
  return rule;
}

ToolRow perl_row() {
  ToolRow row{.names = {"perl"}, .program = ProgramSource::kFileOperand};
  row.grammar.space_separated_switches = true;
  std::vector<OptionRule>& o = row.grammar.options;
  o = {to_end(code("-e")),
       to_end(code("-E")),
       to_end(code_if("-M", perl_module_has_code, Takes::kAttached)),
       to_end(code_if("-m", perl_module_has_code, Takes::kAttached)),
       run_rule("-d", perl_debugger_run, Meaning::kInteractive),  // the debugger's prompt
       val("-I"),
       run_rule("-0", perl_record_separator_run),
       run_rule("-l", octal_run),
       run_rule("-C", word_run),
       run_rule("-D", word_run),
       run_rule("-i", to_space_run),
       run_rule("-F", to_space_run),
       to_end(attached("-x")),
       to_end(info_value("-V", Takes::kAttached)),
       info("-v"),
       info("-h")};
  add_switch_letters(o, "acfgnpsStTuUwWX");
  return row;
}

// --- ruby, php, lua, tcl, R, julia and other script interpreters --------------------------------

ToolRow ruby_row() {
  ToolRow row{.names = {"ruby", "jruby", "truffleruby"}, .program = ProgramSource::kFileOperand};
  std::vector<OptionRule>& o = row.grammar.options;
  o = {code("-e"), val("-r"), val("-I"), val("-C"), val("-E"), attached("-F"), attached("-i"), attached("-x"),
       run_rule("-0", octal_run), run_rule("-W", digit_run), run_rule("-T", digit_run), run_rule("-K", one_char_run),
       val("--enable"), val("--disable"), val("--encoding"), val("--external-encoding"), val("--internal-encoding"),
       val("--dump"), val("--backtrace-limit"), val("--crash-report")};
  add_all(o, {"-h", "--help", "-v", "--version", "--copyright"}, info);
  add_all(o, {"--verbose", "--jit", "--yjit", "--rjit", "--mjit"}, sw);
  add_switch_letters(o, "acdlnpsSwyU");
  return row;
}

ToolRow php_row() {
  ToolRow row{.names = {"php", "php-cli"}, .program = ProgramSource::kFileOperand};
  row.grammar.clusters = false;
  std::vector<OptionRule>& o = row.grammar.options;
  o = {code("-r"), code("--run"), code("-B"), code("--process-begin"), code("-R"), code("--process-code"),
       code("-E"), code("--process-end"), program_file("-f"), program_file("--file"), program_file("-F"),
       program_file("--process-file"),
       // ini settings (auto_prepend_file, ...) and zend extensions load code.
       labelled(code("-d")), labelled(code("--define")), code("-z"), code("--zend-extension"),
       interactive("-a"), interactive("--interactive"), program("-S", Takes::kValue), program("--server", Takes::kValue),
       val("-t"), val("--docroot"), val("-c"), val("--php-ini")};
  add_all(o, {"-h", "-?", "--help", "-i", "--info", "-m", "--modules", "-v", "--version", "--ini", "-l",
              "--syntax-check", "-s", "--syntax-highlight", "-w", "--strip"},
          info);
  add_all(o, {"--rf", "--rfunction", "--rc", "--rclass", "--re", "--rextension", "--rz", "--rzendextension", "--ri",
              "--rextinfo"},
          [](std::string_view name) { return info_value(name, Takes::kValue); });
  add_all(o, {"-C", "-e", "-H", "-n", "-q", "--no-php-ini", "--no-chdir", "--profile-info", "--hide-args"}, sw);
  return row;
}

ToolRow lua_row() {
  ToolRow row{.names = {"lua", "luajit"}, .program = ProgramSource::kFileOperand};
  row.grammar.clusters = false;
  row.grammar.options = {code("-e"), val("-l"), interactive("-i"), info("-v"), sw("-E"), sw("-W"), val("-j"),
                         val("-O"), code("-b")};
  return row;
}

ToolRow tcl_row() {
  ToolRow row{.names = {"tclsh", "wish", "jimsh"}, .program = ProgramSource::kFileOperand};
  row.grammar.clusters = false;
  row.grammar.options = {val("-encoding")};
  row.grammar.single_dash_long = true;
  return row;
}

ToolRow expect_row() {
  ToolRow row{.names = {"expect"}, .program = ProgramSource::kFileOperand};
  row.grammar.options = {code("-c"), program_file("-f"), program_file("-b"), interactive("-i"), val("-D"),
                         info("-v"), sw("-d"), sw("-n"), sw("-N")};
  return row;
}

ToolRow r_row() {
  // R has no program operand: without -f/--file/-e it reads stdin (or prompts).
  ToolRow row{.names = {"r"}, .program = ProgramSource::kInteractive};
  std::vector<OptionRule>& o = row.grammar.options;
  o = {code("-e"), program_file("-f"), program_file("--file"), interactive("--interactive"), val("-d"),
       val("--debugger"), val("-g"), val("--gui"), ending(sw("--args"))};
  add_all(o, {"--version", "-h", "--help", "RHOME"}, info);
  row.subcommands = {{.name = "CMD", .row = &plain_subcommand_row()}};
  return row;
}

ToolRow rscript_row() {
  ToolRow row{.names = {"rscript"}, .program = ProgramSource::kFileOperand};
  row.grammar.clusters = false;
  row.grammar.options = {code("-e"), info("--version"), info("--help"), sw("--verbose")};
  return row;
}

ToolRow julia_row() {
  ToolRow row{.names = {"julia"}, .program = ProgramSource::kFileOperand};
  std::vector<OptionRule>& o = row.grammar.options;
  o = {code("-e"), code("--eval"), code("-E"), code("--print"), interactive("-i"), interactive("--interactive"),
       code_if("-L", stdin_like_value), code_if("--load", stdin_like_value), val("-J"), val("--sysimage"), val("-p"),
       val("--procs"), val("-t"), val("--threads"), val("-C"), val("--cpu-target"), val("--machine-file"),
       attached("--project"), attached("-O"), attached("--optimize"), attached("-g")};
  add_all(o, {"-h", "--help", "-v", "--version", "--help-hidden"}, info);
  add_switch_letters(o, "q");
  add_all(o, {"--quiet", "--banner", "--color", "--startup-file", "--history-file", "--depwarn", "--compile",
              "--check-bounds", "--math-mode", "--code-coverage", "--track-allocation", "--bug-report",
              "--heap-size-hint", "--handle-signals", "--sysimage-native-code", "--compiled-modules", "--inline",
              "--min-optlevel", "--warn-overwrite", "--warn-scope"},
          attached);
  return row;
}

ToolRow raku_row() {
  ToolRow row{.names = {"raku", "perl6", "rakudo"}, .program = ProgramSource::kFileOperand};
  row.grammar.options = {code("-e"), val("-I"), labelled(code_if("-M", perl_module_has_code)), attached("--doc"),
                         attached("--target"), info("-v"), info("--version"), info("-h"), info("--help"),
                         sw("-c"), sw("-n"), sw("-p")};
  return row;
}

ToolRow guile_row() {
  ToolRow row{.names = {"guile"}, .program = ProgramSource::kFileOperand};
  row.grammar.clusters = false;
  row.grammar.options = {code("-c"), program_file("-s"), code_if("-l", stdin_like_value), val("-e"), val("-L"),
                         val("-C"), val("-x"), info("-v"), info("--version"), info("-h"), info("--help"),
                         attached("--listen"), sw("-q"), sw("--no-auto-compile"), sw("--auto-compile")};
  return row;
}

ToolRow erl_row() {
  // The Erlang shell prompts unless told not to.
  ToolRow row{.names = {"erl", "werl"}, .program = ProgramSource::kInteractive};
  row.grammar.clusters = false;
  row.grammar.single_dash_long = true;
  row.grammar.options = {code("-eval"), code("-run"), code("-s"), program("-noshell"), program("-noinput"),
                         program("-detached"), info("-version")};
  // Flags that are not -s with a value attached.
  add_all(row.grammar.options, {"-sname", "-name", "-setcookie", "-cookie", "-pa", "-pz", "-boot", "-config", "-env",
                                "-args_file", "-mode", "-kernel", "-stdlib", "-sasl", "-smp", "-hidden", "-heart",
                                "-connect_all", "-shutdown_time"},
          val);
  return row;
}

ToolRow ghc_row() {
  ToolRow row{.names = {"ghc"}, .program = ProgramSource::kNone};
  row.grammar.options = {code("-e"), interactive("--interactive")};
  return row;
}

ToolRow osascript_row() {
  ToolRow row{.names = {"osascript"}, .program = ProgramSource::kFileOperand};
  row.grammar.options = {code("-e"), interactive("-i"), val("-l"), val("-s")};
  return row;
}

ToolRow gdb_row() {
  // gdb reads commands from its terminal or stdin unless -batch.
  ToolRow row{.names = {"gdb", "gdb-multiarch"}, .program = ProgramSource::kInteractive};
  row.grammar.clusters = false;
  row.grammar.single_dash_long = true;
  row.grammar.long_match = LongMatch::kPrefix;
  std::vector<OptionRule>& o = row.grammar.options;
  o = {program("-batch"), program("--batch"), code_if("-x", stdin_like_value), code_if("-command", stdin_like_value),
       code_if("--command", stdin_like_value), code_if("-ix", stdin_like_value),
       code_if("-init-command", stdin_like_value), code_if("--init-command", stdin_like_value),
       ending(sw("--args")), ending(sw("-args"))};
  add_all(o, {"-p", "-pid", "--pid", "-c", "-core", "--core", "-cd", "--cd", "-d", "--directory", "-s", "--symbols",
              "-e", "--exec", "-se", "-tty", "--tty", "-b", "-l", "-D", "--data-directory", "-i", "--interpreter"},
          val);
  add_all(o, {"--version", "-version", "--help", "-help", "--configuration", "-configuration"}, info);
  return row;
}

// --- REPL-only programs -----------------------------------------------------------------------

ToolRow repl_row() {
  ToolRow row{.names = {"irb", "pry", "ghci", "iex", "groovysh", "jshell", "ipython", "ipython3", "bpython", "ptpython",
                        "ptipython", "node-repl", "ts-node-repl"},
              .program = ProgramSource::kInteractive};
  add_all(row.grammar.options, {"--version", "-v", "--help", "-h"}, info);
  return row;
}

ToolRow scala_row() {
  // scala and clojure prompt when given no program.
  ToolRow row{.names = {"scala", "clojure", "clj"}, .program = ProgramSource::kFileOperand};
  row.grammar.clusters = false;  // clojure -M:alias is one option
  row.grammar.unknown_long = UnknownLong::kMayTakeValue;
  row.grammar.options = {code("-e"), code("--eval"), interactive("-i"), interactive("-r"), interactive("--repl"),
                         info("--version"), info("-version"), info("--help"), info("-help"), info("-h")};
  return row;
}

// --- awk and sed --------------------------------------------------------------------------------

// -W name[=value] is gawk's spelling of --name[=value] and mawk's option escape.
bool awk_w_option_has_code(std::string_view value, std::span<const std::string> rest) {
  std::string_view name = value.substr(0, value.find('='));
  if (name.empty()) return false;
  auto abbreviates = [&](std::string_view option) { return option.starts_with(name); };
  // source=CODE, debug (a prompt), load=EXTENSION; mawk's dump shares "d" and is refused too.
  if (abbreviates("source") || abbreviates("debug") || abbreviates("dump") || abbreviates("load")) return true;
  if (abbreviates("exec") || abbreviates("file") || abbreviates("include")) {
    size_t equals = value.find('=');
    if (equals != std::string_view::npos) return is_stdin_like_program_path(value.substr(equals + 1));
    return !rest.empty() && is_stdin_like_program_path(rest.front());
  }
  return false;
}

ToolRow awk_row() {
  ToolRow row{.names = {"awk", "gawk", "mawk", "nawk", "original-awk", "bwk-awk", "goawk"},
              .program = ProgramSource::kTextOperand};
  row.grammar.long_match = LongMatch::kPrefix;
  std::vector<OptionRule>& o = row.grammar.options;
  o = {program_file("-f"), program_file("--file"), program_file("-E"), program_file("--exec"),
       code_if("-i", stdin_like_value), code_if("--include", stdin_like_value),
       code("-e"), code("--source"), labelled(code("-l")), labelled(code("--load")),
       interactive("-D", Takes::kAttached), interactive("--debug", Takes::kAttached),
       code_if("-W", awk_w_option_has_code), val("-F"), val("--field-separator"), val("-v"), val("--assign"),
       attached("-d"), attached("--dump-variables"), attached("-L"), attached("--lint"), attached("-o"),
       attached("--pretty-print"), attached("-p"), attached("--profile")};
  add_all(o, {"--version", "--help", "--usage"}, info);
  add_switch_letters(o, "bcCghMnNOPrsStV");
  return row;
}

ToolRow sed_row() {
  ToolRow row{.names = {"sed", "gsed"}, .program = ProgramSource::kTextOperand};
  row.grammar.long_match = LongMatch::kPrefix;
  row.grammar.permute = true;
  std::vector<OptionRule>& o = row.grammar.options;
  o = {code("-e"), code("--expression"), program_file("-f"), program_file("--file"), attached("-i"),
       attached("--in-place"), val("-l"), val("--line-length")};
  add_all(o, {"--help", "--version"}, info);
  add_all(o, {"--quiet", "--silent", "--debug", "--sandbox", "--posix", "--follow-symlinks", "--separate",
              "--unbuffered", "--null-data", "--zero-terminated", "--regexp-extended", "--binary"},
          sw);
  add_switch_letters(o, "nsEruzb");
  return row;
}

// --- shells -------------------------------------------------------------------------------------

ToolRow shell_row() {
  // -c is analysed as a shell wrapper; what is left is a program read from stdin (-s, or no
  // script operand) or an interactive shell (-i).
  ToolRow row{.names = {"sh", "bash", "dash", "ash", "zsh", "ksh", "ksh93", "mksh", "pdksh", "yash", "posh", "rbash",
                        "lksh", "oksh", "loksh"},
              .program = ProgramSource::kFileOperand};
  row.grammar.plus_options = true;
  std::vector<OptionRule>& o = row.grammar.options;
  o = {program("-c"), interactive("-i"), interactive("-s"), val("-o"), val("-O"), val("--rcfile"), val("--init-file"),
       val("--emulate"), info("--version"), info("--help"), sw("-D"), sw("--dump-strings"), sw("--dump-po-strings")};
  add_all(o, {"--login", "--noprofile", "--norc", "--posix", "--restricted", "--verbose", "--debugger", "--noediting",
              "--pretty-print"},
          sw);
  add_switch_letters(o, "abefhkmnptuvxBCEHPTlrgGdX");
  return row;
}

ToolRow fish_row() {
  ToolRow row{.names = {"fish"}, .program = ProgramSource::kFileOperand};
  row.grammar.long_match = LongMatch::kPrefix;
  std::vector<OptionRule>& o = row.grammar.options;
  o = {program("-c", Takes::kValue), program("--command", Takes::kValue), code("-C"), code("--init-command"),
       interactive("-i"), interactive("--interactive"), val("-d"), val("--debug"), val("-o"), val("--debug-output"),
       val("-f"), val("--features"), val("-p"), val("--profile"), val("--profile-startup")};
  add_all(o, {"-v", "--version", "-h", "--help", "--print-debug-categories"}, info);
  add_all(o, {"-l", "--login", "-n", "--no-execute", "-P", "--private", "-N", "--no-config", "--print-rusage-self"},
          sw);
  return row;
}

}  // namespace

const std::vector<ToolRow>& interpreter_rows() {
  static const std::vector<ToolRow> rows = [] {
    std::vector<ToolRow> r;
    for (ToolRow (*make)() : {python_row, node_row, deno_row, bun_row, perl_row, ruby_row, php_row, lua_row, tcl_row,
                              expect_row, r_row, rscript_row, julia_row, raku_row, guile_row, erl_row, ghc_row,
                              osascript_row, gdb_row, repl_row, scala_row, awk_row, sed_row, shell_row, fish_row}) {
      r.push_back(make());
    }
    return r;
  }();
  return rows;
}

}  // namespace clawexec::policy::code_rows
