#pragma once
// The result of parsing a shell command line: every command it contains, wherever it is nested,
// plus what kinds of syntax occurred. Consumers that only accept plain command lists (the
// policy analyzer) check `features`; consumers that must see everything that could run (the
// control-command guards) walk `commands`.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "shell/word.h"

namespace clawexec::shell {

/// Where a command sits. Compound commands (if, loops, subshells, groups) do not change the
/// context; these constructs do, because their commands run in a different way or time.
enum class CommandContext {
  kTopLevel,
  kCommandSubstitution,  // inside $(...) or `...` (also in arithmetic, ${...}, heredocs)
  kProcessSubstitution,  // inside <(...) or >(...)
  kFunctionBody,         // inside a function definition
  kWrapperPayload,       // parsed from a shell wrapper's -c payload (see explain.h)
};

enum class CommandForm {
  kSimple,       // name and arguments (possibly only assignments and redirections)
  kDeclaration,  // declare, typeset, export, readonly, local
  kTest,         // [[ ... ]]
};

/// The operator that follows a command in its list.
enum class Separator {
  kNone,      // last command of its list
  kSequence,  // ;  (also ;; outside case)
  kNewline,
  kBackground,  // &
  kAnd,         // &&
  kOr,          // ||
  kPipe,        // |
  kPipeStderr,  // |&
};

struct Redirect {
  std::string fd;               // explicit descriptor ("2" in 2>), empty if none
  std::string op;               // ">", ">>", "<", "<<", "<<-", "<<<", "&>", ">&", ...
  std::vector<Word> targets;    // destination words; for a heredoc, the delimiter word
  std::string heredoc_body;     // heredocs only: the body text
  bool heredoc_quoted = false;  // heredocs only: delimiter quoted, so no expansion in the body
};

struct Command {
  CommandForm form = CommandForm::kSimple;
  CommandContext context = CommandContext::kTopLevel;
  unsigned compound_depth = 0;    // how many compound commands enclose it
  std::vector<Word> assignments;  // leading NAME=value words
  std::vector<Word> words;        // command name and arguments (empty: assignments only)
  std::vector<Redirect> redirects;
  Separator next = Separator::kNone;
  bool negated = false;       // written as "! cmd"
  size_t begin = 0, end = 0;  // byte range in the parsed source
  /// A line continuation directly inside the command name ("cmd\<newline>..."): what program
  /// runs depends on line splicing, so the reference does not treat the name as known.
  bool name_has_line_continuation = false;
};

/// Syntax that occurred anywhere in the script (bit flags of ScriptFeatures::bits).
enum class ScriptFeature : uint32_t {
  kParameterExpansion = 1u << 0,
  kCommandSubstitution = 1u << 1,
  kProcessSubstitution = 1u << 2,
  kArithmetic = 1u << 3,
  kRedirect = 1u << 4,
  kHeredoc = 1u << 5,
  kHereString = 1u << 6,
  kSubshell = 1u << 7,
  kGroup = 1u << 8,
  kControlFlow = 1u << 9,  // if, while, until, for, select, case, (( ))
  kFunction = 1u << 10,
  kTestCommand = 1u << 11,
  kBackground = 1u << 12,
  kNegation = 1u << 13,
  kComment = 1u << 14,
  kLineContinuation = 1u << 15,
  kArrayAssignment = 1u << 16,
  // Which control-flow constructs occurred (kControlFlow is set for each of them too).
  kIf = 1u << 17,
  kFor = 1u << 18,    // for and select loops
  kWhile = 1u << 19,  // while and until loops
  kCase = 1u << 20,
};

struct ScriptFeatures {
  uint32_t bits = 0;
  void add(ScriptFeature f) { bits |= static_cast<uint32_t>(f); }
  bool has(ScriptFeature f) const { return (bits & static_cast<uint32_t>(f)) != 0; }
};

/// Where a command or process substitution was read, at any depth ($(...), `...`, <(...),
/// >(...), also inside ${...}, $((...)), "..." and heredoc bodies).
struct SubstitutionSite {
  size_t begin = 0, end = 0;  // byte range in the parsed source
  bool process = false;       // <(...) or >(...)
};

struct Script {
  std::vector<Command> commands;  // in source order; an enclosing command precedes the
                                  // commands nested in its words
  std::vector<SubstitutionSite> substitutions;  // in the order they were completed
  ScriptFeatures features;
  /// Non-empty when the line is valid bash that tree-sitter-bash (the reference's parser)
  /// rejects, e.g. "cmd <<EOF; next" or "for x do ...": the reference treats such a line as
  /// unparseable, while `commands` still lists everything bash would run. The first such
  /// construct is described here.
  std::string reference_syntax_error;
  /// Size of the syntax tree, counted the way tree-sitter-bash would count its nodes (an
  /// estimate; the reference bounds explanation work by this number).
  size_t syntax_nodes = 0;
};

enum class ParseFailure {
  kSyntax,   // not valid shell syntax (unterminated quote, missing fi, stray ")", ...)
  kTooDeep,  // nesting beyond what the parser follows
};

struct ParseError {
  ParseFailure kind = ParseFailure::kSyntax;
  size_t offset = 0;
  std::string message;
  /// What was read before the error. bash runs a script command by command, so the commands
  /// before a syntax error can still run; fail-closed checks look at them too. The last
  /// command may be incomplete.
  Script partial;
};

/// Which shell's reading of the text: the word-level differences between bash (also zsh and
/// ksh for these) and dash, Debian's /bin/sh. Under kDash, $'...' and $"..." are a literal "$"
/// followed by a quoted string, "|&" is a syntax error and "&>" is "&" then ">".
enum class ShellDialect { kBash, kDash };

/// Parses a bash command line. Pure: nothing is expanded or executed. Commands found inside
/// nested constructs are tagged with `context`-relative contexts (see CommandContext).
/// On failure, `error` (when given) says why and where and holds the partial result.
Result<Script> parse_script(std::string_view source,
                            CommandContext context = CommandContext::kTopLevel,
                            ParseError* error = nullptr, ShellDialect dialect = ShellDialect::kBash);

}  // namespace clawexec::shell
