// exec host=node: the plain OpenClaw protocol from the gateway's side (§4.6). The node is
// picked (node_selection.h), the command is wrapped in the node platform's shell, the node
// prepares it (`system.run.prepare` returns the canonical plan: argv, cwd, command text and the
// node's own policy snapshot), and `system.run` runs exactly that plan with the stricter of the
// gateway's and the node's policy. The node enforces its own approvals; a run it refuses comes
// back as its error, never as output. Node runs are foreground only: the result is the node's
// stdout, stderr and error, formatted as OpenClaw's formatNodeRunToolResult.
//
// Approvals: a run needs a human when the stricter policy says ask=always; when the gateway's
// policy is allowlist and the node's own is wider (the gateway cannot resolve a command on the
// node, so it never guesses a match: ask, or with ask=off refuse); or when the node refuses it
// with `SYSTEM_RUN_DENIED: approval required` (its own allowlist missed under ask=on-miss).
// What happens then (the auto-reviewer, the pending approval, the fallback) is
// node_approval.cc; the call's state is node_call.h.

#include <unistd.h>

#include <chrono>

#include <boost/asio/steady_timer.hpp>

#include "approvals/random.h"
#include "base/strings.h"
#include "base/time.h"
#include "exec/exec_plan.h"
#include "exec/gateway_approval.h"
#include "exec/gateway_context.h"
#include "exec/node_call.h"
#include "exec/node_invoker.h"
#include "exec/node_stream.h"
#include "exec/run.h"
#include "exec/service.h"
#include "policy/approval_text.h"
#include "session/format.h"
#include "term/display_escape.h"

