// The exec tool's policy gate (reference spec §2.4, §7.1, §7.5).
//
// Problem: every gateway-host command must pass the policy engine: the configured mode, the
// approvals document (which can only tighten), the allowlist, safe bins and strict inline eval.
// A command the engine allows under `allowlist` security runs as its canonical rendering (the
// analysed argv, every word quoted, the programs pinned to the real paths the analysis
// matched); a command that needs a human goes to an approval, or to the ask fallback when
// nobody can be asked.
//
// Approach: read the approvals document once per call (it is small; the store takes the
// lock only to write), compute the effective policy with policy/modes, take the fast path for
// `security=full ask=off` without strict inline eval (nothing to analyse), otherwise run
// policy::decide_gateway with the file system bound to real syscalls, and record allowlist use.

#include "exec/policy_gate.h"

#include "exec/exec_planning.h"
#include "exec/gateway_approval.h"
#include "exec/gateway_context.h"

#include <memory>

#include "approvals/bookkeeping.h"
#include "approvals/cache.h"
#include "approvals/random.h"
#include "approvals/store.h"
#include "approvals/system_fs.h"
#include "base/time.h"
#include "base/utf.h"
#include "exec/service.h"
#include "policy/decide.h"
#include "policy/highlight.h"
#include "policy/modes.h"
#include "sys/sys.h"

