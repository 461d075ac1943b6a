#pragma once
// What the two halves of the operator protocol (operator_ws.cc: frames, handshake, approvals;
// operator_devices.cc: device proofs, pairing, device methods) share: one connection's state
// and the frame helpers. Internal to the gateway module.

#include <boost/asio/steady_timer.hpp>
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gateway/node_pairing.h"
#include "gateway/operator_ws.h"
#include "gateway/scopes.h"
#include "json/json.h"

namespace clawexec::gateway {

struct OperatorHub::Connection {
  uint64_t id = 0;
  std::string conn_id;
  std::shared_ptr<net::WebSocket> socket;
  std::string nonce;
  int64_t challenge_ts = 0;
  bool authenticated = false;
  bool loopback = false;
  bool has_origin = false;    // the upgrade carried an Origin header (a browser)
  std::string peer_address;
  std::string role = "operator";
  std::string client_id;
  std::string client_mode;
  std::string auth_method;    // token | password | device-token
  std::string device_id;      // "" = no device identity
  bool device_token_auth = false;
  std::vector<std::string> scopes;
  std::vector<std::string> caps;
  // Set by admit_device for hello-ok.
  std::string issued_device_token;
  int64_t issued_at_ms = 0;
  std::unique_ptr<boost::asio::steady_timer> handshake_timer;
  // clawexec.sessions.follow subscriptions: output already sent, by (agent, session id).
  struct Follow {
    std::string agent;
    std::string session_id;
    uint64_t sent_chars = 0;
  };
  std::vector<Follow> follows;
  // Role node (operator_nodes.cc): what it declared, which of its commands are approved.
  NodeSurface node;
  std::vector<std::string> node_allowed;
  std::string path_env;
  json::Object host_stats;
  int64_t connected_at_ms = 0;

  void send(std::string text) { socket->send(std::move(text)); }
  bool holds(std::string_view scope) const { return role == "operator" && scope_satisfied("operator", scope, scopes); }
  bool admin() const { return holds("operator.admin"); }
  bool approval_client() const { return holds("operator.approvals"); }
  /// OpenClaw's canDeliverApprovals for exec: operator.admin or operator.approvals granted
  /// literally, and a client that shows approvals (the Control UI, an app, or cap approvals /
  /// exec-approvals). Only such clients count as a route for an exec.approval.request.
  bool delivers_approvals() const {
    auto has = [](const std::vector<std::string>& v, std::string_view s) { return std::find(v.begin(), v.end(), s) != v.end(); };
    if (role != "operator" || !(has(scopes, "operator.admin") || has(scopes, "operator.approvals"))) return false;
    return client_id == "openclaw-control-ui" || client_id == "openclaw-macos" || client_id == "openclaw-ios" ||
           client_id == "openclaw-android" || has(caps, "approvals") || has(caps, "exec-approvals");
  }
};

/// An approval asked for over the WebSocket (exec.approval.request), until it is settled and
/// then for a grace period in which waitDecision still answers.
struct OperatorHub::ExternalApproval {
  std::string id;
  json::Object request;  // OpenClaw's request shape, display texts escaped
  std::vector<std::string> allowed;
  int64_t created_at_ms = 0;
  int64_t expires_at_ms = 0;
  uint64_t requester = 0;  // connection id
  std::string requester_device;
  bool settled = false;
  std::optional<std::string> decision;  // nullopt: expired without one
  std::string terminal_reason;          // user | timeout | no-route
  std::vector<std::function<void(const ExternalApproval&)>> on_settled;
  std::unique_ptr<boost::asio::steady_timer> timer;
};

/// An approved host=node run an operator may now send with `node.invoke system.run`
/// (approved, runId = the approval id): the node and the plan the human was shown. Used once.
struct OperatorHub::NodeRunGrant {
  std::string node_id;
  json::Object plan;
  std::vector<std::string> env_keys;  // the env override names the approver was shown, sorted
  std::string decision;
  int64_t expires_at_ms = 0;
  bool used = false;
};

/// A node.invoke waiting for the node's node.invoke.result.
struct OperatorHub::PendingInvoke {
  std::string id;
  std::string node_id;
  std::string command;
  uint64_t operator_conn = 0;  // the operator connection whose node.invoke this is (0: our own)
  std::function<void(exec::NodeInvokeResult)> done;
  std::unique_ptr<boost::asio::steady_timer> timer;
};

namespace frames {

std::string str(const json::Object& o, std::string_view key);
const json::Object* obj(const json::Object& o, std::string_view key);
std::optional<int64_t> int_member(const json::Object& o, std::string_view key);
/// The strings of an array member; nullopt when the member is absent; an error text when it is
/// present but not an array of strings.
std::optional<std::vector<std::string>> string_list(const json::Object& o, std::string_view key, std::string* error);
json::Array to_array(const std::vector<std::string>& items);
std::string res_ok(const std::string& id, json::Value payload);
std::string res_error(const std::string& id, std::string_view code, const std::string& message,
                      std::optional<json::Object> details = std::nullopt);
/// A refusal the client may retry after `retry_after_ms` (code UNAVAILABLE, retryable).
std::string res_error_retry(const std::string& id, const std::string& message, json::Object details, int64_t retry_after_ms);
std::string event(const std::string& name, const json::Value& payload, std::optional<int64_t> seq = std::nullopt);

}  // namespace frames

// The operator files use these unqualified.
using frames::int_member;
using frames::obj;
using frames::res_error;
using frames::res_ok;
using frames::str;

}  // namespace clawexec::gateway
