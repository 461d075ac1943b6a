#pragma once
// File-system calls apply_patch needs beyond sys.h and approvals_fs.h: whole-file reads that
// refuse symlinks, durable whole-file replacement (temp file in the same directory, fsync,
// rename), recursive directory creation and removal of files or empty directories. Like sys.h,
// the only place these calls' errno is read.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace clawexec::sys {

/// Reads a whole regular file without following a final symlink.
Result<std::string> read_whole_file(const std::string& path);

/// Replaces (or creates) `path` with `data`: a temp file beside it (exclusive; chmod'ed to
/// exactly `mode` when given, else 0666 less the umask), written, fsync'ed (unless kNone),
/// then renamed over `path`. The temp file is removed when any step fails.
enum class Durability { kFsync, kNone };
Result<void> replace_file_atomically(const std::string& path, std::string_view data, std::optional<uint32_t> mode,
                                     Durability durability = Durability::kFsync);

/// mkdir -p: creates `dir` and its missing ancestors (mode 0777 before umask). Returns the
/// directories it created, outermost first (so a rollback can remove them, innermost first).
Result<std::vector<std::string>> make_directories(const std::string& dir);

/// unlink(2) that reports a missing path as an error (unlike remove_file).
Result<void> unlink_path(const std::string& path);

/// rmdir(2) of an empty directory.
Result<void> remove_empty_directory(const std::string& path);

}  // namespace clawexec::sys
