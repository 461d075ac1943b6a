#pragma once
// File-system calls on paths and descriptors beyond sys.h: lstat/stat/fstat answers, directory
// listing and creation (one level or mkdir -p), permission bits, exclusive and no-follow
// opens, advisory locks, fsync of files and directories, rename, unlink, rmdir and readlink.
// Whole-file reads and the atomic file replace built on them are whole_file.h. Like sys.h, the
// only place these calls' errno is read.

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "sys/fd.h"

namespace clawexec::sys {

enum class FileType { kRegular, kDirectory, kSymlink, kOther };

struct FileInfo {
  FileType type = FileType::kOther;
  uint32_t mode = 0;  // permission bits (07777)
  uint64_t dev = 0;
  uint64_t ino = 0;
  uint64_t nlink = 0;
  uint32_t uid = 0;      // owner
  int64_t size = 0;
  int64_t mtime_ns = 0;  // last content change
  int64_t ctime_ns = 0;  // last inode change
};

/// lstat(2). A missing path (ENOENT, ENOTDIR) is nullopt.
Result<std::optional<FileInfo>> lstat_path(const std::string& path);

/// stat(2), following symlinks. A missing path (ENOENT, ENOTDIR, or a dangling link) is nullopt.
Result<std::optional<FileInfo>> stat_path(const std::string& path);

/// fstat(2).
Result<FileInfo> fstat_fd(int fd);

/// The names in a directory (without "." and ".."), in directory order.
Result<std::vector<std::string>> list_directory(const std::string& path);

/// mkdir(2) with `mode`; true when created, false when something already exists there.
Result<bool> make_directory(const std::string& path, uint32_t mode);

/// mkdir -p: creates `dir` and its missing ancestors (mode 0777 before umask). Returns the
/// directories it created, outermost first (so a rollback can remove them, innermost first).
Result<std::vector<std::string>> make_directories(const std::string& dir);

/// chmod(2) / fchmod(2).
Result<void> change_mode(const std::string& path, uint32_t mode);
Result<void> change_mode_fd(int fd, uint32_t mode);

/// open(O_WRONLY|O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC, mode). An existing path is an error with
/// sys_errno EEXIST.
Result<UniqueFd> create_exclusive(const std::string& path, uint32_t mode);

/// open(O_RDONLY|O_NOFOLLOW|O_CLOEXEC). A symlink is an error with sys_errno ELOOP.
Result<UniqueFd> open_read_nofollow(const std::string& path);

/// Opens (creating, mode 0600, no symlink) `path` and takes an exclusive flock on it without
/// blocking. nullopt when another process holds the lock; the lock lasts as long as the fd.
Result<std::optional<UniqueFd>> try_lock_file(const std::string& path);

/// flock(LOCK_EX) on an open descriptor: waits (`wait`) or not; false when another open file
/// description holds the lock and we did not wait.
enum class LockWait { kNo, kYes };
Result<bool> lock_exclusive(int fd, const std::string& path, LockWait wait);

/// Reads from the current offset to end of file.
Result<std::string> read_to_end(int fd, const std::string& path);

/// fsync(2) of a descriptor, and of a directory by path.
Result<void> sync_fd(int fd, const std::string& path);
Result<void> sync_directory(const std::string& path);

/// rename(2).
Result<void> rename_path(const std::string& from, const std::string& to);

/// unlink(2); a path that is already gone is not an error.
Result<void> remove_file(const std::string& path);

/// unlink(2) that reports a missing path as an error (unlike remove_file).
Result<void> unlink_path(const std::string& path);

/// rmdir(2) of an empty directory.
Result<void> remove_empty_directory(const std::string& path);

/// Writes `data` to an existing file (no create, no truncate): for kernel interface files such
/// as cgroup controls, where each write is one command.
Result<void> write_existing_file(const std::string& path, std::string_view data);

/// Reads a kernel interface file (procfs, cgroupfs: no size known in advance) to its end.
Result<std::string> read_kernel_file(const std::string& path);

/// readlink(2): the target of the symlink `path`, as stored.
Result<std::string> read_symlink(const std::string& path);

}  // namespace clawexec::sys
