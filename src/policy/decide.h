#pragma once
// The gateway-host decision (reference spec §7.1 steps 2–5, §7.5): given the effective host
// policy and everything the evaluation needs, decide whether a command runs as is, runs in its
// canonical rendering (render.h), needs a human, or is refused - and, when it needs a human but none can
// be asked, what the ask fallback decides.

#include <optional>
#include <string>
#include <vector>

#include "config/exec_settings.h"
#include "policy/evaluate.h"
#include "policy/render.h"

namespace clawexec::policy {

using config::ExecAsk;
using config::ExecSecurity;

struct DecisionInputs {
  std::string command;
  ExecSecurity security = ExecSecurity::kFull;  // host security after the approvals floor
  ExecAsk ask = ExecAsk::kOff;                  // host ask after the approvals floor
  ExecSecurity ask_fallback = ExecSecurity::kDeny;  // already clamped by security
  bool strict_inline_eval = false;
  EvaluationContext evaluation;
};

enum class Verdict { kAllow, kAsk, kDeny };
std::string_view to_string(Verdict verdict);

enum class AllowAlwaysKind { kPatterns, kExactCommand, kOneShot };

struct AllowAlwaysDecision {
  AllowAlwaysKind kind = AllowAlwaysKind::kOneShot;
  std::vector<std::string> patterns;  // kPatterns: trust paths to store
  bool complete = false;              // every non-wrapper segment yielded a pattern
  std::vector<std::string> reasons;   // kOneShot
};

struct Decision {
  Verdict verdict = Verdict::kDeny;
  AllowlistEvaluation evaluation;
  bool durable = false;
  std::optional<InlineEvalHit> strict_inline_eval_hit;
  std::optional<std::string> enforced_command;  // the canonical rendering, when it exists
  std::string enforced_unavailable_reason;
  std::string command_to_run;  // kAllow: enforced under allowlist, else the original
  std::string deny_message;    // kDeny: the text of the thrown error
  std::vector<std::string> warnings;
  std::vector<std::string> reasons;  // why a human is needed / why refused
  AllowAlwaysDecision allow_always;
  bool security_audit_suppression = false;
};

/// Decides for the gateway host. Pure.
Decision decide_gateway(const DecisionInputs& inputs);

/// What happens to a decision of kAsk when no human can answer (the approval timed out, the
/// human dismissed the prompt, or no approval route exists): §7.5 with a null decision.
/// Returns the command to run, or the denial reason ("approval-timeout", "approval-timeout:
/// allowlist-miss", ...; with NoAnswer::kCancelled "approval-cancelled", "approval-cancelled:
/// allowlist-miss", ...: nothing timed out, so the reason must not say so).
struct FallbackOutcome {
  bool approved = false;
  std::string command_to_run;
  std::string reason;
};
enum class NoAnswer { kTimedOut, kCancelled };
FallbackOutcome resolve_ask_fallback(const Decision& decision, const DecisionInputs& inputs,
                                     NoAnswer why = NoAnswer::kTimedOut);

/// §4.6: whether an allow-always grant may be stored, and which patterns.
AllowAlwaysDecision resolve_allow_always(const AllowlistEvaluation& evaluation, bool runtime_payload,
                                         const EvaluationContext& context, bool strict_inline_eval);

}  // namespace clawexec::policy
