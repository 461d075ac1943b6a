#pragma once
// Run: the supervisor of one exec command (reference §1.7-§1.10). It owns the process, turns
// its raw output into session output (sanitized; PTY cursor-position requests answered and
// cursor-key mode tracked), enforces the timeout with the kill sequence (SIGTERM to the whole
// tree, SIGKILL 5 s later, give up 4 s after that), classifies the exit and records it in the
// registry. The exec tool waits on it for the foreground result; the process tool reaches it
// through session::SessionControl.

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/result.h"
#include "exec/outcome.h"
#include "proc/child.h"
#include "proc/process.h"
#include "session/registry.h"
#include "term/output_sanitizer.h"

namespace clawexec::exec {

struct RunRequest {
  std::string command;      // as the agent wrote it (for the session record and names)
  proc::SpawnSpec spawn;    // program, argv, env, cwd, terminal
  std::string cwd;          // shown in results
  std::string scope_key;
  std::optional<double> timeout_seconds;  // effective; none or <= 0 = no timeout
  bool continuation_available = true;
  int64_t cleanup_ms = 1'800'000;
  session::OutputLimits limits;
};

/// Kill-sequence timing (reference: 5000 ms grace, 4000 ms force-settle).
struct KillTiming {
  std::chrono::milliseconds grace{5000};
  std::chrono::milliseconds settle{4000};
};

class Run : public session::SessionControl, public std::enable_shared_from_this<Run> {
 public:
  using StartedHandler = std::function<void(Result<pid_t>)>;
  using ExitedHandler = std::function<void(const ExecOutcome&)>;

  /// Starts the command through `launch` (which spawns `request.spawn` here, or starts it on
  /// another machine) and registers its session; `launch` gets the events to deliver and
  /// returns the child. Errors are synchronous start failures (e.g. no PTY); a failing execve
  /// of the shell arrives through on_started.
  using Launcher = std::function<Result<std::shared_ptr<proc::Child>>(proc::ChildEvents)>;
  static Result<std::shared_ptr<Run>> start_with(boost::asio::io_context& io, session::Registry& registry,
                                                 RunRequest request, const Launcher& launch, KillTiming timing = {});

  /// Called once: the pid, or the error that kept the command from starting.
  void on_started(StartedHandler handler) { started_handlers_.push_back(std::move(handler)); }
  /// Called once the run has ended and its session is marked exited.
  void on_exited(ExitedHandler handler) { exited_handlers_.push_back(std::move(handler)); }
  /// Called on every piece of output and on exit (poll waiters listen here); a listener that
  /// returns false is removed.
  void add_activity_listener(std::function<bool()> listener) { listeners_.push_back(std::move(listener)); }
  /// Called with every piece of session text as it is appended (sanitized, in order).
  void add_output_listener(std::function<void(std::string_view)> listener) { output_listeners_.push_back(std::move(listener)); }
  /// Stops or resumes reading the command's output (a consumer that cannot keep up).
  void pause_output(bool paused) {
    if (child_) child_->pause_output(paused);
  }
  /// Sends `signo` to the command's process tree (no kill sequence, no exit reason).
  void signal_tree(int signo) {
    if (child_ && !outcome_) child_->signal_tree(signo);
  }

  const std::shared_ptr<session::Session>& session() const { return session_; }
  const std::optional<ExecOutcome>& outcome() const { return outcome_; }
  bool exited() const { return outcome_.has_value(); }
  /// How the command ended as its supervisor saw it (code or signal), once exited.
  const std::optional<proc::ExitStatus>& exit_status() const { return exit_status_; }

  // session::SessionControl
  bool stdin_writable() const override;
  void write_stdin(std::string data, std::function<void(Result<void>)> done) override;
  void close_stdin() override;
  bool cancel() override;
  int64_t last_output_at() const override { return last_output_at_; }

  /// Starts the kill sequence for `reason` (kManualCancel or kOverallTimeout).
  void terminate(session::ExitReason reason);

 private:
  Run(boost::asio::io_context& io, session::Registry& registry, RunRequest request, KillTiming timing);
  void handle_started(Result<pid_t> pid);
  void handle_output(std::string_view bytes);
  void handle_exit(proc::ExitStatus status);
  void append_text(const std::string& text, std::span<const term::SgrMark> marks = {});
  void notify_listeners();

  boost::asio::io_context& io_;
  session::Registry& registry_;
  RunRequest request_;
  KillTiming timing_;
  std::shared_ptr<session::Session> session_;
  std::shared_ptr<proc::Child> child_;
  term::OutputSanitizer sanitizer_;
  std::string text_scratch_;
  std::vector<term::SgrMark> marks_scratch_;  // colours stripped from text_scratch_ (for the UI)
  int64_t started_steady_ms_ = 0;
  int64_t last_output_at_ = 0;
  std::optional<session::ExitReason> kill_reason_;
  boost::asio::steady_timer timeout_timer_;
  boost::asio::steady_timer kill_timer_;
  std::optional<ExecOutcome> outcome_;
  std::optional<proc::ExitStatus> exit_status_;
  bool start_failed_ = false;
  std::vector<StartedHandler> started_handlers_;
  std::vector<ExitedHandler> exited_handlers_;
  std::vector<std::function<bool()>> listeners_;
  std::vector<std::function<void(std::string_view)>> output_listeners_;
};

}  // namespace clawexec::exec
