// Bounded, root-confined file reads.
//
// Problem: a check that peeks into files named by an untrusted command must not be turned into
// a way to read outside the working directory (symlinks, hard links, "..") or to stall the
// server (a FIFO blocks an ordinary open until a writer appears; a huge file costs memory).
//
// Approach: resolve the root and the file with realpath and require containment; stat the
// resolved path and only open regular files, with O_NONBLOCK | O_NOFOLLOW so that a file swapped
// for a FIFO or a symlink after the check cannot block or redirect us; then re-check the opened
// descriptor itself (type, link count, size, and its /proc path when /proc is mounted) and read
// at most max_bytes + 1 bytes, refusing the file if that last byte arrives.

#include "sys/bounded_read.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdlib>

#include "sys/fd.h"

namespace clawexec::sys {
namespace {

BoundedRead skipped(ReadSkip why) { return BoundedRead{std::nullopt, why}; }

// A failed call: a skip for the expected errno values, otherwise an error.
Result<BoundedRead> failed(const std::string& operation, int err) {
  if (std::optional<ReadSkip> skip = read_skip_for_errno(err)) return skipped(*skip);
  return Error::from_errno(operation, err);
}

bool has_parent_segment(const std::string& path) {
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string::npos) slash = path.size();
    if (path.compare(start, slash - start, "..") == 0 && slash - start == 2) return true;
    start = slash + 1;
  }
  return false;
}

// `path` is `root` or below it.
bool inside(const std::string& root, const std::string& path) {
  if (root == "/" || path == root) return true;
  return path.size() > root.size() && path.compare(0, root.size(), root) == 0 && path[root.size()] == '/';
}

// realpath(3); the errno on failure.
std::optional<std::string> resolve(const std::string& path, int& err) {
  char* resolved = ::realpath(path.c_str(), nullptr);
  if (!resolved) {
    err = errno;
    return std::nullopt;
  }
  std::string out(resolved);
  ::free(resolved);
  return out;
}

// Where an open descriptor really points, from /proc (nullopt when /proc is not available).
std::optional<std::string> descriptor_path(int fd) {
  std::string link = "/proc/self/fd/" + std::to_string(fd);
  char buf[PATH_MAX + 1];
  ssize_t n = ::readlink(link.c_str(), buf, PATH_MAX);
  if (n <= 0) return std::nullopt;
  return std::string(buf, static_cast<size_t>(n));
}

Result<BoundedRead> read_bounded(int fd, const std::string& path, size_t max_bytes) {
  std::string content;
  char buf[65536];
  while (content.size() <= max_bytes) {
    size_t want = std::min(sizeof buf, max_bytes + 1 - content.size());
    ssize_t n = ::read(fd, buf, want);
    if (n < 0) {
      if (errno == EINTR) continue;
      return failed("read " + path, errno);
    }
    if (n == 0) break;
    content.append(buf, static_cast<size_t>(n));
  }
  if (content.size() > max_bytes) return skipped(ReadSkip::kTooLarge);
  return BoundedRead{std::move(content), ReadSkip::kMissing};
}

}  // namespace

std::optional<ReadSkip> read_skip_for_errno(int err) {
  switch (err) {
    case ENOENT:
    case ENOTDIR:
      return ReadSkip::kMissing;
    case EACCES:
    case EPERM:
      return ReadSkip::kNoAccess;
    case EISDIR:
      return ReadSkip::kNotRegularFile;
    case ELOOP:
    case EINVAL:
    case ENAMETOOLONG:
      return ReadSkip::kUnusablePath;
    default:
      return std::nullopt;
  }
}

Result<BoundedRead> read_file_within_root(const std::string& root, const std::string& relative_path, size_t max_bytes) {
  if ((!relative_path.empty() && relative_path[0] == '/') || has_parent_segment(relative_path)) {
    return skipped(ReadSkip::kOutsideRoot);
  }
  const std::string path = relative_path.empty() ? root : root + "/" + relative_path;
  int err = 0;
  std::optional<std::string> real_root = resolve(root, err);
  if (!real_root) return failed("realpath " + root, err);
  std::optional<std::string> real_file = resolve(path, err);
  if (!real_file) return failed("realpath " + path, err);
  if (!inside(*real_root, *real_file)) return skipped(ReadSkip::kOutsideRoot);

  struct stat before {};
  if (::stat(real_file->c_str(), &before) != 0) return failed("stat " + *real_file, errno);
  if (!S_ISREG(before.st_mode)) return skipped(ReadSkip::kNotRegularFile);

  int raw_fd = ::open(real_file->c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
  if (raw_fd < 0) return failed("open " + *real_file, errno);
  UniqueFd fd(raw_fd);
  struct stat opened {};
  if (::fstat(fd.get(), &opened) != 0) return failed("fstat " + *real_file, errno);
  if (!S_ISREG(opened.st_mode)) return skipped(ReadSkip::kNotRegularFile);
  if (opened.st_nlink > 1) return skipped(ReadSkip::kHardLinked);
  if (opened.st_size < 0 || static_cast<uint64_t>(opened.st_size) > max_bytes) return skipped(ReadSkip::kTooLarge);
  if (std::optional<std::string> where = descriptor_path(fd.get()); where && !inside(*real_root, *where)) {
    return skipped(ReadSkip::kOutsideRoot);
  }
  return read_bounded(fd.get(), *real_file, max_bytes);
}

}  // namespace clawexec::sys
