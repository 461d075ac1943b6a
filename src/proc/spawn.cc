// Preparing a command's descriptors and starting clawexec-shim processes with posix_spawn.
//
// A command gets: fd 0 = /dev/null, a stdin pipe, or the PTY slave; fds 1 and 2 = one pipe
// (stdout and stderr merged in true arrival order) or the PTY slave; fd 3 = its supervisor's
// end of the control socket. A shim process has every other descriptor closed (closefrom), its
// signal dispositions and mask reset (the server ignores SIGPIPE; commands must not inherit
// that), its own process group (terminal signals aimed at the server's group do not hit it),
// and its working directory set by a chdir file action.

#include "proc/spawn.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "shim/protocol.h"
#include "sys/spawn_process.h"
#include "sys/sys.h"

namespace clawexec::proc {
namespace {

constexpr int kOutputPipeBytes = 1 << 20;

}  // namespace

Result<ChildStdio> prepare_stdio(const SpawnSpec& spec, SpawnedShim& shim) {
  ChildStdio child;
  if (spec.terminal == Terminal::kPty) {
    sys::Pty pty = TRY(sys::open_pty(spec.ptmx, spec.columns, spec.rows));
    // Opened with O_NOCTTY (the server must not acquire it); the command makes it its
    // controlling terminal itself (setsid + TIOCSCTTY in the supervisor).
    child.in = TRY(sys::open_terminal(pty.slave_path));
    shim.input = TRY(sys::duplicate_fd(pty.master.get(), "dup PTY master"));
    shim.output = std::move(pty.master);
    return child;
  }
  sys::Pipe out = TRY(sys::make_pipe());
  ignore_error(sys::set_pipe_size(out.read_end.get(), kOutputPipeBytes));
  if (spec.stdin_mode == StdinMode::kPipe) {
    sys::Pipe in = TRY(sys::make_pipe());
    child.in = std::move(in.read_end);
    shim.input = std::move(in.write_end);
  } else {
    child.in = TRY(sys::open_null());
  }
  child.out = std::move(out.write_end);
  shim.output = std::move(out.read_end);
  return child;
}

Result<pid_t> spawn_shim_process(const std::string& shim_path, const std::vector<std::string>& argv,
                                 const std::vector<std::string>& env, const ShimFds& fds, const std::string& cwd) {
  static_assert(std::tuple_size_v<ShimFds> == shim::kControlFd + 1);
  return sys::spawn_process(shim_path, argv, env, fds, cwd);
}

Result<SpawnedShim> spawn_with_shim(const SpawnSpec& spec, const std::string& shim_path) {
  SpawnedShim shim;
  auto [server_control, shim_control] = TRY(sys::make_seqpacket_pair());
  ChildStdio child = TRY(prepare_stdio(spec, shim));
  int out = child.out.valid() ? child.out.get() : child.in.get();
  std::vector<std::string> argv{shim_path,
                                spec.terminal == Terminal::kPty ? shim::kModePty : shim::kModePipes,
                                spec.program};
  argv.insert(argv.end(), spec.argv.begin(), spec.argv.end());
  pid_t pid = TRY(spawn_shim_process(shim_path, argv, spec.env, {child.in.get(), out, out, shim_control.get()},
                                     spec.cwd));
  shim.shim_pid = pid;
  shim.control = std::move(server_control);
  Result<sys::UniqueFd> pidfd = sys::pidfd_open(pid);
  if (!pidfd.ok()) {
    ::kill(pid, SIGKILL);
    ignore_error(sys::reap(pid));
    return std::move(pidfd).error();
  }
  shim.pidfd = std::move(pidfd).value();
  TRY(make_nonblocking(shim));
  return shim;
}

Result<void> make_nonblocking(SpawnedShim& shim) {
  TRY(sys::set_nonblocking(shim.output.get()));
  if (shim.input) TRY(sys::set_nonblocking(shim.input.get()));
  TRY(sys::set_nonblocking(shim.control.get()));
  return {};
}

std::vector<std::string> shim_search_paths(const std::string& self_executable) {
  std::string dir = self_executable.substr(0, self_executable.rfind('/'));
  std::vector<std::string> paths;
  for (const char* candidate : {"/clawexec-shim", "/../bin/clawexec-shim", "/../libexec/clawexec-shim"}) {
    paths.push_back(dir + candidate);
  }
  return paths;
}

Result<std::string> locate_shim() {
  if (const char* env = std::getenv("CLAWEXEC_SHIM"); env && *env) {
    if (!sys::is_executable_file(env)) {
      return Error::invalid(std::string("CLAWEXEC_SHIM=") + env + " is not an executable file");
    }
    return std::string(env);
  }
  std::string self = TRY(sys::self_executable());
  for (const std::string& path : shim_search_paths(self)) {
    if (sys::is_executable_file(path)) return path;
  }
  return Error{ErrorCode::kNotFound, ENOENT,
               "locate clawexec-shim: not found next to " + self + " (set CLAWEXEC_SHIM)"};
}

}  // namespace clawexec::proc
