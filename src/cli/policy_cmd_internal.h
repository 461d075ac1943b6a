#pragma once
// The operator command groups, registered by add_operator_commands (policy_commands.cc).

#include <CLI/CLI.hpp>

namespace clawexec::cli {

void add_approvals_commands(CLI::App& app, int& exit_code);
void add_exec_policy_commands(CLI::App& app, int& exit_code);
void add_audit_commands(CLI::App& app, int& exit_code);
void add_sandbox_commands(CLI::App& app, int& exit_code);

}  // namespace clawexec::cli
