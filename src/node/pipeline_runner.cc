// system.run through exec::ExecService (pipeline_runner.h). A started run is waited for to
// its end; its output is the session's aggregated output (the pipeline merges stdout and
// stderr into one stream, so it is reported as stdout), its end classified the reference's
// way: a timeout is exit 124 with timedOut, a failure to launch is the `error` text. A reply
// instead of a run is a refusal of the node's policy and becomes SYSTEM_RUN_DENIED. A run the
// gateway approved answers the pipeline's approval question with allow-once.

#include "node/pipeline_runner.h"

#include <utility>

#include "exec/exec_start.h"
#include "exec/run.h"
#include "shell/word.h"

namespace clawexec::node {

std::string quote_argv(const std::vector<std::string>& argv) {
  std::string out;
  for (const std::string& word : argv) out += (out.empty() ? "" : " ") + shell::single_quote(word);
  return out;
}

PipelineRunner::PipelineRunner(boost::asio::io_context& io, exec::ServiceConfig config) : service_(io, std::move(config)) {}

void PipelineRunner::start(RunSpec spec, StartDone done) {
  exec::ExecRequest request;
  request.command = spec.command;
  if (!spec.cwd.empty()) request.workdir = spec.cwd;
  request.env = std::move(spec.env);
  request.host = "gateway";
  request.timeout_seconds = spec.timeout_seconds;
  if (spec.pty) request.pty = true;
  auto client = std::make_shared<exec::ClientSession>();
  client->scope_key = spec.scope_key;
  client->agent_id = spec.agent_id;
  client->continuation_available = false;
  client->pending_approvals = false;
  client->message_provider = "node";
  if (spec.approved) {
    // The pipeline's own approval step, answered with the gateway's decision (allow-once only:
    // nothing is persisted on the node for it), and only for the first question.
    auto asked = std::make_shared<bool>(false);
    client->elicit = [asked](exec::ElicitForm, std::function<void(Result<json::Object>)> answer) {
      if (std::exchange(*asked, true)) return answer(json::Object{{"action", "decline"}});
      answer(json::Object{{"action", "accept"}, {"content", json::Object{{"decision", "allow-once"}}}});
    };
  }
  std::string scope_key = spec.scope_key;
  service_.exec(std::move(request), client, exec::CallOptions{}, [this, scope_key, client, done = std::move(done)](exec::ExecStart start) {
    if (auto* reply = std::get_if<exec::Reply>(&start)) {
      RunDenied denied;
      denied.detail = reply->text;
      if (reply->text.find("security=deny") != std::string::npos) {
        denied.reason = "security=deny";
        denied.message = "SYSTEM_RUN_DENIED: security=deny";
      } else {
        denied.reason = "approval-required";
        denied.message = "SYSTEM_RUN_DENIED: approval required";
      }
      return done(std::move(denied));
    }
    std::shared_ptr<exec::Run> run = std::get<exec::StartedRun>(start).run;
    live_[scope_key] = run;
    // The client session lives as long as the run: its elicit answers the approval question.
    run->on_exited([this, scope_key, client](const exec::ExecOutcome&) { live_.erase(scope_key); });
    done(std::move(run));
  });
}

void PipelineRunner::run(RunSpec spec, RunDone done) {
  start(std::move(spec), [done = std::move(done)](StartOutcome started) {
    if (auto* denied = std::get_if<RunDenied>(&started)) return done(std::move(*denied));
    std::shared_ptr<exec::Run> run = std::get<std::shared_ptr<exec::Run>>(std::move(started));
    std::weak_ptr<exec::Run> weak = run;
    run->on_exited([weak, done](const exec::ExecOutcome& outcome) {
      RunResult result;
      if (auto r = weak.lock(); r && r->session()) result.stdout_text = std::string(r->session()->output.aggregated());
      result.timed_out = outcome.timed_out;
      result.exit_code = outcome.exit_code;
      if (outcome.timed_out) result.exit_code = 124;
      if (!result.exit_code && outcome.failure_kind == exec::FailureKind::kRuntimeError) result.error = outcome.reason;
      done(std::move(result));
    });
  });
}

bool PipelineRunner::cancel(const std::string& scope_key) {
  auto it = live_.find(scope_key);
  if (it == live_.end()) return false;
  std::shared_ptr<exec::Run> run = it->second.lock();
  if (!run) return false;
  // Before its pid is known the signal waits in the supervisor's control socket and reaches
  // the command as soon as it exists (proc_test: SignalSentBeforeThePidIsKnown...).
  return run->cancel();
}

void PipelineRunner::shutdown(std::function<void()> done) { service_.shutdown(std::chrono::milliseconds(0), std::move(done)); }

}  // namespace clawexec::node
