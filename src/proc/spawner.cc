// Spawner (see spawner.h). Requests are written with blocking sendmsg on a stream socket: the
// helper reads them as fast as it can fork, and a request is a few kilobytes. A broken helper
// (EPIPE) is restarted once per spawn before falling back to the direct path.

#include "proc/spawner.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "shim/protocol.h"
#include "shim/spawn_request.h"
#include "sys/sys.h"

namespace clawexec::proc {

Spawner::Spawner(std::string shim_path) : shim_path_(std::move(shim_path)) {}

Spawner::~Spawner() { stop_helper(); }

void Spawner::stop_helper() {
  socket_.reset();  // the helper exits on end-of-file
  if (helper_pid_ > 0) {
    ignore_error(sys::try_reap(helper_pid_));
    helper_pid_ = -1;
  }
}

Result<void> Spawner::start_helper() {
  stop_helper();
  auto [ours, theirs] = TRY(sys::make_stream_pair());
  posix_spawn_file_actions_t actions;
  ::posix_spawn_file_actions_init(&actions);
  ::posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  ::posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  ::posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  ::posix_spawn_file_actions_adddup2(&actions, theirs.get(), shim::kControlFd);
  ::posix_spawn_file_actions_addclosefrom_np(&actions, shim::kControlFd + 1);
  posix_spawnattr_t attr;
  ::posix_spawnattr_init(&attr);
  sigset_t all, none;
  ::sigfillset(&all);
  ::sigdelset(&all, SIGKILL);
  ::sigdelset(&all, SIGSTOP);
  ::sigemptyset(&none);
  ::posix_spawnattr_setsigdefault(&attr, &all);
  ::posix_spawnattr_setsigmask(&attr, &none);
  ::posix_spawnattr_setpgroup(&attr, 0);
  ::posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP);
  std::string mode = "spawner";
  char* argv[] = {shim_path_.data(), mode.data(), nullptr};
  char* envp[] = {nullptr};
  pid_t pid = -1;
  int rc = ::posix_spawn(&pid, shim_path_.c_str(), &actions, &attr, argv, envp);
  ::posix_spawn_file_actions_destroy(&actions);
  ::posix_spawnattr_destroy(&attr);
  if (rc != 0) return Error::from_errno("spawn " + shim_path_ + " spawner", rc);
  helper_pid_ = pid;
  socket_ = std::move(ours);
  return {};
}

Result<SpawnedShim> Spawner::spawn(const SpawnSpec& spec) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (!socket_.valid() && !start_helper().ok()) break;
    Result<SpawnedShim> r = spawn_via_helper(spec);
    if (r.ok() || r.error().sys_errno != EPIPE) return r;
    stop_helper();  // the helper died: restart it once
  }
  return spawn_with_shim(spec, shim_path_);
}

Result<SpawnedShim> Spawner::spawn_via_helper(const SpawnSpec& spec) {
  SpawnedShim shim;
  auto [server_control, shim_control] = TRY(sys::make_seqpacket_pair());
  sys::UniqueFd child_in;
  sys::UniqueFd child_out;
  if (spec.terminal == Terminal::kPty) {
    sys::Pty pty = TRY(sys::open_pty(spec.ptmx, spec.columns, spec.rows));
    child_in = TRY(sys::open_terminal(pty.slave_path));
    int dup_fd = ::fcntl(pty.master.get(), F_DUPFD_CLOEXEC, 0);
    if (dup_fd < 0) return Error::from_errno("dup PTY master", errno);
    shim.input.reset(dup_fd);
    shim.output = std::move(pty.master);
  } else {
    sys::Pipe out = TRY(sys::make_pipe());
    ignore_error(sys::set_pipe_size(out.read_end.get(), 1 << 20));
    if (spec.stdin_mode == StdinMode::kPipe) {
      sys::Pipe in = TRY(sys::make_pipe());
      child_in = std::move(in.read_end);
      shim.input = std::move(in.write_end);
    } else {
      if (!null_fd_.valid()) null_fd_ = TRY(sys::open_null());
    }
    child_out = std::move(out.write_end);
    shim.output = std::move(out.read_end);
  }
  int in_fd = child_in.valid() ? child_in.get() : null_fd_.get();
  int out_fd = child_out.valid() ? child_out.get() : child_in.get();
  int fds[shim::kSpawnRequestFds] = {in_fd, out_fd, shim_control.get()};
  std::string request = shim::encode_spawn_request(
      spec.terminal == Terminal::kPty ? shim::kSpawnFlagPty : 0, spec.program, spec.cwd, spec.argv, spec.env);
  TRY(sys::send_with_fds(socket_.get(), request, fds, shim::kSpawnRequestFds));
  shim.control = std::move(server_control);
  TRY(sys::set_nonblocking(shim.output.get()));
  if (shim.input) TRY(sys::set_nonblocking(shim.input.get()));
  TRY(sys::set_nonblocking(shim.control.get()));
  return shim;
}

}  // namespace clawexec::proc
