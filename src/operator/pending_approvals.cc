// Pending approvals through the operator channel: find the hub's socket and token in the
// approvals document, connect, and send one request.

#include "operator/pending_approvals.h"

#include <algorithm>
#include <optional>

#include "approvals/document.h"
#include "json/json.h"

namespace clawexec::operator_ops {

namespace bj = boost::json;
using approvals::OperatorClient;

namespace {

struct Endpoint {
  std::string socket;
  std::string token;
};

std::optional<std::string> string_member(const bj::object& o, std::string_view key) {
  const bj::value* v = json::find(o, key);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return std::string(v->as_string());
}

// The socket path ("~" expanded) and token of the document; the default path when it names none.
Result<Endpoint> socket_endpoint(const OperatorEnv& env) {
  approvals::ApprovalsSnapshot snap = TRY(open_store(env).read_snapshot());
  Endpoint out{env.approvals.socket, ""};
  const bj::value* socket = json::find(snap.file, "socket");
  if (socket != nullptr && socket->is_object()) {
    std::optional<std::string> path = string_member(socket->as_object(), "path");
    if (path && !path->empty()) out.socket = approvals::expand_home_prefix(*path, env.approvals.home);
    out.token = string_member(socket->as_object(), "token").value_or("");
  }
  return out;
}

}  // namespace

Result<std::unique_ptr<OperatorClient>> connect_to_hub(const OperatorEnv& env) {
  Endpoint endpoint = TRY(socket_endpoint(env));
  auto client = OperatorClient::connect(endpoint.socket, endpoint.token);
  if (!client.ok() && client.error().code == ErrorCode::kNotFound) {
    return Error{ErrorCode::kNotFound, 0,
                 "No clawexec server is serving approvals (socket " + endpoint.socket + " not found)."};
  }
  return client;
}

Result<std::vector<bj::object>> list_pending_approvals(const OperatorEnv& env) {
  std::unique_ptr<OperatorClient> client = TRY(connect_to_hub(env));
  return client->list();
}

Result<bj::object> resolve_pending_approval(const OperatorEnv& env, const std::string& id,
                                            const std::string& decision) {
  if (std::find(std::begin(kApprovalDecisions), std::end(kApprovalDecisions), decision) ==
      std::end(kApprovalDecisions)) {
    return Error::invalid("resolve approval " + id + ": unknown decision " + json::serialize(bj::string(decision)) +
                          " (expected allow-once, allow-always or deny)");
  }
  std::unique_ptr<OperatorClient> client = TRY(connect_to_hub(env));
  bj::object reply = TRY(client->resolve(id, decision));
  reply.erase("requestId");
  return reply;
}

Result<std::string> send_operator_text(const OperatorEnv& env, const std::string& text) {
  std::unique_ptr<OperatorClient> client = TRY(connect_to_hub(env));
  return client->command(text);
}

}  // namespace clawexec::operator_ops
