// A gateway command waiting for a human (reference spec §7.1, §7.5, §4.6).
//
// Problem: between the moment a human sees a command and the moment it runs, nothing the human
// approved may change: not the text, the directory or the environment (fixed in the exec plan),
// and not the programs it runs - a binary swapped in the meantime must not inherit the
// approval. An allow-always answer must store exactly the entries the reference derives, and
// no answer at all must fall back to the configured askFallback with its strict boundaries.
//
// Approach: at request time record the real path of every executable the analysis resolved,
// plus a content hash of those this process could rewrite; before running, resolve again and
// compare. Answers map onto the policy engine's fallback and persistence rules.

#include "exec/gateway_approval.h"

#include <algorithm>

#include "approvals/bookkeeping.h"
#include "approvals/random.h"
#include "approvals/store.h"
#include "base/time.h"
#include "base/utf.h"
#include "exec/gateway_context.h"
#include "exec/service.h"
#include "hash/sha256.h"
#include "policy/analysis_summary.h"
#include "policy/highlight.h"
#include "policy/safe_bins.h"
#include "sys/sys.h"
#include "term/display_escape.h"

namespace clawexec::exec {
namespace {

std::vector<std::string> resolved_paths(const policy::AllowlistEvaluation& e) {
  std::vector<std::string> out;
  for (const auto* list : {&e.segments, &e.unplanned_segments}) {
    for (const policy::SegmentEvaluation& s : *list) {
      if (s.resolved_path) out.push_back(*s.resolved_path);
    }
  }
  return out;
}

}  // namespace

// §7.1 step 6's executable binding: the analysis holds one command (not a shell builtin) with a
// resolved trust path, and it has a canonical rendering to run in place of the text.
// An interpreter or shell is never bound for the reviewer: one allow would leave a session
// whose stdin the agent then writes (`process write`) with code nobody reviewed.
bool reviewer_can_bind(const policy::Decision& d) {
  const policy::AllowlistEvaluation& e = d.evaluation;
  if (!(e.analysis_ok && e.segments.size() == 1 && e.segments[0].satisfied_by != policy::SatisfiedBy::kSafeBuiltins &&
        e.segments[0].resolved_path && d.enforced_command)) {
    return false;
  }
  const std::string& path = *e.segments[0].resolved_path;
  const std::string& name = e.segments[0].effective_argv.empty() ? path : e.segments[0].effective_argv[0];
  return !policy::is_interpreter_like_safe_bin(path.substr(path.rfind('/') + 1)) &&
         !policy::is_interpreter_like_safe_bin(name.substr(name.rfind('/') + 1));
}

bool auto_reviewable(const GatewayContext& g) {
  return g.auto_review && !g.decision.security_audit_suppression && reviewer_can_bind(g.decision);
}

namespace {

std::string content_hash(const std::string& path) {
  if (!sys::is_writable(path)) return {};
  Result<std::optional<std::string>> text = sys::read_file_if_exists(path, "hash approved executable");
  if (!text.ok() || !text.value()) return "unreadable";
  return hash::sha256_hex(**text);
}

}  // namespace

GatewayApproval::GatewayApproval(std::shared_ptr<GatewayContext> context, std::string command, std::string cwd,
                                 std::string path_env)
    : context_(std::move(context)),
      id_(approvals::random_uuid()),
      command_(std::move(command)),
      cwd_(std::move(cwd)),
      path_env_(std::move(path_env)) {
  const policy::Decision& d = context_->decision;
  policy::AllowAlwaysPersistence persistence = d.allow_always.kind == policy::AllowAlwaysKind::kOneShot
                                                   ? policy::AllowAlwaysPersistence::kOneShot
                                                   : policy::AllowAlwaysPersistence::kReusable;
  allowed_ = policy::resolve_exec_approval_allowed_decisions(context_->host.host_ask, persistence);
  for (const std::string& path : resolved_paths(d.evaluation)) binding_.push_back({path, content_hash(path)});
  reviewable_ = auto_reviewable(*context_);
  human_required_ = context_->auto_review && !reviewable_;
}

GatewayApproval::~GatewayApproval() = default;

bool GatewayApproval::allow_always_offered() const {
  return std::find(allowed_.begin(), allowed_.end(), policy::ApprovalDecision::kAllowAlways) != allowed_.end();
}

const std::vector<std::string>& GatewayApproval::warnings() const { return context_->decision.warnings; }

std::vector<std::string> GatewayApproval::reasons() const { return context_->decision.reasons; }

ApprovalOutcome GatewayApproval::bound(std::string command) const {
  policy::AllowlistEvaluation now = policy::evaluate_shell_allowlist(command_, context_->inputs.evaluation);
  std::vector<std::string> paths = resolved_paths(now);
  bool same = paths.size() == binding_.size();
  for (size_t i = 0; same && i < paths.size(); ++i) {
    same = paths[i] == binding_[i].path && (binding_[i].sha256.empty() || content_hash(paths[i]) == binding_[i].sha256);
  }
  if (!same) return {false, "", "approval-binding-changed"};
  const std::optional<std::string>& rendering = context_->decision.enforced_command;
  bool rendered = rendering && command == *rendering;
  return {true, std::move(command), "", rendered};
}

ApprovalOutcome GatewayApproval::decide(policy::ApprovalDecision decision, const ServiceConfig& config) {
  if (decision == policy::ApprovalDecision::kDeny) return {false, "", "user-denied"};
  if (std::find(allowed_.begin(), allowed_.end(), decision) == allowed_.end()) {
    return {false, "", "allow-always is unavailable for this command"};
  }
  const policy::Decision& d = context_->decision;
  ApprovalOutcome out = bound(d.enforced_command.value_or(command_));
  if (!out.approved || decision != policy::ApprovalDecision::kAllowAlways) return out;
  // §4.6: only an explicit allow-always stores entries; a failure to store does not undo the
  // approval the human gave for this run.
  std::vector<std::string> patterns;
  if (d.allow_always.kind == policy::AllowAlwaysKind::kPatterns) patterns = d.allow_always.patterns;
  if (d.allow_always.kind == policy::AllowAlwaysKind::kExactCommand) {
    patterns.push_back(policy::durable_command_pattern(std::string(js_trim(command_))));
  }
  if (!patterns.empty()) {
    approvals::ApprovalsStore store(config.approvals_paths);
    auto stored = store.update([&](approvals::Document& doc) -> Result<bool> {
      bool changed = false;
      for (const std::string& p : patterns) {
        changed |= approvals::add_allowlist_entry(doc, config.agent_id, {p, std::nullopt, "allow-always"}, epoch_ms(),
                                                  [] { return approvals::random_uuid(); });
      }
      return changed;
    });
    report_bookkeeping_failure("store the allow-always entries", config.approvals_paths.file, stored);
  }
  return out;
}

ApprovalOutcome GatewayApproval::no_answer(const ServiceConfig&, policy::NoAnswer why) {
  if (human_required_) return {false, "", why == policy::NoAnswer::kCancelled ? "approval-cancelled" : "approval-timeout"};
  policy::FallbackOutcome fallback = policy::resolve_ask_fallback(context_->decision, context_->inputs, why);
  if (!fallback.approved) return {false, "", fallback.reason.empty() ? "approval-timeout" : fallback.reason};
  return bound(fallback.command_to_run);
}

std::optional<policy::ReviewInput> GatewayApproval::review_input(const std::vector<std::string>& env_keys) const {
  if (!reviewable_) return std::nullopt;
  const policy::Decision& d = context_->decision;
  const policy::AllowlistEvaluation& e = d.evaluation;
  const policy::SegmentEvaluation& segment = e.segments[0];
  policy::ReviewInput in;
  in.command = command_;
  in.argv = segment.argv;
  in.resolved_path = segment.resolved_path;
  in.cwd = cwd_;
  in.env_keys = env_keys;
  in.host = "gateway";
  const bool allowlist_miss =
      context_->host.host_security == config::ExecSecurity::kAllowlist && (!e.analysis_ok || !e.allowlist_satisfied) && !d.durable;
  // Our analyzer refuses heredocs before planning, so a reviewable command never has one.
  in.reason = std::string(policy::review_reason({d.strict_inline_eval_hit.has_value(), false, !d.enforced_command, allowlist_miss}));
  in.analysis.parsed = e.analysis_ok;
  in.analysis.allowlist_matched = e.allowlist_satisfied;
  in.analysis.durable_approval_matched = d.durable;
  in.analysis.inline_eval = d.strict_inline_eval_hit.has_value();
  in.analysis.heredoc = false;
  in.agent_id = context_->agent_id;
  return in;
}

ApprovalOutcome GatewayApproval::reviewer_allowed() const {
  // Only ever the enforced rendering: what the reviewer judged is exactly what runs.
  if (!reviewable_ || !context_->decision.enforced_command) return {false, "", "approval-binding-changed"};
  return bound(*context_->decision.enforced_command);
}

void GatewayApproval::reviewer_deferred(const std::string& warning) {
  context_->decision.warnings.push_back(warning);
  human_required_ = true;
}

std::string GatewayApproval::agent_id() const { return context_->agent_id; }

json::Object GatewayApproval::request_fields(const std::vector<std::string>& env_keys, bool highlighting) const {
  const policy::Decision& d = context_->decision;
  json::Object out{{"security", config::to_string(context_->host.host_security)},
                   {"ask", config::to_string(context_->host.host_ask)}};
  std::vector<std::string> paths = resolved_paths(d.evaluation);
  if (!paths.empty()) out["resolvedPath"] = paths.front();
  if (std::optional<policy::CommandAnalysisSummary> summary =
          policy::resolve_command_analysis_summary(policy::SummaryHost::kGateway, command_, {})) {
    json::Array kinds, lines;
    for (const std::string& k : summary->risk_kinds) kinds.emplace_back(k);
    for (const std::string& l : summary->warning_lines) lines.emplace_back(l);
    out["commandAnalysis"] = json::Object{{"commandCount", summary->command_count},
                                          {"nestedCommandCount", summary->nested_command_count},
                                          {"riskKinds", std::move(kinds)},
                                          {"warningLines", std::move(lines)}};
  }
  json::Array keys;
  for (const std::string& k : env_keys) keys.emplace_back(k);
  out["envKeys"] = std::move(keys);
  if (highlighting) {
    json::Array spans;
    for (const policy::HighlightSpan& h : policy::command_highlight_spans(d.evaluation.plan.explanation)) {
      spans.push_back(json::Object{{"startIndex", h.start_index}, {"endIndex", h.end_index}});
    }
    if (!spans.empty()) out["commandSpans"] = std::move(spans);
  }
  return out;
}

// What the human reads in their client: the agent's text (command, cwd, and whatever of it the
// reasons and warnings quote) escaped for display.
std::string elicitation_message(const GatewayApproval& a) {
  using term::DisplayStyle;
  std::string text = "Approve this command?\n\n" + term::escape_for_display(a.command()) +
                     "\n\nCWD: " + term::escape_for_display(a.cwd()) + "\nHost: gateway";
  std::vector<std::string> why = a.reasons();
  if (!why.empty()) {
    text += "\nWhy approval is needed:";
    for (const std::string& r : why) text += "\n- " + term::escape_for_display(r, DisplayStyle::kLines);
  }
  for (const std::string& w : a.warnings()) text += "\n" + term::escape_for_display(w, DisplayStyle::kLines);
  text += "\nApproval id: " + a.id() + " (" + a.slug() + ")";
  return text;
}

ElicitForm elicitation_form(const GatewayApproval& a) {
  ElicitForm form{elicitation_message(a), "decision", "Decision",
                  "Run the command once, always allow commands like it, or refuse it", {}};
  for (policy::ApprovalDecision d : a.allowed_decisions()) {
    form.choices.push_back({std::string(policy::to_string(d)), d == policy::ApprovalDecision::kAllowOnce     ? "Allow once"
                                                               : d == policy::ApprovalDecision::kAllowAlways ? "Always allow"
                                                                                                             : "Deny"});
  }
  return form;
}

bool elicitation_cancelled(const json::Object& result) {
  const json::Value* action = json::find(result, "action");
  return action && action->is_string() && action->get_string() == "cancel";
}

std::optional<policy::ApprovalDecision> elicitation_decision(const json::Object& result, const GatewayApproval& a) {
  const json::Value* action = json::find(result, "action");
  if (!action || !action->is_string()) return std::nullopt;
  if (action->get_string() == "decline") return policy::ApprovalDecision::kDeny;
  if (action->get_string() != "accept") return std::nullopt;
  const json::Value* content = json::find(result, "content");
  const json::Value* choice =
      content && content->is_object() ? json::find(content->get_object(), "decision") : nullptr;
  if (!choice || !choice->is_string()) return std::nullopt;
  std::optional<policy::ApprovalDecision> d = policy::approval_decision_from_string(std::string(choice->get_string()));
  if (!d) return std::nullopt;
  const auto& allowed = a.allowed_decisions();
  if (std::find(allowed.begin(), allowed.end(), *d) == allowed.end()) return std::nullopt;
  return d;
}

}  // namespace clawexec::exec
