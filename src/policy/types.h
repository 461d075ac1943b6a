#pragma once
// Vocabulary shared by the pure policy code: the file-system answers it may ask for (injected,
// so the code itself never touches the disk) and how an argv's executable was resolved.

#include <functional>
#include <optional>
#include <string>

#include "shell/split_args.h"

namespace clawexec::policy {

using shell::Argv;

/// The file-system questions policy code may ask. Production binds them to real syscalls
/// (approvals/system_fs.h, a higher layer); tests bind them to an in-memory fake.
struct FsView {
  /// A regular file (symlinks followed) that the caller may execute (X_OK).
  std::function<bool(const std::string& path)> is_executable_file;
  /// realpath(3) of an existing path; nullopt when it does not resolve.
  std::function<std::optional<std::string>(const std::string& path)> realpath;
};

/// How one argv's program was found (reference §3.8).
struct ExecutableResolution {
  std::string raw_executable;                     // argv[0] after "~" expansion
  std::optional<std::string> resolved_path;       // executable regular file found, if any
  std::optional<std::string> resolved_real_path;  // realpath(resolved_path)
  std::string executable_name;                    // basename(resolved_path), else raw token
};

}  // namespace clawexec::policy
