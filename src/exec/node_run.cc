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
// The approval is a pending one (operator channel, the gateway's WebSocket, `approvals
// pending`): the call answers at once with the pending text, and once an operator decides,
// system.run goes to the node again with approved=true, approvalDecision and runId = the
// approval id, exactly the plan the operator was shown; the outcome comes to the client as an
// "Exec finished (node=<id> id=<approvalId>, ...)" or "Exec denied (node=...)" notice. Nobody
// to ask (no route): the node's askFallback at once (full runs it, anything else denies).

#include <unistd.h>

#include <chrono>

#include <boost/asio/steady_timer.hpp>

#include "policy/safe_bins.h"
#include "shell/explain.h"
#include "approvals/random.h"
#include "base/strings.h"
#include "base/time.h"
#include "exec/exec_plan.h"
#include "exec/gateway_approval.h"
#include "exec/gateway_context.h"
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

std::string invoke_error_text(const std::string& node_id, const std::string& command, const NodeInvokeError& e) {
  if (e.code == "NOT_CONNECTED" || e.code == "TIMEOUT" || e.code == "NODE_DISCONNECTED" || e.code == "GATEWAY_DISCONNECTED") {
    return "exec host=node: " + command + " on node " + node_id + " failed: " + e.message;
  }
  // The node's own refusals (SYSTEM_RUN_DENIED: ..., INVALID_REQUEST: ...) read as they are.
  return e.message.rfind(e.code + ":", 0) == 0 || e.code.empty() ? e.message : e.code + ": " + e.message;
}

json::Object env_object(const env::EnvList& env) {
  json::Object out;
  for (const auto& [k, v] : env) out[k] = v;
  return out;
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

}  // namespace

struct ExecService::NodeCall {
  NodeSummary node;
  ExecPlan plan;
  CallContext ctx;
  ExecStartDone done;  // empty once answered (a pending approval answers early)
  policy::ExecCallPolicy policy;
  std::string agent_id;
  std::string session_key;
  int64_t started_ms = 0;
  int64_t timeout_ms = 0;
  json::Object prepared;  // the node's plan
  ExecSecurity security = ExecSecurity::kFull;
  ExecAsk ask = ExecAsk::kOff;
  ExecSecurity ask_fallback = ExecSecurity::kDeny;
  bool allow_always = false;  // the node said an allow-always would cover the whole command
  bool reviewed = false;        // the auto-reviewer was asked (mode auto: once, before any human)
  bool human_required = false;  // it deferred: no fallback may run the command

  void answer(Reply reply) {
    if (!done) return;
    ExecStartDone d = std::move(done);
    done = nullptr;
    d(std::move(reply));
  }
  std::string command_text() const { return json::string_member(prepared, "commandText"); }
  /// The foreground answer to this call's system.run: the node's result as OpenClaw formats it,
  /// or its error.
  Reply run_reply(const NodeInvokeResult& ran) const {
    if (auto* e = std::get_if<NodeInvokeError>(&ran)) return Reply::thrown(invoke_error_text(node.node_id, "system.run", *e));
    const json::Value& result = std::get<json::Value>(ran);
    if (!result.is_object()) return Reply::thrown("exec host=node: node " + node.node_id + " answered system.run with a non-object result");
    return node_result(node.node_id, result.get_object(), plan.warnings, started_ms, cwd());
  }
  std::string cwd() const { return json::string_member(prepared, "cwd"); }
  /// system.run's parameters for the prepared plan (`run_id`: the approval's, else a new one).
  json::Object run_params(const std::optional<std::string>& run_id) const;
};

struct ExecService::NodeApprovalWait {
  explicit NodeApprovalWait(boost::asio::io_context& io) : expiry(io) {}
  std::string id;
  std::shared_ptr<NodeCall> call;
  boost::asio::steady_timer expiry;
};

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

// One simple command (no pipeline, list, substitution or compound), not an interpreter or a shell.
static bool node_command_reviewable(const std::string& command) {
  shell::Explanation e = shell::explain_command(command, shell::ShellDialect::kDash);
  if (e.outcome != shell::ExplainOutcome::kOk || e.commands.size() != 1 || e.commands[0].argv.empty()) return false;
  if (command.find_first_of(";&|<>`$(){}\n") != std::string::npos) return false;
  const std::string& name = e.commands[0].argv[0];
  return !policy::is_interpreter_like_safe_bin(name.substr(name.rfind('/') + 1));
}

