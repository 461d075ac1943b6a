// Resolves the operator's paths once, from a PathContext the caller chose.

#include "operator/operator_env.h"

namespace clawexec::operator_ops {

OperatorEnv operator_env_for(config::PathContext paths) {
  OperatorEnv env;
  env.paths = std::move(paths);
  env.config_path = config::resolve_config_path(env.paths);
  env.approvals = approvals::resolve_approvals_paths(env.paths);
  return env;
}

OperatorEnv process_operator_env() { return operator_env_for(config::process_path_context()); }

approvals::ApprovalsStore open_store(const OperatorEnv& env) { return approvals::ApprovalsStore(env.approvals); }

}  // namespace clawexec::operator_ops
