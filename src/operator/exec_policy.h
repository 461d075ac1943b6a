#pragma once
// `exec-policy show|set|preset` as operations: the requested policy in the config file
// (tools.exec.host/mode/security/ask) and the approvals file's defaults kept in step (spec
// §2.6), and the presets that set all four at once.

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "operator/operator_env.h"
#include "policy/modes.h"

namespace clawexec::operator_ops {

/// The fields to set; unset ones are left as they are.
struct PolicyChange {
  std::optional<policy::ExecHost> host;
  std::optional<policy::ExecSecurity> security;
  std::optional<policy::ExecAsk> ask;
  std::optional<policy::ExecSecurity> ask_fallback;
};

/// The same fields as an operator types them (flags, or a request's string fields).
struct PolicyChangeText {
  std::optional<std::string> host;
  std::optional<std::string> security;
  std::optional<std::string> ask;
  std::optional<std::string> ask_fallback;
};

struct ExecPolicyPreset {
  std::string_view name;  // yolo, cautious, deny-all
  PolicyChange change;
};

/// The presets, in the order they are offered.
const std::vector<ExecPolicyPreset>& exec_policy_presets();

/// The preset's change. Error (kInvalidArgument): "Unknown exec-policy preset: <name> (expected
/// yolo, cautious or deny-all)".
Result<PolicyChange> exec_policy_preset(std::string_view name);

/// Reads each field, checking in the order host, security, ask, askFallback. Errors:
/// kInvalidArgument for a value that is not one of its kind ("Invalid exec host: ..."), or when
/// no field is given; kRejected for host=node (kNodeNotLocalMessage).
Result<PolicyChange> parse_policy_change(const PolicyChangeText& text);

/// Why host=node cannot be set locally.
inline constexpr std::string_view kNodeNotLocalMessage =
    "Local exec-policy cannot synchronize host=node. Node approvals are fetched from the node at runtime.";

/// {host?, security?, ask?, askFallback?}: the change as `exec-policy set --json` labels it.
boost::json::object to_json(const PolicyChange& change);

/// `exec-policy show`: {configPath, approvalsPath, approvalsExists, effectivePolicy} with the
/// report in ReportStyle::kExecPolicy. Errors: the config or the approvals file cannot be read.
Result<boost::json::object> show_exec_policy(const OperatorEnv& env);

struct ExecPolicyUpdate {
  std::vector<std::string> config_changes;     // "tools.exec.mode: set to \"...\"", ...
  std::vector<std::string> approvals_changes;  // "defaults.ask: \"off\" -> \"on-miss\"", ...
  boost::json::object policy;                  // show_exec_policy after the change
};

/// {<label_key>: label, configPath, approvalsPath, approvalsExists, effectivePolicy,
/// configChanges, approvalsChanges}.
boost::json::object to_json(const ExecPolicyUpdate& update, std::string_view label_key,
                            const boost::json::value& label);

/// Applies `change`: the config side stores (security, ask) as `mode` when one mode means
/// exactly that pair (removing security/ask), otherwise as security + ask (removing mode), so
/// the file never mixes them at one scope; the approvals side sets defaults.security, .ask and
/// .askFallback with compare-and-swap. If the config write then fails, the defaults written are
/// put back. Errors: the config or approvals file unreadable (never overwritten), a resulting
/// host of node (kRejected, kNodeNotLocalMessage), a conflict (kRejected,
/// kApprovalsChangedMessage), the config write failing (its message names the path).
Result<ExecPolicyUpdate> apply_exec_policy(const OperatorEnv& env, const PolicyChange& change);

}  // namespace clawexec::operator_ops
