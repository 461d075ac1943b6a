#pragma once
// Pagers and editors under a restricted policy.
//
// An approved `git log`, `man ls` or `git commit` starts a pager or an editor on its own, and
// what the agent then writes to the session (`process write`) is never analysed: `!cmd` in
// less or more, `:!cmd` in vi, runs anything. So every gateway command whose effective policy
// is stricter than security=full ask=off gets non-interactive stand-ins: the pagers are `cat`,
// less runs in secure mode, and the editors are `false` (the program reports that no editor
// could be started). The names are refused as per-call overrides already (host_env_policy.h).

#include "env/env_list.h"

namespace clawexec::env {

/// Sets PAGER, GIT_PAGER, MANPAGER, SYSTEMD_PAGER, PSQL_PAGER (cat), LESSSECURE (1), EDITOR,
/// VISUAL, GIT_EDITOR, GIT_SEQUENCE_EDITOR (false) in `env`.
void apply_non_interactive_tools(EnvList& env);

}  // namespace clawexec::env
