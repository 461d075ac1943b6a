// Registers the operator command groups (approvals, exec-policy, security audit, doctor).

#include "cli/policy_commands.h"

#include "cli/policy_cmd_internal.h"

namespace clawexec::cli {

void add_operator_commands(CLI::App& app, int& exit_code) {
  add_approvals_commands(app, exit_code);
  add_exec_policy_commands(app, exit_code);
  add_audit_commands(app, exit_code);
}

}  // namespace clawexec::cli
