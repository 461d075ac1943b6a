// `clawexec.policy.explain`: what the gateway's policy would do with a command, for an operator
// (the control UI's "what would happen" box), without running anything. It is `clawexec policy
// explain` over the WebSocket: the named agent's exec settings and approvals document, the PATH
// a gateway command gets, the command read as the gateway's shell reads it, and the documented
// JSON report (docs/policy.md, with `agent` and `cwd`). Admin only, like the approvals
// document it reveals (which allowlist entry matched).
//
// `clawexec.policy.presets`: the presets `clawexec exec-policy preset <name>` knows, from the
// same table (operator/exec_policy.h), so the allowlists editor offers exactly those values
// and applies them through exec.approvals.set with its base hash. Read scope: they are constants.

#include "exec/policy_gate.h"
#include "gateway/operator_internal.h"
#include "operator/exec_policy.h"
#include "sys/sys.h"

namespace clawexec::gateway {

void OperatorHub::policy_method(const std::shared_ptr<Connection>& c, const std::string& id, const json::Object& params) {
  const std::string method = "clawexec.policy.explain";
  for (std::string_view key : {"command", "agentId", "cwd"}) {
    const json::Value* v = json::find(params, key);
    if (v && !v->is_string()) return c->send(res_error(id, "INVALID_REQUEST", "invalid " + method + " params: " + std::string(key) + " must be a string"));
  }
  std::string command = str(params, "command");
  if (command.empty()) return c->send(res_error(id, "INVALID_REQUEST", "invalid " + method + " params: command (non-empty string) required"));
  std::string agent = str(params, "agentId");
  if (agent.empty()) agent = options_.default_agent;
  if (!options_.service_for) return c->send(res_error(id, "UNAVAILABLE", method + ": this gateway has no exec services"));
  Result<exec::ExecService*> service = options_.service_for(agent);
  if (!service.ok()) return c->send(res_error(id, "INVALID_REQUEST", method + ": agent " + agent + ": " + service.error().message));

  std::string cwd = str(params, "cwd");
  Result<std::string> resolved = cwd.empty() ? sys::current_directory() : sys::real_path(cwd);
  if (!resolved.ok() || !sys::is_directory(resolved.value())) {
    return c->send(res_error(id, "INVALID_REQUEST", method + ": cwd " + (cwd.empty() ? std::string("(the gateway's)") : cwd) +
                                                        " is not a directory"));
  }
  std::weak_ptr<Connection> weak = c;
  exec::ExecService* s = *service;
  s->gateway_path([weak, id, s, command, dir = resolved.value()](std::string path) {
    auto live = weak.lock();
    if (!live) return;
    live->send(res_ok(id, json::Value(exec::explain_policy(s->config(), command, dir, path))));
  });
}

void OperatorHub::presets_method(const std::shared_ptr<Connection>& c, const std::string& id, const json::Object& params) {
  if (!params.empty()) {
    return c->send(res_error(id, "INVALID_REQUEST", "invalid clawexec.policy.presets params: unexpected property '" +
                                                        std::string(params.begin()->key()) + "'"));
  }
  json::Array presets;
  for (const operator_ops::ExecPolicyPreset& p : operator_ops::exec_policy_presets()) {
    json::Object o = operator_ops::to_json(p.change);
    o["name"] = std::string(p.name);
    presets.emplace_back(std::move(o));
  }
  c->send(res_ok(id, json::Object{{"presets", std::move(presets)}}));
}

}  // namespace clawexec::gateway