// The reviewer's view of a node run: the node's plan (its argv is what an allow-once runs), the
// environment names the call sets, and why a human would be needed.
policy::ReviewInput ExecService::node_review_input(const NodeCall& call) {
  policy::ReviewInput in;
  in.command = call.command_text();
  if (const json::Value* argv = json::find(call.prepared, "argv"); argv && argv->is_array()) {
    std::vector<std::string> words;
    for (const json::Value& w : argv->get_array()) words.push_back(w.is_string() ? std::string(w.get_string()) : std::string());
    in.argv = std::move(words);
  }
  if (std::string dir = call.cwd(); !dir.empty()) in.cwd = dir;
  std::vector<std::string> env_keys;
  for (const auto& [key, value] : call.plan.env_overrides) env_keys.push_back(key);
  std::sort(env_keys.begin(), env_keys.end());
  in.env_keys = std::move(env_keys);
  in.host = "node";
  in.reason = call.security == ExecSecurity::kAllowlist ? "allowlist-miss" : "approval-required";
  in.analysis.parsed = in.argv.has_value();
  in.agent_id = call.agent_id;
  in.session_key = call.session_key;
  return in;
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

void ExecService::ask_node_approval(std::shared_ptr<NodeCall> call) {
  // mode "auto": the reviewer first (§7.1 step 6), on the node's plan - exactly the argv an
  // allow-once runs there - when the command is one simple command that is not an interpreter
  // or a shell (the gateway host's binding rule, read from the text since the node resolves
  // it); else, and once it deferred, a human only.
  if (call->policy.auto_review && call->ask != ExecAsk::kAlways && !call->reviewed) {
    call->reviewed = true;
    if (!node_command_reviewable(call->plan.command)) {
      call->human_required = true;
      return ask_node_approval(call);
    }
    return review(node_review_input(*call), call->ctx.cancel, [this, call](const policy::ReviewAnswer& answer) {
      if (call->ctx.cancel && call->ctx.cancel->cancelled()) return call->answer(Reply::thrown("Tool execution was aborted"));
      if (policy::review_allows_run(answer)) {
        call->plan.warnings.push_back(policy::review_allowed_warning(answer));
        std::string token = node_system_run(call, std::make_pair(approvals::random_uuid(), policy::ApprovalDecision::kAllowOnce),
                                            [call](NodeInvokeResult ran) { call->answer(call->run_reply(ran)); });
        // The caller gave up (MCP cancel): the node stops the command.
        if (call->ctx.cancel && !token.empty()) {
          NodeInvoker* invoker = node_invoker_;
          call->ctx.cancel->on_cancel([invoker, token] { invoker->cancel(token); });
        }
        return;
      }
      call->plan.warnings.push_back(policy::review_deferred_warning(answer));
      call->human_required = true;
      ask_node_approval(call);
    });
  }
  if (!call->ctx.pending_approvals) {
    // No route: the ask fallback at once (never after the reviewer deferred).
    if (call->ask_fallback == ExecSecurity::kFull && !call->human_required) {
      (void)node_system_run(call, std::make_pair(approvals::random_uuid(), policy::ApprovalDecision::kAllowOnce),
                            [call](NodeInvokeResult ran) { call->answer(call->run_reply(ran)); });
      return;
    }
    std::string denial = headless_denial(call->security, call->ask, call->ask_fallback, "the exec approvals of node " + call->node.node_id);
    // After the reviewer deferred, say what it answered before why nobody else can.
    if (call->human_required && !call->plan.warnings.empty()) denial = call->plan.warnings.back() + "\n" + denial;
    return call->answer(Reply::thrown(denial));
  }
  std::vector<policy::ApprovalDecision> decisions{policy::ApprovalDecision::kAllowOnce};
  if (call->allow_always) decisions.push_back(policy::ApprovalDecision::kAllowAlways);
  decisions.push_back(policy::ApprovalDecision::kDeny);
  std::string id = approvals::random_uuid();
  int64_t now = epoch_ms();
  std::string warning_text;
  for (const std::string& w : call->plan.warnings) warning_text += (warning_text.empty() ? "" : "\n") + w;
  json::Object request{{"command", call->command_text()},
                       {"cwd", call->cwd()},
                       {"host", "node"},
                       {"nodeId", call->node.node_id},
                       {"agentId", call->agent_id},
                       {"security", config::to_string(call->security)},
                       {"ask", config::to_string(call->ask)},
                       {"warningText", warning_text},
                       {"systemRunPlan", call->prepared}};
  std::vector<std::string> env_keys;  // the keys the call set, never their values
  for (const auto& [key, value] : call->plan.env_overrides) env_keys.push_back(key);
  std::sort(env_keys.begin(), env_keys.end());
  if (!env_keys.empty()) request["envKeys"] = json::string_array(env_keys);
  approvals::NewApproval entry{id, request, decisions, now, now + config_.approval_timeout_ms, std::to_string(::getpid())};
  Result<approvals::PendingApproval> added = pending_.add(std::move(entry));
  if (!added.ok()) return call->answer(Reply::thrown("exec approval request failed: " + added.error().message));

  auto wait = std::make_shared<NodeApprovalWait>(io_);
  wait->id = id;
  wait->call = call;
  call->ctx.cancel.reset();  // the call that asked returns now; the run is not tied to it
  node_waits_[id] = wait;
  wait->expiry.expires_after(std::chrono::milliseconds(config_.approval_timeout_ms));
  wait->expiry.async_wait([this, id](const boost::system::error_code& ec) {
    if (!ec) settle_node_approval(id, std::nullopt);
  });

  policy::ApprovalPendingInputs in;
  in.warnings = call->plan.warnings;
  in.approval_id = id;
  in.approval_slug = added->slug;
  in.expires_at_ms = added->expires_at_ms;
  in.allowed_decisions = decisions;
  in.host = ExecHost::kNode;
  in.command = call->command_text();
  if (std::string cwd = call->cwd(); !cwd.empty()) in.cwd = cwd;
  in.node_id = call->node.node_id;
  in.continuation = policy::ProcessContinuation::kUnavailable;  // node runs have no process session
  if (approval_events_.requested) approval_events_.requested(pending_approval_json(*added));
  call->answer(approval_pending_reply(in));
}

bool ExecService::settle_node_approval(const std::string& id, std::optional<policy::ApprovalDecision> decision) {
  auto it = node_waits_.find(id);
  if (it == node_waits_.end()) return false;
  std::shared_ptr<NodeApprovalWait> wait = it->second;
  node_waits_.erase(it);
  wait->expiry.cancel();
  std::shared_ptr<NodeCall> call = wait->call;
  std::string scope = call->ctx.scope_key;
  std::string node_id = call->node.node_id;
  std::string shown_command = term::escape_for_display(call->command_text());
  if (!decision) {
    pending_.expire(epoch_ms());
    if (approval_events_.resolved) approval_events_.resolved(id, "", "timeout");
  }
  pending_.purge(epoch_ms());
  std::optional<policy::ApprovalDecision> run_as = decision;
  if (!decision && call->ask_fallback == ExecSecurity::kFull && !call->human_required) run_as = policy::ApprovalDecision::kAllowOnce;
  if (!run_as || *run_as == policy::ApprovalDecision::kDeny) {
    std::string reason = decision ? "user-denied" : "approval-timeout";
    notify(scope, "", policy::node_exec_denied_text(node_id, id, reason, shown_command));
    return true;
  }
  node_system_run(call, std::make_pair(id, *run_as), [this, scope, node_id, id, shown_command](NodeInvokeResult ran) {
    if (auto* e = std::get_if<NodeInvokeError>(&ran)) {
      return notify(scope, "", policy::node_exec_denied_text(node_id, id, "invoke-failed: " + invoke_error_text(node_id, "system.run", *e),
                                                             shown_command));
    }
    const json::Value& r = std::get<json::Value>(ran);
    if (!r.is_object() || !config_.exec.notify_on_exit) return;
    const json::Object& o = r.get_object();
    std::string combined;
    for (const char* key : {"stdout", "stderr", "error"}) {
      std::string part = json::string_member(o, key);
      if (!part.empty()) combined += (combined.empty() ? "" : "\n") + part;
    }
    const json::Value* t = json::find(o, "timedOut");
    bool timed_out = t && t->is_bool() && t->get_bool();
    std::optional<int64_t> code = json::integer_member(o, "exitCode");
    notify(scope, "",
           policy::node_exec_finished_text(node_id, id, timed_out ? policy::RunTimedOut::kYes : policy::RunTimedOut::kNo,
                                           code ? std::optional<int>(static_cast<int>(*code)) : std::nullopt,
                                           term::escape_for_display(combined, term::DisplayStyle::kLines)));
  });
  return true;
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
