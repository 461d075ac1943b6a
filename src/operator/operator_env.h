#pragma once
// Where the operator operations read and write: the config file and the approvals document
// (with its socket and lock), resolved once by the caller. The operations never read the
// process environment themselves: the CLI resolves an OperatorEnv from the real process
// (process_operator_env), a server from its own configuration, a test from a scratch directory.

#include <string>

#include "approvals/paths.h"
#include "approvals/store.h"
#include "config/paths.h"

namespace clawexec::operator_ops {

struct OperatorEnv {
  config::PathContext paths;            // environment, cwd and home the paths come from
  std::string config_path;              // $OPENCLAW_CONFIG_PATH, else <state>/openclaw.json
  approvals::ApprovalsPaths approvals;  // <state>/exec-approvals.json, .sock, .lock
};

/// The config and approvals paths for `paths` (config::resolve_config_path,
/// approvals::resolve_approvals_paths).
OperatorEnv operator_env_for(config::PathContext paths);

/// The real process: environment, current directory, the account's home.
OperatorEnv process_operator_env();

/// The approvals store of `env`.
approvals::ApprovalsStore open_store(const OperatorEnv& env);

}  // namespace clawexec::operator_ops
