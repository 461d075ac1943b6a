// Effective-policy report over all scopes. The per-scope arithmetic lives in
// policy::resolve_exec_policy_scope_snapshot; this file only decides which scopes exist (the
// reference's collectExecPolicyScopeSnapshots) and shapes the JSON of the two reports (`approvals get`, `exec-policy show`).

#include "operator/effective_policy_report.h"

#include <algorithm>
#include <set>

#include "policy/audit_config.h"

namespace clawexec::operator_ops {

namespace bj = boost::json;

namespace {

constexpr std::string_view kSessionNote =
    "Per-session /exec overrides are not included; run /exec in the relevant session to inspect its current "
    "defaults.";

const bj::value* member(const bj::object* o, std::string_view key) {
  if (o == nullptr) return nullptr;
  auto it = o->find(key);
  return it == o->end() || it->value().is_null() ? nullptr : &it->value();
}

bj::object scope_json(const policy::PolicyScopeSnapshotInputs& in, ReportStyle style) {
  bj::object out = policy::to_json(policy::resolve_exec_policy_scope_snapshot(in));
  if (style == ReportStyle::kExecPolicy) {
    out.erase("allowedDecisions");
    out["runtimeApprovalsSource"] = "local-file";
  }
  return out;
}

policy::PolicyScopeSnapshotInputs scope_inputs(const bj::value& config, const bj::value& raw_approvals,
                                               const approvals::Document& approvals, const std::string& host_path,
                                               const std::optional<std::string>& agent_id, bool global_scope) {
  policy::PolicyScopeSnapshotInputs in;
  const bj::object* global = policy::global_exec_section(config);
  in.host_path = host_path;
  in.agent_id = agent_id;
  in.file = approvals::host_policy_view(raw_approvals, approvals, agent_id.value_or(std::string(approvals::kDefaultAgentId)));
  if (global_scope) {
    in.scope = exec_layer_from_json(global);
    in.config_path = "tools.exec";
    in.scope_label = "tools.exec";
    return in;
  }
  const bj::object* exec = nullptr;
  for (const policy::ConfiguredAgent& agent : policy::list_configured_agents(config)) {
    if (agent.has_string_id && agent.id == *agent_id) {
      exec = policy::agent_exec_section(agent);
      break;
    }
  }
  in.scope = exec_layer_from_json(exec);
  in.global = exec_layer_from_json(global);
  in.config_path = "agents.entries." + *agent_id + ".tools.exec";
  in.scope_label = "agent:" + *agent_id;
  return in;
}

}  // namespace

policy::ExecPolicyLayer exec_layer_from_json(const bj::object* exec) {
  policy::ExecPolicyLayer layer;
  if (const bj::value* v = member(exec, "host")) layer.host = policy::normalize_exec_target(*v);
  if (const bj::value* v = member(exec, "mode")) layer.mode = policy::normalize_exec_mode(*v);
  if (const bj::value* v = member(exec, "security")) layer.security = policy::normalize_exec_security(*v);
  if (const bj::value* v = member(exec, "ask")) layer.ask = policy::normalize_exec_ask(*v);
  if (const bj::value* v = member(exec, "node"); v != nullptr && v->is_string()) layer.node = std::string(v->as_string());
  return layer;
}

bj::object effective_policy_report(const bj::value& config, const bj::value& raw_approvals,
                                   const approvals::Document& approvals, const std::string& host_path,
                                   ReportStyle style) {
  std::optional<std::string> default_agent = policy::try_resolve_default_agent_id(config);
  bj::array scopes;
  scopes.push_back(scope_json(scope_inputs(config, raw_approvals, approvals, host_path, default_agent, true), style));

  std::set<std::string> ids;
  for (const policy::ConfiguredAgent& agent : policy::list_configured_agents(config)) {
    if (!agent.has_string_id) continue;
    bool has_exec = member(policy::object_member(agent.entry, "tools"), "exec") != nullptr;
    if (!default_agent || agent.id != *default_agent || has_exec) ids.insert(agent.id);
  }
  auto agents_it = approvals.find("agents");
  if (agents_it != approvals.end() && agents_it->value().is_object()) {
    const bj::object* agents = &agents_it->value().as_object();
    for (const auto& m : *agents) {
      std::string id(m.key());
      if (id == "*" || id == "default" || (default_agent && id == *default_agent)) continue;
      ids.insert(id);
    }
  }
  for (const std::string& id : ids) {
    scopes.push_back(scope_json(scope_inputs(config, raw_approvals, approvals, host_path, id, false), style));
  }
  std::string note = "Effective exec policy is the host approvals policy intersected with requested tools.exec policy. ";
  note += kSessionNote;
  return {{"note", note}, {"scopes", std::move(scopes)}};
}

bj::object agent_policy_snapshot(const bj::value& config, const bj::value& raw_approvals,
                                 const approvals::Document& approvals, const std::string& host_path,
                                 const std::string& agent_id) {
  return scope_json(scope_inputs(config, raw_approvals, approvals, host_path, agent_id, false),
                    ReportStyle::kApprovalsGet);
}

}  // namespace clawexec::operator_ops
