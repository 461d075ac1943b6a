#pragma once
// The exec pipeline's plan: everything decided before spawning (internal to the exec module).

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "env/env_list.h"
#include "exec/exec_request.h"
#include "exec/target.h"
#include "json/json.h"
#include "shellenv/shell_environment.h"

namespace clawexec::exec {

class GatewayApproval;
class Run;
struct GatewayContext;

/// Everything decided before spawning: where, what, in which directory and environment.
struct ExecPlan {
  std::string command;  // what runs: the call's command, or the policy's rendering of it
  std::string original_command;  // the call's command as given
  /// `command` is the policy's canonical rendering (policy/render.h): it runs under a POSIX
  /// shell, without the startup snapshot.
  bool rendered = false;
  ExecHost host = ExecHost::kGateway;
  std::string sandbox_scope;  // host=sandbox: which sandbox the command joins
  ExecRequest request;  // the call's request (its command moved to `command`)
  std::string workdir;
  env::EnvList env;
  int64_t yield_ms = -1;  // 0 = background at once, -1 = never
  std::vector<std::string> warnings;
  bool pty = false;
  double timeout_seconds = 0;  // <= 0: none
  std::function<void()> bookkeeping;  // approvals bookkeeping to run off the io thread
  std::shared_ptr<GatewayApproval> approval;  // set: a human must decide before anything runs
  /// Non-empty: `approval` is there only for the auto-reviewer (no human can be asked for this
  /// call), and this is the refusal when the reviewer does not allow it.
  std::string no_route_denial;
  /// The call's gateway policy context, when already computed (the gate reuses it).
  std::shared_ptr<GatewayContext> gateway_context;
  env::EnvList env_overrides;  // the call's `env` (approval requests list the keys only)
  /// tools.exec.pathPrepend with "~" expanded; re-applied inside the command on the gateway.
  std::vector<std::string> path_prepend;
  /// The PATH before pathPrepend (login-shell PATH merged): what a shell snapshot captures with.
  std::string snapshot_path;
  /// Script preflight (§3.8) before spawning: every effective policy but security=full ask=off.
  bool preflight = false;
  /// Whether the login probe and the snapshot capture may run startup files that changed since
  /// the server started: only under security=full ask=off, where the agent could run them itself.
  shellenv::StartupFileUse startup_files = shellenv::StartupFileUse::kTrustedOnly;
  /// Called with the run once it started (approval runs hook their follow-ups here).
  std::function<void(const std::shared_ptr<Run>&)> on_started;
};

}  // namespace clawexec::exec
