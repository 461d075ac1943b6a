#pragma once
// Reading a small file that must lie inside a root directory, for checks that look at files a
// command names (the exec script preflight) and must neither hang nor leave the root. Like
// sys.h, the only place these calls' errno is read.

#include <cstddef>
#include <optional>
#include <string>

#include "base/result.h"

namespace clawexec::sys {

/// Why read_file_within_root produced no content. None of these is an error: the caller just
/// has nothing to look at.
enum class ReadSkip {
  kMissing,         // ENOENT, ENOTDIR, a dangling symlink
  kNoAccess,        // EACCES, EPERM
  kNotRegularFile,  // directory (EISDIR), FIFO, socket, device
  kTooLarge,        // more than max_bytes: refused whole, never read as a prefix
  kOutsideRoot,     // a ".." or absolute relative path, or symlinks leading out of the root
  kHardLinked,      // more than one link: it may alias a file outside the root
  kUnusablePath,    // ELOOP (symlink loop), EINVAL, ENAMETOOLONG
};

struct BoundedRead {
  std::optional<std::string> content;  // the whole file, when it was read
  ReadSkip skip = ReadSkip::kMissing;  // why not, when content is empty
};

/// Reads `root`/`relative_path` when it is a regular file of at most `max_bytes` bytes whose
/// real path (symlinks resolved) lies inside the real path of `root`. The file is opened
/// non-blocking and only after it was seen to be a regular file, so a FIFO or device never
/// blocks or gets opened. `relative_path` must not be absolute or contain ".." segments.
/// The errno values listed in ReadSkip give a skip; any other failure (EIO, EMFILE...) is an
/// error naming the call and the path.
Result<BoundedRead> read_file_within_root(const std::string& root, const std::string& relative_path, size_t max_bytes);

/// The skip an errno stands for in read_file_within_root, nullopt when it is a real error.
std::optional<ReadSkip> read_skip_for_errno(int err);

}  // namespace clawexec::sys
