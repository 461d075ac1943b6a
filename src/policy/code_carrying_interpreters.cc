// The interpreter rows of the code-carrying detector (python, node, deno, bun, perl, ruby,
// php; the other interpreters are in code_carrying_languages.cc): how each can be handed code
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
//   alone since later input is not analysed; options that only print (--version) are not;
// * unknown node options may take a value (node has many; a missed value would hide that no
//   program follows), so the common switches are listed.

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

}  // namespace

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

const ToolRow& plain_subcommand_row() {
  static const ToolRow row{};
  return row;
}

namespace {

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

// --- ruby, php --------------------------------------------------------------------------------------

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

}  // namespace

const std::vector<ToolRow>& interpreter_rows() {
  static const std::vector<ToolRow> rows = [] {
    std::vector<ToolRow> r;
    for (ToolRow (*make)() : {python_row, node_row, deno_row, bun_row, perl_row, ruby_row, php_row}) r.push_back(make());
    for (ToolRow& row : more_interpreter_rows()) r.push_back(std::move(row));
    return r;
  }();
  return rows;
}

}  // namespace clawexec::policy::code_rows
