// More interpreter rows of the code-carrying detector: lua, tcl, expect, R, julia, raku,
// guile, erlang, ghc, osascript, gdb, REPL-only programs, the awk and sed families and the
// shells (see code_carrying_interpreters.cc for the rules they follow).
//
// Problem: besides -e-style flags, each of these takes code from stdin when given no program,
// from a program-file option pointed at stdin, or from a prompt (gdb without -batch, R without
// -f, gawk -D, bash -s/-i, erl without -noshell); awk and sed also accept long-option
// abbreviations and attached values that hide -e from a token-by-token check.
//
// Approach: the same rows as code_carrying_interpreters.cc, one per family.

#include "policy/code_carrying.h"
#include "policy/code_carrying_rows.h"

namespace clawexec::policy::code_rows {
namespace {

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
  // script operand, which is also what an interactive shell -i reads).
  ToolRow row{.names = {"sh", "bash", "dash", "ash", "zsh", "ksh", "ksh93", "mksh", "pdksh", "yash", "posh", "rbash",
                        "lksh", "oksh", "loksh"},
              .program = ProgramSource::kFileOperand};
  row.grammar.plus_options = true;
  std::vector<OptionRule>& o = row.grammar.options;
  // -i alone is a prompt because no script follows; -ic runs its command and reads nothing.
  o = {program("-c"), sw("-i"), interactive("-s"), val("-o"), val("-O"), val("--rcfile"), val("--init-file"),
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

std::vector<ToolRow> more_interpreter_rows() {
  std::vector<ToolRow> rows;
  for (ToolRow (*make)() : {lua_row, tcl_row, expect_row, r_row, rscript_row, julia_row, raku_row, guile_row, erl_row,
                            ghc_row, osascript_row, gdb_row, repl_row, scala_row, awk_row, sed_row, shell_row, fish_row}) {
    rows.push_back(make());
  }
  return rows;
}

}  // namespace clawexec::policy::code_rows
