#pragma once
// Exec modes and the effective security/ask policy (reference spec §0, §2.1-2.4, §2.6, §4.5,
// §4.6 "decisions offered"). Pure functions: the approvals file is never read here; callers
// pass what it says (HostPolicyView / ApprovalsAgentPolicy, built by the approvals module).
//
// Vocabulary: security deny < allowlist < full; ask off < on-miss < always; a mode is a named
// (security, ask, autoReview) triple; the config enums of config/exec_settings.h and the mode
// table of config/exec_modes.h are reused.

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "config/exec_modes.h"
#include "config/exec_settings.h"
#include "policy/allowlist_match.h"

namespace clawexec::policy {

using config::ExecAsk;
using config::ExecHost;
using config::ExecMode;
using config::ExecSecurity;

// ---- Normalisation (§0): trim + lowercase, anything else is nullopt. ----

/// sandbox|gateway|node (never kAuto).
std::optional<ExecHost> normalize_exec_host(std::string_view value);
/// sandbox|gateway|node|auto.
std::optional<ExecHost> normalize_exec_target(std::string_view value);
std::optional<ExecSecurity> normalize_exec_security(std::string_view value);
std::optional<ExecAsk> normalize_exec_ask(std::string_view value);
std::optional<ExecMode> normalize_exec_mode(std::string_view value);
/// For JSON inputs: a non-string value is nullopt (like the reference's `unknown` inputs).
std::optional<ExecHost> normalize_exec_host(const boost::json::value& value);
std::optional<ExecHost> normalize_exec_target(const boost::json::value& value);
std::optional<ExecSecurity> normalize_exec_security(const boost::json::value& value);
std::optional<ExecAsk> normalize_exec_ask(const boost::json::value& value);
std::optional<ExecMode> normalize_exec_mode(const boost::json::value& value);
/// String literals pick the string_view forms (a `const char*` would also convert to JSON).
inline std::optional<ExecHost> normalize_exec_host(const char* v) { return normalize_exec_host(std::string_view(v)); }
inline std::optional<ExecHost> normalize_exec_target(const char* v) { return normalize_exec_target(std::string_view(v)); }
inline std::optional<ExecSecurity> normalize_exec_security(const char* v) {
  return normalize_exec_security(std::string_view(v));
}
inline std::optional<ExecAsk> normalize_exec_ask(const char* v) { return normalize_exec_ask(std::string_view(v)); }
inline std::optional<ExecMode> normalize_exec_mode(const char* v) { return normalize_exec_mode(std::string_view(v)); }

/// Exact literals as persisted in the approvals file (case-sensitive, no trimming).
std::optional<ExecSecurity> exec_security_from_literal(std::string_view value);
std::optional<ExecAsk> exec_ask_from_literal(std::string_view value);

/// The exec tool's `host` argument: absent/null/blank -> nullopt; a non-string is an error
/// "Invalid exec host value type <typeof>. Allowed values: auto, sandbox, gateway, node.";
/// an unknown string "Invalid exec host \"<raw>\". Allowed values: auto, sandbox, gateway, node.".
Result<std::optional<ExecHost>> require_valid_exec_target(const boost::json::value* raw);

// ---- Ordering (§0). ----

/// The more restrictive of the two.
ExecSecurity min_security(ExecSecurity a, ExecSecurity b);
/// The more aggressive of the two.
ExecAsk max_ask(ExecAsk a, ExecAsk b);

// ---- Modes (§2.1). ----

/// The mode table lives with the config enums (config/exec_modes.h): config layers its two
/// sections with it before policy sees them.
using config::ModePolicy;
using config::resolve_exec_policy_for_mode;

/// The inverse used for reporting; never returns kAuto.
ExecMode resolve_exec_mode_from_policy(ExecSecurity security, ExecAsk ask);

struct ResolvedModePolicy {
  ExecMode mode = ExecMode::kFull;
  ExecSecurity security = ExecSecurity::kFull;
  ExecAsk ask = ExecAsk::kOff;
  bool auto_review = false;
  bool operator==(const ResolvedModePolicy&) const = default;
};

/// With a mode: the table. Without: the derived mode with the given pair, autoReview off.
ResolvedModePolicy resolve_exec_mode_policy(std::optional<ExecMode> mode, ExecSecurity security, ExecAsk ask);

// ---- Layering (§2.2). ----

/// One `tools.exec`-shaped source of policy (global config, agent config, session, overrides).
struct ExecPolicyLayer {
  std::optional<ExecHost> host;
  std::optional<ExecMode> mode;
  std::optional<ExecSecurity> security;
  std::optional<ExecAsk> ask;
  std::optional<std::string> node;
};

/// The policy being layered. `host` is carried through untouched.
struct ExecPolicyState {
  std::optional<ExecHost> host;
  std::optional<ExecMode> mode;
  ExecSecurity security = ExecSecurity::kFull;
  ExecAsk ask = ExecAsk::kOff;
  bool auto_review = false;
};

/// config::apply_exec_policy_layer (the one copy of the rule) on policy's state: a layer with a
/// mode replaces mode/security/ask/autoReview from the table; a layer with security and/or ask
/// drops the inherited mode and sets only what it names; otherwise `base`. `host` is kept.
ExecPolicyState apply_exec_policy_layer(ExecPolicyState base, const ExecPolicyLayer& layer);

// ---- What the approvals file says (produced by the approvals module). ----

/// The resolved approvals policy for one agent, fallbacks applied (§1.5 `agent`).
struct ApprovalsAgentPolicy {
  ExecSecurity security = ExecSecurity::kFull;
  ExecAsk ask = ExecAsk::kOff;
  ExecSecurity ask_fallback = ExecSecurity::kDeny;
  bool auto_allow_skills = false;
};

/// The file's own answer for one agent before fallbacks: a value is set only when the file
/// supplied it, together with its source ("defaults.ask", "agents.runner.security",
/// "agents.*.askFallback").
struct HostPolicyView {
  std::optional<ExecSecurity> security;
  std::optional<std::string> security_source;
  std::optional<ExecAsk> ask;
  std::optional<std::string> ask_source;
  std::optional<ExecSecurity> ask_fallback;
  std::optional<std::string> ask_fallback_source;
  std::optional<bool> auto_allow_skills;
};

/// Fallback values for fields the file does not set (resolveExecApprovalsFromFile overrides).
struct ApprovalsOverrides {
  std::optional<ExecSecurity> security;       // built-in fallback: full
  std::optional<ExecAsk> ask;                 // built-in fallback: off
  std::optional<ExecSecurity> ask_fallback;   // built-in fallback: deny
  std::optional<bool> auto_allow_skills;      // built-in fallback: false
};

ApprovalsAgentPolicy apply_approvals_fallbacks(const HostPolicyView& view, const ApprovalsOverrides& overrides);

// ---- Target (§2.3 step 2, §2.4 step 1). ----

/// requested === configured, or configured auto (except gateway/node while a sandbox exists).
bool is_requested_exec_target_allowed(ExecHost configured, ExecHost requested, bool sandbox_available);

struct ExecTarget {
  ExecHost configured = ExecHost::kAuto;  // may be kAuto
  ExecHost selected = ExecHost::kAuto;    // after the per-call request and elevated
  ExecHost effective = ExecHost::kGateway;  // never kAuto
};

enum class ElevatedRequest { kNo, kYes };

/// Refusal: "exec host not allowed (requested <r>; configured host is <c>; set
/// tools.exec.host=<hint> to allow this override)." A requested `auto` counts as no request.
Result<ExecTarget> resolve_exec_target(ExecHost configured, std::optional<ExecHost> requested,
                                       ElevatedRequest elevated, bool sandbox_available);

// ---- Defaults for an agent/session (§2.3). ----

struct ExecDefaultsInputs {
  ExecPolicyLayer global;     // tools.exec
  ExecPolicyLayer agent;      // agents.list[id].tools.exec
  ExecPolicyLayer overrides;  // explicit/per-call overrides (host, mode, security, ask, node)
  std::optional<ExecHost> session_host;  // session execHost (/exec host=)
  std::optional<ExecSecurity> session_security;  // legacy session execSecurity
  std::optional<ExecAsk> session_ask;            // legacy session execAsk
  std::optional<std::string> session_node;       // session execNode
  bool sandbox_available = false;
  ElevatedRequest elevated = ElevatedRequest::kNo;
  /// Resolves the approvals file for the agent with the given fallbacks. Called only for a
  /// non-sandbox effective host (the sandbox never reads the host file). May be empty (= no file).
  std::function<ApprovalsAgentPolicy(const ApprovalsOverrides&)> resolve_approvals;
};

struct ExecDefaults {
  ExecHost host = ExecHost::kAuto;  // configured target
  ExecHost effective_host = ExecHost::kGateway;
  ExecMode mode = ExecMode::kFull;
  ExecSecurity security = ExecSecurity::kFull;
  ExecAsk ask = ExecAsk::kOff;
  std::optional<std::string> node;
  bool can_request_node = false;
  bool approvals_consulted = false;  // false on the sandbox host
};

ExecDefaults resolve_exec_defaults(const ExecDefaultsInputs& inputs);

struct NodeExecEligibility {
  bool can_exec = false;
  std::optional<std::string> node;
};

/// canExec = node requestable, security not deny, and "system.run" (trimmed) not in the
/// gateway's node command deny list.
NodeExecEligibility resolve_node_exec_eligibility(const ExecDefaults& defaults,
                                                  const std::vector<std::string>& node_deny_commands);

// ---- Per-call resolution inside the exec tool (§2.4 steps 2, 4-7, 9). ----

enum class ElevatedMode { kOff, kAsk, kFull };
enum class CallOrigin { kDirect, kChannel };  // kChannel: a messageProvider is set

struct ExecCallPolicyInputs {
  ExecHost host = ExecHost::kGateway;  // the effective host of this call
  std::optional<ExecMode> mode;        // the tool's configured mode (defaults.mode)
  std::optional<ExecSecurity> security;  // the tool's configured security (explicit config)
  std::optional<ExecAsk> ask;            // the tool's configured ask
  /// The approvals file resolved for the agent with fallbacks {full, off}; nullopt when there
  /// is no file to consult. Ignored on the sandbox host.
  std::optional<ApprovalsAgentPolicy> approvals;
  /// The call's `ask` argument, already normalised (a hardening only). The call's `security`
  /// argument has no input here on purpose: model-supplied security never changes policy.
  std::optional<ExecAsk> requested_ask;
  CallOrigin origin = CallOrigin::kDirect;
  ElevatedMode elevated = ElevatedMode::kOff;
};

struct ExecCallPolicy {
  ResolvedModePolicy mode_policy;
  ExecSecurity security = ExecSecurity::kFull;
  ExecAsk ask = ExecAsk::kOff;
  bool auto_review = false;
  bool bypass_approvals = false;
};

/// Error (kRejected) "exec denied: host=<host> security=deny" when the floored security is deny
/// and the host is not the sandbox, or the mode or explicit security is deny.
Result<ExecCallPolicy> resolve_exec_call_policy(const ExecCallPolicyInputs& inputs);

struct HostApprovalContext {
  ExecSecurity host_security = ExecSecurity::kFull;
  ExecAsk host_ask = ExecAsk::kOff;
  ExecSecurity ask_fallback = ExecSecurity::kDeny;
};

/// §2.4 step 9 for gateway/node: floors against the file (re-resolved with fallbacks
/// {security, ask}); error "exec denied: host=<host> security=deny".
Result<HostApprovalContext> resolve_host_approval_context(ExecHost host, ExecSecurity security, ExecAsk ask,
                                                          const ApprovalsAgentPolicy& file_agent);

// ---- Approval requirement and decisions (§4.5, §4.6). ----

struct ApprovalRequirementInputs {
  ExecAsk ask = ExecAsk::kOff;
  ExecSecurity security = ExecSecurity::kFull;
  bool analysis_ok = false;
  bool allowlist_satisfied = false;
  bool durable_approval_satisfied = false;
};

/// ask always -> true; durable -> false; else on-miss + allowlist + (analysis failed or miss).
bool requires_exec_approval(const ApprovalRequirementInputs& inputs);

/// "=command:" + the first 16 hex digits of sha256(text) (text already trimmed by the caller).
std::string durable_command_pattern(std::string_view command_text);
/// "=node-command:" + the first 16 hex digits of sha256(text).
std::string node_command_pattern(std::string_view command_text);

/// True when an allow-always entry of `allowlist` pins the exact (trimmed) command, or analysis
/// succeeded and every segment matched an allow-always entry (`segment_entries[i]` is the
/// entry segment i matched, nullptr for none, which breaks durability; no segments means no
/// durable trust). The reference's legacy `commandText` comparison is not needed: normalised
/// documents never keep commandText.
bool has_durable_exec_approval(bool analysis_ok, const std::vector<const AllowlistEntry*>& segment_entries,
                               const std::vector<AllowlistEntry>& allowlist,
                               std::optional<std::string_view> command_text);

enum class ApprovalDecision { kAllowOnce, kAllowAlways, kDeny };
std::string_view to_string(ApprovalDecision decision);
std::optional<ApprovalDecision> approval_decision_from_string(std::string_view text);

enum class AllowAlwaysPersistence { kReusable, kOneShot };

/// ask always or a one-shot persistence decision -> [allow-once, deny]; else all three.
std::vector<ApprovalDecision> resolve_exec_approval_allowed_decisions(
    std::optional<ExecAsk> ask, AllowAlwaysPersistence persistence = AllowAlwaysPersistence::kReusable);
/// The optional decisions (only allow-always) that are not offered.
std::vector<ApprovalDecision> resolve_exec_approval_unavailable_decisions(
    std::optional<ExecAsk> ask, AllowAlwaysPersistence persistence = AllowAlwaysPersistence::kReusable);
/// Keeps only the optional decisions named in a raw list (unknown strings and non-optional
/// decisions are dropped), in canonical order.
std::vector<ApprovalDecision> normalize_exec_approval_unavailable_decisions(const boost::json::value& raw);
/// The policy's decisions minus the unavailable optional ones a request carries.
std::vector<ApprovalDecision> resolve_exec_approval_request_allowed_decisions(
    std::optional<ExecAsk> ask, const std::vector<ApprovalDecision>& unavailable);

// ---- Effective-policy report (§2.6). ----

struct PolicyScopeSnapshotInputs {
  ExecPolicyLayer scope;   // the scope's exec config (tools.exec or an agent's)
  std::optional<ExecPolicyLayer> global;  // tools.exec when the scope is an agent
  std::string config_path = "tools.exec";  // e.g. "agents.entries.runner.tools.exec"
  std::string scope_label = "tools.exec";
  std::optional<std::string> agent_id;
  std::string host_path;  // approvals display path ("~/.openclaw/exec-approvals.json")
  /// Node approvals: fixed fallbacks and a label replacing the source of unset fields.
  std::optional<ApprovalsAgentPolicy> host_defaults;
  std::optional<std::string> host_default_source;
  HostPolicyView file;  // the approvals file for agent_id
};

struct SnapshotField {
  std::string requested;
  std::string requested_source;
  std::string host;
  std::string host_source;
  std::string effective;
  std::string note;
};

struct PolicyScopeSnapshot {
  std::string scope_label;
  std::string config_path;
  std::optional<std::string> agent_id;
  std::string host_requested;
  std::string host_requested_source;
  SnapshotField mode;  // host/host_source unused
  SnapshotField security;
  SnapshotField ask;
  std::string ask_fallback_effective;
  std::string ask_fallback_source;
  std::vector<ApprovalDecision> allowed_decisions;
};

PolicyScopeSnapshot resolve_exec_policy_scope_snapshot(const PolicyScopeSnapshotInputs& inputs);

/// The report as JSON, keys and shapes as the reference prints them.
boost::json::object to_json(const PolicyScopeSnapshot& snapshot);

}  // namespace clawexec::policy
