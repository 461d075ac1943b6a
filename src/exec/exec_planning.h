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

namespace clawexec::exec {

/// The shell and its arguments (§3.6), resolved to an absolute path through the server's PATH.
ShellInvocation shell_for(const env::EnvList& server_env);

/// Steps 2-14 up to the environment: a plan (host, workdir, env without the login PATH) or the
/// result to return instead (a thrown error, or the failed result of an unusable workdir).
std::variant<ToolResult, ExecPlan> plan_exec(const ServiceConfig& config, const json::Object& raw_args,
                                             const CallContext& ctx);

/// kRerunChanged when the call's effective policy (configuration, approvals document, per-call
/// `ask`) is security=full ask=off on the gateway, else kTrustedOnly.
shellenv::StartupFileUse startup_file_use(const ServiceConfig& config, const ExecPlan& plan);

/// Steps 14-18 once the login PATH is known: PATH assembly, the policy gate, the node hand-off,
/// the timeout and whether scripts are preflighted.
std::variant<ToolResult, ExecPlan> complete_plan(const ServiceConfig& config, ExecPlan plan, const CallContext& ctx,
                                                 const std::optional<std::string>& login_path);

}  // namespace clawexec::exec
