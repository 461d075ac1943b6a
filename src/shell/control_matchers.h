#pragma once
// Matchers for single candidate commands, used by the control-command guards.

#include <string_view>

#include "shell/control_guard.h"
#include "shell/split_args.h"

namespace clawexec::shell {

/// `^/approve(@\S+)?\s+<id>\s+(allow-once|allow-always|always|deny)\b`, case-insensitive,
/// after leading white space, with id = [A-Za-z0-9][A-Za-z0-9._:-]* (\s as in JavaScript).
bool is_approve_command(std::string_view candidate);

/// `openclaw channels login` / `openclaw channel login`, also run through
/// `pnpm|npm|yarn [exec|dlx|run] openclaw` or `npx|bunx [options] openclaw`; program names
/// compared by base name, case-insensitively, ignoring a .exe/.cmd suffix.
bool is_channel_login_command(std::string_view candidate);

/// The operator CLI's commands that answer approvals or change exec policy:
/// `clawexec|openclaw approvals ...`, `... exec-policy ...`, `... config set|unset ...` and
/// `... doctor ... --fix`, the program compared by base name (case-insensitively, .exe/.cmd
/// removed), leading options skipped, also through the package runners of
/// is_channel_login_command (`npx openclaw approvals ...`).
bool is_operator_cli_command(const Argv& argv);

/// True when argv runs sqlite3 on a database (positional operand, operand after --, or
/// `.open` in a -cmd option or a trailing command) that resolves inside the state directory.
/// ":memory:" is never inside.
bool opens_state_database(const Argv& argv, const StateDbContext& context);

}  // namespace clawexec::shell
