// Script preflight glue: the pure analysis (shell/script_inspection.h) plus the bounded,
// root-confined file reads (sys/bounded_read.h).
//
// Problem: a script path in a command is resolved against the working directory exactly as the
// reference's path.resolve does (lexically, "a/../b.py" is b.py), must be skipped silently when
// it leaves the directory, and must be read without following links out of it.
//
// Approach: resolve each target lexically, keep those strictly below the workdir, read them with
// read_file_within_root (skips for every benign failure), scan, and stop at the first finding.
// With no direct target, the fail-closed ambiguity check decides.

#include "exec/script_preflight.h"

#include "env/shell_select.h"
#include "shell/lexical_path.h"
#include "shell/script_inspection.h"
#include "sys/bounded_read.h"
#include "sys/sys.h"

namespace clawexec::exec {
namespace {

// The path of `absolute` below `root` (both normalised), or "" when it is not strictly below.
std::string relative_below(const std::string& root, const std::string& absolute) {
  if (absolute == root || !shell::is_path_inside(root, absolute)) return {};
  std::string relative = absolute.substr(root == "/" ? 1 : root.size() + 1);
  // The reference also treats a first segment starting "..\" as climbing out (a Windows
  // separator); on POSIX that is a file name, but such a script is skipped all the same.
  if (relative.rfind("..\\", 0) == 0) return {};
  return relative;
}

}  // namespace

Result<void> run_script_preflight(const std::string& command, const std::string& workdir) {
  const std::vector<shell::ScriptTarget> targets = shell::extract_script_targets(command);
  if (targets.empty()) {
    if (shell::is_complex_interpreter_invocation(command)) {
      return Error::rejected(std::string(shell::kComplexInterpreterMessage));
    }
    return {};
  }
  std::string base = workdir;
  if (base.empty() || base[0] != '/') base = shell::join_lexically(TRY(sys::current_directory()), base);
  const std::string root = shell::resolve_lexically("/", base);
  for (const shell::ScriptTarget& target : targets) {
    const std::string absolute = shell::resolve_lexically(root, target.path);
    const std::string relative = relative_below(root, absolute);
    if (relative.empty()) continue;
    Result<sys::BoundedRead> read = sys::read_file_within_root(root, relative, shell::kScriptPreflightMaxBytes);
    if (!read.ok()) return Error{read.error().code, read.error().sys_errno, "exec preflight: " + read.error().message};
    if (!read->content) continue;
    if (std::optional<std::string> finding =
            shell::scan_script_content(target.language, *read->content, env::posix_basename(absolute))) {
      return Error::rejected(std::move(*finding));
    }
  }
  return {};
}

}  // namespace clawexec::exec
