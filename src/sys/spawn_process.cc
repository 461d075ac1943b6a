// posix_spawn with the file actions and attributes every child of ours gets, and a
// deadline-bounded read of a child's output (see spawn_process.h).

#include "sys/spawn_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>

namespace clawexec::sys {
namespace {

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

std::vector<char*> c_strings(const std::vector<std::string>& strings) {
  std::vector<char*> out;
  out.reserve(strings.size() + 1);
  for (const std::string& s : strings) out.push_back(const_cast<char*>(s.c_str()));
  out.push_back(nullptr);
  return out;
}

Result<pid_t> spawn_process(const std::string& program, const std::vector<std::string>& argv,
                            const std::vector<std::string>& env, std::span<const int> fds, const std::string& cwd) {
  SpawnActions actions;
  if (!actions.ok()) return Error::internal("posix_spawn_file_actions_init failed");
  for (size_t target = 0; target < fds.size(); ++target) {
    int t = static_cast<int>(target);
    if (fds[target] >= 0) {
      TRY(check(::posix_spawn_file_actions_adddup2(actions.get(), fds[target], t), "adddup2"));
    } else {
      TRY(check(::posix_spawn_file_actions_addopen(actions.get(), t, "/dev/null", O_RDWR, 0), "addopen"));
    }
  }
  TRY(check(::posix_spawn_file_actions_addclosefrom_np(actions.get(), static_cast<int>(fds.size())), "addclosefrom"));
  if (!cwd.empty()) TRY(check(::posix_spawn_file_actions_addchdir_np(actions.get(), cwd.c_str()), "addchdir"));
  SpawnAttributes attr;
  TRY(configure_attributes(attr));
  std::vector<char*> argv_c = c_strings(argv);
  std::vector<char*> envp = c_strings(env);
  pid_t pid = -1;
  int rc = ::posix_spawn(&pid, program.c_str(), actions.get(), attr.get(), argv_c.data(), envp.data());
  if (rc != 0) return Error::from_errno("spawn " + program, rc);
  return pid;
}

TimedRead read_with_deadline(int fd, int timeout_ms, size_t max_bytes, std::optional<char> until) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  TimedRead out;
  char block[4096];
  // Byte by byte when a terminator is wanted: nothing after it may be consumed.
  const size_t chunk = until ? 1 : sizeof block;
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      out.timed_out = true;
      return out;
    }
    struct pollfd p = {fd, POLLIN, 0};
    int ready = ::poll(&p, 1, static_cast<int>(left));
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) return out;
    if (ready == 0) continue;  // the deadline check above ends it
    ssize_t n = ::read(fd, block, chunk);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) return out;  // end of input, or a read error: nothing more to keep
    size_t keep = std::min(static_cast<size_t>(n), max_bytes - std::min(max_bytes, out.data.size()));
    if (until && block[0] == *until) return out;
    out.data.append(block, keep);
  }
}

}  // namespace clawexec::sys
