// The gateway-host decision pipeline (reference spec §7.1, §7.5) and allow-always
// persistence (§4.6).
//
// Problem: combine the effective policy (security, ask, ask fallback, strict inline eval) with
// the allowlist evaluation into one verdict, and name the exact command that will run: under
// `allowlist` security always the canonical rendering, so what runs is what was matched.
//
// Approach: the reference's triggers in order - approval required by ask/security, an
// allowlisted command that cannot be rendered, strict inline eval, edits of the security audit
// suppressions - then allowlist miss, then allow.

#include "policy/decide.h"

#include <algorithm>
#include <cctype>

#include "base/utf.h"
#include "policy/modes.h"
#include "policy/shell_wrapper_policy.h"

namespace clawexec::policy {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// "security.audit.suppressions" (or security … audit … suppressions within 200 characters).
bool mentions_audit_suppressions(std::string_view command) {
  std::string text = lower(command);
  if (text.find("security.audit.suppressions") != std::string::npos) return true;
  size_t s = text.find("security");
  while (s != std::string::npos) {
    size_t a = text.find("audit", s + 8);
    if (a != std::string::npos && a - (s + 8) <= 200) {
      size_t p = text.find("suppressions", a + 5);
      if (p != std::string::npos && p - (a + 5) <= 200) return true;
    }
    s = text.find("security", s + 1);
  }
  return false;
}

// `openclaw [--dev|--no-color|--profile X|--container X|--log-level X] config get|schema|validate`
bool is_read_only_config_inspection(const Argv& argv) {
  size_t i = 0;
  if (!argv.empty() && argv[0] == "pnpm") i = 1;
  if (i >= argv.size() || argv[i] != "openclaw") return false;
  ++i;
  while (i < argv.size()) {
    const std::string& t = argv[i];
    if (t == "--dev" || t == "--no-color") { ++i; continue; }
    if (t == "--profile" || t == "--container" || t == "--log-level") { i += 2; continue; }
    break;
  }
  return i + 1 < argv.size() && argv[i] == "config" &&
         (argv[i + 1] == "get" || argv[i + 1] == "schema" || argv[i + 1] == "validate");
}

bool edits_audit_suppressions(const AllowlistEvaluation& e, std::string_view command) {
  if (!mentions_audit_suppressions(command)) return false;
  const std::vector<SegmentEvaluation>& segs = e.analysis_ok ? e.segments : e.unplanned_segments;
  if (segs.empty()) return true;
  bool only_reads = true;
  for (const SegmentEvaluation& s : segs) {
    std::string joined;
    for (const std::string& a : s.argv) joined += a + " ";
    if (mentions_audit_suppressions(joined) && !is_read_only_config_inspection(s.argv)) only_reads = false;
  }
  return !only_reads;
}

std::vector<const AllowlistEntry*> segment_entries(const AllowlistEvaluation& e, const EvaluationContext& ctx) {
  std::vector<const AllowlistEntry*> out;
  for (const SegmentEvaluation& s : e.segments) {
    out.push_back(s.entry_index && ctx.allowlist ? &(*ctx.allowlist)[*s.entry_index] : nullptr);
  }
  return out;
}

}  // namespace

std::string_view to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::kAllow: return "allow";
    case Verdict::kAsk: return "ask";
    case Verdict::kDeny: return "deny";
  }
  return "deny";
}

AllowAlwaysDecision resolve_allow_always(const AllowlistEvaluation& evaluation, bool runtime_payload,
                                         const EvaluationContext& context, bool strict_inline_eval) {
  AllowAlwaysDecision d;
  std::vector<std::string> reasons;
  auto add = [&](const char* r) {
    if (std::find(reasons.begin(), reasons.end(), r) == reasons.end()) reasons.emplace_back(r);
  };
  if (!evaluation.plan.ok) add("unplanned");
  std::vector<const Candidate*> candidates = evaluation.plan.candidates();
  bool all_reusable = evaluation.plan.ok;
  for (size_t i = 0; i < candidates.size() && i < evaluation.segments.size(); ++i) {
    const SegmentEvaluation& seg = evaluation.segments[i];
    if (seg.trust_mode == TrustMode::kPromptOnly) add("prompt-only");
    else if (seg.trust_mode == TrustMode::kExactCommand || !seg.allow_always) add("no-reusable-pattern");
    if (!seg.allow_always) all_reusable = false;
    ShellWrapperCommand wrapper = extract_shell_wrapper_command(seg.argv);
    std::optional<std::string> raw = extract_shell_wrapper_inline_command(seg.argv);
    if (wrapper.is_wrapper && raw &&
        (raw->find('$') != std::string::npos || raw->find('`') != std::string::npos || !wrapper.command)) {
      add("runtime-payload");
    }
  }
  if (runtime_payload) add("runtime-payload");
  bool only_no_reusable = std::all_of(reasons.begin(), reasons.end(), [](const std::string& r) { return r == "no-reusable-pattern"; });
  if (!reasons.empty() && !only_no_reusable) {
    d.reasons = reasons;
    return d;
  }
  if (all_reusable && !candidates.empty()) {
    // Coverage (§4.6): complete when every segment that is not a shell wrapper yields a pattern.
    bool complete = true;
    for (const SegmentEvaluation& seg : evaluation.segments) {
      std::vector<std::string> found = allow_always_patterns_for_segment(seg.argv, context, strict_inline_eval);
      if (found.empty() && !is_shell_wrapper_invocation(seg.argv)) complete = false;
      for (std::string& p : found) {
        if (std::find(d.patterns.begin(), d.patterns.end(), p) == d.patterns.end()) d.patterns.push_back(std::move(p));
      }
    }
    if (!d.patterns.empty()) {
      d.kind = AllowAlwaysKind::kPatterns;
      d.complete = complete;
      return d;
    }
  }
  d.reasons = {"no-reusable-pattern"};
  return d;
}

