#pragma once
// The operator commands of the policy engine:
//   clawexec approvals get [--agent ID] [--json]
//   clawexec approvals set (--file F | --stdin) [--json]
//   clawexec approvals allowlist add|remove [--agent ID] PATTERN [--arg-pattern RE] [--json]
//   clawexec exec-policy show [--json]
//   clawexec exec-policy set [--host H] [--security S] [--ask A] [--ask-fallback S] [--json]
//   clawexec exec-policy preset (yolo|cautious|deny-all) [--json]
//   clawexec security audit [--json]
//   clawexec doctor [--fix] [--json]
//   clawexec sandbox list|prune [--json], explain [--agent ID] [--session KEY] [--json],
//                    recreate (--all | --session KEY | --agent ID) [--json]
// Exit codes: 0 ok, 1 the thing asked failed (message on stderr), 2 usage error.

#include <CLI/CLI.hpp>

namespace clawexec::cli {

/// Adds the subcommands above to `app`. A command that runs stores its exit code in
/// `exit_code` (which the caller initialises to -1 and returns when it is no longer -1).
/// Usage errors are thrown as CLI11 parse errors from inside app.parse().
void add_operator_commands(CLI::App& app, int& exit_code);

}  // namespace clawexec::cli
