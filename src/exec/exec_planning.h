#pragma once
// Planning an exec call before anything runs (internal to the exec module; exec_tool.cc drives
// it). Split in two because the login-shell PATH may have to be waited for in between.

#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "env/env_list.h"
#include "exec/exec_plan.h"
#include "exec/service.h"
#include "shell/script.h"

namespace clawexec::exec {

/// Linux refuses a single program argument longer than MAX_ARG_STRLEN (32 pages, 131072 bytes
/// with its terminating NUL), and the command reaches the shell as one `-c` argument.
inline constexpr size_t kMaxArgumentBytes = 131071;
/// The largest command accepted, checked before any analysis: the argument limit less 8 KiB for
/// what the server wraps around it (the shell snapshot prologue and restore lines, the
/// pathPrepend line). Quoting in the snapshot's `eval '...'` can still push a command with many
/// single quotes over the argument limit; that is refused at spawn with its own message.
inline constexpr size_t kMaxCommandBytes = 131072 - 8192;

/// The reference's "elevated is not available right now" text: the headline for the session's
/// runtime, `gates` (the "Failing gates: ..." line), `context` lines, the Fix-it keys, then
/// `after` lines. One shape for the exec tool's refusal and the /elevated directive's.
std::string elevated_unavailable_text(bool sandboxed, const std::string& gates, const std::vector<std::string>& context,
                                      const std::vector<std::string>& after);

/// The thrown error for a command of `bytes` over kMaxCommandBytes, nullopt within the limit.
std::optional<std::string> command_size_problem(size_t bytes);

/// The shell and its arguments (§3.6), resolved to an absolute path through the server's PATH.
ShellInvocation shell_for(const env::EnvList& server_env);

/// How `shell_program` (an absolute path, symlinks followed) reads a command's text.
shell::ShellDialect dialect_of(const std::string& shell_program);

/// The shell a canonical rendering runs under: `shell` when it is a POSIX-family shell (bash,
/// dash, zsh, ksh, ash...), else /bin/sh (a rendering is POSIX shell text).
ShellInvocation shell_for_rendered(const ShellInvocation& shell);

/// Steps 2-14 up to the environment: a plan (host, workdir, env without the login PATH) or the
/// result to return instead (a thrown error, or the failed result of an unusable workdir).
std::variant<Reply, ExecPlan> plan_exec(const ServiceConfig& config, ExecRequest request, const CallContext& ctx);

/// kRerunChanged when the call's effective policy (configuration, approvals document, per-call
/// `ask`) is security=full ask=off on the gateway, else kTrustedOnly.
/// Also keeps the call's gateway policy context in `plan` for the gate to reuse.
shellenv::StartupFileUse startup_file_use(const ServiceConfig& config, ExecPlan& plan);

/// Steps 14-18 once the login PATH is known: PATH assembly, the policy gate, the node hand-off,
/// the timeout and whether scripts are preflighted.
std::variant<Reply, ExecPlan> complete_plan(const ServiceConfig& config, ExecPlan plan, const CallContext& ctx,
                                                 const std::optional<std::string>& login_path);

}  // namespace clawexec::exec
