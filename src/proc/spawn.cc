// posix_spawn of clawexec-shim with the command's stdio prepared as file actions.
//
// The shim gets: fd 0 = /dev/null, a stdin pipe, or the PTY slave; fds 1 and 2 = one pipe
// (stdout and stderr merged in true arrival order) or the PTY slave; fd 3 = its end of the
// control socket. Every other descriptor is closed in the child (closefrom), signal dispositions
// and mask are reset (the server ignores SIGPIPE; commands must not inherit that), the shim gets
// its own process group (terminal signals aimed at the server's group do not hit it), and the
// working directory is set by a chdir file action.

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

extern char** environ;

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

Result<SpawnedShim> spawn_with_shim(const SpawnSpec& spec, const std::string& shim_path) {
  SpawnedShim shim;
  SpawnActions actions;
  if (!actions.ok()) return Error::internal("posix_spawn_file_actions_init failed");
  auto [server_control, shim_control] = TRY(sys::make_seqpacket_pair());

  sys::UniqueFd child_stdin;   // kept open until the spawn is done
  sys::UniqueFd child_output;  // likewise
  sys::Pty pty;
  if (spec.terminal == Terminal::kPty) {
    pty = TRY(sys::open_pty(spec.ptmx, spec.columns, spec.rows));
    TRY(check(::posix_spawn_file_actions_addopen(actions.get(), 0, pty.slave_path.c_str(), O_RDWR, 0),
              "posix_spawn_file_actions_addopen"));
    TRY(check(::posix_spawn_file_actions_adddup2(actions.get(), 0, 1), "adddup2"));
    TRY(check(::posix_spawn_file_actions_adddup2(actions.get(), 0, 2), "adddup2"));
    int dup_fd = ::fcntl(pty.master.get(), F_DUPFD_CLOEXEC, 0);
    if (dup_fd < 0) return Error::from_errno("dup PTY master", errno);
    shim.input.reset(dup_fd);
    shim.output = std::move(pty.master);
  } else {
    sys::Pipe out = TRY(sys::make_pipe());
    ignore_error(sys::set_pipe_size(out.read_end.get(), kOutputPipeBytes));
    if (spec.stdin_mode == StdinMode::kPipe) {
      sys::Pipe in = TRY(sys::make_pipe());
      TRY(check(::posix_spawn_file_actions_adddup2(actions.get(), in.read_end.get(), 0), "adddup2"));
      child_stdin = std::move(in.read_end);
      shim.input = std::move(in.write_end);
    } else {
      TRY(check(::posix_spawn_file_actions_addopen(actions.get(), 0, "/dev/null", O_RDONLY, 0),
                "posix_spawn_file_actions_addopen"));
    }
    TRY(check(::posix_spawn_file_actions_adddup2(actions.get(), out.write_end.get(), 1), "adddup2"));
    TRY(check(::posix_spawn_file_actions_adddup2(actions.get(), out.write_end.get(), 2), "adddup2"));
    child_output = std::move(out.write_end);
    shim.output = std::move(out.read_end);
  }
  TRY(check(::posix_spawn_file_actions_adddup2(actions.get(), shim_control.get(), shim::kControlFd),
            "adddup2"));
  TRY(check(::posix_spawn_file_actions_addclosefrom_np(actions.get(), shim::kControlFd + 1),
            "addclosefrom"));
  if (!spec.cwd.empty()) {
    TRY(check(::posix_spawn_file_actions_addchdir_np(actions.get(), spec.cwd.c_str()), "addchdir"));
  }
  SpawnAttributes attr;
  TRY(configure_attributes(attr));

  std::vector<std::string> shim_argv{shim_path,
                                     spec.terminal == Terminal::kPty ? shim::kModePty : shim::kModePipes,
                                     spec.program};
  shim_argv.insert(shim_argv.end(), spec.argv.begin(), spec.argv.end());
  std::vector<char*> argv = c_strings(shim_argv);
  std::vector<char*> envp = c_strings(spec.env);
  pid_t pid = -1;
  int rc = ::posix_spawn(&pid, shim_path.c_str(), actions.get(), attr.get(), argv.data(), envp.data());
  if (rc != 0) {
    if (rc == ENOENT && !spec.cwd.empty() && !sys::is_directory(spec.cwd)) {
      return Error::from_errno("spawn in working directory " + spec.cwd, rc);
    }
    return Error::from_errno("spawn " + shim_path, rc);
  }
  shim.shim_pid = pid;
  shim.control = std::move(server_control);
  Result<sys::UniqueFd> pidfd = sys::pidfd_open(pid);
  if (!pidfd.ok()) {
    ::kill(pid, SIGKILL);
    ignore_error(sys::reap(pid));
    return std::move(pidfd).error();
  }
  shim.pidfd = std::move(pidfd).value();
  TRY(sys::set_nonblocking(shim.output.get()));
  if (shim.input) TRY(sys::set_nonblocking(shim.input.get()));
  TRY(sys::set_nonblocking(shim.control.get()));
  return shim;
}

Result<std::string> locate_shim() {
  if (const char* env = std::getenv("CLAWEXEC_SHIM"); env && *env) {
    if (!sys::is_executable_file(env)) {
      return Error::invalid(std::string("CLAWEXEC_SHIM=") + env + " is not an executable file");
    }
    return std::string(env);
  }
  std::string self = TRY(sys::self_executable());
  std::string dir = self.substr(0, self.rfind('/'));
  for (const char* candidate : {"/clawexec-shim", "/../bin/clawexec-shim", "/../libexec/clawexec-shim"}) {
    std::string path = dir + candidate;
    if (sys::is_executable_file(path)) return path;
  }
  return Error{ErrorCode::kNotFound, ENOENT,
               "locate clawexec-shim: not found next to " + self + " (set CLAWEXEC_SHIM)"};
}

}  // namespace clawexec::proc
