// File-system wrappers (see file_system.h). Each names the call and the path in its error;
// "missing" answers are values (nullopt/false), not errors, where callers branch on them.

#include "sys/file_system.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <string_view>

namespace clawexec::sys {
namespace {

FileInfo to_info(const struct stat& st) {
  FileInfo info;
  if (S_ISREG(st.st_mode)) {
    info.type = FileType::kRegular;
  } else if (S_ISDIR(st.st_mode)) {
    info.type = FileType::kDirectory;
  } else if (S_ISLNK(st.st_mode)) {
    info.type = FileType::kSymlink;
  }
  info.mode = st.st_mode & 07777;
  info.dev = static_cast<uint64_t>(st.st_dev);
  info.ino = static_cast<uint64_t>(st.st_ino);
  info.nlink = static_cast<uint64_t>(st.st_nlink);
  info.uid = static_cast<uint32_t>(st.st_uid);
  info.size = static_cast<int64_t>(st.st_size);
  info.mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  info.ctime_ns = static_cast<int64_t>(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec;
  return info;
}

std::string octal(uint32_t mode) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0%o", mode);
  return buf;
}

}  // namespace

Result<std::optional<FileInfo>> lstat_path(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    const int err = errno;
    if (err == ENOENT || err == ENOTDIR) return std::optional<FileInfo>();
    return Error::from_errno("lstat " + path, err);
  }
  return std::optional<FileInfo>(to_info(st));
}

Result<std::optional<FileInfo>> stat_path(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    const int err = errno;
    if (err == ENOENT || err == ENOTDIR) return std::optional<FileInfo>();
    return Error::from_errno("stat " + path, err);
  }
  return std::optional<FileInfo>(to_info(st));
}

Result<std::vector<std::string>> list_directory(const std::string& path) {
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) return Error::from_errno("opendir " + path, errno);
  std::vector<std::string> names;
  errno = 0;
  while (const struct dirent* entry = ::readdir(dir)) {
    std::string_view name = entry->d_name;
    if (name != "." && name != "..") names.emplace_back(name);
    errno = 0;
  }
  const int err = errno;
  ::closedir(dir);
  if (err != 0) return Error::from_errno("readdir " + path, err);
  return names;
}

Result<FileInfo> fstat_fd(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return Error::from_errno("fstat(fd " + std::to_string(fd) + ")", errno);
  return to_info(st);
}

Result<bool> make_directory(const std::string& path, uint32_t mode) {
  if (::mkdir(path.c_str(), static_cast<mode_t>(mode)) == 0) return true;
  const int err = errno;
  if (err == EEXIST) return false;
  return Error::from_errno("mkdir " + path, err);
}

Result<std::vector<std::string>> make_directories(const std::string& dir) {
  std::vector<std::string> created;
  std::vector<std::string> missing;
  std::string cursor = dir;
  while (!cursor.empty() && cursor != "/") {
    struct stat st {};
    if (::stat(cursor.c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode)) return Error{ErrorCode::kIo, ENOTDIR, "mkdir " + cursor + ": Not a directory"};
      break;
    }
    const int err = errno;
    if (err != ENOENT) return Error::from_errno("stat " + cursor, err);
    missing.push_back(cursor);
    size_t slash = cursor.rfind('/');
    if (slash == std::string::npos) break;
    cursor.resize(slash);
  }
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    if (::mkdir(it->c_str(), 0777) != 0) {
      const int err = errno;
      if (err == EEXIST) continue;
      for (auto undo = created.rbegin(); undo != created.rend(); ++undo) ::rmdir(undo->c_str());
      return Error::from_errno("mkdir " + *it, err);
    }
    created.push_back(*it);
  }
  return created;
}

Result<void> change_mode(const std::string& path, uint32_t mode) {
  if (::chmod(path.c_str(), static_cast<mode_t>(mode)) != 0) {
    return Error::from_errno("chmod " + octal(mode) + " " + path, errno);
  }
  return {};
}

