#pragma once
// Script inspection for the exec script preflight (reference §3.8): before a command runs,
// look for Python or Node scripts it starts directly and check their text for shell variables
// that the author clearly meant the shell to expand (`payload = $DM_JSON`); refuse interpreter
// invocations too tangled to say which script runs. This header holds the pure parts: finding
// the script operands of a command (A), scanning a script's content (B) and the fail-closed
// ambiguity check (C). Reading the files and running the preflight are the caller's business
// (exec/script_preflight.h).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clawexec::shell {

enum class ScriptLanguage { kPython, kNode };

/// A script a command runs, with its path exactly as written in the command.
struct ScriptTarget {
  ScriptLanguage language = ScriptLanguage::kPython;
  std::string path;

  bool operator==(const ScriptTarget&) const = default;
};

/// The reference refuses to scan script files larger than this (it skips them).
inline constexpr size_t kScriptPreflightMaxBytes = 512 * 1024;

/// §3.8 A. The scripts a direct `python… x.py` or `node … x.js` command runs: at most one for
/// Python; for Node the `-r/--require/--import` preloads ending in .js, then the entry script.
/// The command is split with split_shell_args; leading NAME=value words and a leading
/// `env [options] [NAME=value...]` are skipped. The executable must be a bare `python`,
/// `python3`, `python3.<digits>` or `node` (any case). Empty when there is no such target.
std::vector<ScriptTarget> extract_script_targets(std::string_view command);

/// §3.8 B. Checks a script's content. Python: code outside string literals and comments (but
/// inside f-string replacement fields) must not contain `$` followed by [A-Z_][A-Z0-9_]*.
/// Node: `$[A-Z_][A-Z0-9_]+` anywhere is a hit; otherwise a first non-blank line starting with
/// the word NODE is shell syntax. Returns the full error message (for a variable: three lines
/// joined by "\n", naming `display_name` and the 1-based line of the hit), or nullopt.
/// `content` may hold invalid UTF-8 (it is decoded with replacement characters).
std::optional<std::string> scan_script_content(ScriptLanguage language, std::string_view content,
                                               std::string_view display_name);

/// §3.8 C. True when the command invokes python/node in a way the preflight cannot follow
/// (pipelines, lists, substitutions, `sh -c` wrappers) while a script is involved, so the
/// command must be refused with kComplexInterpreterMessage. Only meaningful when
/// extract_script_targets found nothing.
bool is_complex_interpreter_invocation(std::string_view command);

/// The exact message of the fail-closed refusal (§3.8 C).
extern const std::string_view kComplexInterpreterMessage;

}  // namespace clawexec::shell
