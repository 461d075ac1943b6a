#pragma once
// The node's own approvals document read for one agent: the policy snapshot a plan carries
// (security, ask, askFallback, autoAllowSkills and the allowlist rules), and the document
// itself for system.execApprovals.get/set, which reuse the gateway's exec.approvals.get/set
// (base-hash check included) on the node's state directory. These read files: callers run
// them off the io thread.

#include <string>

#include "base/result.h"
#include "json/json.h"
#include "node/run_plan.h"
#include "operator/operator_env.h"

namespace clawexec::node {

Result<PolicyView> read_policy_view(const operator_ops::OperatorEnv& env, const std::string& agent_id);

/// system.execApprovals.get: {path, exists, file, hash, ...}.
Result<json::Object> approvals_get(const operator_ops::OperatorEnv& env);

/// system.execApprovals.set {file, baseHash?}: the base hash is required once the file exists.
Result<json::Object> approvals_set(const operator_ops::OperatorEnv& env, const json::Object& params);

}  // namespace clawexec::node
