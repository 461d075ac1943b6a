#pragma once
// Command explanation: the list of commands (as argv) a shell command line contains, the way
// the reference's tree-sitter based explainer lists them, with its limits. This is the
// foundation of the control-command guards (control_guard.h) and of any check that must see
// every command a line could run, including nested ones and shell-wrapper payloads.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shell/script.h"
#include "shell/split_args.h"

namespace clawexec::shell {

/// Sources longer than this many UTF-16 units are not explained (the reference refuses to
/// parse them and callers fall back to line-by-line splitting).
inline constexpr size_t kMaxExplainSourceUnits = 131072;
/// The work limit: syntax-tree nodes over the whole line and its parsed wrapper payloads.
inline constexpr size_t kMaxExplainNodes = 50000;
/// How many levels of shell-wrapper payloads (bash -c '...') are parsed as nested commands.
inline constexpr int kMaxWrapperPayloadDepth = 2;

struct ExplainedCommand {
  Argv argv;  // argv[0] is the literal command name; expansions stay verbatim in arguments
  CommandContext context = CommandContext::kTopLevel;
};

enum class ExplainOutcome {
  kOk,
  /// The reference cannot explain the line: a syntax error (in the line or in a parsed
  /// payload), syntax bash accepts but tree-sitter-bash rejects, or a line that is too long.
  kUnparseable,
  kWorkLimitExceeded,  // more syntax than kMaxExplainNodes (or nesting beyond the parser's)
};

struct Explanation {
  ExplainOutcome outcome = ExplainOutcome::kOk;
  /// Commands in context kTopLevel first, then all others, each group in source order (a
  /// wrapper's payload commands follow the wrapper). Commands whose name is not a literal
  /// (e.g. "$cmd", "ls*", a name split by a line continuation) are not listed. Complete for
  /// kOk; for kUnparseable, whatever our parser could read (everything, when the only
  /// problem was syntax that only tree-sitter-bash rejects; else the commands before the
  /// syntax error); empty for kWorkLimitExceeded.
  std::vector<ExplainedCommand> commands;
};

/// The argv the explainer lists for a parsed command: nullopt when the command has no name or
/// its name is not a literal word (an expansion, a glob, a name split by a line continuation).
/// In declarations bare NAMEs are dropped; `[ ... ]` loses its closing bracket.
std::optional<Argv> explained_argv(const Command& command);

/// The shell-wrapper payload the explainer parses for this command (bash -c '...', also behind
/// dispatch wrappers), if any: a POSIX-parseable shell with a -c style flag whose payload is a
/// literal found verbatim in one argument.
std::optional<std::string> explained_payload(const Command& command, const Argv& argv);

/// Explains `source` (the caller trims it) as `dialect` reads it. Pure and deterministic.
Explanation explain_command(std::string_view source, ShellDialect dialect = ShellDialect::kBash);

/// True when bash and dash could read `source` as different commands (it holds $'...', $"...",
/// |& or &>, the only places where their word-level grammars differ).
bool dialects_may_differ(std::string_view source);

/// The argv value the explainer uses for a word: Word::value, except that a word of several
/// parts containing an unescaped pattern character keeps its raw text minus backslash escapes
/// (the reference's rule for such concatenations).
std::string explain_value(const Word& word);

}  // namespace clawexec::shell
