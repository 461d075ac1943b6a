// Spawner (see spawner.h). Requests are written with blocking sendmsg on a stream socket: the
// helper reads them as fast as it can fork, and a request is a few kilobytes. A broken helper
// (EPIPE) is restarted once per spawn before falling back to the direct path.

#include "proc/spawner.h"

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
  helper_pid_ = TRY(spawn_shim_process(shim_path_, {shim_path_, "spawner"}, {}, {-1, -1, -1, theirs.get()}, ""));
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
  // Only the helper can join a sandbox: never run a sandboxed command outside it.
  if (spec.sandbox) return Error::internal("spawn in sandbox: the clawexec-shim spawner is not running");
  return spawn_with_shim(spec, shim_path_);
}

Result<SpawnedShim> Spawner::spawn_via_helper(const SpawnSpec& spec) {
  SpawnedShim shim;
  auto [server_control, shim_control] = TRY(sys::make_seqpacket_pair());
  ChildStdio child = TRY(prepare_stdio(spec, shim));
  int out = child.out.valid() ? child.out.get() : child.in.get();
  int fds[shim::kSandboxRequestFds] = {child.in.get(), out, shim_control.get(), -1};
  uint32_t flags = spec.terminal == Terminal::kPty ? shim::kSpawnFlagPty : 0;
  std::vector<std::string> extras;
  if (spec.sandbox) {
    flags |= shim::kSpawnFlagSandbox;
    fds[3] = spec.sandbox->holder_pidfd.get();
    extras.reserve(shim::kSandboxFixedExtras + spec.sandbox->writable_paths.size());
    extras.push_back(spec.sandbox->seccomp_program);
    extras.push_back(spec.sandbox->user);
    extras.push_back(spec.sandbox->limits);
    extras.push_back(spec.sandbox->cgroups);
    extras.insert(extras.end(), spec.sandbox->writable_paths.begin(), spec.sandbox->writable_paths.end());
  }
  std::string request = shim::encode_spawn_request(flags, spec.program, spec.cwd, spec.argv, spec.env, extras);
  TRY(sys::send_with_fds(socket_.get(), request, fds, spec.sandbox ? shim::kSandboxRequestFds : shim::kSpawnRequestFds));
  shim.control = std::move(server_control);
  TRY(make_nonblocking(shim));
  return shim;
}

}  // namespace clawexec::proc
