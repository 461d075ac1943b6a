#pragma once
// Choosing the shell that runs host commands on POSIX (spec §3.6; reference: getShellConfig
// without a custom shell path, non-Windows branch).
//
// Pure: $SHELL, $PATH and the "is this file executable" answer are passed in.
//
// What is returned (as the reference returns it):
//  * $SHELL as written (trimmed), when it is used. It is not checked for existence and need not
//    be absolute; a bare name such as "bash" must be resolved through PATH by the spawner.
//  * A PATH hit as "<entry>/<name>" normalised like Node's path.join ("//" collapsed, "." and
//    ".." resolved). Absolute when the PATH entry is absolute; a relative entry gives a
//    relative path (relative to the command's working directory, as exec would see it).
//  * The literal "sh" when nothing else is found (again for the spawner to resolve).

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clawexec::env {

using IsExecutable = std::function<bool(const std::string& path)>;

struct ShellSelectionInput {
  std::optional<std::string> shell_env;  // $SHELL; nullopt when unset
  std::string path_env;                  // $PATH; empty when unset
  IsExecutable is_executable;            // an access(path, X_OK) answer
};

struct ShellConfig {
  std::string shell;
  std::vector<std::string> args;  // the command text is appended after these
};

/// $SHELL unless its basename is "false" or "nologin". A fish $SHELL is replaced by the first
/// bash on PATH, else the first sh, else kept. Without a usable $SHELL: sh on PATH, then bash
/// on PATH, then "sh".
ShellConfig select_posix_shell(const ShellSelectionInput& input);

/// Arguments before the command text, by the shell's basename: bash "--noprofile --norc -c",
/// zsh "-f -c", fish "--no-config -c", anything else "-c".
std::vector<std::string> posix_shell_args(std::string_view shell_path);

/// The first "<entry>/<name>" over the non-empty PATH entries that is executable.
std::optional<std::string> find_executable_on_path(std::string_view name, std::string_view path_env,
                                                   const IsExecutable& is_executable);

/// Node's path.posix.basename: the last component, ignoring trailing slashes ("" for "/").
std::string_view posix_basename(std::string_view path);

/// Node's path.posix.join for two non-empty parts: joined with "/" and normalised.
std::string posix_join(std::string_view dir, std::string_view name);

}  // namespace clawexec::env
