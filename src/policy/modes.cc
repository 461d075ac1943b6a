// Exec modes and effective policy: the small lattice (security deny < allowlist < full, ask
// off < on-miss < always), the inverse of the mode table (the table itself and the layering
// rule are config/exec_modes.h), and the three places the reference combines policy sources —
// config layering, the per-agent defaults (§2.3) and the per-call resolution inside the exec
// tool (§2.4). The approvals file only ever tightens: its values
// enter through min_security/max_ask floors. Everything is a pure function over typed inputs;
// the approvals file arrives already resolved (or as a callback, so the sandbox path can
// prove it never consulted it).

#include "policy/modes.h"

#include <array>

#include "base/strings.h"
#include "base/utf.h"

namespace clawexec::policy {
namespace {

int security_rank(ExecSecurity s) {
  switch (s) {
    case ExecSecurity::kDeny:
      return 0;
    case ExecSecurity::kAllowlist:
      return 1;
    case ExecSecurity::kFull:
      return 2;
  }
  return 0;
}

int ask_rank(ExecAsk a) {
  switch (a) {
    case ExecAsk::kOff:
      return 0;
    case ExecAsk::kOnMiss:
      return 1;
    case ExecAsk::kAlways:
      return 2;
  }
  return 2;
}

template <typename T>
std::optional<T> from_json_string(const boost::json::value& value, std::optional<T> (*fn)(std::string_view)) {
  if (!value.is_string()) return std::nullopt;
  const auto& s = value.get_string();
  return fn(std::string_view(s.data(), s.size()));
}

std::string_view js_typeof(const boost::json::value& value) {
  if (value.is_bool()) return "boolean";
  if (value.is_number()) return "number";
  if (value.is_string()) return "string";
  return "object";  // objects, arrays (null is handled before)
}

constexpr std::string_view kAllowedTargets = "auto, sandbox, gateway, node";

}  // namespace

std::optional<ExecHost> normalize_exec_host(std::string_view value) {
  const std::string v = lower_trimmed(value);
  if (v == "sandbox") return ExecHost::kSandbox;
  if (v == "gateway") return ExecHost::kGateway;
  if (v == "node") return ExecHost::kNode;
  return std::nullopt;
}

std::optional<ExecHost> normalize_exec_target(std::string_view value) {
  if (lower_trimmed(value) == "auto") return ExecHost::kAuto;
  return normalize_exec_host(value);
}

std::optional<ExecSecurity> normalize_exec_security(std::string_view value) {
  return exec_security_from_literal(lower_trimmed(value));
}

std::optional<ExecAsk> normalize_exec_ask(std::string_view value) { return exec_ask_from_literal(lower_trimmed(value)); }

std::optional<ExecMode> normalize_exec_mode(std::string_view value) {
  const std::string v = lower_trimmed(value);
  if (v == "deny") return ExecMode::kDeny;
  if (v == "allowlist") return ExecMode::kAllowlist;
  if (v == "ask") return ExecMode::kAsk;
  if (v == "auto") return ExecMode::kAuto;
  if (v == "full") return ExecMode::kFull;
  return std::nullopt;
}

std::optional<ExecHost> normalize_exec_host(const boost::json::value& value) {
  return from_json_string<ExecHost>(value, &normalize_exec_host);
}
std::optional<ExecHost> normalize_exec_target(const boost::json::value& value) {
  return from_json_string<ExecHost>(value, &normalize_exec_target);
}
std::optional<ExecSecurity> normalize_exec_security(const boost::json::value& value) {
  return from_json_string<ExecSecurity>(value, &normalize_exec_security);
}
std::optional<ExecAsk> normalize_exec_ask(const boost::json::value& value) {
  return from_json_string<ExecAsk>(value, &normalize_exec_ask);
}
std::optional<ExecMode> normalize_exec_mode(const boost::json::value& value) {
  return from_json_string<ExecMode>(value, &normalize_exec_mode);
}

std::optional<ExecSecurity> exec_security_from_literal(std::string_view value) {
  if (value == "deny") return ExecSecurity::kDeny;
  if (value == "allowlist") return ExecSecurity::kAllowlist;
  if (value == "full") return ExecSecurity::kFull;
  return std::nullopt;
}

std::optional<ExecAsk> exec_ask_from_literal(std::string_view value) {
  if (value == "off") return ExecAsk::kOff;
  if (value == "on-miss") return ExecAsk::kOnMiss;
  if (value == "always") return ExecAsk::kAlways;
  return std::nullopt;
}

Result<std::optional<ExecHost>> require_valid_exec_target(const boost::json::value* raw) {
  if (raw == nullptr || raw->is_null()) return std::optional<ExecHost>();
  if (!raw->is_string()) {
    return Error::invalid("Invalid exec host value type " + std::string(js_typeof(*raw)) +
                          ". Allowed values: " + std::string(kAllowedTargets) + ".");
  }
  const std::string_view text(raw->get_string().data(), raw->get_string().size());
  if (js_trim(text).empty()) return std::optional<ExecHost>();
  if (auto target = normalize_exec_target(text)) return std::optional<ExecHost>(*target);
  return Error::invalid("Invalid exec host \"" + std::string(text) + "\". Allowed values: " +
                        std::string(kAllowedTargets) + ".");
}

ExecSecurity min_security(ExecSecurity a, ExecSecurity b) { return security_rank(a) <= security_rank(b) ? a : b; }

ExecAsk max_ask(ExecAsk a, ExecAsk b) { return ask_rank(a) >= ask_rank(b) ? a : b; }

ExecMode resolve_exec_mode_from_policy(ExecSecurity security, ExecAsk ask) {
  if (security == ExecSecurity::kDeny) return ExecMode::kDeny;
  if (security == ExecSecurity::kAllowlist && ask == ExecAsk::kOff) return ExecMode::kAllowlist;
  if (security == ExecSecurity::kFull && ask != ExecAsk::kAlways) return ExecMode::kFull;
  return ExecMode::kAsk;
}

ResolvedModePolicy resolve_exec_mode_policy(std::optional<ExecMode> mode, ExecSecurity security, ExecAsk ask) {
  if (!mode) return {resolve_exec_mode_from_policy(security, ask), security, ask, false};
  const ModePolicy table = resolve_exec_policy_for_mode(*mode);
  return {*mode, table.security, table.ask, table.auto_review};
}

ExecPolicyState apply_exec_policy_layer(ExecPolicyState base, const ExecPolicyLayer& layer) {
  const config::LayeredExecPolicy next = config::apply_exec_policy_layer(
      {base.mode, base.security, base.ask, base.auto_review}, {layer.mode, layer.security, layer.ask});
  base.mode = next.mode;
  base.security = next.security.value_or(base.security);  // always set: the base had one
  base.ask = next.ask.value_or(base.ask);
  base.auto_review = next.auto_review;
  return base;
}

ApprovalsAgentPolicy apply_approvals_fallbacks(const HostPolicyView& view, const ApprovalsOverrides& overrides) {
  ApprovalsAgentPolicy out;
  out.security = view.security.value_or(overrides.security.value_or(ExecSecurity::kFull));
  out.ask = view.ask.value_or(overrides.ask.value_or(ExecAsk::kOff));
  out.ask_fallback = view.ask_fallback.value_or(overrides.ask_fallback.value_or(ExecSecurity::kDeny));
  out.auto_allow_skills = view.auto_allow_skills.value_or(overrides.auto_allow_skills.value_or(false));
  return out;
}

bool is_requested_exec_target_allowed(ExecHost configured, ExecHost requested, bool sandbox_available) {
  if (requested == configured) return true;
  if (configured == ExecHost::kAuto) {
    return !(sandbox_available && (requested == ExecHost::kGateway || requested == ExecHost::kNode));
  }
  return false;
}

Result<ExecTarget> resolve_exec_target(ExecHost configured, std::optional<ExecHost> requested,
                                       ElevatedRequest elevated, bool sandbox_available) {
  if (requested == ExecHost::kAuto) requested.reset();
  if (requested && !is_requested_exec_target_allowed(configured, *requested, sandbox_available)) {
    const std::string req(config::to_string(*requested));
    std::string hint;
    if (configured == ExecHost::kAuto && sandbox_available) {
      hint = req;
    } else if (*requested == ExecHost::kGateway && !sandbox_available) {
      hint = "gateway or auto";
    } else {
      hint = req + " or auto";
    }
    return Error::rejected("exec host not allowed (requested " + req + "; configured host is " +
                           std::string(config::to_string(configured)) + "; set tools.exec.host=" + hint +
                           " to allow this override).");
  }
  ExecTarget target;
  target.configured = configured;
  target.selected = requested.value_or(configured);
  if (elevated == ElevatedRequest::kYes && target.selected != ExecHost::kNode) target.selected = ExecHost::kGateway;
  target.effective = target.selected == ExecHost::kAuto
                         ? (sandbox_available ? ExecHost::kSandbox : ExecHost::kGateway)
                         : target.selected;
  return target;
}

ExecDefaults resolve_exec_defaults(const ExecDefaultsInputs& in) {
  const ExecHost configured = in.overrides.host ? *in.overrides.host
                              : in.session_host ? *in.session_host
                              : in.agent.host   ? *in.agent.host
                              : in.global.host  ? *in.global.host
                                                : ExecHost::kAuto;
  // No per-call request here, so the target cannot be refused.
  const ExecTarget target = resolve_exec_target(configured, std::nullopt, in.elevated, in.sandbox_available).value();
  const ExecSecurity base_security =
      target.effective == ExecHost::kSandbox ? ExecSecurity::kDeny : ExecSecurity::kFull;

  ExecDefaults out;
  out.host = target.configured;
  out.effective_host = target.effective;

  std::optional<ApprovalsAgentPolicy> approvals;
  if (target.effective != ExecHost::kSandbox) {
    out.approvals_consulted = true;
    ApprovalsOverrides fallbacks;
    fallbacks.security = base_security;
    fallbacks.ask = ExecAsk::kOff;
    approvals = in.resolve_approvals ? in.resolve_approvals(fallbacks) : apply_approvals_fallbacks({}, fallbacks);
  }

  ExecPolicyState state;
  state.security = approvals ? approvals->security : base_security;
  state.ask = approvals ? approvals->ask : ExecAsk::kOff;
  state = apply_exec_policy_layer(state, in.global);
  state = apply_exec_policy_layer(state, in.agent);
  ExecPolicyLayer session;
  session.security = in.session_security;
  session.ask = in.session_ask;
  state = apply_exec_policy_layer(state, session);
  state = apply_exec_policy_layer(state, in.overrides);

  const ResolvedModePolicy mode_policy = resolve_exec_mode_policy(state.mode, state.security, state.ask);
  out.security = approvals ? min_security(mode_policy.security, approvals->security) : mode_policy.security;
  out.ask = approvals ? max_ask(mode_policy.ask, approvals->ask) : mode_policy.ask;
  out.mode = (out.security == mode_policy.security && out.ask == mode_policy.ask)
                 ? mode_policy.mode
                 : resolve_exec_mode_from_policy(out.security, out.ask);
  out.node = in.overrides.node ? in.overrides.node
             : in.session_node ? in.session_node
             : in.agent.node   ? in.agent.node
                               : in.global.node;
  out.can_request_node = is_requested_exec_target_allowed(target.configured, ExecHost::kNode, in.sandbox_available);
  return out;
}

NodeExecEligibility resolve_node_exec_eligibility(const ExecDefaults& defaults,
                                                  const std::vector<std::string>& node_deny_commands) {
  bool system_run_denied = false;
  for (const auto& command : node_deny_commands) {
    if (js_trim(command) == "system.run") system_run_denied = true;
  }
  NodeExecEligibility out;
  out.can_exec = defaults.can_request_node && defaults.security != ExecSecurity::kDeny && !system_run_denied;
  out.node = defaults.node;
  return out;
}

Result<ExecCallPolicy> resolve_exec_call_policy(const ExecCallPolicyInputs& in) {
  const bool sandbox = in.host == ExecHost::kSandbox;
  const ExecSecurity configured_security = in.security.value_or(sandbox ? ExecSecurity::kDeny : ExecSecurity::kFull);
  ExecCallPolicy out;
  out.mode_policy = resolve_exec_mode_policy(in.mode, configured_security, in.ask.value_or(ExecAsk::kOff));
  const std::optional<ApprovalsAgentPolicy> file = sandbox ? std::nullopt : in.approvals;

  out.security = min_security(out.mode_policy.security, file ? file->security : out.mode_policy.security);
  if (out.security == ExecSecurity::kDeny &&
      (!sandbox || in.mode == ExecMode::kDeny || in.security == ExecSecurity::kDeny)) {
    return Error::rejected("exec denied: host=" + std::string(config::to_string(in.host)) + " security=deny");
  }

  const bool file_allows_bypass =
      (!file || (file->security == ExecSecurity::kFull && file->ask == ExecAsk::kOff));
  const bool mode_allows_bypass =
      out.mode_policy.security == ExecSecurity::kFull && out.mode_policy.ask == ExecAsk::kOff;
  out.bypass_approvals = in.elevated == ElevatedMode::kFull && mode_allows_bypass && file_allows_bypass;
  if (out.bypass_approvals) out.security = ExecSecurity::kFull;

  const ExecAsk host_ask = max_ask(out.mode_policy.ask, file ? file->ask : out.mode_policy.ask);
  // A channel-originated call cannot raise ask when the host says "off"; otherwise the call's
  // ask is honoured only as a hardening.
  const bool ignore_requested = in.origin == CallOrigin::kChannel && host_ask == ExecAsk::kOff;
  out.ask = max_ask(host_ask, (!ignore_requested && in.requested_ask) ? *in.requested_ask : host_ask);
  if (out.bypass_approvals) out.ask = ExecAsk::kOff;
  out.auto_review = out.mode_policy.auto_review && out.ask == out.mode_policy.ask && !out.bypass_approvals;
  return out;
}

Result<HostApprovalContext> resolve_host_approval_context(ExecHost host, ExecSecurity security, ExecAsk ask,
                                                          const ApprovalsAgentPolicy& file_agent) {
  HostApprovalContext out;
  out.host_security = min_security(security, file_agent.security);
  out.host_ask = max_ask(ask, file_agent.ask);
  out.ask_fallback = min_security(out.host_security, file_agent.ask_fallback);
  if (out.host_security == ExecSecurity::kDeny) {
    return Error::rejected("exec denied: host=" + std::string(config::to_string(host)) + " security=deny");
  }
  return out;
}

}  // namespace clawexec::policy
