// Finding a clawexec supervisor among a process's ancestors (process_ancestry.h).
//
// Problem: the answer decides whether a connection may resolve approvals, so it must not be
// fooled by anything the examined process controls, nor by pids being reused while we read
// /proc: a parent that exits is replaced (its children are re-parented) and its pid may name
// an unrelated process a moment later.
//
// Approach: hold each process's /proc/<pid> directory open while reading it (the descriptor
// keeps naming that process even if the pid is reused; reads then fail). The subject is
// pinned by its pidfd: still alive after we opened its directory means the directory is its.
// An ancestor is pinned by its child: if the child still names the same parent after we
// opened and read the parent's directory, the parent had not exited in between, so what we
// read was the real parent. A step that raced is retried, a walk whose middle disappeared is
// restarted, both a bounded number of times. The walk ends at a parent pid of 0 (pid 1, or a
// parent outside our pid namespace).

#include "sys/process_ancestry.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "sys/sys.h"

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77
#endif

namespace clawexec::sys {
namespace {

constexpr int kMaxDepth = 1024;
constexpr int kMaxStepAttempts = 8;
constexpr int kMaxWalks = 8;

std::string pid_label(pid_t pid) { return "process " + std::to_string(pid); }

Result<UniqueFd> open_proc_dir(const std::string& root, pid_t pid) {
  const std::string path = root + "/" + std::to_string(pid);
  int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return Error::from_errno("open " + path, errno);
  return UniqueFd(fd);
}

Result<std::string> read_entry(int dir, const char* name, pid_t pid) {
  int fd = ::openat(dir, name, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Error::from_errno("read /proc/" + std::to_string(pid) + "/" + name, errno);
  UniqueFd owner(fd);
  std::string text;
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Error::from_errno("read /proc/" + std::to_string(pid) + "/" + name, errno);
    if (n == 0) break;
    text.append(buf, static_cast<size_t>(n));
    if (text.size() > 65536) break;
  }
  return text;
}

// The parent pid from /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold anything,
// including ") ", so the fields start after the last ')'.
Result<pid_t> read_ppid(int dir, pid_t pid) {
  const std::string stat = TRY(read_entry(dir, "stat", pid));
  const size_t close = stat.rfind(')');
  if (close == std::string::npos || close + 4 > stat.size()) {
    return Error::invalid("parse /proc/" + std::to_string(pid) + "/stat");
  }
  const char* fields = stat.c_str() + close + 2;  // state
  const char* space = std::strchr(fields, ' ');
  if (!space) return Error::invalid("parse /proc/" + std::to_string(pid) + "/stat");
  char* end = nullptr;
  const long ppid = std::strtol(space + 1, &end, 10);
  if (end == space + 1 || ppid < 0) return Error::invalid("parse /proc/" + std::to_string(pid) + "/stat");
  return static_cast<pid_t>(ppid);
}

// The command name from /proc/<pid>/stat: between the first '(' and the last ')'.
Result<std::string> read_comm(int dir, pid_t pid) {
  const std::string stat = TRY(read_entry(dir, "stat", pid));
  const size_t open = stat.find('(');
  const size_t close = stat.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close < open) {
    return Error::invalid("parse /proc/" + std::to_string(pid) + "/stat");
  }
  return stat.substr(open + 1, close - open - 1);
}

struct Executable {
  std::string path;
  uint64_t dev = 0;
  uint64_t ino = 0;
};

Result<Executable> read_executable(int dir, pid_t pid) {
  struct stat st {};
  if (::fstatat(dir, "exe", &st, 0) != 0) {
    return Error::from_errno("stat /proc/" + std::to_string(pid) + "/exe", errno);
  }
  char buf[4096];
  ssize_t n = ::readlinkat(dir, "exe", buf, sizeof buf - 1);
  if (n < 0) return Error::from_errno("readlink /proc/" + std::to_string(pid) + "/exe", errno);
  return Executable{std::string(buf, static_cast<size_t>(n)), static_cast<uint64_t>(st.st_dev),
                    static_cast<uint64_t>(st.st_ino)};
}

bool has_clawexec_name(std::string_view base, const ClawexecExecutables& known) {
  for (const std::string& name : known.names) {
    if (base == name) return true;
  }
  return false;
}

bool pidfd_alive(const UniqueFd& pidfd) {
  return ::syscall(SYS_pidfd_send_signal, pidfd.get(), 0, nullptr, 0) == 0;
}

// One walk. kRestart: a process in the middle of the chain went away; start again.
enum class Walk { kDone, kRestart };

struct Parent {
  pid_t pid = 0;
  UniqueFd dir;
  Result<Executable> exe = Error::internal("not read");
};

// Whether `parent` runs a clawexec executable: by its executable file when we may read it.
// Otherwise (another user's process, or one with capabilities we lack) by its command name,
// which a process sets only for itself (at execve, or for its own thread group), so nothing
// below it can change it; our supervisor keeps the "clawexec-shim" it got at execve. An error
// when neither can be read (the process has just exited).
Result<bool> is_clawexec(const Parent& parent, const ClawexecExecutables& known) {
  if (!parent.exe.ok()) return has_clawexec_name(TRY(read_comm(parent.dir.get(), parent.pid)), known);
  const Executable& exe = *parent.exe;
  for (const ClawexecExecutables::File& f : known.files) {
    if (f.dev == exe.dev && f.ino == exe.ino) return true;
  }
  std::string_view path = exe.path;
  constexpr std::string_view kDeleted = " (deleted)";
  if (path.size() > kDeleted.size() && path.substr(path.size() - kDeleted.size()) == kDeleted) {
    path.remove_suffix(kDeleted.size());
  }
  const size_t slash = path.rfind('/');
  return has_clawexec_name(slash == std::string_view::npos ? path : path.substr(slash + 1), known);
}

// Reads the parent of `child` (whose directory is `child_dir`) and confirms it is still the
// parent afterwards. pid 0: no parent in our namespace.
Result<std::optional<Parent>> confirmed_parent(const std::string& root, int child_dir, pid_t child) {
  pid_t ppid = TRY(read_ppid(child_dir, child));
  for (int attempt = 0;; ++attempt) {
    if (ppid == 0) return std::optional<Parent>();
    Parent parent;
    parent.pid = ppid;
    Result<UniqueFd> dir = open_proc_dir(root, ppid);
    if (dir.ok()) {
      parent.dir = std::move(*dir);
      parent.exe = read_executable(parent.dir.get(), ppid);
    }
    const pid_t again = TRY(read_ppid(child_dir, child));
    if (again == ppid && parent.dir) return std::optional<Parent>(std::move(parent));
    if (attempt + 1 >= kMaxStepAttempts) {
      return Error::rejected("the parent of " + pid_label(child) + " keeps changing");
    }
    ppid = again;
  }
}

Result<Walk> walk_once(pid_t pid, const UniqueFd* pidfd, const AncestryOptions& options,
                       std::optional<SupervisingAncestor>& found) {
  Result<UniqueFd> subject = open_proc_dir(options.proc_root, pid);
  if (!subject.ok()) return Error::rejected("cannot examine " + pid_label(pid) + ": " + subject.error().message);
  if (pidfd && !pidfd_alive(*pidfd)) return Error::rejected(pid_label(pid) + " has exited");
  UniqueFd current = std::move(*subject);
  pid_t current_pid = pid;
  for (int depth = 0; depth < kMaxDepth; ++depth) {
    Result<std::optional<Parent>> step = confirmed_parent(options.proc_root, current.get(), current_pid);
    if (!step.ok()) {
      if (current_pid == pid) return Error::rejected("cannot examine " + pid_label(pid) + ": " + step.error().message);
      return Walk::kRestart;  // an ancestor exited while we looked: the chain has changed
    }
    if (!*step) return Walk::kDone;
    Parent& parent = **step;
    Result<bool> clawexec = is_clawexec(parent, options.executables);
    if (!clawexec.ok()) return Walk::kRestart;  // it exited after we confirmed it: look again
    if (*clawexec) {
      found = SupervisingAncestor{parent.pid, parent.exe.ok() ? parent.exe->path : "(executable not readable)"};
      return Walk::kDone;
    }
    current = std::move(parent.dir);
    current_pid = parent.pid;
  }
  return Error::rejected("the process tree above " + pid_label(pid) + " is deeper than " +
                         std::to_string(kMaxDepth));
}

void add_file(ClawexecExecutables& out, const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    out.files.push_back({static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino)});
  }
}

}  // namespace