namespace clawexec::exec {

using config::ExecAsk;
using config::ExecSecurity;

namespace {

boost::json::array strings(const std::vector<std::string>& v) {
  boost::json::array out;
  for (const std::string& s : v) out.emplace_back(s);
  return out;
}

std::string_view satisfied_name(policy::SatisfiedBy by) {
  switch (by) {
    case policy::SatisfiedBy::kAllowlist: return "allowlist";
    case policy::SatisfiedBy::kSafeBins: return "safeBin";
    case policy::SatisfiedBy::kSafeBuiltins: return "safeBuiltin";
    case policy::SatisfiedBy::kSkills: return "skill";
    case policy::SatisfiedBy::kNone: return "none";
  }
  return "none";
}

boost::json::object segment_json(const policy::SegmentEvaluation& seg, const std::vector<policy::AllowlistEntry>& allowlist) {
  boost::json::object o;
  o["argv"] = strings(seg.argv);
  o["executable"] = seg.effective_argv.empty() ? std::string() : seg.effective_argv[0];
  o["resolvedPath"] = seg.resolved_path ? boost::json::value(*seg.resolved_path) : boost::json::value(nullptr);
  o["satisfiedBy"] = satisfied_name(seg.satisfied_by);
  o["pattern"] = seg.entry_index && *seg.entry_index < allowlist.size()
                     ? boost::json::value(allowlist[*seg.entry_index].pattern)
                     : boost::json::value(nullptr);
  if (seg.inline_eval) {
    o["inlineEval"] = boost::json::object{{"interpreter", seg.inline_eval->normalized_executable},
                                          {"flag", seg.inline_eval->flag}};
  } else {
    o["inlineEval"] = nullptr;
  }
  o["wrappers"] = strings(seg.wrappers);
  o["trustMode"] = policy::to_string(seg.trust_mode);
  o["allowAlways"] = seg.allow_always;
  return o;
}

}  // namespace

Result<policy::ExecCallPolicy> effective_call_policy(const ServiceConfig& config, ExecHost host) {
  return policy::resolve_exec_call_policy(call_inputs(config, host, nullptr));
}

Result<void> check_security_floor(const ServiceConfig& config, ExecHost host) {
  Result<policy::ExecCallPolicy> policy = effective_call_policy(config, host);
  if (!policy.ok()) return policy.error();
  return {};
}

namespace {

// Whether a request for this command would go to the auto-reviewer first (§7.1 step 6), and
// why or why not; with the model that would be asked.
boost::json::object auto_review_explained(const ServiceConfig& config, const GatewayContext& g, const policy::Decision& d) {
  boost::json::object out;
  auto why = [&](bool consulted, std::string text) {
    out["consulted"] = consulted;
    out["why"] = std::move(text);
    return out;
  };
  if (!config.exec.mode || *config.exec.mode != config::ExecMode::kAuto) return why(false, "tools.exec.mode is not \"auto\"");
  if (!g.auto_review) {
    return why(false, "the effective ask is stricter than on-miss (the approvals file or the call asks always), so a human decides");
  }
  if (d.verdict != policy::Verdict::kAsk || !needs_analysis(g)) return why(false, "no approval is needed: nothing to review");
  if (d.security_audit_suppression) return why(false, "security audit suppression edits always need a human");
  if (!reviewer_can_bind(d)) {
    return why(false, "the command does not bind to one executable with an enforced rendering and a resolved path, so a human decides");
  }
  const ReviewerConfig& r = config.reviewer;
  if (!r.model.empty()) out["model"] = r.model;
  if (!r.model_source.empty()) out["modelSource"] = r.model_source;
  out["timeoutMs"] = r.timeout_ms;
  if (!r.unavailable.empty()) return why(true, "the reviewer is consulted but its model is unavailable (" + r.unavailable + "): it defers to a human");
  if (!r.endpoint) return why(true, "the reviewer is consulted, but no model is configured (tools.exec.reviewer.model): the default reviewer defers to a human");
  return why(true, "the reviewer (" + r.model + ") is asked first: allow with risk low runs it once, anything else goes to a human");
}

}  // namespace

boost::json::object explain_policy(const ServiceConfig& config, const std::string& command, const std::string& cwd,
                                   const std::string& path_env) {
  shell::ShellDialect dialect = dialect_of(server_shell(config).first);
  boost::json::object out;
  out["command"] = command;
  out["cwd"] = cwd;
  out["agent"] = config.agent_id;
  Result<std::shared_ptr<GatewayContext>> context = gateway_context(config, nullptr);
  if (!context.ok()) {
    // The security floor refuses everything (security=deny).
    out["analysisOk"] = false;
    out["decision"] = "deny";
    out["reasons"] = boost::json::array{boost::json::value(context.error().message)};
    out["segments"] = boost::json::array{};
    out["allowlistSatisfied"] = false;
    out["security"] = "deny";
    return out;
  }
  GatewayContext& g = **context;
  prepare_decision(g, config, command, cwd, path_env, dialect);
  policy::Decision d = policy::decide_gateway(g.inputs);
  const policy::AllowlistEvaluation& e = d.evaluation;
  bool yolo = !needs_analysis(g);
  out["analysisOk"] = e.analysis_ok;
  std::vector<std::string> reasons = d.reasons;
  if (!e.analysis_ok) reasons.insert(reasons.begin(), "unanalyzable: " + e.plan.reason);
  out["reasons"] = strings(reasons);
  boost::json::array segments;
  for (const policy::SegmentEvaluation& seg : e.analysis_ok ? e.segments : e.unplanned_segments) {
    segments.push_back(segment_json(seg, g.allowlist));
  }
  out["segments"] = std::move(segments);
  out["allowlistSatisfied"] = e.allowlist_satisfied;
  out["security"] = config::to_string(g.host.host_security);
  out["ask"] = config::to_string(g.host.host_ask);
  out["askFallback"] = config::to_string(g.host.ask_fallback);
  out["strictInlineEval"] = g.strict;
  // Under security=full ask=off without strict inline eval, exec runs the command unanalysed.
  std::string_view verdict = yolo ? "allow" : policy::to_string(d.verdict);
  out["decision"] = verdict;
  if (verdict == "allow") {
    out["commandToRun"] = yolo ? command : d.command_to_run;
  } else if (verdict == "deny") {
    out["denyMessage"] = d.deny_message;
  } else {
    policy::FallbackOutcome fallback = policy::resolve_ask_fallback(d, g.inputs);
    out["askFallbackResult"] = fallback.approved ? boost::json::value(boost::json::object{{"approved", true}, {"commandToRun", fallback.command_to_run}})
                                                 : boost::json::value(boost::json::object{{"approved", false}, {"reason", fallback.reason}});
  }
  out["enforcedCommand"] = d.enforced_command ? boost::json::value(*d.enforced_command) : boost::json::value(nullptr);
  out["warnings"] = strings(d.warnings);
  boost::json::object always;
  always["kind"] = d.allow_always.kind == policy::AllowAlwaysKind::kPatterns ? "patterns" : "one-shot";
  always["patterns"] = strings(d.allow_always.patterns);
  always["reasons"] = strings(d.allow_always.reasons);
  out["allowAlways"] = std::move(always);
  out["autoReview"] = auto_review_explained(config, g, d);
  if (config.exec.command_highlighting) {
    boost::json::array spans;
    for (const policy::HighlightSpan& s : policy::command_highlight_spans(e.plan.explanation)) {
      spans.push_back(boost::json::object{{"startIndex", s.start_index}, {"endIndex", s.end_index}});
    }
    out["highlights"] = std::move(spans);
  }
  return out;
}

Result<GateOutcome> gateway_policy_gate(const ServiceConfig& config, const ExecRequest& request,
                                        const std::string& command, const std::string& workdir,
                                        const std::string& path_env, ApprovalRoute route,
                                        std::shared_ptr<GatewayContext> context) {
  GateOutcome out;
  std::shared_ptr<GatewayContext> g = context ? std::move(context) : TRY(gateway_context(config, &request));
  out.preflight = !(g->host.host_security == ExecSecurity::kFull && g->host.host_ask == ExecAsk::kOff);
  if (!needs_analysis(*g)) {
    out.command = command;  // nothing the engine could refuse or ask about
    return out;
  }
  prepare_decision(*g, config, command, workdir, path_env, dialect_of(server_shell(config).first));
  const policy::DecisionInputs& in = g->inputs;
  const std::vector<policy::AllowlistEntry>& allowlist = g->allowlist;
  const policy::HostApprovalContext& host = g->host;
  g->decision = policy::decide_gateway(in);
  const policy::Decision& decision = g->decision;
  out.warnings = decision.warnings;
  switch (decision.verdict) {
    case policy::Verdict::kAllow:
      out.bookkeeping = record_use(config, decision, allowlist, command);
      out.command = decision.command_to_run;
      out.rendered = decision.enforced_command && out.command == *decision.enforced_command;
      return out;
    case policy::Verdict::kDeny:
      return Error::rejected(decision.deny_message);
    case policy::Verdict::kAsk: break;
  }
  if (route == ApprovalRoute::kAvailable) {
    out.approval = std::make_shared<GatewayApproval>(g, command, workdir, path_env);
    return out;
  }
  // mode "auto": the reviewer is asked before the fallback, even when no human could be (§7.1
  // step 6 comes before step 7); if it defers, nobody can approve and the call is refused.
  if (g->auto_review) {
    std::string denial = headless_denial(host.host_security, host.host_ask, host.ask_fallback, config.approvals_paths.transcript);
    if (!auto_reviewable(*g)) return Error::rejected(denial);
    out.approval = std::make_shared<GatewayApproval>(g, command, workdir, path_env);
    out.no_route_denial = std::move(denial);
    return out;
  }
  // No human can be asked: the ask fallback decides (§7.1 step 7, headless runs).
  policy::FallbackOutcome fallback = policy::resolve_ask_fallback(decision, in);
  if (!fallback.approved) {
    return Error::rejected(headless_denial(host.host_security, host.host_ask, host.ask_fallback,
                                           config.approvals_paths.transcript));
  }
  out.bookkeeping = record_use(config, decision, allowlist, command);
  out.command = fallback.command_to_run;
  out.rendered = decision.enforced_command && out.command == *decision.enforced_command;
  return out;
}

}  // namespace clawexec::exec
