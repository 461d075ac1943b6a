// The exec tool's policy gate (reference spec §2.4, §7.1, §7.5).
//
// Problem: every gateway-host command must pass the policy engine: the configured mode, the
// approvals document (which can only tighten), the allowlist, safe bins and strict inline eval.
// A command the engine allows under `allowlist` security runs as its enforced rendering (the
// executables replaced by the real paths the analysis matched); a command that needs a human
// is decided by the ask fallback for now, since this server cannot ask one yet.
//
// Approach: read the approvals document once per call (it is small; the store takes the
// lock only to write), compute the effective policy with policy/modes, take the fast path for
// `security=full ask=off` without strict inline eval (nothing to analyse), otherwise run
// policy::decide_gateway with the file system bound to real syscalls, and record allowlist use.

#include "exec/policy_gate.h"

#include "approvals/bookkeeping.h"
#include "approvals/random.h"
#include "approvals/store.h"
#include "base/time.h"
#include "base/utf.h"
#include "exec/service.h"
#include "exec/tool_args.h"
#include "policy/decide.h"
#include "policy/modes.h"
#include "sys/sys.h"

namespace clawexec::exec {
namespace {

using config::ExecAsk;
using config::ExecSecurity;

const policy::FsView& system_fs() {
  static const policy::FsView fs{
      [](const std::string& path) { return sys::is_executable_file(path); },
      [](const std::string& path) -> std::optional<std::string> {
        Result<std::string> real = sys::real_path(path);
        if (!real.ok()) return std::nullopt;
        return std::move(real).value();
      }};
  return fs;
}

policy::ApprovalsAgentPolicy file_policy(const ServiceConfig& config, ExecSecurity security, ExecAsk ask,
                                         std::vector<policy::AllowlistEntry>* allowlist) {
  approvals::ApprovalsStore store(config.approvals_paths);
  approvals::Document doc = store.load();
  boost::json::value raw(doc);
  approvals::ResolvedApprovals resolved = approvals::resolve_from_file(
      raw, config.agent_id, policy::ApprovalsOverrides{security, ask, std::nullopt, std::nullopt},
      store.resolve_context(), [] { return approvals::random_uuid(); });
  if (allowlist) *allowlist = resolved.allowlist;
  return resolved.agent;
}

policy::ExecCallPolicyInputs call_inputs(const ServiceConfig& config, ExecHost host, const json::Object* args) {
  const config::ExecSettings& s = config.exec;
  policy::ExecCallPolicyInputs in;
  in.host = host;
  in.mode = s.mode;
  in.security = s.security;
  in.ask = s.ask;
  if (host != ExecHost::kSandbox) {
    in.approvals = file_policy(config, ExecSecurity::kFull, ExecAsk::kOff, nullptr);
  }
  if (args) {
    if (std::optional<std::string> ask = string_arg(*args, "ask")) in.requested_ask = policy::normalize_exec_ask(*ask);
  }
  return in;
}

std::string headless_denial(ExecSecurity s, ExecAsk a, ExecSecurity f, const std::string& transcript) {
  return "exec denied: Headless runs cannot wait for interactive exec approval.\n"
         "Effective host exec policy: security=" + std::string(config::to_string(s)) +
         " ask=" + std::string(config::to_string(a)) + " askFallback=" + std::string(config::to_string(f)) +
         "\nStricter values from tools.exec and " + transcript +
         " both apply.\n"
         "Fix one of these:\n"
         "- align both files to security=\"full\" and ask=\"off\" for trusted local automation\n"
         "- keep allowlist mode and add an explicit allowlist entry for this command\n"
         "- enable Web UI, terminal UI, or chat exec approvals and rerun interactively\n"
         "Tip: run \"clawexec doctor\" and \"clawexec approvals get\" to inspect the effective policy.";
}

void record_use(const ServiceConfig& config, const policy::Decision& decision,
                const std::vector<policy::AllowlistEntry>& allowlist, const std::string& command) {
  std::vector<policy::AllowlistEntry> matched;
  for (const policy::SegmentEvaluation& seg : decision.evaluation.segments) {
    if (seg.entry_index && *seg.entry_index < allowlist.size()) matched.push_back(allowlist[*seg.entry_index]);
  }
  if (matched.empty()) return;
  std::optional<std::string> first_path =
      decision.evaluation.segments.empty() ? std::nullopt : decision.evaluation.segments[0].resolved_path;
  approvals::ApprovalsStore store(config.approvals_paths);
  approvals::RecordedUse use{command, first_path, epoch_ms()};
  // Bookkeeping only: a failure to record use must not stop the command.
  (void)store.update([&](approvals::Document& doc) -> Result<bool> {
    return approvals::record_allowlist_use(doc, config.agent_id, matched, use, [] { return approvals::random_uuid(); });
  });
}

}  // namespace

Result<void> check_security_floor(const ServiceConfig& config, ExecHost host) {
  Result<policy::ExecCallPolicy> policy = policy::resolve_exec_call_policy(call_inputs(config, host, nullptr));
  if (!policy.ok()) return policy.error();
  return {};
}

Result<GateOutcome> gateway_policy_gate(const ServiceConfig& config, const json::Object& args,
                                        const std::string& command, const std::string& workdir,
                                        const std::string& path_env) {
  policy::ExecCallPolicy call = TRY(policy::resolve_exec_call_policy(call_inputs(config, ExecHost::kGateway, &args)));
  std::vector<policy::AllowlistEntry> allowlist;
  policy::ApprovalsAgentPolicy file = file_policy(config, call.security, call.ask, &allowlist);
  policy::HostApprovalContext host =
      TRY(policy::resolve_host_approval_context(ExecHost::kGateway, call.security, call.ask, file));
  bool strict = config.exec.strict_inline_eval.value_or(false);
  GateOutcome out;
  if (host.host_security == ExecSecurity::kFull && host.host_ask == ExecAsk::kOff && !strict) {
    out.command = command;  // nothing the engine could refuse or ask about
    return out;
  }
  policy::SafeBinLayer layer;
  layer.safe_bins = config.exec.safe_bins;
  layer.trusted_dirs = config.exec.safe_bin_trusted_dirs.value_or(std::vector<std::string>{});
  layer.profiles = config.exec.safe_bin_profiles;
  policy::SafeBinRuntimePolicy safe_bins = policy::resolve_exec_safe_bin_runtime_policy(layer, {}, system_fs());

  policy::DecisionInputs in;
  in.command = command;
  in.security = host.host_security;
  in.ask = host.host_ask;
  in.ask_fallback = host.ask_fallback;
  in.strict_inline_eval = strict;
  in.evaluation.allowlist = &allowlist;
  in.evaluation.safe_bins = &safe_bins.policy;
  in.evaluation.trusted_dirs = &safe_bins.trusted_dirs;
  in.evaluation.resolve = policy::ResolveContext{workdir, path_env, config.home_dir, &system_fs()};
  policy::Decision decision = policy::decide_gateway(in);
  out.warnings = decision.warnings;
  switch (decision.verdict) {
    case policy::Verdict::kAllow:
      record_use(config, decision, allowlist, command);
      out.command = decision.command_to_run;
      return out;
    case policy::Verdict::kDeny:
      return Error::rejected(decision.deny_message);
    case policy::Verdict::kAsk: break;
  }
  // No human can be asked yet (the approval flow is issue 4): the ask fallback decides.
  policy::FallbackOutcome fallback = policy::resolve_ask_fallback(decision, in);
  if (!fallback.approved) {
    return Error::rejected(headless_denial(host.host_security, host.host_ask, host.ask_fallback,
                                           config.approvals_paths.transcript));
  }
  record_use(config, decision, allowlist, command);
  out.command = fallback.command_to_run;
  return out;
}

}  // namespace clawexec::exec
