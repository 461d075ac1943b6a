// run_and_capture: spawn_process, read_with_deadline on the output pipe, then the
// reap. The pipe's end of input does not prove the process is gone (it may close its outputs
// and keep running), so the reap is polled until the same deadline.

#include "sys/run_capture.h"

#include <signal.h>
#include <sys/wait.h>
#include <time.h>

#include <chrono>

#include "sys/spawn_process.h"
#include "sys/sys.h"

namespace clawexec::sys {
namespace {

using Clock = std::chrono::steady_clock;

int remaining_ms(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left > 0 ? static_cast<int>(left) : 0;
}

}  // namespace

Result<CapturedRun> run_and_capture(const std::string& program, const std::vector<std::string>& argv,
                                    const std::vector<std::string>& env, int timeout_ms, size_t max_output) {
  const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  Pipe out = TRY(make_pipe());
  const int fds[] = {-1, out.write_end.get(), out.write_end.get()};
  const pid_t pid = TRY(spawn_process(program, argv, env, fds));
  out.write_end.reset();

  TimedRead read = read_with_deadline(out.read_end.get(), timeout_ms, max_output);
  CapturedRun run;
  run.output = std::move(read.data);
  run.timed_out = read.timed_out;

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
