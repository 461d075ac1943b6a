// The spawner: a long-lived copy of clawexec-shim that starts per-command supervisors.
//
// Problem: exec'ing a fresh shim for every command costs a whole process image load (about
// half a millisecond here), more than the rest of the spawn path together; the server itself
// must not fork (its cost grows with its memory).
//
// Approach: the server starts one spawner (fd 3 = a stream socket to it). For each request the
// spawner forks — cheap, because it is tiny and statically linked — and the child installs the
// received descriptors as its fds 0-3, changes directory and becomes the command's supervisor.
// The spawner ignores SIGCHLD so supervisors are reaped automatically, and dies with the server
// (PDEATHSIG, and EOF on its socket). Supervisors do not depend on the spawner: they watch the
// server through their own control sockets.

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "shim/protocol.h"
#include "shim/sandbox_entry.h"
#include "shim/spawn_request.h"
#include "shim/supervisor.h"

extern char** environ;

namespace clawexec::shim {
namespace {

struct Request {
  SpawnRequestHeader header{};
  int fds[kSandboxRequestFds] = {-1, -1, -1, -1};
  std::string blob;
  std::vector<char*> strings;  // program, cwd, argv..., env..., extras... (pointers into blob)
  std::vector<uint32_t> lengths;
};

void close_fds(Request& r) {
  for (int& fd : r.fds) {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
}

bool read_exact(int fd, char* p, size_t n) {
  while (n > 0) {
    ssize_t got = ::read(fd, p, n);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    p += got;
    n -= static_cast<size_t>(got);
  }
  return true;
}

enum class ReadResult {
  kRequest,   // a well-formed request
  kRejected,  // framing intact but the contents do not add up: refused, the loop goes on
  kClosed,    // end of file, or the stream can no longer be trusted
};

// Reads one request.
ReadResult read_request(Request& r) {
  char control[CMSG_SPACE(sizeof(int) * kSandboxRequestFds)];
  struct iovec iov = {&r.header, sizeof r.header};
  struct msghdr msg = {};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  ssize_t n;
  do {
    n = ::recvmsg(kControlFd, &msg, MSG_CMSG_CLOEXEC | MSG_WAITALL);
  } while (n < 0 && errno == EINTR);
  if (n != static_cast<ssize_t>(sizeof r.header)) return ReadResult::kClosed;
  for (struct cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    for (int count : {kSpawnRequestFds, kSandboxRequestFds}) {
      if (c->cmsg_len == CMSG_LEN(sizeof(int) * static_cast<size_t>(count))) {
        std::memcpy(r.fds, CMSG_DATA(c), sizeof(int) * static_cast<size_t>(count));
      }
    }
  }
  if (r.header.magic != kSpawnRequestMagic || r.header.blob_size > kMaxSpawnBlob) {
    close_fds(r);
    return ReadResult::kClosed;
  }
  r.blob.resize(r.header.blob_size);
  if (!read_exact(kControlFd, r.blob.data(), r.blob.size())) {
    close_fds(r);
    return ReadResult::kClosed;
  }
  size_t expected = 2 + static_cast<size_t>(r.header.argc) + r.header.envc + r.header.extrac;
  bool sandboxed = (r.header.flags & kSpawnFlagSandbox) != 0;
  // A sandboxed request must bring its holder and its fixed extras; a plain one has neither.
  bool shape_ok = sandboxed ? (r.fds[3] >= 0 && r.header.extrac >= kSandboxFixedExtras)
                            : (r.fds[3] < 0 && r.header.extrac == 0);
  if (r.fds[2] < 0 || !shape_ok || !decode_spawn_strings(r.blob, r.strings, r.lengths) ||
      r.strings.size() != expected || r.header.argc == 0) {
    return ReadResult::kRejected;
  }
  return ReadResult::kRequest;
}

// The supervisor's own failure report, sent before there is a supervisor.
void report_failure(int control_fd, int err) { send_message(control_fd, MessageKind::kExecFailed, err); }

[[noreturn]] void become_supervisor(Request& r) {
  ::signal(SIGCHLD, SIG_DFL);
  ::prctl(PR_SET_NAME, "clawexec-super");  // tell supervisors from the spawner in `ps -o comm`
  // Received descriptors are all >= 4: 0-2 are the spawner's /dev/null and 3 its socket, which
  // the control descriptor replaces.
  ::dup2(r.fds[0], 0);
  ::dup2(r.fds[1], 1);
  ::dup2(r.fds[1], 2);
  ::dup2(r.fds[2], kControlFd);
  int holder = -1;
  if (r.fds[3] >= 0) {
    holder = kControlFd + 1;
    ::dup2(r.fds[3], holder);
  }
  ::syscall(SYS_close_range, holder >= 0 ? holder + 1 : kControlFd + 1, ~0U, 0);
  const char* program = r.strings[0];
  const char* cwd = r.strings[1];
  size_t extras = 2 + static_cast<size_t>(r.header.argc) + r.header.envc;
  if (holder >= 0) {
    std::vector<char*> writable(r.strings.begin() + static_cast<long>(extras + kSandboxFixedExtras), r.strings.end());
    writable.push_back(nullptr);
    SandboxEntry entry{.holder_pidfd = holder,
                       .seccomp_program = r.strings[extras],
                       .seccomp_bytes = r.lengths[extras],
                       .user = r.strings[extras + 1],
                       .limits = r.strings[extras + 2],
                       .cgroups = r.strings[extras + 3],
                       .writable_paths = writable.data()};
    if (int err = enter_sandbox(entry)) {
      report_failure(kControlFd, err);
      ::_exit(1);
    }
  }
  if (*cwd && ::chdir(cwd) != 0) {
    report_failure(kControlFd, errno);
    ::_exit(1);
  }
  std::vector<char*> argv(r.strings.begin() + 2, r.strings.begin() + 2 + r.header.argc);
  argv.push_back(nullptr);
  std::vector<char*> envp(r.strings.begin() + 2 + r.header.argc, r.strings.begin() + static_cast<long>(extras));
  envp.push_back(nullptr);
  ::_exit(supervise(program, argv.data(), envp.data(), (r.header.flags & kSpawnFlagPty) != 0));
}

}  // namespace

int run_spawner() {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  ::fcntl(kControlFd, F_SETFD, FD_CLOEXEC);
  ::signal(SIGCHLD, SIG_IGN);  // supervisors are reaped by the kernel
  while (true) {
    Request r;
    ReadResult read = read_request(r);
    if (read == ReadResult::kClosed) return 0;
    if (read == ReadResult::kRejected) {
      if (r.fds[2] >= 0) report_failure(r.fds[2], EINVAL);
      close_fds(r);
      continue;
    }
    pid_t pid = ::fork();
    if (pid == 0) become_supervisor(r);
    if (pid < 0) report_failure(r.fds[2], errno);
    close_fds(r);
  }
}

}  // namespace clawexec::shim
