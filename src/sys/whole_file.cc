// Whole-file reads and the atomic replace. Writes go through a uniquely named temp file in the
// target's directory so a reader never sees a half-written file and a failed write leaves the
// old file in place; the rename is the commit point.

#include "sys/whole_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>

#include "sys/file_system.h"
#include "sys/sys.h"

namespace clawexec::sys {
namespace {

std::string directory_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string temp_name_for(const std::string& path) {
  size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? std::string(".") : path.substr(0, slash);
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  char suffix[32];
  std::snprintf(suffix, sizeof suffix, ".%d.%08x.tmp", static_cast<int>(::getpid()), random_below(0xffffffffu));
  return dir + "/." + base + suffix;
}

}  // namespace

Result<std::string> read_whole_file(const std::string& path) {
  UniqueFd fd = TRY(open_read_nofollow(path));
  return read_to_end(fd.get(), path);
}

Result<std::string> read_fd_at_most(int fd, size_t max_bytes, const std::string& what, size_t size_hint) {
  std::string out;
  out.reserve(std::min(size_hint, max_bytes) + 1);
  char block[65536];
  while (out.size() <= max_bytes) {
    size_t want = std::min(sizeof block, max_bytes + 1 - out.size());
    const ssize_t n = ::read(fd, block, want);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Error::from_errno("read " + what, errno);
    }
    if (n == 0) break;
    out.append(block, static_cast<size_t>(n));
  }
  return out;
}

Result<BoundedFile> read_regular_file_at_most(const std::string& path, size_t max_bytes) {
  const int raw = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (raw < 0) return Error::from_errno("open " + path, errno);
  UniqueFd fd(raw);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return Error::from_errno("fstat " + path, errno);
  if (!S_ISREG(st.st_mode)) return Error{ErrorCode::kInvalidArgument, 0, "read " + path + ": not a regular file"};
  BoundedFile out;
  out.size = static_cast<uint64_t>(st.st_size);
  if (out.size > max_bytes) return out;
  std::string bytes = TRY(read_fd_at_most(fd.get(), max_bytes, path, static_cast<size_t>(out.size)));
  if (bytes.size() > max_bytes) {
    out.size = bytes.size();
    return out;
  }
  out.size = bytes.size();
  out.bytes = std::move(bytes);
  return out;
}

Result<void> replace_file_atomically(const std::string& path, std::string_view data, std::optional<uint32_t> mode,
                                     Durability durability) {
  std::string temp = temp_name_for(path);
  Result<UniqueFd> fd = create_exclusive(temp, mode.value_or(0666));
  if (!fd.ok()) return fd.error();
  auto fail = [&](Error error) -> Result<void> {
    ::unlink(temp.c_str());
    return error;
  };
  if (Result<void> w = write_all(fd->get(), data); !w.ok()) {
    return fail(Error{w.error().code, w.error().sys_errno, "write " + temp + ": " + w.error().message});
  }
  if (mode) {
    if (Result<void> m = change_mode_fd(fd->get(), *mode); !m.ok()) return fail(m.error());
  }
  if (durability != Durability::kNone) {
    if (Result<void> s = sync_fd(fd->get(), temp); !s.ok()) return fail(s.error());
  }
  fd->reset();
  if (Result<void> r = rename_path(temp, path); !r.ok()) return fail(r.error());
  if (durability == Durability::kFsyncFileAndDirectory) TRY(sync_directory(directory_of(path)));
  return {};
}

Result<std::optional<std::string>> read_private_file(const std::string& path, std::string_view what, std::string_view hint) {
  std::optional<FileInfo> info = TRY(lstat_path(path));
  if (!info) return std::optional<std::string>();
  std::string subject = std::string(what) + " " + path;
  if (info->type != FileType::kRegular) return Error::invalid(subject + ": not a regular file");
  if ((info->mode & 077) != 0) {
    return Error{ErrorCode::kPermissionDenied, 0, subject + ": readable by group or others (" + std::string(hint) + ")"};
  }
  return std::optional<std::string>(TRY(read_whole_file(path)));
}

Result<void> write_private_file(const std::string& path, std::string_view data) {
  size_t slash = path.rfind('/');
  if (slash != std::string::npos && slash > 0) {
    std::string dir = path.substr(0, slash);
    TRY(make_directories(dir));
    TRY(change_mode(dir, 0700));
  }
  return replace_file_atomically(path, data, 0600, Durability::kFsyncFileAndDirectory);
}

}  // namespace clawexec::sys
