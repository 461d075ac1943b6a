#pragma once
// The exec pipeline's sandbox decisions (reference §1.6, §3.1 step 6, §3.5, §4.4): whether a
// call's session is sandboxed, which sandbox (scope) it joins, its working directory inside,
// the environment a sandboxed command gets (with the reference's env-file rules), and the
// command line it runs as.

#include <optional>
#include <string>

#include "base/result.h"
#include "env/env_list.h"
#include "sandbox/sandbox_host.h"

namespace clawexec::exec {

struct ServiceConfig;

/// Whether the calling session runs in a sandbox.
struct SandboxChoice {
  bool active = false;      // the configuration puts this session in a sandbox
  std::string unavailable;  // why none can be built here ("" = one can)
  std::string scope;        // which sandbox: agent:<id>, the session key, or "shared"
};

/// The session a call acts for: `session_key`, or the agent's main key when none was given.
std::string effective_session_key(const ServiceConfig& config, const std::string& session_key);

/// Whether the configuration sandboxes the session (mode and session key only: the machine is
/// not probed), for what a client is offered (tools.sandbox.tools).
bool session_sandboxed(const ServiceConfig& config, const std::string& session_key);

/// agents.*.sandbox.mode against the session: `all` always, `non-main` unless the session key
/// is the agent's main key (`agent:<id>:main`).
SandboxChoice sandbox_choice(const ServiceConfig& config, const std::string& session_key);

/// Where a sandboxed command starts, inside the sandbox: the requested directory or the
/// container workdir. Only paths under the workdir are accepted (they are the scope's
/// workspace on the host, checked there); nullopt when the directory is unavailable.
std::optional<std::string> sandbox_workdir(const ServiceConfig& config, const std::string& workspace_source,
                                           const std::optional<std::string>& requested);

/// The environment of a sandboxed command (§3.1 step 6): PATH (the server's, or the default),
/// HOME = the container workdir, then docker.env, then the requested variables, each checked
/// as the reference checks an env file (names portable, values single-line and NUL-free).
Result<env::EnvList> sandbox_env(const ServiceConfig& config, const env::EnvList& requested);

/// The shell command line (§4.4): PATH travels as OPENCLAW_PREPEND_PATH and is put in front
/// after `sh -l` has read /etc/profile. Moves PATH out of `env`.
std::string sandbox_shell_command(const std::string& command, env::EnvList& env);

/// workspaceAccess ro/rw mount the agent workspace (tools.exec.cwd or the server's working
/// directory): refused when that directory is or contains what no sandbox may see (the home
/// directory, /, /etc, ...), as a bind of it would be.
Result<void> check_agent_workspace(const ServiceConfig& config);

/// The binds validated again as they resolve now (a bind source replaced by a symlink into
/// /etc after the server started is refused here, not mounted).
Result<void> check_binds_now(const ServiceConfig& config);

/// What the scope's sandbox is made of.
sandbox::SandboxSpec sandbox_spec(const ServiceConfig& config, const std::string& scope);

}  // namespace clawexec::exec
