// The effective-policy report (`approvals get`, `exec-policy show`, §2.6): for one config
// scope, what the config requests, what the approvals file says, and what wins, each value
// with a human-readable source. The requested side follows the config's layering (a scope
// mode beats everything; a scope security/ask on top of a global mode inherits the other
// field from that mode; otherwise field by field scope -> tools.exec -> built-in default).
// The host side is the file view with the requested values as fallbacks, so an unset file
// field "inherits requested tool policy".

#include "policy/modes.h"

namespace clawexec::policy {
namespace {

constexpr ExecSecurity kDefaultRequestedSecurity = ExecSecurity::kFull;
constexpr ExecAsk kDefaultRequestedAsk = ExecAsk::kOff;

struct RequestedPolicy {
  ExecMode mode = ExecMode::kFull;
  std::string mode_source;
  ExecSecurity security = kDefaultRequestedSecurity;
  std::string security_source;
  ExecAsk ask = kDefaultRequestedAsk;
  std::string ask_source;
};

std::string str(ExecMode v) { return std::string(config::to_string(v)); }
std::string str(ExecSecurity v) { return std::string(config::to_string(v)); }
std::string str(ExecAsk v) { return std::string(config::to_string(v)); }

std::string derived_source(const std::string& security_source, const std::string& ask_source) {
  if (security_source == ask_source) return "derived from " + security_source;
  return "derived from " + security_source + " and " + ask_source;
}

RequestedPolicy from_mode(ExecMode mode, const std::string& source) {
  const ModePolicy table = resolve_exec_policy_for_mode(mode);
  return {mode, source, table.security, source, table.ask, source};
}

RequestedPolicy resolve_requested_policy(const PolicyScopeSnapshotInputs& in) {
  const ExecPolicyLayer& scope = in.scope;
  static const ExecPolicyLayer kNoGlobal;
  const ExecPolicyLayer& global = in.global ? *in.global : kNoGlobal;
  const bool scope_sets_fields = scope.security || scope.ask;
  if (scope.mode) return from_mode(*scope.mode, in.config_path + ".mode");
  if (!scope_sets_fields && global.mode) return from_mode(*global.mode, "tools.exec.mode");

  RequestedPolicy out;
  if (scope_sets_fields && global.mode) {
    const ModePolicy inherited = resolve_exec_policy_for_mode(*global.mode);
    out.security = scope.security.value_or(inherited.security);
    out.ask = scope.ask.value_or(inherited.ask);
    out.security_source = scope.security ? in.config_path + ".security" : "tools.exec.mode";
    out.ask_source = scope.ask ? in.config_path + ".ask" : "tools.exec.mode";
  } else {
    const auto pick_security = [&]() -> std::pair<ExecSecurity, std::string> {
      if (scope.security) return {*scope.security, in.config_path + ".security"};
      if (global.security) return {*global.security, "tools.exec.security"};
      return {kDefaultRequestedSecurity, "OpenClaw default (" + str(kDefaultRequestedSecurity) + ")"};
    };
    const auto pick_ask = [&]() -> std::pair<ExecAsk, std::string> {
      if (scope.ask) return {*scope.ask, in.config_path + ".ask"};
      if (global.ask) return {*global.ask, "tools.exec.ask"};
      return {kDefaultRequestedAsk, "OpenClaw default (" + str(kDefaultRequestedAsk) + ")"};
    };
    std::tie(out.security, out.security_source) = pick_security();
    std::tie(out.ask, out.ask_source) = pick_ask();
  }
  out.mode = resolve_exec_mode_from_policy(out.security, out.ask);
  out.mode_source = derived_source(out.security_source, out.ask_source);
  return out;
}

std::string host_field_source(const PolicyScopeSnapshotInputs& in, const std::optional<std::string>& suffix,
                              bool is_ask_fallback) {
  if (suffix) return in.host_path + " " + *suffix;
  if (in.host_default_source) return *in.host_default_source;
  if (is_ask_fallback) return "OpenClaw default (deny)";
  return "inherits requested tool policy";
}

}  // namespace

PolicyScopeSnapshot resolve_exec_policy_scope_snapshot(const PolicyScopeSnapshotInputs& in) {
  const RequestedPolicy requested = resolve_requested_policy(in);

  ApprovalsOverrides fallbacks;
  fallbacks.security = in.host_defaults ? in.host_defaults->security : requested.security;
  fallbacks.ask = in.host_defaults ? in.host_defaults->ask : requested.ask;
  if (in.host_defaults) fallbacks.ask_fallback = in.host_defaults->ask_fallback;
  const ApprovalsAgentPolicy host = apply_approvals_fallbacks(in.file, fallbacks);

  const ExecSecurity effective_security = min_security(requested.security, host.security);
  const ExecAsk effective_ask = max_ask(requested.ask, host.ask);
  const ExecSecurity effective_ask_fallback = min_security(effective_security, host.ask_fallback);
  const ExecMode effective_mode = (effective_security == requested.security && effective_ask == requested.ask)
                                      ? requested.mode
                                      : resolve_exec_mode_from_policy(effective_security, effective_ask);

  PolicyScopeSnapshot out;
  out.scope_label = in.scope_label;
  out.config_path = in.config_path;
  out.agent_id = in.agent_id;
  if (in.scope.host) {
    out.host_requested = std::string(config::to_string(*in.scope.host));
    out.host_requested_source = in.config_path + ".host";
  } else if (in.global && in.global->host) {
    out.host_requested = std::string(config::to_string(*in.global->host));
    out.host_requested_source = "tools.exec.host";
  } else {
    out.host_requested = "auto";
    out.host_requested_source = "OpenClaw default (auto)";
  }
  out.mode = {str(requested.mode), requested.mode_source, "", "", str(effective_mode),
              effective_mode == requested.mode ? "requested mode applies" : "host policy changes effective mode"};
  out.security = {str(requested.security), requested.security_source, str(host.security),
                  host_field_source(in, in.file.security_source, false), str(effective_security),
                  effective_security == requested.security ? "requested security applies"
                                                           : "stricter host security wins"};
  out.ask = {str(requested.ask), requested.ask_source, str(host.ask),
             host_field_source(in, in.file.ask_source, false), str(effective_ask),
             effective_ask == requested.ask ? "requested ask applies" : "more aggressive ask wins"};
  out.ask_fallback_effective = str(effective_ask_fallback);
  out.ask_fallback_source = host_field_source(in, in.file.ask_fallback_source, true);
  out.allowed_decisions = resolve_exec_approval_allowed_decisions(effective_ask);
  return out;
}

boost::json::object to_json(const PolicyScopeSnapshot& s) {
  boost::json::object out;
  out["scopeLabel"] = s.scope_label;
  out["configPath"] = s.config_path;
  if (s.agent_id && !s.agent_id->empty()) out["agentId"] = *s.agent_id;
  out["host"] = {{"requested", s.host_requested}, {"requestedSource", s.host_requested_source}};
  out["mode"] = {{"requested", s.mode.requested},
                 {"requestedSource", s.mode.requested_source},
                 {"effective", s.mode.effective},
                 {"note", s.mode.note}};
  const auto field = [](const SnapshotField& f) {
    return boost::json::object{{"requested", f.requested}, {"requestedSource", f.requested_source},
                               {"host", f.host},           {"hostSource", f.host_source},
                               {"effective", f.effective}, {"note", f.note}};
  };
  out["security"] = field(s.security);
  out["ask"] = field(s.ask);
  out["askFallback"] = {{"effective", s.ask_fallback_effective}, {"source", s.ask_fallback_source}};
  boost::json::array decisions;
  for (auto d : s.allowed_decisions) decisions.emplace_back(std::string(to_string(d)));
  out["allowedDecisions"] = std::move(decisions);
  return out;
}

}  // namespace clawexec::policy
