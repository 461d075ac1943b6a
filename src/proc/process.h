#pragma once
// A running command as the event loop sees it: output bytes as they arrive, its pid once the
// shim reports it, one exit event after all output has been read, and methods to signal the
// whole process tree and write to its input. Everything runs on the io_context thread.

#include <sys/types.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "proc/child.h"
#include "proc/spawn.h"
#include "proc/spawner.h"

namespace clawexec::proc {

class Process : public Child, public std::enable_shared_from_this<Process> {
 public:
  /// Raw output bytes arrive through `output`.
  using Events = ChildEvents;

  /// Spawns the command under a supervisor and starts watching it. `started` is delivered later.
  static Result<std::shared_ptr<Process>> start(boost::asio::io_context& io, const SpawnSpec& spec,
                                                Spawner& spawner, Events events);

  ~Process() override;
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  /// Sends `signo` to every process of the command's tree (via the shim, which sees
  /// descendants that left the process group too). No-op once exited.
  void signal_tree(int signo) override;

  /// Queues `data` for the command's input; `done` reports the outcome.
  void write_input(std::string data, std::function<void(Result<void>)> done) override;

  /// Ends the input: closes the stdin pipe, or sends the terminal's EOF character (^D) to a PTY.
  void close_input() override;

  /// Writes a terminal's own answer (e.g. a cursor position report) to a PTY, even after the
  /// agent closed the input. No-op for pipes or once exited.
  void answer_terminal(std::string data) override;

  bool input_writable() const override { return input_open_; }
  void pause_output(bool paused) override;
  bool is_pty() const { return pty_; }
  pid_t pid() const { return pid_; }
  bool exited() const { return exited_; }

  /// Gives up on a command that does not die (e.g. stuck in uninterruptible sleep): delivers
  /// `status` as its exit now and stops watching it. The shim keeps trying to kill it.
  void abandon(ExitStatus status) override;

 private:
  Process(boost::asio::io_context& io, SpawnedShim shim, bool pty, Events events);
  /// Calls `handler` once `descriptor` is readable (unless the wait is cancelled).
  void watch(boost::asio::posix::stream_descriptor& descriptor, void (Process::*handler)());
  void watch_control() { watch(control_, &Process::on_control_readable); }
  void on_control_readable();
  void watch_output() { watch(output_, &Process::on_output_readable); }
  void on_output_readable();
  void watch_shim_exit();
  void pump_writes();
  void maybe_finish();
  void finish(ExitStatus status);

  struct PendingWrite {
    std::string data;
    std::function<void(Result<void>)> done;
  };

  boost::asio::io_context& io_;
  pid_t shim_pid_;
  boost::asio::posix::stream_descriptor control_;
  boost::asio::posix::stream_descriptor output_;
  boost::asio::posix::stream_descriptor input_;
  boost::asio::posix::stream_descriptor pidfd_;
  bool pty_;
  Events events_;
  pid_t pid_ = 0;
  bool started_ = false;
  bool output_eof_ = false;
  bool output_paused_ = false;
  bool output_watch_deferred_ = false;  // a re-arm skipped while paused
  bool exited_ = false;
  bool input_open_ = false;
  bool close_input_after_writes_ = false;
  bool writing_ = false;
  std::optional<ExitStatus> reported_status_;
  bool control_closed_ = false;
  std::deque<PendingWrite> writes_;
};

}  // namespace clawexec::proc