Result<PeerCredentials> peer_credentials(int socket_fd) {
  struct ucred cred {};
  socklen_t size = sizeof cred;
  if (::getsockopt(socket_fd, SOL_SOCKET, SO_PEERCRED, &cred, &size) != 0) {
    return Error::from_errno("getsockopt(SO_PEERCRED)", errno);
  }
  return PeerCredentials{cred.pid, cred.uid, cred.gid};
}

Result<std::optional<UniqueFd>> peer_pidfd(int socket_fd) {
  int fd = -1;
  socklen_t size = sizeof fd;
  if (::getsockopt(socket_fd, SOL_SOCKET, SO_PEERPIDFD, &fd, &size) != 0) {
    if (errno == ENOPROTOOPT) return std::optional<UniqueFd>();
    return Error::from_errno("getsockopt(SO_PEERPIDFD)", errno);
  }
  UniqueFd owned(fd);
  ignore_error(set_cloexec(owned.get(), true));
  return std::optional<UniqueFd>(std::move(owned));
}

ClawexecExecutables this_installation() {
  ClawexecExecutables out;
  out.names = {"clawexec", "clawexec-shim"};
  Result<std::string> self = self_executable();
  if (self.ok()) {
    add_file(out, *self);
    const size_t slash = self->rfind('/');
    if (slash != std::string::npos) add_file(out, self->substr(0, slash) + "/clawexec-shim");
  }
  return out;
}

Result<std::optional<SupervisingAncestor>> find_supervising_ancestor(pid_t pid, const UniqueFd* pidfd,
                                                                     const AncestryOptions& options) {
  if (pid <= 0) return Error::rejected("cannot examine process 0: it is in another pid namespace");
  for (int walk = 0; walk < kMaxWalks; ++walk) {
    std::optional<SupervisingAncestor> found;
    Walk outcome = TRY(walk_once(pid, pidfd, options, found));
    if (outcome == Walk::kDone) return found;
  }
  return Error::rejected("the process tree above " + pid_label(pid) + " keeps changing");
}

}  // namespace clawexec::sys