Decision decide_gateway(const DecisionInputs& in) {
  Decision d;
  d.evaluation = evaluate_shell_allowlist(in.command, in.evaluation);
  const AllowlistEvaluation& e = d.evaluation;
  bool host_allowlist = in.security == ExecSecurity::kAllowlist;
  bool satisfied = host_allowlist && e.allowlist_satisfied;
  std::string trimmed(js_trim(in.command));
  d.durable = in.evaluation.allowlist &&
              has_durable_exec_approval(e.analysis_ok, segment_entries(e, in.evaluation), *in.evaluation.allowlist, trimmed);
  bool exact_durable = false;
  if (in.evaluation.allowlist) {
    std::string pattern = durable_command_pattern(trimmed);
    exact_durable = std::any_of(in.evaluation.allowlist->begin(), in.evaluation.allowlist->end(), [&](const AllowlistEntry& a) {
      return a.source == "allow-always" && a.pattern == pattern;
    });
  }
  if (in.strict_inline_eval) {
    for (const auto* list : {&e.segments, &e.unplanned_segments}) {
      for (const SegmentEvaluation& s : *list) {
        if (s.inline_eval && !d.strict_inline_eval_hit) d.strict_inline_eval_hit = s.inline_eval;
      }
    }
  }
  d.allow_always = resolve_allow_always(e, d.strict_inline_eval_hit.has_value(), in.evaluation, in.strict_inline_eval);
  bool fallback_allowlist = std::min(in.security, in.ask_fallback) == ExecSecurity::kAllowlist;
  if ((host_allowlist || fallback_allowlist) && e.analysis_ok) {
    RenderedCommand rendered = render_authorized_command(e);
    d.enforced_command = rendered.command;
    d.enforced_unavailable_reason = rendered.reason;
  }
  bool needs = requires_exec_approval({in.ask, in.security, e.analysis_ok, satisfied, d.durable});
  if (needs) d.reasons.emplace_back(in.ask == ExecAsk::kAlways ? "ask=always" : "allowlist-miss");
  if (host_allowlist && satisfied && !exact_durable && !d.enforced_command) {
    needs = true;
    d.reasons.emplace_back("execution-plan-unavailable: " + d.enforced_unavailable_reason);
    d.warnings.emplace_back("Warning: allowlist auto-execution is unavailable on linux; reviewer or explicit approval is required.");
  }
  if (d.strict_inline_eval_hit) {
    needs = true;
    std::string description = describe_interpreter_inline_eval(*d.strict_inline_eval_hit);
    d.reasons.emplace_back("strict-inline-eval: " + description);
    d.warnings.emplace_back("Warning: strict inline-eval mode requires reviewer or explicit approval for " + description + ".");
  }
  bool yolo = in.security == ExecSecurity::kFull && in.ask == ExecAsk::kOff;
  if (!yolo && edits_audit_suppressions(e, in.command)) {
    needs = true;
    d.security_audit_suppression = true;
    d.reasons.emplace_back("security-audit-suppression");
    d.warnings.emplace_back("Warning: security audit suppression changes require explicit approval unless exec is running in yolo mode.");
  }
  if (needs) {
    d.verdict = Verdict::kAsk;
    return d;
  }
  if (host_allowlist && (!e.analysis_ok || !e.allowlist_satisfied) && !d.durable) {
    d.verdict = Verdict::kDeny;
    d.deny_message = "exec denied: allowlist miss";
    d.reasons.emplace_back(e.analysis_ok ? "allowlist-miss" : "analysis-failed: " + e.plan.reason);
    return d;
  }
  d.verdict = Verdict::kAllow;
  d.command_to_run = host_allowlist && d.enforced_command ? *d.enforced_command : in.command;
  return d;
}

FallbackOutcome resolve_ask_fallback(const Decision& d, const DecisionInputs& in, NoAnswer why) {
  FallbackOutcome out;
  const std::string prefix = why == NoAnswer::kCancelled ? "approval-cancelled" : "approval-timeout";
  ExecSecurity fallback = std::min(in.security, in.ask_fallback);
  bool strict_boundary = d.strict_inline_eval_hit.has_value() || d.security_audit_suppression ||
                         (in.security == ExecSecurity::kAllowlist && d.evaluation.allowlist_satisfied && !d.enforced_command);
  const AllowlistEvaluation& e = d.evaluation;
  if (fallback == ExecSecurity::kFull) {
    out.approved = true;
    out.command_to_run = d.enforced_command && in.security == ExecSecurity::kAllowlist ? *d.enforced_command : in.command;
  } else if (fallback == ExecSecurity::kDeny) {
    out.reason = prefix;
  } else if (!(e.analysis_ok && e.allowlist_satisfied) && !d.durable) {
    out.reason = prefix + ": allowlist-miss";
  } else if (!d.enforced_command) {
    out.reason = prefix + ": execution-plan-miss";
  } else {
    out.approved = true;
    out.command_to_run = *d.enforced_command;
  }
  if (out.approved && strict_boundary) {
    out.approved = false;
    out.reason = prefix;
    out.command_to_run.clear();
  }
  return out;
}

}  // namespace clawexec::policy
