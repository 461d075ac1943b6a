// ExecCall: see exec_call.h.

#include "tools/exec_call.h"

#include "exec/outcome.h"


namespace clawexec::tools {
namespace {

json::Object running_details(const session::Session& s) {
  json::Object d;
  d["status"] = "running";
  d["sessionId"] = s.id;
  if (s.pid > 0) d["pid"] = s.pid;
  d["startedAt"] = s.started_at;
  d["cwd"] = s.cwd;
  d["tail"] = s.output.tail();
  d["followUp"] = exec::kBackgroundFollowUp;
  return d;
}

}  // namespace

ExecCall::ExecCall(exec::ExecService& service, exec::StartedRun started, std::shared_ptr<exec::CancelSignal> cancel,
                   ExecCallDone done)
    : service_(service),
      run_(std::move(started.run)),
      yield_ms_(started.yield_ms),
      warnings_(std::move(started.warnings)),
      node_id_(std::move(started.node_id)),
      cancel_(std::move(cancel)),
      done_(std::move(done)),
      yield_timer_(service.io()) {}

void ExecCall::begin() {
  auto self = shared_from_this();
  run_->on_started([self](Result<pid_t> pid) { self->started(std::move(pid)); });
  run_->on_exited([self](const exec::ExecOutcome& outcome) { self->exited(outcome); });
  // Weak: the signal outlives this call in its owner, and must not keep the call alive.
  std::weak_ptr<ExecCall> weak = self;
  if (cancel_) {
    cancel_->on_cancel([weak] {
      if (auto call = weak.lock()) call->cancelled();
    });
  }
}

void ExecCall::started(Result<pid_t> pid) {
  if (!pid.ok()) return respond(ToolResult::thrown(pid.error().message));
  if (responded_ || yield_ms_ < 0) return;
  if (yield_ms_ == 0) return background();
  auto self = shared_from_this();
  yield_timer_.expires_after(std::chrono::milliseconds(yield_ms_));
  yield_timer_.async_wait([self](const boost::system::error_code& ec) {
    if (!ec) self->background();
  });
}

void ExecCall::background() {
  if (responded_ || run_->exited()) return;
  session::Session& s = *run_->session();
  service_.registry().mark_backgrounded(s);
  std::string text = node_line() + exec::warning_block(warnings_) + "Command still running (session " + s.id + ", pid " +
                     (s.pid > 0 ? std::to_string(s.pid) : std::string("n/a")) + "). " + std::string(exec::kBackgroundFollowUp);
  json::Object details = running_details(s);
  if (!node_id_.empty()) details["nodeId"] = node_id_;
  respond(ToolResult{std::move(text), std::move(details), false});
}

void ExecCall::exited(const exec::ExecOutcome& outcome) {
  if (responded_) return;
  const session::Session& s = *run_->session();
  std::string text = node_line() + exec::foreground_text(outcome, s.output.retention_capped(), exec::warning_block(warnings_));
  json::Object details = exec::foreground_details(outcome, s.cwd);
  if (!node_id_.empty()) details["nodeId"] = node_id_;
  respond(ToolResult{std::move(text), std::move(details), !outcome.completed}, outcome);
}

void ExecCall::cancelled() {
  // Abort before backgrounding kills the run; a backgrounded run keeps going.
  if (responded_) return;
  run_->cancel();
  respond(ToolResult::thrown("Tool execution was aborted"));
}

void ExecCall::respond(ToolResult result, std::optional<exec::ExecOutcome> outcome) {
  if (responded_) return;
  responded_ = true;
  yield_timer_.cancel();
  cancel_.reset();
  ExecCallDone done = std::move(done_);
  done(ExecCallResult{std::move(result), std::move(outcome)});
}

}  // namespace clawexec::tools
