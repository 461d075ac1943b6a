// The node's approvals document (local_policy.h): resolution for a plan's policy snapshot,
// and the get/set of the document itself through the gateway's own implementation, so the
// node and the gateway share one base-hash rule and one redaction of the socket token.

#include "node/local_policy.h"

#include "approvals/document.h"
#include "approvals/random.h"
#include "config/exec_settings.h"
#include "gateway/operator_admin.h"

namespace clawexec::node {

Result<PolicyView> read_policy_view(const operator_ops::OperatorEnv& env, const std::string& agent_id) {
  approvals::ApprovalsSnapshot snap = TRY(operator_ops::open_store(env).read_snapshot());
  json::Value raw = json::Object();
  if (snap.raw) {
    std::optional<json::Value> parsed = json::parse(*snap.raw);
    if (!parsed) return Error::invalid("exec approvals file " + snap.path + " is not valid JSON");
    raw = std::move(*parsed);
  }
  approvals::ResolveContext context{snap.path, env.approvals.socket, env.approvals.home};
  approvals::ResolvedApprovals resolved = approvals::resolve_from_file(raw, agent_id.empty() ? "main" : agent_id, {}, context,
                                                                       [] { return approvals::random_uuid(); });
  PolicyView view;
  view.security = std::string(config::to_string(resolved.agent.security));
  view.ask = std::string(config::to_string(resolved.agent.ask));
  view.ask_fallback = std::string(config::to_string(resolved.agent.ask_fallback));
  view.auto_allow_skills = resolved.agent.auto_allow_skills;
  for (const policy::AllowlistEntry& e : resolved.allowlist) {
    json::Object rule{{"pattern", e.pattern}};
    if (e.arg_pattern) rule["argPattern"] = *e.arg_pattern;
    if (e.source) rule["source"] = *e.source;
    view.allowlist_rules.push_back(std::move(rule));
  }
  return view;
}

Result<json::Object> approvals_get(const operator_ops::OperatorEnv& env) { return gateway::exec_approvals_get(env); }

Result<json::Object> approvals_set(const operator_ops::OperatorEnv& env, const json::Object& params) {
  const json::Value* file = json::find(params, "file");
  if (!file || !file->is_object()) return Error::invalid("invalid system.execApprovals.set params: file (object) required");
  std::optional<std::string> base_hash;
  if (const json::Value* h = json::find(params, "baseHash"); h && !h->is_null()) {
    if (!h->is_string() || h->get_string().empty()) return Error::invalid("invalid system.execApprovals.set params: baseHash must be a non-empty string");
    base_hash = std::string(h->get_string());
  }
  return gateway::exec_approvals_set(env, *file, base_hash);
}

}  // namespace clawexec::node
