#pragma once
// Internal to the exec module: the evaluation context of one gateway decision and the helpers
// that turn a decision into what exec does, shared by the policy gate (policy_gate.cc) and the
// approval flow (gateway_approval.cc) so that neither includes the other.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "exec/service.h"
#include "exec/target.h"
#include "policy/decide.h"
#include "policy/modes.h"
#include "policy/safe_bins.h"

namespace clawexec::exec {

// Everything a gateway decision needs, owned in one place (the inputs point into it).
struct GatewayContext {
  policy::HostApprovalContext host;
  bool strict = false;
  std::vector<policy::AllowlistEntry> allowlist;
  policy::SafeBinRuntimePolicy safe_bins;
  policy::DecisionInputs inputs;
  policy::Decision decision;  // filled by the gate once decided
  std::string agent_id;
  /// mode "auto" is in effect (§8: the effective ask is still the mode's, no elevation bypass)
  /// and the host file does not say ask=always: a request may go to the auto-reviewer first.
  bool auto_review = false;
};

/// The policy inputs of a call on `host` (request: for the per-call `ask`; may be null).
policy::ExecCallPolicyInputs call_inputs(const ServiceConfig& config, ExecHost host, const ExecRequest* request);

/// Approvals bookkeeping (recording an allowlist entry's use, storing allow-always) never stops
/// or undoes a command, but its failure is not silent: one line on stderr naming `file`.
void report_bookkeeping_error(std::string_view what, const std::string& file, const Error& error);
template <typename T>
void report_bookkeeping_failure(std::string_view what, const std::string& file, const Result<T>& result) {
  if (!result.ok()) report_bookkeeping_error(what, file, result.error());
}

/// The effective host policy of a call (request: for the per-call `ask`; may
/// be null). Errors: the security-floor denial.
Result<std::shared_ptr<GatewayContext>> gateway_context(const ServiceConfig& config, const ExecRequest* request);

/// False for security=full ask=off without strict inline eval: nothing to analyse.
bool needs_analysis(const GatewayContext& g);

/// Fills the decision inputs of `command` (safe-bin policy with its file-system probes, the
/// resolution context): only for calls that are analysed.
void prepare_decision(GatewayContext& g, const ServiceConfig& config, const std::string& command,
                      const std::string& workdir, const std::string& path_env, shell::ShellDialect dialect);

/// The reference's denial for a run that needs approval when nobody can approve it.
std::string headless_denial(config::ExecSecurity s, config::ExecAsk a, config::ExecSecurity f,
                            const std::string& transcript);

/// Records the matched allowlist entries' use (to run off the io thread); empty when none.
std::function<void()> record_use(const ServiceConfig& config, const policy::Decision& decision,
                                 const std::vector<policy::AllowlistEntry>& allowlist, const std::string& command);

}  // namespace clawexec::exec