Result<void> change_mode_fd(int fd, uint32_t mode) {
  if (::fchmod(fd, static_cast<mode_t>(mode)) != 0) {
    return Error::from_errno("fchmod " + octal(mode) + " (fd " + std::to_string(fd) + ")", errno);
  }
  return {};
}

Result<UniqueFd> create_exclusive(const std::string& path, uint32_t mode) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, static_cast<mode_t>(mode));
  if (fd < 0) return Error::from_errno("create " + path, errno);
  return UniqueFd(fd);
}

Result<UniqueFd> open_read_nofollow(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return Error::from_errno("open " + path, errno);
  return UniqueFd(fd);
}

Result<std::string> read_to_end(int fd, const std::string& path) {
  std::string text;
  char buf[65536];
  while (true) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Error::from_errno("read " + path, errno);
    }
    if (n == 0) break;
    text.append(buf, static_cast<size_t>(n));
  }
  return text;
}

Result<void> sync_fd(int fd, const std::string& path) {
  if (::fsync(fd) != 0) return Error::from_errno("fsync " + path, errno);
  return {};
}

Result<void> sync_directory(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return Error::from_errno("open directory " + path, errno);
  UniqueFd owned(fd);
  if (::fsync(fd) != 0) return Error::from_errno("fsync directory " + path, errno);
  return {};
}

Result<void> rename_path(const std::string& from, const std::string& to) {
  if (::rename(from.c_str(), to.c_str()) != 0) return Error::from_errno("rename " + from + " to " + to, errno);
  return {};
}

Result<void> remove_file(const std::string& path) {
  if (::unlink(path.c_str()) != 0) {
    const int err = errno;
    if (err == ENOENT) return {};
    return Error::from_errno("unlink " + path, err);
  }
  return {};
}

Result<bool> lock_exclusive(int fd, const std::string& path, LockWait wait) {
  for (;;) {
    if (::flock(fd, LOCK_EX | (wait == LockWait::kNo ? LOCK_NB : 0)) == 0) return true;
    if (errno == EINTR) continue;
    if (errno == EWOULDBLOCK) return false;
    return Error::from_errno("flock " + path, errno);
  }
}

Result<std::optional<UniqueFd>> try_lock_file(const std::string& path) {
  int raw = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (raw < 0) return Error::from_errno("open " + path, errno);
  UniqueFd fd(raw);
  if (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK) return std::optional<UniqueFd>();
    return Error::from_errno("flock " + path, errno);
  }
  return std::optional<UniqueFd>(std::move(fd));
}

Result<void> write_existing_file(const std::string& path, std::string_view data) {
  int raw = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
  if (raw < 0) return Error::from_errno("open " + path, errno);
  UniqueFd fd(raw);
  ssize_t n = ::write(fd.get(), data.data(), data.size());
  if (n < 0) return Error::from_errno("write " + path, errno);
  if (static_cast<size_t>(n) != data.size()) return Error::internal("write " + path + ": short write");
  return {};
}

Result<std::string> read_kernel_file(const std::string& path) {
  int raw = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (raw < 0) return Error::from_errno("open " + path, errno);
  UniqueFd fd(raw);
  return read_to_end(fd.get(), path);
}

Result<std::string> read_symlink(const std::string& path) {
  std::string target(256, '\0');
  while (true) {
    const ssize_t n = ::readlink(path.c_str(), target.data(), target.size());
    if (n < 0) return Error::from_errno("readlink " + path, errno);
    if (static_cast<size_t>(n) < target.size()) {
      target.resize(static_cast<size_t>(n));
      return target;
    }
    target.resize(target.size() * 2);
  }
}

Result<void> unlink_path(const std::string& path) {
  if (::unlink(path.c_str()) != 0) return Error::from_errno("unlink " + path, errno);
  return {};
}

Result<void> remove_empty_directory(const std::string& path) {
  if (::rmdir(path.c_str()) != 0) return Error::from_errno("rmdir " + path, errno);
  return {};
}

}  // namespace clawexec::sys