namespace clawexec::exec {
namespace {

using config::ExecAsk;
using config::ExecSecurity;

constexpr int64_t kPrepareTimeoutMs = 15000;

int security_rank(ExecSecurity s) { return s == ExecSecurity::kDeny ? 0 : s == ExecSecurity::kAllowlist ? 1 : 2; }
int ask_rank(ExecAsk a) { return a == ExecAsk::kAlways ? 2 : a == ExecAsk::kOnMiss ? 1 : 0; }

std::optional<ExecSecurity> parse_security(const std::string& s) {
  if (s == "deny") return ExecSecurity::kDeny;
  if (s == "allowlist") return ExecSecurity::kAllowlist;
  if (s == "full") return ExecSecurity::kFull;
  return std::nullopt;
}

std::optional<ExecAsk> parse_ask(const std::string& s) {
  if (s == "off") return ExecAsk::kOff;
  if (s == "on-miss") return ExecAsk::kOnMiss;
  if (s == "always") return ExecAsk::kAlways;
  return std::nullopt;
}

json::Object env_object(const env::EnvList& env) {
  json::Object out;
  for (const auto& [k, v] : env) out[k] = v;
  return out;
}

}  // namespace

namespace node_detail {

std::string invoke_error_text(const std::string& node_id, const std::string& command, const NodeInvokeError& e) {
  if (e.code == "NOT_CONNECTED" || e.code == "TIMEOUT" || e.code == "NODE_DISCONNECTED" || e.code == "GATEWAY_DISCONNECTED") {
    return "exec host=node: " + command + " on node " + node_id + " failed: " + e.message;
  }
  // The node's own refusals (SYSTEM_RUN_DENIED: ..., INVALID_REQUEST: ...) read as they are.
  return e.message.rfind(e.code + ":", 0) == 0 || e.code.empty() ? e.message : e.code + ": " + e.message;
}

// formatNodeRunToolResult.
Reply node_result(const std::string& node_id, const json::Object& payload, const std::vector<std::string>& warnings,
                  int64_t started_ms, const std::string& cwd) {
  std::string stdout_text = json::string_member(payload, "stdout");
  std::string stderr_text = json::string_member(payload, "stderr");
  std::string error_text = json::string_member(payload, "error");
  const json::Value* s = json::find(payload, "success");
  bool success = s && s->is_bool() && s->get_bool();
  std::optional<int64_t> exit_code = json::integer_member(payload, "exitCode");
  const json::Value* t = json::find(payload, "timedOut");
  bool timed_out = t && t->is_bool() && t->get_bool();
  std::vector<std::string> parts;
  for (const std::string* p : {&stdout_text, &stderr_text, &error_text}) {
    if (!p->empty()) parts.push_back(*p);
  }
  if (timed_out) {
    parts.push_back("Command timed out.\n\n" + std::string(session::kTimeoutRetryGuidance));
  } else if (!success && exit_code && *exit_code != 0) {
    parts.push_back("(Command exited with code " + std::to_string(*exit_code) + ")");
  }
  std::string output = join(parts, "\n");
  std::string text = "Node: " + node_id + "\n";
  if (!warnings.empty()) text += join(warnings, "\n") + "\n\n";
  text += output.empty() ? "(no output)" : output;
  json::Object details{{"status", success ? "completed" : "failed"},
                       {"exitCode", exit_code ? json::Value(*exit_code) : json::Value(nullptr)},
                       {"durationMs", steady_ms() - started_ms},
                       {"aggregated", output},
                       {"nodeId", node_id}};
  if (timed_out) details["timedOut"] = true;
  details["cwd"] = cwd.empty() ? json::Value(nullptr) : json::Value(cwd);
  return Reply{std::move(text), std::move(details), !success};
}

}  // namespace node_detail

using node_detail::invoke_error_text;



const std::string& ExecService::node_wait_scope(const NodeApprovalWait& wait) { return wait.call->ctx.scope_key; }

void ExecService::run_on_node(ExecPlan exec_plan, CallContext ctx, ExecStartDone done) {
  const ExecRequest& request = exec_plan.request;
  std::shared_ptr<const ServiceConfig> config = shared_config();
  if (!node_invoker_) {  // only a service built without a gateway link (tests, tools)
    std::string node = request.node.value_or(config->exec.node.value_or(""));
    return done(Reply::thrown("exec host=node: no paired node" + (node.empty() ? std::string() : " matches \"" + node + "\"") +
                              ". This server reaches no gateway with node hosts; start `clawexec gateway` and pair a node "
                              "(`clawexec node run`), or run the command with host=auto or host=gateway."));
  }
  node_invoker_->list_nodes([this, exec_plan = std::move(exec_plan), ctx = std::move(ctx), done = std::move(done),
                             config](Result<std::vector<NodeSummary>> listed) mutable {
    if (!listed.ok()) return done(Reply::thrown("exec host=node: " + listed.error().message));
    start_node_call(std::move(*listed), std::move(config), std::move(exec_plan), std::move(ctx), std::move(done));
  });
}

void ExecService::start_node_call(std::vector<NodeSummary> nodes, std::shared_ptr<const ServiceConfig> config, ExecPlan exec_plan,
                                  CallContext ctx, ExecStartDone done) {
  const ExecRequest& request = exec_plan.request;
  Result<NodeSummary> node = select_node(nodes, request.node, config->exec.node);
  if (!node.ok()) return done(Reply::thrown(node.error().message));
  Result<policy::ExecCallPolicy> policy = policy::resolve_exec_call_policy(call_inputs(*config, ExecHost::kNode, &request));
  if (!policy.ok()) return done(Reply::thrown(policy.error().message));

  auto call = std::make_shared<NodeCall>();
  call->node = std::move(*node);
  call->policy = *policy;
  call->agent_id = config->agent_id;
  call->session_key = ctx.session_key.empty() ? "agent:" + config->agent_id + ":main" : ctx.session_key;
  call->started_ms = steady_ms();
  call->timeout_ms = exec_plan.timeout_seconds > 0 ? static_cast<int64_t>(exec_plan.timeout_seconds * 1000) : 0;
  call->plan = std::move(exec_plan);
  call->ctx = std::move(ctx);
  call->done = std::move(done);
  std::vector<std::string> argv = node_shell_argv(call->plan.command, call->node.platform);

  json::Object prepare{{"command", json::string_array(argv)},
                       {"rawCommand", call->plan.command},
                       {"agentId", call->agent_id},
                       {"sessionKey", call->session_key},
                       {"security", config::to_string(call->policy.security)},
                       {"ask", config::to_string(call->policy.ask)}};
  if (!call->plan.workdir.empty()) prepare["cwd"] = call->plan.workdir;
  node_invoker_->invoke(call->node.node_id, "system.run.prepare", std::move(prepare), kPrepareTimeoutMs, [this, call](NodeInvokeResult prepared) {
    if (call->ctx.cancel && call->ctx.cancel->cancelled()) return call->answer(Reply::thrown("Tool execution was aborted"));
    if (auto* e = std::get_if<NodeInvokeError>(&prepared)) {
      return call->answer(Reply::thrown(invoke_error_text(call->node.node_id, "system.run.prepare", *e)));
    }
    const json::Value& payload = std::get<json::Value>(prepared);
    const json::Object* plan = payload.is_object() ? json::object_member(payload.get_object(), "plan") : nullptr;
    if (!plan || !json::find(*plan, "argv") || !json::find(*plan, "argv")->is_array()) {
      return call->answer(Reply::thrown("exec host=node: node " + call->node.node_id +
                                        " answered system.run.prepare without a plan (argv); its node host is not compatible"));
    }
    call->prepared = *plan;
    if (const json::Object* coverage = json::object_member(payload.get_object(), "allowAlwaysCoverage")) {
      const json::Value* complete = json::find(*coverage, "complete");
      call->allow_always = complete && complete->is_bool() && complete->get_bool();
    }
    node_decide(call);
  });
}

void ExecService::node_decide(std::shared_ptr<NodeCall> call) {
  // The stricter of the gateway's policy and the node's own snapshot.
  call->security = call->policy.security;
  call->ask = call->policy.ask;
  // The ask fallback is the node's (its approvals decide what runs there), deny without one,
  // and never wider than the security in force.
  call->ask_fallback = ExecSecurity::kDeny;
  if (const json::Object* snap = json::object_member(call->prepared, "policySnapshot")) {
    if (auto s = parse_security(json::string_member(*snap, "security")); s && security_rank(*s) < security_rank(call->security)) call->security = *s;
    if (auto a = parse_ask(json::string_member(*snap, "ask")); a && ask_rank(*a) > ask_rank(call->ask)) call->ask = *a;
    if (auto f = parse_security(json::string_member(*snap, "askFallback"))) call->ask_fallback = *f;
  }
  if (security_rank(call->ask_fallback) > security_rank(call->security)) call->ask_fallback = call->security;
  if (call->security == ExecSecurity::kDeny) return call->answer(Reply::thrown("exec denied: host=node security=deny"));
  if (call->ask == ExecAsk::kAlways) return ask_node_approval(call);
  // An allowlist the node does not enforce itself (its own policy is wider) cannot be judged
  // here: what a command resolves to is the node's PATH and files. So nothing runs unasked: a
  // human decides, or with ask=off the run is refused as OpenClaw refuses an allowlist miss.
  std::string node_security;
  if (const json::Object* snap = json::object_member(call->prepared, "policySnapshot")) node_security = json::string_member(*snap, "security");
  if (call->security == ExecSecurity::kAllowlist && node_security != "allowlist") {
    if (call->ask == ExecAsk::kOff) return call->answer(Reply::thrown("exec denied: host=node allowlist miss (ask=off)"));
    return ask_node_approval(call);
  }
  if (node_invoker_ && node_invoker_->streams_supported() &&
      std::find(call->node.caps.begin(), call->node.caps.end(), kNodeStreamCap) != call->node.caps.end()) {
    return node_stream_start(call);
  }
  std::string token = node_system_run(call, std::nullopt, [this, call](NodeInvokeResult ran) {
    if (call->ctx.cancel && call->ctx.cancel->cancelled()) return call->answer(Reply::thrown("Tool execution was aborted"));
    if (auto* e = std::get_if<NodeInvokeError>(&ran)) {
      // The node's allowlist missed and it may ask: the human decides.
      bool wants_approval = e->code == "SYSTEM_RUN_DENIED" && e->message.ends_with("approval required");
      if (wants_approval && call->ask != ExecAsk::kOff) return ask_node_approval(call);
    }
    call->answer(call->run_reply(ran));
  });
  // The caller gave up (MCP cancel): the node stops the command, nothing keeps running for it.
  if (call->ctx.cancel && !token.empty()) {
    NodeInvoker* invoker = node_invoker_;
    call->ctx.cancel->on_cancel([invoker, token] { invoker->cancel(token); });
  }
}

json::Object ExecService::NodeCall::run_params(const std::optional<std::string>& run_id) const {
  json::Object run{{"command", json::find(prepared, "argv")->as_array()},
                   {"rawCommand", json::string_member(prepared, "commandText")},
                   {"systemRunPlan", prepared},
                   {"timeoutMs", timeout_ms},
                   {"agentId", agent_id},
                   {"sessionKey", session_key},
                   {"runId", run_id.value_or(approvals::random_uuid())}};
  if (std::string dir = cwd(); !dir.empty()) run["cwd"] = dir;
  if (!plan.env_overrides.empty()) run["env"] = env_object(plan.env_overrides);
  return run;
}

std::string ExecService::node_system_run(std::shared_ptr<NodeCall> call,
                                  std::optional<std::pair<std::string, policy::ApprovalDecision>> approval,
                                  std::function<void(NodeInvokeResult)> then) {
  json::Object run = call->run_params(approval ? std::optional<std::string>(approval->first) : std::nullopt);
  if (approval) {
    run["approved"] = true;
    run["approvalDecision"] = policy::to_string(approval->second);
  }
  int64_t deadline = std::max<int64_t>(10000, call->timeout_ms + 5000);
  if (call->timeout_ms == 0) deadline = int64_t{24} * 3600 * 1000;
  if (!node_invoker_) {
    then(NodeInvokeError{"NOT_CONNECTED", "node not connected"});
    return {};
  }
  return node_invoker_->invoke(call->node.node_id, "system.run", std::move(run), deadline, std::move(then));
}

void ExecService::node_stream_start(std::shared_ptr<NodeCall> call) {
  if (Result<void> room = check_live_sessions(call->ctx.scope_key); !room.ok()) return call->answer(Reply::thrown(room.error().message));
  std::string stream_id = approvals::random_uuid();
  auto child = std::make_shared<NodeStreamChild>(io_, *node_invoker_, call->node.node_id, stream_id, config_.node_resume_grace_ms);
  child->watch();
  json::Object params = call->run_params(std::nullopt);
  params["streamId"] = stream_id;
  params["pty"] = call->plan.pty;
  // Our own kill sequence ends a timed-out run (its reason is ours to tell); the node's
  // timeout is only a backstop for a gateway that went away.
  params["timeoutMs"] = call->timeout_ms > 0 ? call->timeout_ms + 30000 : 0;
  node_invoker_->invoke(call->node.node_id, "clawexec.exec.start", std::move(params), kPrepareTimeoutMs, [this, call, child](NodeInvokeResult r) {
    if (auto* e = std::get_if<NodeInvokeError>(&r)) {
      child->detach();
      bool wants_approval = e->code == "SYSTEM_RUN_DENIED" && e->message.ends_with("approval required");
      if (wants_approval && call->ask != ExecAsk::kOff) return ask_node_approval(call);
      return call->answer(Reply::thrown(invoke_error_text(call->node.node_id, "clawexec.exec.start", *e)));
    }
    if (call->ctx.cancel && call->ctx.cancel->cancelled()) {
      child->detach();
      return call->answer(Reply::thrown("Tool execution was aborted"));
    }
    const json::Value& started = std::get<json::Value>(r);
    std::optional<int64_t> pid = started.is_object() ? json::integer_member(started.get_object(), "pid") : std::nullopt;
    RunRequest request;
    request.command = call->plan.command;
    request.cwd = call->cwd();
    request.scope_key = call->ctx.scope_key;
    request.timeout_seconds = call->plan.timeout_seconds;
    request.continuation_available = call->ctx.continuation_available;
    request.cleanup_ms = config_.exec.cleanup_ms;
    request.limits = {static_cast<size_t>(config_.exec.max_output_chars), static_cast<size_t>(config_.exec.pending_max_output_chars)};
    request.spawn.terminal = call->plan.pty ? proc::Terminal::kPty : proc::Terminal::kPipes;
    Result<std::shared_ptr<Run>> run = start_run(std::move(request), [&](proc::ChildEvents events) -> Result<std::shared_ptr<proc::Child>> {
      child->attach(std::move(events), static_cast<pid_t>(pid.value_or(0)), call->plan.pty);
      return std::shared_ptr<proc::Child>(child);
    });
    if (!run.ok()) {
      child->detach();
      return call->answer(Reply::thrown(run.error().message));
    }
    if (!call->done) return;
    ExecStartDone done = std::move(call->done);
    call->done = nullptr;
    done(StartedRun{std::move(run).value(), call->plan.yield_ms, call->plan.warnings, call->node.node_id});
  });
}

void ExecService::withdraw_node_approval(const std::string& id) {
  auto it = node_waits_.find(id);
  if (it == node_waits_.end()) return;
  it->second->expiry.cancel();
  node_waits_.erase(it);
}

}  // namespace clawexec::exec
