// exec host=node: the plain OpenClaw protocol from the gateway's side (§4.6). The node is
// picked (node_selection.h), the command is wrapped in the node platform's shell, the node
// prepares it (`system.run.prepare` returns the canonical plan: argv, cwd, command text and the
// node's own policy snapshot), and `system.run` runs exactly that plan with the stricter of the
// gateway's and the node's policy. The node enforces its own approvals; a run it refuses comes
// back as its error, never as output. Node runs are foreground only: the result is the node's
// stdout, stderr and error, formatted as OpenClaw's formatNodeRunToolResult.

#include <chrono>

#include "approvals/random.h"
#include "base/strings.h"
#include "base/time.h"
#include "exec/exec_plan.h"
#include "exec/gateway_context.h"
#include "exec/node_invoker.h"
#include "exec/service.h"
#include "session/format.h"

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
  if (e.code == "NOT_CONNECTED" || e.code == "TIMEOUT" || e.code == "NODE_DISCONNECTED") {
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

void ExecService::run_on_node(ExecPlan exec_plan, CallContext ctx, ExecStartDone done) {
  const ExecRequest& request = exec_plan.request;
  std::shared_ptr<const ServiceConfig> config = shared_config();
  if (!node_invoker_) {
    std::string node = request.node.value_or(config->exec.node.value_or(""));
    return done(Reply::thrown("exec host=node: no paired node" + (node.empty() ? std::string() : " matches \"" + node + "\"") +
                              ". This server reaches no gateway with node hosts; start `clawexec gateway` and pair a node "
                              "(`clawexec node run`), or run the command with host=auto or host=gateway."));
  }
  Result<NodeSummary> node = select_node(node_invoker_->nodes(), request.node, config->exec.node);
  if (!node.ok()) return done(Reply::thrown(node.error().message));
  Result<policy::ExecCallPolicy> policy = policy::resolve_exec_call_policy(call_inputs(*config, ExecHost::kNode, &request));
  if (!policy.ok()) return done(Reply::thrown(policy.error().message));

  struct NodeCall {
    NodeSummary node;
    ExecPlan plan;
    CallContext ctx;
    ExecStartDone done;
    policy::ExecCallPolicy policy;
    std::string agent_id;
    std::string session_key;
    int64_t started_ms = 0;
    int64_t timeout_ms = 0;
  };
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
  NodeInvoker* invoker = node_invoker_;
  invoker->invoke(call->node.node_id, "system.run.prepare", std::move(prepare), kPrepareTimeoutMs, [call, invoker](NodeInvokeResult prepared) {
    if (call->ctx.cancel && call->ctx.cancel->cancelled()) return call->done(Reply::thrown("Tool execution was aborted"));
    if (auto* e = std::get_if<NodeInvokeError>(&prepared)) {
      return call->done(Reply::thrown(invoke_error_text(call->node.node_id, "system.run.prepare", *e)));
    }
    const json::Value& payload = std::get<json::Value>(prepared);
    const json::Object* plan = payload.is_object() ? json::object_member(payload.get_object(), "plan") : nullptr;
    if (!plan || !json::find(*plan, "argv") || !json::find(*plan, "argv")->is_array()) {
      return call->done(Reply::thrown("exec host=node: node " + call->node.node_id +
                                      " answered system.run.prepare without a plan (argv); its node host is not compatible"));
    }
    // The stricter of the gateway's policy and the node's own snapshot.
    ExecSecurity security = call->policy.security;
    ExecAsk ask = call->policy.ask;
    if (const json::Object* snap = json::object_member(*plan, "policySnapshot")) {
      if (auto s = parse_security(json::string_member(*snap, "security")); s && security_rank(*s) < security_rank(security)) security = *s;
      if (auto a = parse_ask(json::string_member(*snap, "ask")); a && ask_rank(*a) > ask_rank(ask)) ask = *a;
    }
    if (security == ExecSecurity::kDeny) return call->done(Reply::thrown("exec denied: host=node security=deny"));
    if (ask == ExecAsk::kAlways) {
      return call->done(Reply::thrown("exec denied: host=node ask=always needs an approval, and approvals for node runs are not "
                                      "available on this gateway yet; set ask to on-miss or off for node " +
                                      call->node.node_id));
    }
    std::string cwd = json::string_member(*plan, "cwd");
    json::Object run{{"command", json::find(*plan, "argv")->as_array()},
                     {"rawCommand", json::string_member(*plan, "commandText")},
                     {"systemRunPlan", *plan},
                     {"timeoutMs", call->timeout_ms},
                     {"agentId", call->agent_id},
                     {"sessionKey", call->session_key},
                     {"runId", approvals::random_uuid()}};
    if (!cwd.empty()) run["cwd"] = cwd;
    if (!call->plan.env_overrides.empty()) run["env"] = env_object(call->plan.env_overrides);
    int64_t deadline = std::max<int64_t>(10000, call->timeout_ms + 5000);
    if (call->timeout_ms == 0) deadline = int64_t{24} * 3600 * 1000;
    invoker->invoke(call->node.node_id, "system.run", std::move(run), deadline, [call, cwd](NodeInvokeResult ran) {
      if (auto* e = std::get_if<NodeInvokeError>(&ran)) {
        return call->done(Reply::thrown(invoke_error_text(call->node.node_id, "system.run", *e)));
      }
      const json::Value& result = std::get<json::Value>(ran);
      if (!result.is_object()) {
        return call->done(Reply::thrown("exec host=node: node " + call->node.node_id + " answered system.run with a non-object result"));
      }
      call->done(node_result(call->node.node_id, result.get_object(), call->plan.warnings, call->started_ms, cwd));
    });
  });
}

}  // namespace clawexec::exec
