// The per-command supervisor: guarantees that no command outlives its server.
//
// Problem: a command is a process tree the server does not control. Children can leave the
// command's process group (setsid, double fork), a finished command can leave workers behind,
// and the server itself can be SIGKILLed, which runs no cleanup code at all.
//
// Approach: the supervisor runs with the command's stdio on fds 0-2 and a SOCK_SEQPACKET
// control socket on fd 3 (see protocol.h). It makes itself a child subreaper, so every
// orphaned descendant is re-parented to it rather than to init and the whole tree stays below
// it; it forks the command into a new session, reports its pid, then waits for: the command's
// exit (it then stops every leftover descendant: SIGTERM, a grace period, SIGKILL; reaps them;
// reports the exit status), a signal request from the server (sent to every process of the
// tree), or the loss of the server (EOF on the control socket, which the kernel delivers even
// after SIGKILL), in which case it stops the tree the same way and exits.

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "shim/protocol.h"
#include "shim/supervisor.h"

namespace clawexec::shim {
namespace {

int64_t now_ms() {
  struct timespec ts;
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

// Appends the pids listed in one /proc/<pid>/task/<tid>/children file.
void read_children_file(const char* path, std::vector<pid_t>& out) {
  int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  char buf[4096];
  long value = -1;
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0) {
    for (ssize_t i = 0; i < n; ++i) {
      char c = buf[i];
      if (c >= '0' && c <= '9') {
        value = (value < 0 ? 0 : value * 10) + (c - '0');
      } else if (value >= 0) {
        out.push_back(static_cast<pid_t>(value));
        value = -1;
      }
    }
  }
  if (value >= 0) out.push_back(static_cast<pid_t>(value));
  ::close(fd);
}

// Every process below `root`. Because the shim is a subreaper, this is the command's whole
// tree: a descendant whose parent died was re-parented to the shim, not to init.
std::vector<pid_t> descendants_of(pid_t root) {
  std::vector<pid_t> found;
  std::vector<pid_t> pending{root};
  char path[96];
  while (!pending.empty()) {
    pid_t pid = pending.back();
    pending.pop_back();
    std::snprintf(path, sizeof path, "/proc/%d/task", pid);
    DIR* dir = ::opendir(path);
    if (!dir) continue;
    while (struct dirent* entry = ::readdir(dir)) {
      if (entry->d_name[0] == '.') continue;
      std::snprintf(path, sizeof path, "/proc/%d/task/%.20s/children", pid, entry->d_name);
      size_t before = found.size();
      read_children_file(path, found);
      pending.insert(pending.end(), found.begin() + static_cast<long>(before), found.end());
    }
    ::closedir(dir);
  }
  return found;
}

void signal_tree(int signo) {
  for (pid_t pid : descendants_of(::getpid())) {
    ::kill(pid, signo);
    // A stopped process cannot act on SIGTERM until it is continued.
    if (signo == SIGTERM) ::kill(pid, SIGCONT);
  }
}

struct State {
  pid_t command = -1;
  int command_status = 0;
  bool command_exited = false;
  bool server_gone = false;
  int signal_fd = -1;
};

// Reaps every exited child; records the command's own status. Returns false once the shim has
// no children left at all.
bool reap_children(State& state) {
  while (true) {
    int status = 0;
    pid_t pid = ::waitpid(-1, &status, WNOHANG);
    if (pid > 0) {
      if (pid == state.command) {
        state.command_exited = true;
        state.command_status = status;
      }
      continue;
    }
    if (pid == 0) return true;
    if (errno == EINTR) continue;
    return false;  // ECHILD: nothing left below us
  }
}

void drain_signals(State& state) {
  struct signalfd_siginfo info;
  while (::read(state.signal_fd, &info, sizeof info) == static_cast<ssize_t>(sizeof info)) {
    if (info.ssi_signo != SIGCHLD) state.server_gone = true;
  }
}

void read_control(State& state) {
  while (true) {
    Message m;
    ssize_t n = ::recv(kControlFd, &m, sizeof m, MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      state.server_gone = true;
      return;
    }
    if (n == static_cast<ssize_t>(sizeof m) && m.kind == MessageKind::kSignalTree) {
      signal_tree(m.value);
    }
  }
}

// Waits up to `timeout_ms` for a signal or control message and handles it.
void wait_for_events(State& state, int timeout_ms) {
  struct pollfd fds[2] = {{state.signal_fd, POLLIN, 0}, {kControlFd, POLLIN, 0}};
  nfds_t count = state.server_gone ? 1 : 2;
  int r = ::poll(fds, count, timeout_ms);
  if (r <= 0) return;
  if (fds[0].revents) drain_signals(state);
  if (count == 2 && fds[1].revents) read_control(state);
}

// Stops everything below the shim: SIGTERM, then SIGKILL once `grace_ms` has passed, until no
// child is left. Returns when the subtree is empty.
void stop_tree(State& state, int grace_ms) {
  if (!reap_children(state)) return;
  signal_tree(SIGTERM);
  int64_t deadline = now_ms() + grace_ms;
  bool killing = false;
  while (reap_children(state)) {
    if (!killing && now_ms() >= deadline) killing = true;
    if (killing) signal_tree(SIGKILL);
    wait_for_events(state, killing ? 10 : 20);
  }
}

// Starts the command; returns its pid, or -1 after reporting the failure to the server.
// vfork: the child shares our memory until its execve, so starting costs no page-table copy,
// and a failure is reported by storing errno in `child_errno` before _exit. The child makes
// only system calls; no handler can run in it (the signals we handle are blocked until the
// child restores the original mask, and all others have default dispositions).
pid_t start_command(const char* path, char** argv, char** envp, bool pty, const sigset_t& original_mask) {
  volatile int child_errno = 0;
  pid_t pid = ::vfork();
  if (pid == 0) {
    ::sigprocmask(SIG_SETMASK, &original_mask, nullptr);
    if (::setsid() < 0 || (pty && ::ioctl(0, TIOCSCTTY, 0) < 0)) {
      child_errno = errno;
      ::_exit(127);
    }
    ::execve(path, argv, envp);
    child_errno = errno;
    ::_exit(127);
  }
  if (pid < 0) {
    send_message(kControlFd, MessageKind::kExecFailed, errno);
    return -1;
  }
  if (child_errno != 0) {
    int status;
    ::waitpid(pid, &status, 0);
    send_message(kControlFd, MessageKind::kExecFailed, child_errno);
    return -1;
  }
  return pid;
}

// The shim must not keep the command's output pipe or terminal open: the server sees EOF only
// once every holder is gone.
void release_stdio() {
  int null_fd = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  if (null_fd < 0) return;
  for (int fd = 0; fd <= 2; ++fd) ::dup2(null_fd, fd);
  ::close(null_fd);
}

}  // namespace

void send_message(int control_fd, MessageKind kind, int32_t value) {
  const Message m{kind, value};
  // The server may already be gone; nothing useful can be done about a failed send.
  (void)::send(control_fd, &m, sizeof m, MSG_NOSIGNAL);
}

int supervise(const char* program, char** argv, char** envp, bool pty) {
  ::fcntl(kControlFd, F_SETFD, FD_CLOEXEC);
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);

