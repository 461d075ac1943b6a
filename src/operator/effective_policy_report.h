#pragma once
// The effective-policy report (spec §2.6) over every scope: `tools.exec` first, then each agent
// named by the config roster or the approvals file, sorted (collectExecPolicyScopeSnapshots).

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <string>

#include "approvals/document.h"
#include "policy/modes.h"

namespace clawexec::operator_ops {

enum class ReportStyle {
  kApprovalsGet,  // scopes as resolved, with allowedDecisions
  kExecPolicy,    // without allowedDecisions, with runtimeApprovalsSource
};

/// {note, scopes}. `raw_approvals` is the file as read (presence of fields is judged on it),
/// `approvals` its normalisation; `host_path` labels the host sources.
boost::json::object effective_policy_report(const boost::json::value& config, const boost::json::value& raw_approvals,
                                            const approvals::Document& approvals, const std::string& host_path,
                                            ReportStyle style);

/// The snapshot of one agent's scope (`agents.entries.<id>.tools.exec` over `tools.exec`).
boost::json::object agent_policy_snapshot(const boost::json::value& config, const boost::json::value& raw_approvals,
                                          const approvals::Document& approvals, const std::string& host_path,
                                          const std::string& agent_id);

/// tools.exec-shaped layer of a JSON object (invalid values count as unset).
policy::ExecPolicyLayer exec_layer_from_json(const boost::json::object* exec);

}  // namespace clawexec::operator_ops
