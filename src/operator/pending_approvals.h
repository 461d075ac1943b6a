#pragma once
// Pending approvals as an operator handles them: through the approvals hub (the `clawexec
// serve` process that serves the operator channel, approvals/operator_channel.h) named by the
// approvals document's socket.path and socket.token (default path <state>/exec-approvals.sock).
// Each call connects with the blocking approvals::OperatorClient.

#include <boost/json/object.hpp>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "approvals/operator_client.h"
#include "base/result.h"
#include "operator/operator_env.h"

namespace clawexec::operator_ops {

/// The decisions an operator may give.
inline constexpr std::string_view kApprovalDecisions[] = {"allow-once", "allow-always", "deny"};

/// Connects to the hub. Errors: the approvals file unreadable or invalid; kNotFound when no hub
/// serves the socket, with the complete sentence "No clawexec server is serving approvals
/// (socket <path> not found)."; kPermissionDenied for a refused token; kIo / kTimedOut.
Result<std::unique_ptr<approvals::OperatorClient>> connect_to_hub(const OperatorEnv& env);

/// The approvals waiting for a decision, oldest first (id, slug, command, cwd, host, agentId,
/// pid, allowedDecisions, createdAtMs, expiresAtMs, warningText), exactly as the hub sends them.
Result<std::vector<boost::json::object>> list_pending_approvals(const OperatorEnv& env);

/// Answers the approval with this id, slug or unique id prefix. The hub's reply without its
/// requestId: {type, ok, id?, error?}; a refused answer ("unknown or expired approval id") is
/// ok=false, not an Error. Errors: a decision not in kApprovalDecisions (kInvalidArgument),
/// those of connect_to_hub, the connection failing.
Result<boost::json::object> resolve_pending_approval(const OperatorEnv& env, const std::string& id,
                                                     const std::string& decision);

/// Sends operator text (`/approve <id> <decision>`, `/exec ...`) as a chat operator would type
/// it; returns the reply text (a reply starting with "\u274c" reports a failure).
Result<std::string> send_operator_text(const OperatorEnv& env, const std::string& text);

}  // namespace clawexec::operator_ops
