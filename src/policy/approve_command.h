#pragma once
// The `/approve` text command (approvals reference §7.7): parsing, resolution through the
// caller's resolvers, and the exact reply texts. Authorization (who may approve) is the
// caller's business and happens before handle_approve_command().

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "policy/modes.h"

namespace clawexec::policy {

/// A well-formed `/approve`: the id (or id prefix / slug) as typed, and the decision.
struct ApproveRequest {
  std::string id;
  ApprovalDecision decision = ApprovalDecision::kDeny;
};

enum class ApproveParseKind {
  kNotApprove,  // the text is not an /approve command at all
  kReply,       // malformed: answer with `reply` and do nothing else
  kRequest,     // well-formed: `request` is set
};

struct ApproveParse {
  ApproveParseKind kind = ApproveParseKind::kNotApprove;
  std::string reply;
  ApproveRequest request;
};

inline constexpr std::string_view kApproveUsageText =
    "Usage: /approve <id> <decision> (see the pending approval message for available decisions)";
inline constexpr std::string_view kApproveForeignBotText = "❌ This /approve command targets a different Telegram bot.";

/// Parses trimmed text: "/approve@<bot> ..." -> the foreign-bot reply; ^/?approve(\s|$)
/// (case-insensitive) or not an /approve; fewer than two arguments -> usage; a decision alias
/// first (`/approve <decision> <id...>`, the rest joined by one space is the id) wins over
/// `/approve <id> <decision>`; neither -> usage. Aliases: allow|once|allow-once|allowonce,
/// always|allow-always|allowalways, deny|reject|block (case-insensitive).
ApproveParse parse_approve_command(std::string_view text);

/// A decision alias, or nullopt.
std::optional<ApprovalDecision> approve_decision_alias(std::string_view token);

/// "✅ Approval <decision> submitted for <id>."
std::string approve_success_reply(ApprovalDecision decision, std::string_view id);
/// "❌ Failed to submit approval: <error>"
std::string approve_failure_reply(std::string_view error);

/// True when an error means "no such approval here": code kNotFound, or a message containing
/// "unknown or expired approval id" / "approval expired or not found" (case-insensitive, as
/// whole words). Only such errors fall through to the next resolver.
bool is_approval_not_found_error(const Error& error);

/// One approval kind's resolver (exec approvals first, then any other kind).
using ApprovalResolver = std::function<Result<void>(const ApproveRequest&)>;

/// The reply to a text, or nullopt when the text is not an /approve command. A well-formed
/// command is offered to the resolvers in order until one succeeds; a not-found error moves on
/// to the next resolver, any other error (or the last resolver's not-found) is the failure
/// reply. With no resolvers the reply is the not-found failure.
std::optional<std::string> handle_approve_command(std::string_view text, const std::vector<ApprovalResolver>& resolvers);

}  // namespace clawexec::policy
