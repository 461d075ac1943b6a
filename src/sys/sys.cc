// Thin system-call wrappers. Each returns a Result naming the call and its subject, so no other
// module needs to look at errno or -1.

#include "sys/sys.h"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace clawexec::sys {

Result<Pipe> make_pipe(int extra_flags) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC | extra_flags) != 0) return Error::from_errno("pipe2", errno);
  return Pipe{UniqueFd(fds[0]), UniqueFd(fds[1])};
}

Result<UniqueFd> duplicate_fd(int fd, std::string_view what) {
  int copy = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (copy < 0) return Error::from_errno(std::string(what), errno);
  return UniqueFd(copy);
}

Result<UniqueFd> create_memfd(const std::string& name) {
  int fd = ::memfd_create(name.c_str(), MFD_CLOEXEC);
  if (fd < 0) return Error::from_errno("memfd_create " + name, errno);
  return UniqueFd(fd);
}

Result<void> seek_to_start(int fd, std::string_view what) {
  if (::lseek(fd, 0, SEEK_SET) != 0) return Error::from_errno("seek " + std::string(what), errno);
  return {};
}

Result<std::pair<UniqueFd, UniqueFd>> make_seqpacket_pair() {
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds) != 0) {
    return Error::from_errno("socketpair(AF_UNIX, SOCK_SEQPACKET)", errno);
  }
  return std::pair{UniqueFd(fds[0]), UniqueFd(fds[1])};
}

Result<std::pair<UniqueFd, UniqueFd>> make_stream_pair() {
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
    return Error::from_errno("socketpair(AF_UNIX, SOCK_STREAM)", errno);
  }
  return std::pair{UniqueFd(fds[0]), UniqueFd(fds[1])};
}

Result<void> send_with_fds(int socket, std::string_view data, const int* fds, int fd_count) {
  std::vector<char> control(CMSG_SPACE(sizeof(int) * static_cast<size_t>(fd_count)));
  bool first = true;
  while (!data.empty() || first) {
    struct iovec iov = {const_cast<char*>(data.data()), data.size()};
    struct msghdr msg = {};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    if (first && fd_count > 0) {
      msg.msg_control = control.data();
      msg.msg_controllen = control.size();
      struct cmsghdr* c = CMSG_FIRSTHDR(&msg);
      c->cmsg_level = SOL_SOCKET;
      c->cmsg_type = SCM_RIGHTS;
      c->cmsg_len = CMSG_LEN(sizeof(int) * static_cast<size_t>(fd_count));
      std::memcpy(CMSG_DATA(c), fds, sizeof(int) * static_cast<size_t>(fd_count));
    }
    ssize_t n = ::sendmsg(socket, &msg, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Error::from_errno("send spawn request", errno);
    }
    first = false;
    data.remove_prefix(static_cast<size_t>(n));
  }
  return {};
}

Result<UniqueFd> open_terminal(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return Error::from_errno("open " + path, errno);
  return UniqueFd(fd);
}

Result<UniqueFd> open_null() {
  int fd = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  if (fd < 0) return Error::from_errno("open /dev/null", errno);
  return UniqueFd(fd);
}

Result<UniqueFd> pidfd_open(pid_t pid) {
  long fd = ::syscall(SYS_pidfd_open, pid, 0);
  if (fd < 0) return Error::from_errno("pidfd_open(" + std::to_string(pid) + ")", errno);
  return UniqueFd(static_cast<int>(fd));
}

Result<void> pidfd_signal(int pidfd, int signo) {
  if (::syscall(SYS_pidfd_send_signal, pidfd, signo, nullptr, 0) != 0 && errno != ESRCH) {
    return Error::from_errno("pidfd_send_signal", errno);
  }
  return {};
}

Result<void> set_nonblocking(int fd, bool on) {
  int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0) return Error::from_errno("fcntl(F_GETFL)", errno);
  flags = on ? (flags | O_NONBLOCK) : (flags & ~O_NONBLOCK);
  if (::fcntl(fd, F_SETFL, flags) != 0) return Error::from_errno("fcntl(F_SETFL)", errno);
  return {};
}

Result<void> set_cloexec(int fd, bool on) {
  int flags = ::fcntl(fd, F_GETFD);
  if (flags < 0) return Error::from_errno("fcntl(F_GETFD)", errno);
  flags = on ? (flags | FD_CLOEXEC) : (flags & ~FD_CLOEXEC);
  if (::fcntl(fd, F_SETFD, flags) != 0) return Error::from_errno("fcntl(F_SETFD)", errno);
  return {};
}

Result<int> set_pipe_size(int fd, int bytes) {
  int size = ::fcntl(fd, F_SETPIPE_SZ, bytes);
  if (size < 0) return Error::from_errno("fcntl(F_SETPIPE_SZ)", errno);
  return size;
}

Result<std::optional<int>> try_reap(pid_t pid) {
  int status = 0;
  pid_t r;
  do {
    r = ::waitpid(pid, &status, WNOHANG);
  } while (r < 0 && errno == EINTR);
  if (r < 0) return Error::from_errno("waitpid(" + std::to_string(pid) + ")", errno);
  if (r == 0) return std::optional<int>();
  return std::optional<int>(status);
}

Result<int> reap(pid_t pid) {
  int status = 0;
  pid_t r;
  do {
    r = ::waitpid(pid, &status, 0);
  } while (r < 0 && errno == EINTR);
  if (r < 0) return Error::from_errno("waitpid(" + std::to_string(pid) + ")", errno);
  return status;
}

