#pragma once
// The pure part of the exec auto-reviewer (`mode: "auto"`, approvals reference §8): a model
// reviews one pending command that missed the allowlist and answers allow / deny / ask.
// Everything here is deterministic text work; the caller owns the model call, the clock and
// the approval flow:
//   0. with no reviewer model configured at all, default_reviewer_answer(input) and stop;
//   1. prescreen(input): a request that is too large or carries reviewer-directed text is
//      answered without asking any model;
//   2. build_review_prompt(input): the system prompt and the user message to send;
//   3. parse_review_output(text) for a complete answer, or one of the reviewer_* fallbacks
//      when the model is unavailable, stopped early, timed out or threw.
// Only allow-once with risk low may run the command, and only once; every other answer goes
// to a human with its risk and rationale.
//
// Behaviour follows the written reference (§8); where OpenClaw 2026.9.6 has since diverged
// (deny decisions, medium-risk allows), see auto_review.cc.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clawexec::policy {

/// The facts the reviewer is shown about the policy analysis. Optional members that are
/// nullopt are left out of the JSON (OpenClaw's gateway sends parsed, allowlistMatched,
/// durableApprovalMatched, inlineEval, heredoc; its node path leaves out heredoc).
struct ReviewAnalysis {
  bool parsed = false;
  bool allowlist_matched = false;
  std::optional<bool> safe_bin_matched;
  std::optional<bool> durable_approval_matched;
  bool inline_eval = false;
  std::optional<bool> heredoc;
  std::optional<bool> shell_wrapper;
};

/// One pending exec request. Optional members that are nullopt are left out of the JSON.
struct ReviewInput {
  std::string command;
  std::optional<std::vector<std::string>> argv;
  std::optional<std::string> resolved_path;
  std::optional<std::string> cwd;
  std::optional<std::vector<std::string>> env_keys;  // sorted by the caller
  std::string host;                                  // "gateway" or "node"
  std::string reason;                                // review_reason()
  ReviewAnalysis analysis;
  std::string agent_id;     // never shown to the model
  std::string session_key;  // never shown to the model
};

enum class ReviewDecision { kAllowOnce, kAsk };
/// Risk and user_authorization share one scale.
enum class ReviewLevel { kLow, kMedium, kHigh, kUnknown };

struct ReviewAnswer {
  ReviewDecision decision = ReviewDecision::kAsk;
  ReviewLevel risk = ReviewLevel::kUnknown;
  std::string rationale;
  std::optional<ReviewLevel> user_authorization;  // only from a parsed model answer

  bool operator==(const ReviewAnswer&) const = default;
};

/// "allow-once", "ask".
std::string_view review_decision_name(ReviewDecision decision);
/// "low", "medium", "high", "unknown".
std::string_view review_level_name(ReviewLevel level);
/// True for allow-once with risk low: the only answer that runs the command.
bool review_allows_run(const ReviewAnswer& answer);

/// What made the command need a review. OpenClaw computes allowlist_miss as
/// security == allowlist && (!parsed || !allowlistMatched) && !durableApprovalMatched;
/// the node path never reports heredoc or plan_miss.
struct ReviewReasonFacts {
  bool strict_inline_eval = false;
  bool heredoc = false;
  bool plan_miss = false;  // the gateway found no enforceable command to bind
  bool allowlist_miss = false;
};
/// "strict-inline-eval", "heredoc", "execution-plan-miss", "allowlist-miss" or
/// "approval-required", the first that applies.
std::string_view review_reason(const ReviewReasonFacts& facts);

/// True when the text, after NFKC, lower-casing and turning control, format, punctuation and
/// symbol characters into spaces, reads like an instruction to the reviewer.
bool looks_like_reviewer_directive(std::string_view text);

/// The answer given without a model: ask/unknown when the request JSON exceeds 16000 UTF-16
/// units, ask/medium when the command, an argv word, the resolved path, the cwd or an env key
/// looks like a reviewer directive; nullopt when the model should be asked.
std::optional<ReviewAnswer> prescreen(const ReviewInput& input);

/// The request as the model sees it: JSON.stringify({command, argv, resolvedPath, cwd,
/// envKeys, host, reason, analysis}, null, 2).
std::string review_request_json(const ReviewInput& input);

/// The reference's maxTokens for the review (an answer is one short JSON object).
inline constexpr int kReviewerMaxTokens = 360;

struct ReviewPrompt {
  std::string system;
  std::string user;
  int max_tokens = kReviewerMaxTokens;
  double temperature = 0;
};
/// The system prompt and the user message for the request (§8: the request as untrusted JSON
/// between markers; no conversation transcript).
ReviewPrompt build_review_prompt(const ReviewInput& input);
/// The system prompt on its own.
std::string_view reviewer_system_prompt();

/// 360, lowered to the model's advertised output limit (floored, at least 1) when that is a
/// positive finite number.
int reviewer_max_tokens(std::optional<double> model_max_tokens);

/// The model's text (its text blocks joined, trimmed or not) turned into an answer; anything
/// but a well-formed {decision, risk, rationale?, user_authorization?} object is ask/unknown.
ReviewAnswer parse_review_output(std::string_view model_text);

/// Rationale clean-up for human-facing text: trimmed, ANSI escapes stripped, TAB/LF/CR shown
/// as \t \n \r, other control and format characters and U+2028/U+2029 removed, white space
/// collapsed, at most 500 UTF-16 units without splitting a surrogate pair; `fallback` when
/// nothing is left.
std::string clean_rationale(std::string_view text, std::string_view fallback);

/// No reviewer model configured: ask, "no model-backed exec reviewer is configured for
/// <host>", risk medium for inline eval, else unknown.
ReviewAnswer default_reviewer_answer(const ReviewInput& input);

/// Fallbacks, all ask/unknown. `error` is the error's message as OpenClaw's formatErrorMessage
/// would print it (the caller redacts secrets from it).
ReviewAnswer reviewer_model_unavailable(std::string_view error);
ReviewAnswer reviewer_failed(std::string_view error);
ReviewAnswer reviewer_timed_out(int64_t timeout_ms);
/// A finished completion: nullopt when stop_reason is "stop" (parse the text), else
/// "exec reviewer completion failed: <error_message>" for "error" (or "model returned an
/// error" when the message is blank) and "... model stopped without a complete response
/// (<stop_reason or unknown>)" for anything else.
std::optional<ReviewAnswer> reviewer_completion_failure(const std::optional<std::string>& stop_reason,
                                                        const std::optional<std::string>& error_message);

/// tools.exec.reviewer.timeoutMs: floored and clamped to [1000, 2147000000]; default 30000
/// when absent or not finite. Applied separately to model preparation and to completion.
int64_t clamp_reviewer_timeout_ms(std::optional<double> configured);

// Texts the exec pipeline shows around a review.
/// "risk=<risk>" (a user_authorization the model gave is not shown: it saw no conversation).
std::string review_assessment(const ReviewAnswer& answer);
/// "Exec auto-review allowed once (<assessment>): <rationale>"
std::string review_allowed_warning(const ReviewAnswer& answer);
/// "Exec auto-review deferred to human approval (<assessment>): <rationale>"
std::string review_deferred_warning(const ReviewAnswer& answer);
}  // namespace clawexec::policy
