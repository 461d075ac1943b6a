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

/// The shell and its arguments (§3.6), resolved to an absolute path through the server's PATH.
ShellInvocation shell_for(const env::EnvList& server_env);

/// How `shell_program` (an absolute path, symlinks followed) reads a command's text.
shell::ShellDialect dialect_of(const std::string& shell_program);

/// The shell a canonical rendering runs under: `shell` when it is a POSIX-family shell (bash,
/// dash, zsh, ksh, ash...), else /bin/sh (a rendering is POSIX shell text).
ShellInvocation shell_for_rendered(const ShellInvocation& shell);

/// Steps 2-14 up to the environment: a plan (host, workdir, env without the login PATH) or the
/// result to return instead (a thrown error, or the failed result of an unusable workdir).
std::variant<ToolResult, ExecPlan> plan_exec(const ServiceConfig& config, const json::Object& raw_args,
                                             const CallContext& ctx);

/// Steps 14-18 once the login PATH is known: PATH assembly, the policy gate, the node hand-off,
/// the timeout and whether scripts are preflighted.
std::variant<ToolResult, ExecPlan> complete_plan(const ServiceConfig& config, ExecPlan plan, const CallContext& ctx,
                                                 const std::optional<std::string>& login_path);

}  // namespace clawexec::exec
