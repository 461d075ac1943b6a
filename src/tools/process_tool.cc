// The `process` tool (reference §2): dispatch and the inspection actions (list, poll with the
// long wait, log) over the sessions of the caller's scope; process_input.cc has the actions
// that act on a session. Out-of-scope sessions behave exactly like unknown ones. Output is
// delivered with drain semantics: each poll returns what no earlier poll returned.

#include <algorithm>
#include <cmath>

#include "base/strings.h"
#include "base/time.h"
#include "base/utf.h"
#include "tools/process_action.h"
#include "exec/service.h"
#include "tools/output_styles.h"
#include "tools/tool_args.h"
#include "tools/exec_tool.h"
#include "tools/tool_schema.h"
#include "session/log_slice.h"
#include "session/names.h"

namespace clawexec::tools {
namespace asio = boost::asio;
namespace {

constexpr int64_t kMaxPollWaitMs = 30'000;
constexpr std::string_view kActions[] = {"list",  "poll", "log",  "write", "send-keys",
                                         "submit", "paste", "kill", "clear", "remove"};
// poll and clear drain output its client has not read, remove forgets the session: those stay
// the client's own.
constexpr std::string_view kOperatorActions[] = {"list", "log", "write", "send-keys", "submit", "paste", "kill"};

}  // namespace

ToolResult fail(std::string text) {
  json::Object d;
  d["status"] = "failed";
  d["error"] = text;
  return ToolResult{std::move(text), std::move(d), true};
}

ToolResult ok(std::string text, json::Object details) { return ToolResult{std::move(text), std::move(details), false}; }

void put_name(json::Object& d, const session::Session& s) {
  if (std::optional<std::string> name = session::derive_session_name(s.command)) d["name"] = *name;
}

json::Object running_result_details(const session::Session& s) {
  json::Object d;
  d["status"] = "running";
  d["sessionId"] = s.id;
  put_name(d, s);
  return d;
}

namespace {

void put_running_state(json::Object& d, const RunningState& r) {
  d["stdinWritable"] = r.stdin_writable;
  d["waitingForInput"] = r.waiting_for_input;
  d["idleMs"] = r.idle_ms;
  d["lastOutputAt"] = r.last_output_at;
}

// finishedSessionDetails of the reference.
json::Object finished_details(const session::Session& s) {
  json::Object d;
  const session::ExitRecord& e = *s.exit;
  d["status"] = e.status == session::TerminalStatus::kCompleted ? "completed" : "failed";
  d["sessionId"] = s.id;
  if (e.exit_code) d["exitCode"] = *e.exit_code;
  if (!e.exit_signal.empty()) d["exitSignal"] = e.exit_signal;
  if (e.exit_reason) {
    d["exitReason"] = session::to_string(*e.exit_reason);
    d["timedOut"] = e.timed_out();
  }
  d["noOutputTimedOut"] = e.no_output_timed_out;
  put_name(d, s);
  return d;
}

std::string exit_line(const session::Session& s) {
  return "\n\nProcess exited with " + session::exit_label(s.exit->exit_code, s.exit->exit_signal) + ".";
}

std::string with_timeout_guidance(std::string text, const session::Session& s) {
  if (s.exit && s.exit->timed_out()) text += "\n\n" + std::string(session::kTimeoutRetryGuidance);
  return text;
}

std::string retention_note(const session::Session& s) {
  return s.output.retention_capped() ? std::string(session::kRetentionCapNote) : "";
}

// The poll's "timeout": numbers are floored and clamped to [0, 30000] (Infinity -> 30000);
// other values mean 0.
int64_t poll_wait_ms(const json::Object& args) {
  std::optional<double> v = number_arg(args, "timeout");
  if (!v || std::isnan(*v)) return 0;
  // Clamp as a double first: huge values must not overflow the integer conversion.
  double clamped = std::clamp(std::floor(*v), 0.0, static_cast<double>(kMaxPollWaitMs));
  return static_cast<int64_t>(clamped);
}

}  // namespace

RunningState ProcessAction::describe(const session::Session& s) const {
  RunningState r;
  r.last_output_at = s.control ? s.control->last_output_at() : s.started_at;
  r.idle_ms = std::max<int64_t>(0, epoch_ms() - r.last_output_at);
  r.stdin_writable = s.control && s.control->stdin_writable();
  r.waiting_for_input = r.stdin_writable && r.idle_ms >= service_.config().exec.input_wait_idle_ms;
  return r;
}

void ProcessAction::run() {
  std::string action = string_arg(args_, "action").value_or("");
  if (std::find(std::begin(kActions), std::end(kActions), action) == std::end(kActions)) {
    return respond(fail(std::string(kInvalidProcessActionText)));
  }
  if (action == "list") return list();
  id_ = string_arg(args_, "sessionId").value_or("");
  if (id_.empty()) return respond(fail("sessionId is required for this action."));
  session::Registry& registry = service_.registry();
  Result<std::string> resolved =
      registry.resolve_id(id_, scope_key_ ? std::optional<std::string_view>(*scope_key_) : std::nullopt);  // a unique prefix names its session
  if (!resolved.ok()) return respond(fail(resolved.error().message));
  id_ = std::move(resolved).value();
  if (auto s = registry.running(id_); in_scope(s)) running_ = s;
  if (auto s = registry.finished(id_); in_scope(s)) finished_ = s;
  if (action == "poll") return poll();
  if (action == "log") return log();
  if (action == "write") return write();
  if (action == "send-keys") return send_keys();
  if (action == "submit") return submit();
  if (action == "paste") return paste();
  if (action == "kill") return kill();
  if (action == "clear") return clear();
  return remove();
}

void ProcessAction::list() {
  json::Array sessions;
  std::vector<std::string> lines;
  int64_t now = epoch_ms();
  for (const std::shared_ptr<session::Session>& s : service_.registry().list()) {
    if (!in_scope(s)) continue;
    json::Object e;
    bool finished = s->exited && s->exit;
    e["sessionId"] = s->id;
    e["status"] = !finished ? "running"
                  : s->exit->status == session::TerminalStatus::kCompleted ? "completed"
                                                                            : "failed";
    e["startedAt"] = s->started_at;
    int64_t runtime = (finished ? s->ended_at.value_or(now) : now) - s->started_at;
    e["runtimeMs"] = runtime;
    e["cwd"] = s->cwd;
    e["command"] = s->command;
    if (!scope_key_) e["scope"] = s->scope_key;
    put_name(e, *s);
    e["tail"] = s->output.tail();
    e["truncated"] = s->output.truncated();
    bool waiting = false;
    if (finished) {
      for (auto& kv : finished_details(*s)) {
        if (!e.contains(kv.key())) e[kv.key()] = kv.value();
      }
      e["endedAt"] = *s->ended_at;
    } else {
      if (s->pid > 0) e["pid"] = s->pid;
      RunningState r = describe(*s);
      put_running_state(e, r);
      waiting = r.waiting_for_input;
    }
    std::optional<std::string> name = session::derive_session_name(s->command);
    std::string label = name ? truncate_middle(*name, 80) : truncate_middle(s->command, 120);
    std::string status(e["status"].as_string());
    status.resize(std::max<size_t>(status.size(), 9), ' ');
    lines.push_back(s->id + " " + status + " " + session::format_duration_compact(runtime).value_or("n/a") +
                    (waiting ? " [input-wait]" : "") + " :: " + label);
    sessions.push_back(std::move(e));
  }
  json::Object d;
  d["status"] = "completed";
  d["sessions"] = std::move(sessions);
  respond(ok(lines.empty() ? "No running or recent sessions." : join(lines, "\n"), std::move(d)));
}

ToolResult ProcessAction::finished_poll(session::Session& s) {
  s.poll_backoff.reset();
  s.terminal_poll_observed = true;
  session::DrainedOutput drained = s.output.drain_pending();
  std::string output(js_trim(drained.text));
  std::string omitted;
  if (drained.output_dropped) {
    bool retained = service_.registry().finished(s.id).get() == &s;
    omitted = std::string(retained ? session::kOmittedOutputNote : session::kOmittedOutputGoneNote);
  }
  std::string text = retention_note(s) + omitted + (output.empty() ? "(no new output)" : output) + exit_line(s);
  json::Object d = finished_details(s);
  d["aggregated"] = s.output.aggregated();
  return ok(with_timeout_guidance(std::move(text), s), std::move(d));
}

void ProcessAction::poll() {
  if (!running_) {
    if (finished_) return respond(finished_poll(*finished_));
    return respond(fail("No session found for " + id_));
  }
  if (!running_->backgrounded) return respond(fail("Session " + id_ + " is not backgrounded."));
  int64_t wait_ms = poll_wait_ms(args_);
  session::Session& s = *running_;
  auto run = std::dynamic_pointer_cast<exec::Run>(s.control);
  if (wait_ms > 0 && !s.exited && run && !s.output.has_pending() && !s.output.pending_output_dropped()) {
    // Long wait: return early on new output or exit (or when the caller cancels).
    auto timer = std::make_shared<asio::steady_timer>(service_.io(), std::chrono::milliseconds(wait_ms));
    auto self = shared_from_this();
    auto finished = std::make_shared<bool>(false);
    auto wake = [self, timer, finished] {
      if (*finished) return;
      *finished = true;
      timer->cancel();
      self->finish_poll();
    };
    run->add_activity_listener([wake, finished] {
      if (!*finished) wake();
      return false;
    });
    timer->async_wait([wake](const boost::system::error_code& ec) {
      if (!ec) wake();
    });
    if (self->cancel_) {
      std::weak_ptr<ProcessAction> weak = self;
      self->cancel_->on_cancel([weak, timer, finished] {
        auto action = weak.lock();
        if (!action || *finished) return;
        *finished = true;
        timer->cancel();
        action->respond(ToolResult::thrown("Tool execution was aborted"));
      });
    }
    return;
  }
  finish_poll();
}

void ProcessAction::finish_poll() {
  session::Session& s = *running_;
  if (s.exited) {
    if (service_.registry().finished(s.id).get() == &s) return respond(finished_poll(s));
    return respond(fail("No session found for " + id_));
  }
  session::DrainedOutput drained = s.output.drain_pending();
  std::string output(js_trim(drained.text));
  std::string omitted = drained.output_dropped ? std::string(session::kOmittedOutputNote) : "";
  uint32_t retry = s.poll_backoff.record(output.empty() ? session::PollOutput::kNone : session::PollOutput::kNew);
  RunningState r = describe(s);
  std::string hint = input_wait_hint(r);
  std::string text = retention_note(s) + omitted + (output.empty() ? "(no new output)" : output) +
                     (hint.empty() ? "\n\nProcess still running." : hint);
  json::Object d;
  d["status"] = "running";
  d["sessionId"] = s.id;
  d["aggregated"] = s.output.aggregated();
  put_name(d, s);
  put_running_state(d, r);
  d["retryInMs"] = retry;
  respond(ok(std::move(text), std::move(d)));
}

void ProcessAction::log() {
  std::shared_ptr<session::Session> record = running_ ? running_ : finished_;
  if (!record) return respond(fail("No session found for " + id_));
  if (running_ && !running_->backgrounded) return respond(fail("Session " + id_ + " is not backgrounded."));
  session::LogSlice slice = session::slice_log(record->output.aggregated(), number_arg(args_, "offset"),
                                               number_arg(args_, "limit"));
  bool live = running_ && !running_->exited;
  std::string text = retention_note(*record) +
                     (slice.text.empty() ? (live ? "(no output yet)" : "(no output recorded)") : slice.text) +
                     slice.tail_note;
  json::Object d;
  if (live) {
    RunningState r = describe(*record);
    text += input_wait_hint(r);
    d["status"] = "running";
    d["sessionId"] = id_;
    put_name(d, *record);
    put_running_state(d, r);
  } else {
    text = with_timeout_guidance(std::move(text), *record);
    d = finished_details(*record);
  }
  d["output"] = text;
  d["total"] = slice.total_lines;
  d["totalLines"] = slice.total_lines;
  d["totalChars"] = slice.total_chars;
  d["truncated"] = record->output.truncated();
  if (!scope_key_) {
    // The operator's view (the control UI) also gets the colours stripped from the slice,
    // positioned in `output`, which starts with the retention note.
    json::Array styles = styles_json(session::slice_styles(record->output, slice), utf16_length(retention_note(*record)));
    if (!styles.empty()) d["styles"] = std::move(styles);
  }
  respond(ok(std::move(text), std::move(d)));
}

void run_process_tool(exec::ExecService& service, const exec::ClientSession& client, const json::Object& args,
                      std::shared_ptr<exec::CancelSignal> cancel, ToolDone done) {
  auto action = std::make_shared<ProcessAction>(service, args, client.scope_key, std::move(cancel), std::move(done));
  action->run();
}

void run_operator_process_action(exec::ExecService& service, const json::Value& args, ToolDone done) {
  Result<json::Object> checked = validate_arguments(process_tool_spec(), args);
  if (!checked.ok()) return done(fail(checked.error().message));
  std::string action = string_arg(*checked, "action").value_or("");
  if (std::find(std::begin(kOperatorActions), std::end(kOperatorActions), action) == std::end(kOperatorActions)) {
    return done(fail("process action \"" + action + "\" is not offered to operators (list, log, write, send-keys, submit, paste, kill)"));
  }
  auto run = std::make_shared<ProcessAction>(service, std::move(*checked), std::nullopt, nullptr, std::move(done));
  run->run();
}

}  // namespace clawexec::tools
