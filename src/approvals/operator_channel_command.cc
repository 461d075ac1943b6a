// Operator text commands on the channel ({"type":"command","text":...}). `/approve` is parsed
// by policy::parse_approve_command and resolved like a "resolve" request (exact id or unique
// prefix across every process; an ambiguous prefix is refused); the reply carries the
// reference's reply text. Any other text goes to the local provider's optional command
// handler (e.g. `/exec`), and is refused when nobody claims it.

#include "approvals/operator_channel_internal.h"
#include "json/json.h"
#include "policy/approve_command.h"

namespace clawexec::approvals {

namespace bj = boost::json;

void OperatorChannel::Impl::handle_command(const std::shared_ptr<JsonConnection>& conn, const bj::object& request) {
  const bj::value* text_value = json::find(request, "text");
  const std::string text = text_value && text_value->is_string() ? std::string(text_value->as_string()) : "";
  auto reply = [conn, request](const std::string& text_out) {
    bj::object message{{"type", "reply"}, {"text", text_out}};
    if (const bj::value* rid = json::find(request, "requestId")) message["requestId"] = *rid;
    conn->send(message);
  };
  policy::ApproveParse parsed = policy::parse_approve_command(text);
  if (parsed.kind == policy::ApproveParseKind::kReply) return reply(parsed.reply);
  if (parsed.kind == policy::ApproveParseKind::kRequest) {
    const policy::ApproveRequest approve = parsed.request;
    const bj::value* by = json::find(request, "resolvedBy");
    const std::string resolved_by = by && by->is_string() ? std::string(by->as_string()) : "operator";
    resolve(approve.id, std::string(policy::to_string(approve.decision)), resolved_by,
            [reply, approve](Result<std::string> result) {
              if (result.ok()) reply(policy::approve_success_reply(approve.decision, approve.id));
              else reply(policy::approve_failure_reply(result.error().message));
            });
    return;
  }
  if (provider.command) {
    if (std::optional<std::string> answer = provider.command(text)) return reply(*answer);
  }
  bj::object error{{"type", "error"}, {"error", "unsupported command: only /approve is accepted here"}};
  if (const bj::value* rid = json::find(request, "requestId")) error["requestId"] = *rid;
  conn->send(error);
}

}  // namespace clawexec::approvals
