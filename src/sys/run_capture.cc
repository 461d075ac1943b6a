// run_and_capture: posix_spawn, a poll loop on the output pipe bounded by a deadline, then the
// reap. The pipe's end of input does not prove the process is gone (it may close its outputs
// and keep running), so the reap is polled until the same deadline.

#include "sys/run_capture.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <time.h>

#include <cerrno>
#include <chrono>

#include "sys/sys.h"

namespace clawexec::sys {
namespace {

using Clock = std::chrono::steady_clock;

std::vector<char*> c_strings(const std::vector<std::string>& strings) {
  std::vector<char*> out;
  out.reserve(strings.size() + 1);
  for (const std::string& s : strings) out.push_back(const_cast<char*>(s.c_str()));
  out.push_back(nullptr);
  return out;
}

int remaining_ms(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left > 0 ? static_cast<int>(left) : 0;
}

Result<pid_t> spawn(const std::string& program, const std::vector<std::string>& argv,
                    const std::vector<std::string>& env, int output_fd) {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  if (::posix_spawn_file_actions_init(&actions) != 0) return Error::internal("posix_spawn_file_actions_init failed");
  if (::posix_spawnattr_init(&attr) != 0) {
    ::posix_spawn_file_actions_destroy(&actions);
    return Error::internal("posix_spawnattr_init failed");
  }
  sigset_t all, none;
  ::sigfillset(&all);
  ::sigdelset(&all, SIGKILL);
  ::sigdelset(&all, SIGSTOP);
  ::sigemptyset(&none);
  int rc = ::posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  if (rc == 0) rc = ::posix_spawn_file_actions_adddup2(&actions, output_fd, 1);
  if (rc == 0) rc = ::posix_spawn_file_actions_adddup2(&actions, output_fd, 2);
  if (rc == 0) rc = ::posix_spawn_file_actions_addclosefrom_np(&actions, 3);
  if (rc == 0) rc = ::posix_spawnattr_setsigdefault(&attr, &all);
  if (rc == 0) rc = ::posix_spawnattr_setsigmask(&attr, &none);
  if (rc == 0) rc = ::posix_spawnattr_setpgroup(&attr, 0);
  if (rc == 0) {
    rc = ::posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP);
  }
  pid_t pid = -1;
  if (rc == 0) {
    std::vector<char*> argv_c = c_strings(argv);
    std::vector<char*> envp = c_strings(env);
    rc = ::posix_spawn(&pid, program.c_str(), &actions, &attr, argv_c.data(), envp.data());
  }
  ::posix_spawn_file_actions_destroy(&actions);
  ::posix_spawnattr_destroy(&attr);
  if (rc != 0) return Error::from_errno("spawn " + program, rc);
  return pid;
}

}  // namespace

Result<CapturedRun> run_and_capture(const std::string& program, const std::vector<std::string>& argv,
                                    const std::vector<std::string>& env, int timeout_ms, size_t max_output) {
  const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  Pipe out = TRY(make_pipe());
  const pid_t pid = TRY(spawn(program, argv, env, out.write_end.get()));
  out.write_end.reset();

  CapturedRun run;
  char block[4096];
  for (;;) {
    struct pollfd p = {out.read_end.get(), POLLIN, 0};
    int ready = ::poll(&p, 1, remaining_ms(deadline));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      run.timed_out = true;
      break;
    }
    ssize_t n = ::read(out.read_end.get(), block, sizeof block);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // end of input (or a read error: nothing more to keep)
    size_t keep = std::min(static_cast<size_t>(n), max_output - std::min(max_output, run.output.size()));
    run.output.append(block, keep);
  }

  std::optional<int> status;
  while (!run.timed_out) {
    status = TRY(try_reap(pid));
    if (status) break;
    if (remaining_ms(deadline) == 0) {
      run.timed_out = true;
      break;
    }
    struct timespec pause = {0, 200 * 1000};
    ::nanosleep(&pause, nullptr);
  }
  if (run.timed_out) {
    ::kill(-pid, SIGKILL);
    status = TRY(reap(pid));
  }
  if (WIFEXITED(*status)) run.exit_code = WEXITSTATUS(*status);
  if (WIFSIGNALED(*status)) run.signal = WTERMSIG(*status);
  return run;
}

}  // namespace clawexec::sys