  sigset_t handled, original;
  ::sigemptyset(&handled);
  for (int s : {SIGCHLD, SIGHUP, SIGTERM, SIGINT, SIGQUIT}) ::sigaddset(&handled, s);
  ::sigprocmask(SIG_BLOCK, &handled, &original);
  State state;
  state.signal_fd = ::signalfd(-1, &handled, SFD_CLOEXEC | SFD_NONBLOCK);
  if (state.signal_fd < 0) {
    send_message(kControlFd, MessageKind::kExecFailed, errno);
    return 1;
  }

  state.command = start_command(program, argv, envp, pty, original);
  if (state.command < 0) return 1;
  send_message(kControlFd, MessageKind::kStarted, state.command);
  release_stdio();

  while (!state.command_exited && !state.server_gone) {
    wait_for_events(state, -1);
    reap_children(state);
  }
  if (state.server_gone) {
    stop_tree(state, kOrphanedGraceMs);
    return 0;
  }
  stop_tree(state, kLeftoverGraceMs);
  if (WIFSIGNALED(state.command_status)) {
    send_message(kControlFd, MessageKind::kExitedSignal, WTERMSIG(state.command_status));
  } else {
    send_message(kControlFd, MessageKind::kExitedCode, WEXITSTATUS(state.command_status));
  }
  return 0;
}

}  // namespace clawexec::shim
