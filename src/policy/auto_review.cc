// The small decisions around an auto-review: why the command is reviewed, what the answer is
// when no model can give one, how long to wait, and the texts shown afterwards.
//
// Problem: each failure of the model call must become a bounded, human-readable ask, worded
// as the reference words it (§8's fallback table), so the approval a human then sees says why.
// Approach: each fallback is "<prefix>: <message>" passed through clean_rationale with the
// prefix as its fallback; only the timeout text is built without clean-up.
//
// We follow the written reference (§8), which the issue makes the contract: the decisions are
// allow | ask, only allow with risk low runs (once), and everything else - a directive
// pre-screen hit (ask/medium), an allow at any other risk - goes to a human. OpenClaw
// 2026.9.6 has since added a "deny" decision (a denied result for the agent) and lets
// medium-risk allows run; we do not. From that version we keep only what makes the reviewer
// stricter: a request JSON over 16000 UTF-16 units is ask/unknown without calling the model,
// duplicate top-level keys are "ambiguous JSON", unknown keys "an unsupported response", and
// an optional "user_authorization" is accepted and shown as authorization=<level>.

#include "policy/auto_review.h"

#include <cmath>

#include "base/utf.h"

namespace clawexec::policy {
namespace {

constexpr int64_t kDefaultReviewerTimeoutMs = 30000;
constexpr int64_t kMinReviewerTimeoutMs = 1000;
constexpr int64_t kMaxTimerTimeoutMs = 2147000000;

ReviewAnswer failure_answer(std::string_view prefix, std::string_view message) {
  std::string text(prefix);
  text.append(": ").append(message);
  return {ReviewDecision::kAsk, ReviewLevel::kUnknown, clean_rationale(text, prefix), std::nullopt};
}

}  // namespace

std::string_view review_decision_name(ReviewDecision decision) {
  switch (decision) {
    case ReviewDecision::kAllowOnce:
      return "allow-once";
    case ReviewDecision::kAsk:
      return "ask";
  }
  return "ask";
}

std::string_view review_level_name(ReviewLevel level) {
  switch (level) {
    case ReviewLevel::kLow:
      return "low";
    case ReviewLevel::kMedium:
      return "medium";
    case ReviewLevel::kHigh:
      return "high";
    case ReviewLevel::kUnknown:
      return "unknown";
  }
  return "unknown";
}

bool review_allows_run(const ReviewAnswer& answer) {
  return answer.decision == ReviewDecision::kAllowOnce && answer.risk == ReviewLevel::kLow;
}

std::string_view review_reason(const ReviewReasonFacts& facts) {
  if (facts.strict_inline_eval) return "strict-inline-eval";
  if (facts.heredoc) return "heredoc";
  if (facts.plan_miss) return "execution-plan-miss";
  if (facts.allowlist_miss) return "allowlist-miss";
  return "approval-required";
}

ReviewAnswer default_reviewer_answer(const ReviewInput& input) {
  return {ReviewDecision::kAsk, input.analysis.inline_eval ? ReviewLevel::kMedium : ReviewLevel::kUnknown,
          "no model-backed exec reviewer is configured for " + input.host, std::nullopt};
}

ReviewAnswer reviewer_model_unavailable(std::string_view error) {
  return failure_answer("exec reviewer model unavailable", error);
}

ReviewAnswer reviewer_failed(std::string_view error) { return failure_answer("exec reviewer failed", error); }

ReviewAnswer reviewer_timed_out(int64_t timeout_ms) {
  return {ReviewDecision::kAsk, ReviewLevel::kUnknown,
          "exec reviewer timed out after " + std::to_string(timeout_ms) + "ms", std::nullopt};
}

std::optional<ReviewAnswer> reviewer_completion_failure(const std::optional<std::string>& stop_reason,
                                                        const std::optional<std::string>& error_message) {
  if (stop_reason == "stop") return std::nullopt;
  std::string message;
  if (stop_reason == "error") {
    const bool blank = !error_message || js_trim(*error_message).empty();
    message = blank ? "model returned an error" : *error_message;
  } else {
    message = "model stopped without a complete response (" + stop_reason.value_or("unknown") + ")";
  }
  return failure_answer("exec reviewer completion failed", message);
}

int64_t clamp_reviewer_timeout_ms(std::optional<double> configured) {
  double value = configured && std::isfinite(*configured) ? std::floor(*configured)
                                                          : static_cast<double>(kDefaultReviewerTimeoutMs);
  if (value < static_cast<double>(kMinReviewerTimeoutMs)) return kMinReviewerTimeoutMs;
  if (value > static_cast<double>(kMaxTimerTimeoutMs)) return kMaxTimerTimeoutMs;
  return static_cast<int64_t>(value);
}

// The model never sees the conversation, so a "user_authorization" it gives is a guess the
// command text can steer: it is parsed (the schema allows it) but never shown as a finding.
std::string review_assessment(const ReviewAnswer& answer) {
  std::string text = "risk=";
  text.append(review_level_name(answer.risk));
  return text;
}

std::string review_allowed_warning(const ReviewAnswer& answer) {
  return "Exec auto-review allowed once (" + review_assessment(answer) + "): " + answer.rationale;
}

std::string review_deferred_warning(const ReviewAnswer& answer) {
  return "Exec auto-review deferred to human approval (" + review_assessment(answer) + "): " + answer.rationale;
}

}  // namespace clawexec::policy
