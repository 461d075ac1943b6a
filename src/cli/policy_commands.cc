// Registers the operator command groups (approvals, exec-policy, security audit, doctor, sandbox).

#include "cli/policy_commands.h"

#include "cli/policy_cmd_internal.h"

namespace clawexec::cli {

// approvals pending|resolve|watch (policy_cmd_approvals_pending.cc): the approvals socket.
void add_approval_queue_commands(CLI::App& approvals_cmd, int& exit_code);

void add_operator_commands(CLI::App& app, int& exit_code) {
  add_approvals_commands(app, exit_code);
  add_approval_queue_commands(*app.get_subcommand("approvals"), exit_code);
  add_exec_policy_commands(app, exit_code);
  add_audit_commands(app, exit_code);
  add_sandbox_commands(app, exit_code);
}

}  // namespace clawexec::cli
