#pragma once
// A gateway command that needs a human (reference spec §7.1 steps 6-7, §7.5): what is asked
// (command, cwd, why, the decisions offered) and what each answer does. The command is bound
// to what the human saw: before it runs, its executables are resolved again and must still be
// the same files (same real path; same content when the file is writable by us), otherwise the
// run is denied instead of executed.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "approvals/pending.h"
#include "base/result.h"
#include "exec/elicit_form.h"
#include "json/json.h"
#include "policy/approval_text.h"
#include "policy/auto_review.h"
#include "policy/decide.h"
#include "policy/modes.h"

namespace clawexec::exec {

struct ServiceConfig;
struct GatewayContext;

/// What the approved command turns into.
struct ApprovalOutcome {
  bool approved = false;
  std::string command;  // what to run (approved)
  std::string reason;     // why not (denied): user-denied, approval-timeout, ...
  bool rendered = false;  // `command` is the policy's canonical rendering, not the call's text
};

/// §7.1 step 6's binding: the decision's command is one executable (not a shell builtin, an
/// interpreter or a shell) with a resolved path and an enforced rendering.
bool reviewer_can_bind(const policy::Decision& decision);
/// mode auto is in effect for `context`, its decided command is no audit-suppression edit, and
/// it binds for the reviewer: a request for it goes to the reviewer before any human.
bool auto_reviewable(const GatewayContext& context);

class GatewayApproval {
 public:
  GatewayApproval(std::shared_ptr<GatewayContext> context, std::string command, std::string cwd, std::string path_env);
  ~GatewayApproval();

  const std::string& id() const { return id_; }
  std::string slug() const { return id_.substr(0, 8); }
  const std::string& command() const { return command_; }
  const std::string& cwd() const { return cwd_; }
  const std::vector<policy::ApprovalDecision>& allowed_decisions() const { return allowed_; }
  bool allow_always_offered() const;
  const std::vector<std::string>& warnings() const;
  /// Why a human is needed, one short phrase per reason.
  std::vector<std::string> reasons() const;
  std::string agent_id() const;
  /// The stored request's analysis fields (§7.2): security, ask, resolvedPath,
  /// commandAnalysis {commandCount, nestedCommandCount, riskKinds, warningLines}, envKeys and,
  /// with commandHighlighting, commandSpans.
  json::Object request_fields(const std::vector<std::string>& env_keys, bool highlighting) const;

  /// A human's answer. allow-always also stores the allowlist entries the reference derives
  /// (§4.6). Checks the binding first.
  ApprovalOutcome decide(policy::ApprovalDecision decision, const ServiceConfig& config);
  /// Nobody answered (timeout, dismissed prompt, no approval route): the ask fallback (§7.5).
  /// A dismissed prompt (kCancelled) is denied as "approval-cancelled…", not as a timeout.
  /// Never approves when a human is required (human_required()).
  ApprovalOutcome no_answer(const ServiceConfig& config, policy::NoAnswer why = policy::NoAnswer::kTimedOut);

  /// The request goes to the auto-reviewer first (auto_reviewable at creation).
  bool reviewable() const { return reviewable_; }
  /// §7.1 step 6: the auto-reviewer's input when this request goes to it first (mode auto,
  /// ask not always, no audit-suppression edit, and the command binds to one executable with
  /// an enforced rendering and a resolved trust path); nullopt when it does not.
  std::optional<policy::ReviewInput> review_input(const std::vector<std::string>& env_keys) const;
  /// The reviewer allowed it once: the enforced command, bound as for a human's allow-once.
  ApprovalOutcome reviewer_allowed() const;
  /// The reviewer deferred: its warning joins what the human is shown, and only a human can
  /// approve from now on.
  void reviewer_deferred(const std::string& warning);
  /// No timeout or dismissal fallback may approve this request: auto review was on but the
  /// command could not be bound for it, or the reviewer deferred (autoReviewRequiresHumanApproval).
  bool human_required() const { return human_required_; }

 private:
  ApprovalOutcome bound(std::string command) const;

  std::shared_ptr<GatewayContext> context_;
  std::string id_;
  std::string command_;
  std::string cwd_;
  std::string path_env_;
  std::vector<policy::ApprovalDecision> allowed_;
  struct Binding {
    std::string path;       // the resolved real path at request time
    std::string sha256;     // its content hash when writable by us, else empty
  };
  std::vector<Binding> binding_;
  bool reviewable_ = false;
  bool human_required_ = false;
};

/// §1.5 (f): a denied approval is a failed tool result (not a thrown error).
struct Reply;
Reply denied_reply(const GatewayApproval& approval, const std::string& reason);

/// The approval-pending tool result (§7.3), gateway or node: the text from what the human is
/// shown (command, cwd and warnings escaped for display), the details exact.
Reply approval_pending_reply(const policy::ApprovalPendingInputs& exact);

/// A pending approval as the operator channel shows it: the stored request plus id, slug,
/// decisions, times and the owning process.
json::Object pending_approval_json(const approvals::PendingApproval& p);

/// The text and the form of the elicitation/create request for `approval`.
std::string elicitation_message(const GatewayApproval& approval);
ElicitForm elicitation_form(const GatewayApproval& approval);

/// Interprets an elicitation result: a decision, or nullopt for "no answer" (cancel, or an
/// accept without a usable choice). `decline` is a denial.
std::optional<policy::ApprovalDecision> elicitation_decision(const json::Object& result, const GatewayApproval& approval);
/// The elicitation result is the client's `cancel` (the prompt was dismissed, or the client
/// answered for its user without asking: see ExecService::ask_then_launch).
bool elicitation_cancelled(const json::Object& result);

}  // namespace clawexec::exec
