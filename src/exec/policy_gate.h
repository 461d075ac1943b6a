#pragma once
// The exec tool's policy gate: the effective policy of a call (config mode/security/ask, the
// approvals document's floor, the per-call `ask` hardening) and, on the gateway host, the
// policy engine's decision for the command - run it (as the analysis resolved it), refuse it,
// or, when a human is needed, hand it to an approval (elicitation, the pending-approval path)
// or, when nobody can be asked, to the ask fallback.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "exec/exec_request.h"
#include "exec/target.h"
#include <boost/json/object.hpp>

#include "json/json.h"
#include "policy/modes.h"
#include "shell/script.h"

namespace clawexec::exec {

struct ServiceConfig;

/// The policy a call on `host` would get (without per-call arguments): what a bare `/exec`
/// reports. Errors: the security-floor denial.
Result<policy::ExecCallPolicy> effective_call_policy(const ServiceConfig& config, ExecHost host);

/// §2.4 steps 2–4: refuses ("exec denied: host=<h> security=deny") before anything else runs.
Result<void> check_security_floor(const ServiceConfig& config, ExecHost host);

class GatewayApproval;
struct GatewayContext;

/// Whether a human can be asked for this call (an MCP client with elicitation).
enum class ApprovalRoute { kNone, kAvailable };

struct GateOutcome {
  std::string command;                // what to run
  bool rendered = false;              // `command` is the canonical rendering (policy/render.h)
  std::vector<std::string> warnings;  // to prefix to the result
  /// Records the allowlist use in the approvals document (a locked, fsynced write): run it off
  /// the io thread. Empty when nothing matched.
  std::function<void()> bookkeeping;
  /// Set when the command needs a human and the caller said it can ask one (`command` is then
  /// empty until the approval decides).
  std::shared_ptr<GatewayApproval> approval;
  /// The effective policy is not security=full ask=off: scripts are preflighted (§3.8).
  bool preflight = false;
  /// Non-empty: `approval` is set only for the auto-reviewer, since no human can be asked for
  /// this call; if the reviewer does not allow it, the call is refused with this text.
  std::string no_route_denial;
};

/// §7.1 for host=gateway: the decision for `command` in `workdir` with the command's PATH.
/// Errors (kRejected) carry the reference's denial texts.
/// The command is read as the shell that would run it ($SHELL) reads it. `context`: the call's
/// policy context when already computed (gateway_context), else computed here.
Result<GateOutcome> gateway_policy_gate(const ServiceConfig& config, const ExecRequest& request,
                                        const std::string& command, const std::string& workdir,
                                        const std::string& path_env, ApprovalRoute route,
                                        std::shared_ptr<GatewayContext> context = nullptr);

/// `clawexec policy explain`: the full analysis of `command` for the gateway host (the effective
/// policy, every segment with its resolution and what satisfied it, the decision), as the
/// documented JSON report (docs/approvals.md "policy explain").
/// The command is read as the shell a gateway command runs under ($SHELL) reads it.
boost::json::object explain_policy(const ServiceConfig& config, const std::string& command, const std::string& cwd,
                                   const std::string& path_env);

}  // namespace clawexec::exec