Result<void> send_signal(pid_t pid, int signo) {
  if (::kill(pid, signo) != 0 && errno != ESRCH) {
    return Error::from_errno("kill(" + std::to_string(pid) + ", " + std::to_string(signo) + ")",
                             errno);
  }
  return {};
}

bool process_alive(pid_t pid) {
  if (pid <= 0) return false;
  if (::kill(pid, 0) == 0) return true;
  return errno == EPERM;
}

pid_t current_pid() { return ::getpid(); }
uid_t current_uid() { return ::getuid(); }
gid_t current_gid() { return ::getgid(); }

Result<void> random_bytes(void* out, size_t size) {
  auto* p = static_cast<unsigned char*>(out);
  while (size > 0) {
    ssize_t n = ::getrandom(p, size, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Error::from_errno("getrandom", errno);
    }
    p += n;
    size -= static_cast<size_t>(n);
  }
  return {};
}

uint32_t random_below(uint32_t bound) {
  if (bound <= 1) return 0;
  // Rejection sampling keeps the distribution uniform.
  uint32_t limit = UINT32_MAX - (UINT32_MAX % bound);
  while (true) {
    uint32_t v = 0;
    if (!random_bytes(&v, sizeof v).ok()) std::abort();  // the kernel CSPRNG cannot fail here
    if (v < limit) return v % bound;
  }
}

Result<std::string> real_path(const std::string& path) {
  char* resolved = ::realpath(path.c_str(), nullptr);
  if (!resolved) return Error::from_errno("realpath " + path, errno);
  std::string out(resolved);
  ::free(resolved);
  return out;
}

std::string canonicalize_existing_prefix(const std::string& path) {
  std::string prefix = path;
  std::string rest;
  while (!prefix.empty()) {
    Result<std::string> real = real_path(prefix);
    if (real.ok()) return real.value() == "/" && !rest.empty() ? rest : real.value() + rest;
    size_t slash = prefix.rfind('/');
    if (slash == std::string::npos) break;
    rest = prefix.substr(slash) + rest;
    prefix.resize(slash);
  }
  return path;
}

bool is_directory(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool is_writable(const std::string& path) { return ::access(path.c_str(), W_OK) == 0; }

bool is_executable_file(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

bool path_exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

Result<std::string> current_directory() {
  char buf[PATH_MAX];
  if (!::getcwd(buf, sizeof buf)) return Error::from_errno("getcwd", errno);
  return std::string(buf);
}

Result<void> raise_open_file_limit() {
  struct rlimit lim;
  if (::getrlimit(RLIMIT_NOFILE, &lim) != 0) return Error::from_errno("getrlimit(NOFILE)", errno);
  if (lim.rlim_cur == lim.rlim_max) return {};
  lim.rlim_cur = lim.rlim_max;
  if (::setrlimit(RLIMIT_NOFILE, &lim) != 0) return Error::from_errno("setrlimit(NOFILE)", errno);
  return {};
}

Result<std::string> self_executable() { return real_path("/proc/self/exe"); }

Result<Pty> open_pty(const std::string& ptmx, uint16_t cols, uint16_t rows) {
  int fd = ::open(ptmx.c_str(), O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return Error::from_errno("open " + ptmx, errno);
  UniqueFd master(fd);
  if (::grantpt(fd) != 0) return Error::from_errno("grantpt " + ptmx, errno);
  if (::unlockpt(fd) != 0) return Error::from_errno("unlockpt " + ptmx, errno);
  char name[128];
  if (::ptsname_r(fd, name, sizeof name) != 0) return Error::from_errno("ptsname " + ptmx, errno);
  struct winsize ws = {};
  ws.ws_col = cols;
  ws.ws_row = rows;
  if (::ioctl(fd, TIOCSWINSZ, &ws) != 0) return Error::from_errno("ioctl(TIOCSWINSZ)", errno);
  return Pty{std::move(master), std::string(name)};
}

Result<std::optional<std::string>> read_file_if_exists(const std::string& path, std::string_view operation) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    int err = errno;
    if (err == ENOENT || err == ENOTDIR) return std::optional<std::string>();
    return Error::from_errno(operation, err);
  }
  UniqueFd owned(fd);
  struct stat info {};
  if (::fstat(fd, &info) != 0) return Error::from_errno(operation, errno);
  if (S_ISDIR(info.st_mode)) return Error::from_errno(operation, EISDIR);
  std::string text;
  char buf[65536];
  while (true) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Error::from_errno(operation, errno);
    }
    if (n == 0) break;
    text.append(buf, static_cast<size_t>(n));
  }
  return std::optional<std::string>(std::move(text));
}

Result<void> write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return Error::from_errno("write(fd " + std::to_string(fd) + ")", errno);
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return {};
}

Result<size_t> read_some(int fd, char* buffer, size_t size) {
  while (true) {
    ssize_t n = ::read(fd, buffer, size);
    if (n >= 0) return static_cast<size_t>(n);
    if (errno != EINTR) return Error::from_errno("read(fd " + std::to_string(fd) + ")", errno);
  }
}

std::optional<size_t> resident_set_bytes() {
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return std::nullopt;
  unsigned long size = 0, resident = 0;
  int n = std::fscanf(f, "%lu %lu", &size, &resident);
  std::fclose(f);
  if (n != 2) return std::nullopt;
  return static_cast<size_t>(resident) * static_cast<size_t>(::sysconf(_SC_PAGESIZE));
}

}  // namespace clawexec::sys
