// Reading the config file from disk. A missing file is normal (defaults apply), so ENOENT and
// ENOTDIR (a path component is a file) map to "no file"; every other failure is an error that
// names the path (a directory reads as EISDIR).

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "config/exec_settings.h"

namespace clawexec::config {

Result<std::optional<std::string>> read_config_file(const std::string& path) {
  const std::string operation = "read config file " + path;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    int err = errno;
    if (err == ENOENT || err == ENOTDIR) return std::optional<std::string>();
    return Error::from_errno(operation, err);
  }
  struct stat info {};
  if (::fstat(fd, &info) != 0 || S_ISDIR(info.st_mode)) {
    int err = S_ISDIR(info.st_mode) ? EISDIR : errno;
    ::close(fd);
    return Error::from_errno(operation, err);
  }
  std::string text;
  char buf[65536];
  while (true) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      return Error::from_errno(operation, err);
    }
    if (n == 0) break;
    text.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return std::optional<std::string>(std::move(text));
}

}  // namespace clawexec::config
