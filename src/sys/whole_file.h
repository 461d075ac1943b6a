#pragma once
// Files read or written whole: reads that refuse a final symlink (and, bounded, anything but a
// regular file of limited size), and the project's one atomic file replace (temp file in the
// same directory, fsync, rename; optionally the directory fsynced too). Built on file_system.h;
// like sys.h, the only place these calls' errno is read.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace clawexec::sys {

/// Reads a whole regular file without following a final symlink.
Result<std::string> read_whole_file(const std::string& path);

/// A regular file read only when it is small enough.
struct BoundedFile {
  std::optional<std::string> bytes;  // nullopt: larger than the limit (nothing was read)
  uint64_t size = 0;                 // st_size, or the bytes seen when the file grew past the limit
};

/// Opens `path` without following a final symlink and without blocking (a FIFO swapped in is
/// never waited on), checks with fstat that it is a regular file (else an error naming the
/// path) of at most `max_bytes` bytes, and only then reads it, stopping after max_bytes + 1
/// bytes in case it grows (or is a /proc file whose st_size is 0).
Result<BoundedFile> read_regular_file_at_most(const std::string& path, size_t max_bytes);

/// Reads `fd` to its end in 64 KiB blocks, but at most max_bytes + 1 bytes: a result longer
/// than `max_bytes` means the input was over the limit. `what` names it in errors; `size_hint`
/// (the expected size, e.g. st_size) is reserved up front.
Result<std::string> read_fd_at_most(int fd, size_t max_bytes, const std::string& what, size_t size_hint = 0);

/// Replaces (or creates) `path` with `data`, so that a reader sees the old or the new content
/// and never a part: a uniquely named temp file beside it (exclusive, no symlink followed;
/// chmod'ed to exactly `mode` when given, else 0666 less the umask), written, fsync'ed (unless
/// kNone), then renamed over `path`; with kFsyncFileAndDirectory the directory is fsync'ed
/// after the rename too, so the replacement itself survives a crash. The temp file is removed
/// when any step before the rename fails. The project's one atomic file replace.
enum class Durability { kFsync, kFsyncFileAndDirectory, kNone };
Result<void> replace_file_atomically(const std::string& path, std::string_view data, std::optional<uint32_t> mode,
                                     Durability durability = Durability::kFsync);

/// A secret kept in one file only its owner may read (tokens, keys, pairing stores):
/// nullopt when `path` does not exist; an error naming `what` and the path when it is not a
/// regular file (a symlink is not followed) or group or others may read or write it (`hint`,
/// e.g. "chmod 600 it", ends that message).
Result<std::optional<std::string>> read_private_file(const std::string& path, std::string_view what,
                                                     std::string_view hint = "chmod 600 it");

/// Writes such a file: its directory created (and set to 0700), the file replaced atomically at
/// mode 0600, the file and the directory fsync'ed.
Result<void> write_private_file(const std::string& path, std::string_view data);

}  // namespace clawexec::sys
