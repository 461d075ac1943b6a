// Preparing a command's descriptors and starting clawexec-shim processes with posix_spawn.
//
// A command gets: fd 0 = /dev/null, a stdin pipe, or the PTY slave; fds 1 and 2 = one pipe
// (stdout and stderr merged in true arrival order) or the PTY slave; fd 3 = its supervisor's
// end of the control socket. A shim process has every other descriptor closed (closefrom), its
// signal dispositions and mask reset (the server ignores SIGPIPE; commands must not inherit
// that), its own process group (terminal signals aimed at the server's group do not hit it),
// and its working directory set by a chdir file action.

#include "proc/spawn.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "shim/protocol.h"
#include "sys/sys.h"

namespace clawexec::proc {
namespace {

constexpr int kOutputPipeBytes = 1 << 20;

class SpawnActions {
 public:
  SpawnActions() { ok_ = ::posix_spawn_file_actions_init(&actions_) == 0; }
  ~SpawnActions() {
    if (ok_) ::posix_spawn_file_actions_destroy(&actions_);
  }
  SpawnActions(const SpawnActions&) = delete;
  SpawnActions& operator=(const SpawnActions&) = delete;
  posix_spawn_file_actions_t* get() { return &actions_; }
  bool ok() const { return ok_; }

 private:
  posix_spawn_file_actions_t actions_;
  bool ok_ = false;
};

class SpawnAttributes {
 public:
  SpawnAttributes() { ok_ = ::posix_spawnattr_init(&attr_) == 0; }
  ~SpawnAttributes() {
    if (ok_) ::posix_spawnattr_destroy(&attr_);
  }
  SpawnAttributes(const SpawnAttributes&) = delete;
  SpawnAttributes& operator=(const SpawnAttributes&) = delete;
  posix_spawnattr_t* get() { return &attr_; }
  bool ok() const { return ok_; }

 private:
  posix_spawnattr_t attr_;
  bool ok_ = false;
};

std::vector<char*> c_strings(const std::vector<std::string>& strings) {
  std::vector<char*> out;
  out.reserve(strings.size() + 1);
  for (const std::string& s : strings) out.push_back(const_cast<char*>(s.c_str()));
  out.push_back(nullptr);
  return out;
}

Result<void> check(int rc, const char* what) {
  if (rc != 0) return Error::from_errno(what, rc);
  return {};
}

Result<void> configure_attributes(SpawnAttributes& attr) {
  if (!attr.ok()) return Error::internal("posix_spawnattr_init failed");
  sigset_t all, none;
  ::sigfillset(&all);
  ::sigdelset(&all, SIGKILL);
  ::sigdelset(&all, SIGSTOP);
  ::sigemptyset(&none);
  TRY(check(::posix_spawnattr_setsigdefault(attr.get(), &all), "posix_spawnattr_setsigdefault"));
  TRY(check(::posix_spawnattr_setsigmask(attr.get(), &none), "posix_spawnattr_setsigmask"));
  TRY(check(::posix_spawnattr_setpgroup(attr.get(), 0), "posix_spawnattr_setpgroup"));
  short flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP;
  TRY(check(::posix_spawnattr_setflags(attr.get(), flags), "posix_spawnattr_setflags"));
  return {};
}

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
  SpawnActions actions;
  if (!actions.ok()) return Error::internal("posix_spawn_file_actions_init failed");
  for (int target = 0; target < static_cast<int>(fds.size()); ++target) {
    int source = fds[static_cast<size_t>(target)];
    if (source >= 0) {
      TRY(check(::posix_spawn_file_actions_adddup2(actions.get(), source, target), "adddup2"));
    } else {
      TRY(check(::posix_spawn_file_actions_addopen(actions.get(), target, "/dev/null", O_RDWR, 0), "addopen"));
    }
  }
  TRY(check(::posix_spawn_file_actions_addclosefrom_np(actions.get(), shim::kControlFd + 1), "addclosefrom"));
  if (!cwd.empty()) {
    TRY(check(::posix_spawn_file_actions_addchdir_np(actions.get(), cwd.c_str()), "addchdir"));
  }
  SpawnAttributes attr;
  TRY(configure_attributes(attr));
  std::vector<char*> argv_c = c_strings(argv);
  std::vector<char*> envp = c_strings(env);
  pid_t pid = -1;
  int rc = ::posix_spawn(&pid, shim_path.c_str(), actions.get(), attr.get(), argv_c.data(), envp.data());
  if (rc != 0) return Error::from_errno("spawn " + shim_path, rc);
  return pid;
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
