// The evaluation context of one gateway decision (GatewayContext) and what builds it: the
// effective policy of a call from the configuration, the client's tightenings, the per-call ask
// and the approvals document; the decision inputs; the headless denial text; approvals
// bookkeeping. Shared by the policy gate (policy_gate.cc) and the approval flow
// (gateway_approval.cc), which so depend on this file and not on each other.

#include "exec/gateway_context.h"

#include <cstdio>

#include "approvals/bookkeeping.h"
#include "approvals/cache.h"
#include "approvals/random.h"
#include "approvals/store.h"
#include "approvals/system_fs.h"
#include "base/time.h"
#include "policy/modes.h"

namespace clawexec::exec {

void report_bookkeeping_error(std::string_view what, const std::string& file, const Error& error) {
  std::fprintf(stderr, "clawexec: warning: could not %.*s in %s: %s\n", static_cast<int>(what.size()), what.data(),
               file.c_str(), error.message.c_str());
}
namespace {

using config::ExecAsk;
using config::ExecSecurity;

policy::ApprovalsAgentPolicy file_policy(const ServiceConfig& config, ExecSecurity security, ExecAsk ask,
                                         std::vector<policy::AllowlistEntry>* allowlist) {
  policy::ApprovalsOverrides overrides{security, ask, std::nullopt, std::nullopt};
  std::shared_ptr<approvals::ApprovalsCache> cache =
      config.approvals_cache ? config.approvals_cache : std::make_shared<approvals::ApprovalsCache>(config.approvals_paths);
  std::shared_ptr<const approvals::ResolvedApprovals> resolved = cache->resolve(config.agent_id, overrides);
  if (allowlist) *allowlist = resolved->allowlist;
  return resolved->agent;
}

}  // namespace

policy::ExecCallPolicyInputs call_inputs(const ServiceConfig& config, ExecHost host, const ExecRequest* request) {
  const config::ExecSettings& s = config.exec;
  policy::ExecCallPolicyInputs in;
  in.host = host;
  in.mode = s.mode;
  in.security = s.security;
  in.ask = s.ask;
  // Session overrides (serve flags, an operator's /exec) can only tighten the configured pair.
  if (config.session_security || config.session_ask) {
    policy::ResolvedModePolicy p = policy::resolve_exec_mode_policy(
        s.mode, s.security.value_or(host == ExecHost::kSandbox ? ExecSecurity::kDeny : ExecSecurity::kFull),
        s.ask.value_or(ExecAsk::kOff));
    in.mode.reset();
    in.security = config.session_security ? policy::min_security(p.security, *config.session_security) : p.security;
    in.ask = config.session_ask ? policy::max_ask(p.ask, *config.session_ask) : p.ask;
  }
  if (host != ExecHost::kSandbox) {
    in.approvals = file_policy(config, ExecSecurity::kFull, ExecAsk::kOff, nullptr);
  }
  if (request && request->ask) in.requested_ask = policy::normalize_exec_ask(*request->ask);
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

std::function<void()> record_use(const ServiceConfig& config, const policy::Decision& decision,
                                 const std::vector<policy::AllowlistEntry>& allowlist, const std::string& command) {
  std::vector<policy::AllowlistEntry> matched;
  for (const policy::SegmentEvaluation& seg : decision.evaluation.segments) {
    if (seg.entry_index && *seg.entry_index < allowlist.size()) matched.push_back(allowlist[*seg.entry_index]);
  }
  if (matched.empty()) return {};
  std::optional<std::string> first_path =
      decision.evaluation.segments.empty() ? std::nullopt : decision.evaluation.segments[0].resolved_path;
  approvals::RecordedUse use{command, first_path, epoch_ms()};
  return [paths = config.approvals_paths, agent = config.agent_id, matched = std::move(matched), use = std::move(use)] {
    approvals::ApprovalsStore store(paths);
    // Bookkeeping only: a failure to record use must not stop the command, but is reported.
    auto recorded = store.update([&](approvals::Document& doc) -> Result<bool> {
      return approvals::record_allowlist_use(doc, agent, matched, use, [] { return approvals::random_uuid(); });
    });
    report_bookkeeping_failure("record the allowlist entries' use", paths.file, recorded);
  };
}

Result<std::shared_ptr<GatewayContext>> gateway_context(const ServiceConfig& config, const ExecRequest* request) {
  auto g = std::make_shared<GatewayContext>();
  policy::ExecCallPolicy call = TRY(policy::resolve_exec_call_policy(call_inputs(config, ExecHost::kGateway, request)));
  policy::ApprovalsAgentPolicy file = file_policy(config, call.security, call.ask, &g->allowlist);
  g->host = TRY(policy::resolve_host_approval_context(ExecHost::kGateway, call.security, call.ask, file));
  g->strict = config.exec.strict_inline_eval.value_or(false);
  g->agent_id = config.agent_id;
  g->auto_review = call.auto_review && g->host.host_ask != ExecAsk::kAlways;
  return g;
}

bool needs_analysis(const GatewayContext& g) {
  return !(g.host.host_security == ExecSecurity::kFull && g.host.host_ask == ExecAsk::kOff && !g.strict);
}

void prepare_decision(GatewayContext& g, const ServiceConfig& config, const std::string& command,
                      const std::string& workdir, const std::string& path_env, shell::ShellDialect dialect) {
  policy::SafeBinLayer layer;
  layer.safe_bins = config.exec.safe_bins;
  layer.trusted_dirs = config.exec.safe_bin_trusted_dirs.value_or(std::vector<std::string>{});
  layer.profiles = config.exec.safe_bin_profiles;
  g.safe_bins = policy::resolve_exec_safe_bin_runtime_policy(layer, {}, approvals::system_fs_view());
  policy::DecisionInputs& in = g.inputs;
  in.command = command;
  in.security = g.host.host_security;
  in.ask = g.host.host_ask;
  in.ask_fallback = g.host.ask_fallback;
  in.strict_inline_eval = g.strict;
  in.evaluation.allowlist = &g.allowlist;
  in.evaluation.safe_bins = &g.safe_bins.policy;
  in.evaluation.trusted_dirs = &g.safe_bins.trusted_dirs;
  in.evaluation.resolve = policy::ResolveContext{workdir, path_env, config.home_dir, &approvals::system_fs_view()};
  in.evaluation.dialect = dialect;
}


}  // namespace clawexec::exec
