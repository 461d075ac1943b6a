// One-shot helper shells for the shell environment. They are started like commands (through
// the supervisor, in their own session, stdin closed) so that a hanging login shell can be
// killed as a tree and nothing survives the server. The first of exit, timeout and output
// overflow decides the result; the process is kept alive by its own event handlers until the
// supervisor reports it gone.

#include "shellenv/shell_run.h"

#include <signal.h>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <memory>

#include "proc/process.h"

namespace clawexec::shellenv {
namespace {

struct RunState {
  explicit RunState(boost::asio::io_context& io) : timer(io) {}
  boost::asio::steady_timer timer;
  std::function<void(ShellRunResult)> done;
  ShellRunResult result;
  std::shared_ptr<proc::Process> process;
  size_t max_output = 0;
  bool finished = false;

  void finish() {
    if (finished) return;
    finished = true;
    timer.cancel();
    auto callback = std::move(done);
    ShellRunResult r = std::move(result);
    if (process && !process->exited() && (r.timed_out || r.output_overflow)) process->signal_tree(SIGKILL);
    process.reset();
    callback(std::move(r));
  }
};

}  // namespace

void run_shell(boost::asio::io_context& io, proc::Spawner& spawner, const ShellRunSpec& spec,
               std::function<void(ShellRunResult)> done) {
  auto state = std::make_shared<RunState>(io);
  state->done = std::move(done);
  state->max_output = spec.max_output_bytes;
  proc::SpawnSpec spawn;
  spawn.program = spec.argv.empty() ? std::string() : spec.argv.front();
  spawn.argv = spec.argv;
  spawn.env = env::to_assignments(spec.env);
  spawn.cwd = spec.cwd;
  spawn.terminal = proc::Terminal::kPipes;
  spawn.stdin_mode = proc::StdinMode::kClosed;
  spawn.sandbox = spec.sandbox;
  std::weak_ptr<RunState> weak = state;
  proc::Process::Events events;
  events.started = [weak](Result<pid_t> started) {
    auto s = weak.lock();
    if (!s || started.ok()) return;
    s->result.error = started.error().message;
    s->finish();
  };
  events.output = [weak](std::string_view data) {
    auto s = weak.lock();
    if (!s || s->finished || s->max_output == 0) return;
    if (s->result.output.size() + data.size() > s->max_output) {
      s->result.output_overflow = true;
      s->finish();
      return;
    }
    s->result.output.append(data);
  };
  events.exited = [weak](proc::ExitStatus status) {
    auto s = weak.lock();
    if (!s || s->finished) return;
    s->result.exit_code = status.code;
    s->finish();
  };
  Result<std::shared_ptr<proc::Process>> process = proc::Process::start(io, spawn, spawner, std::move(events));
  if (!process.ok()) {
    state->result.error = process.error().message;
    // Deliver asynchronously, like every other outcome.
    boost::asio::post(io, [state] { state->finish(); });
    return;
  }
  state->process = process.value();
  if (spec.timeout_ms > 0) {
    state->timer.expires_after(std::chrono::milliseconds(spec.timeout_ms));
    state->timer.async_wait([state](const boost::system::error_code& ec) {
      if (ec) return;
      state->result.timed_out = true;
      state->finish();
    });
  } else {
    // Nothing else holds the state: keep it alive until the process reports its exit.
    state->timer.expires_at(boost::asio::steady_timer::time_point::max());
    state->timer.async_wait([state](const boost::system::error_code&) {});
  }
}

}  // namespace clawexec::shellenv
