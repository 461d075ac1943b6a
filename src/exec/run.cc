// Run: one supervised command. See run.h for the contract.
//
// Exit classification: when the supervisor itself started a kill (timeout or cancel), that
// reason wins; otherwise a death by signal is "signal" and anything else "exit". The session
// is marked exited before any handler runs, so a poll woken by the exit sees the final state.

#include "exec/run.h"

#include <signal.h>

#include <algorithm>

#include "base/time.h"
#include "base/utf.h"
#include "term/pty_control.h"

namespace clawexec::exec {
namespace asio = boost::asio;
namespace {

// About 31 years: longer than any process runs, far below the steady clock's range.
constexpr double kMaxTimeoutSeconds = 1e9;

}  // namespace

Run::Run(asio::io_context& io, session::Registry& registry, RunRequest request, KillTiming timing)
    : io_(io),
      registry_(registry),
      request_(std::move(request)),
      timing_(timing),
      timeout_timer_(io),
      kill_timer_(io) {}

Result<std::shared_ptr<Run>> Run::start_with(asio::io_context& io, session::Registry& registry, RunRequest request,
                                             const Launcher& launch, KillTiming timing) {
  std::shared_ptr<Run> run(new Run(io, registry, std::move(request), timing));
  std::weak_ptr<Run> weak = run;
  proc::ChildEvents events;
  events.started = [weak](Result<pid_t> pid) {
    if (auto self = weak.lock()) self->handle_started(std::move(pid));
  };
  events.output = [weak](std::string_view bytes) {
    if (auto self = weak.lock()) self->handle_output(bytes);
  };
  events.exited = [weak](proc::ExitStatus status) {
    if (auto self = weak.lock()) self->handle_exit(status);
  };
  run->child_ = TRY(launch(std::move(events)));

  int64_t now = epoch_ms();
  run->started_steady_ms_ = steady_ms();
  run->last_output_at_ = now;
  run->session_ = registry.create(run->request_.limits, now);
  session::Session& s = *run->session_;
  s.scope_key = run->request_.scope_key;
  s.command = run->request_.command;
  s.cwd = run->request_.cwd;
  s.cleanup_ms = run->request_.cleanup_ms;
  s.pty = run->request_.spawn.terminal == proc::Terminal::kPty;
  s.cursor_key_mode = s.pty ? term::CursorKeyMode::kUnknown : term::CursorKeyMode::kNormal;
  s.control = run;

  // The overall timeout runs from the spawn, whether or not the run is later backgrounded.
  if (run->request_.timeout_seconds && *run->request_.timeout_seconds > 0) {
    // Clamp so that absurd values stay "a very long time" instead of overflowing the clock.
    double seconds = std::min(*run->request_.timeout_seconds, kMaxTimeoutSeconds);
    auto ms = static_cast<int64_t>(seconds * 1000.0);
    run->timeout_timer_.expires_after(std::chrono::milliseconds(ms));
    run->timeout_timer_.async_wait([weak](const boost::system::error_code& ec) {
      if (ec) return;
      if (auto self = weak.lock()) self->terminate(session::ExitReason::kOverallTimeout);
    });
  }
  return run;
}

void Run::handle_started(Result<pid_t> pid) {
  if (pid.ok()) {
    session_->pid = pid.value();
  } else {
    // The shell could not be executed: nothing ran. Forget the session and report.
    start_failed_ = true;
    timeout_timer_.cancel();
    registry_.mark_exited(*session_, session::ExitRecord{.status = session::TerminalStatus::kFailed}, epoch_ms());
  }
  std::vector<StartedHandler> handlers = std::move(started_handlers_);
  for (StartedHandler& h : handlers) h(pid);
}

void Run::handle_output(std::string_view bytes) {
  last_output_at_ = epoch_ms();
  text_scratch_.clear();
  marks_scratch_.clear();
  sanitizer_.feed(bytes, text_scratch_, &marks_scratch_);
  term::TerminalRequests requests = sanitizer_.take_requests();
  if (requests.cursor_key_mode) session_->cursor_key_mode = *requests.cursor_key_mode;
  if (session_->pty) {
    for (size_t i = 0; i < requests.cursor_position_requests; ++i) {
      child_->answer_terminal(term::cursor_position_response());
    }
  }
  append_text(text_scratch_, marks_scratch_);
}

// The marks (colours the sanitizer stripped) go into the session beside the text, for the
// operator's view; the text itself, and so everything the agent reads, is unchanged.
void Run::append_text(const std::string& text, std::span<const term::SgrMark> marks) {
  session_->output.append(session::Stream::kStdout, text, marks);
  if (text.empty()) return;
  for (auto& listener : output_listeners_) listener(text);
  notify_listeners();
}

void Run::notify_listeners() {
  std::vector<std::function<bool()>> current = std::move(listeners_);
  listeners_.clear();
  for (std::function<bool()>& l : current) {
    if (l()) listeners_.push_back(std::move(l));
  }
}

namespace {

RunEnd classify(const proc::ExitStatus& status, std::optional<session::ExitReason> kill_reason) {
  RunEnd end;
  end.exit_code = status.code;
  if (status.signal) {
    std::string name = session::signal_name(*status.signal);
    end.exit_signal = name.empty() ? std::to_string(*status.signal) : name;
  }
  if (kill_reason) {
    end.reason = *kill_reason;
  } else if (status.signal || !status.code) {
    end.reason = session::ExitReason::kSignal;  // without a signal (the supervisor vanished) this is "aborted"
  } else {
    end.reason = session::ExitReason::kExit;
  }
  return end;
}

}  // namespace

void Run::handle_exit(proc::ExitStatus status) {
  if (outcome_ || start_failed_) return;
  exit_status_ = status;
  timeout_timer_.cancel();
  kill_timer_.cancel();
  text_scratch_.clear();
  sanitizer_.finish(text_scratch_);
  append_text(text_scratch_);

  // A finished command no longer holds its sandbox (SandboxRegistry::prune keeps a sandbox
  // that commands still hold).
  request_.spawn.sandbox.reset();
  RunEnd end = classify(status, kill_reason_);
  std::string trimmed(js_trim(session_->output.aggregated()));
  outcome_ = build_exit_outcome(end, trimmed, steady_ms() - started_steady_ms_, request_.timeout_seconds,
                                request_.continuation_available);
  session::ExitRecord record;
  record.status = outcome_->completed ? session::TerminalStatus::kCompleted : session::TerminalStatus::kFailed;
  record.exit_code = outcome_->exit_code;
  record.exit_signal = outcome_->exit_signal;
  record.exit_reason = outcome_->exit_reason;
  std::shared_ptr<Run> keep_alive = shared_from_this();
  registry_.mark_exited(*session_, record, epoch_ms());

  // Waiting polls first: one that observes the end suppresses the completion notification
  // (sent by an exit handler).
  notify_listeners();
  listeners_.clear();
  output_listeners_.clear();
  std::vector<ExitedHandler> handlers = std::move(exited_handlers_);
  for (ExitedHandler& h : handlers) h(*outcome_);
}

bool Run::stdin_writable() const { return !outcome_ && child_ && child_->input_writable(); }

void Run::write_stdin(std::string data, std::function<void(Result<void>)> done) {
  child_->write_input(std::move(data), std::move(done));
}

void Run::close_stdin() { child_->close_input(); }

bool Run::cancel() {
  if (outcome_ || start_failed_) return false;
  terminate(session::ExitReason::kManualCancel);
  return true;
}

void Run::terminate(session::ExitReason reason) {
  if (outcome_ || start_failed_ || kill_reason_) return;
  kill_reason_ = reason;
  timeout_timer_.cancel();
  child_->signal_tree(SIGTERM);
  std::weak_ptr<Run> weak = shared_from_this();
  kill_timer_.expires_after(timing_.grace);
  kill_timer_.async_wait([weak](const boost::system::error_code& ec) {
    auto self = weak.lock();
    if (ec || !self || self->outcome_) return;
    self->child_->signal_tree(SIGKILL);
    // A process stuck in the kernel may never die; settle the run anyway.
    self->kill_timer_.expires_after(self->timing_.settle);
    self->kill_timer_.async_wait([weak](const boost::system::error_code& ec2) {
      auto again = weak.lock();
      if (ec2 || !again || again->outcome_) return;
      again->child_->abandon(proc::ExitStatus{.signal = SIGKILL});
    });
  });
}

}  // namespace clawexec::exec
