#pragma once
// OpenClaw's gateway WebSocket protocol (v4) for operators, at the gateway's `/`: frames
// `req`/`res`/`event`, the `connect.challenge` → `connect` → `hello-ok` handshake with the
// shared secret, scopes and OpenClaw's method policy, `tick` events, and the methods an
// operator needs for exec approvals (`exec.approval.list/get/resolve`, events
// `exec.approval.requested/resolved`) plus `health` and `status`. What it serves comes from an
// ApprovalSource (the gateway's exec services), so this file knows the protocol only.
//
// Limits as the reference: 64 KiB frames before hello (close 1009), `policy.maxPayload` after;
// a client that has not sent `connect` within the handshake timeout is closed (1008); a frame
// that is not a JSON object or names no method is an INVALID_REQUEST, a bad handshake closes
// with 1008 (`invalid-handshake`) or 1002 (`protocol mismatch`).
//
// Devices (operator_devices.cc): a connect may carry an Ed25519 device proof; an unknown
// device, or one asking for a role or scopes beyond its approval, gets a pending pairing request
// (approved silently for loopback peers when gateway.nodes.pairing.autoApproveLocal allows, as
// OpenClaw does) and NOT_PAIRED; an approved device gets a device token in hello-ok and may
// reconnect with it alone. Device-less operators are accepted only from loopback.
//
// Nodes (operator_nodes.cc): a node-role connection is a paired node device; its declared
// command surface needs a second approval (node_pairing.h, `node.pair.*`). The hub keeps the
// registry of connected nodes (`node.list`/`node.describe`), forwards `node.invoke` as
// `node.invoke.request` events with deadlines, matches `node.invoke.result` to its caller
// (only from the node it was sent to), relays `exec.approvals.node.get/set`, and is the exec
// pipeline's exec::NodeInvoker for exec host=node.

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "exec/node_invoker.h"
#include "exec/service.h"
#include "gateway/auth.h"
#include "gateway/device_pairing.h"
#include "gateway/node_pairing.h"
#include "json/json.h"
#include "net/http_server.h"
#include "operator/operator_env.h"

namespace clawexec::gateway {

inline constexpr int kProtocolVersion = 4;
inline constexpr size_t kPreauthMaxPayload = 64 * 1024;
inline constexpr size_t kMaxPayload = 26214400;
inline constexpr size_t kMaxBufferedBytes = 52428800;

/// Where the operator side gets and resolves approvals.
struct ApprovalSource {
  /// Pending approvals (the operator channel's shape: id, command, cwd, host, agentId, ...).
  std::function<std::vector<json::Object>()> list;
  std::function<void(std::string id, std::string decision, std::string resolved_by, std::function<void(Result<void>)> done)>
      resolve;
  /// `health` / `status` payload extras (sessions, uptime, ...).
  std::function<json::Object()> status;
};

struct OperatorOptions {
  GatewayCredential credential;
  DevicePairing* devices = nullptr;  // paired devices; required
  NodePairing* nodes = nullptr;      // approved node command surfaces; required
  AuthLimiter* limiter = nullptr;    // failed connects count here (the front door's limiter)
  bool auto_approve_local = true;    // gateway.nodes.pairing.autoApproveLocal
  /// The config and approvals files `exec.approvals.*` and `config.*` read and write.
  operator_ops::OperatorEnv files;
  /// Called after config.patch changed the config file (the gateway reloads).
  std::function<void()> config_changed;
  /// The exec services whose sessions `clawexec.sessions.*` show and act on, by agent id.
  std::function<std::vector<std::pair<std::string, exec::ExecService*>>()> services;
  /// The exec service of an agent, made on first use as for an MCP session
  /// (`clawexec.policy.explain`); the gateway's default agent when none is named.
  std::function<Result<exec::ExecService*>(const std::string& agent)> service_for;
  std::string default_agent = "main";
  /// How often followed sessions are checked for new output.
  int64_t follow_interval_ms = 200;
  std::string version;
  int64_t tick_interval_ms = 30000;
  int64_t handshake_timeout_ms = 15000;
};

class OperatorHub : public exec::NodeInvoker {
 public:
  OperatorHub(boost::asio::io_context& io, OperatorOptions options, ApprovalSource source);
  ~OperatorHub() override;
  OperatorHub(const OperatorHub&) = delete;
  OperatorHub& operator=(const OperatorHub&) = delete;

  /// A WebSocket accepted at `/` (the front door's Host/Origin checks passed).
  void accept(const net::HttpRequest& request, std::shared_ptr<net::WebSocket> socket);
  /// An approval of ours was requested or settled: tell every connection that may see it.
  void approval_requested(const json::Object& approval);
  void approval_resolved(const std::string& id, const std::string& decision, const std::string& resolved_by);
  void set_credential(GatewayCredential credential) { options_.credential = std::move(credential); }
  void set_auto_approve_local(bool on) { options_.auto_approve_local = on; }
  void set_limiter(AuthLimiter* limiter) { options_.limiter = limiter; }
  void close_all();
  size_t connection_count() const { return connections_.size(); }
  /// A connected client shows approvals (OpenClaw's canDeliverApprovals for exec).
  bool has_approval_client() const;
  /// exec::NodeInvoker: paired and connected nodes; an invoke of a connected node's approved
  /// command.
  std::vector<exec::NodeSummary> nodes() const;
  void list_nodes(std::function<void(Result<std::vector<exec::NodeSummary>>)> done) override { done(nodes()); }
  std::string invoke(const std::string& node_id, const std::string& command, json::Object params, int64_t timeout_ms,
                     std::function<void(exec::NodeInvokeResult)> done) override;
  void cancel(const std::string& token) override;
  /// Streamed sessions: a node's clawexec.exec.output / .exit events go to the watcher of
  /// their streamId (only from the node it was started on); its link going down or coming
  /// back is told to every watcher of that node.
  bool streams_supported() const override { return true; }
  void watch_stream(const std::string& node_id, const std::string& stream_id, exec::NodeStreamHandler handler) override;
  void unwatch_stream(const std::string& stream_id) override;
  /// The methods hello-ok lists (exactly what we implement).
  static const std::vector<std::string>& methods();
  static const std::vector<std::string>& events();
  /// The approvals asked for over the WebSocket that are still pending, in the operator
  /// channel's shape (so `clawexec approvals pending|resolve` see them too).
  std::vector<json::Object> external_pending() const;
  /// Settles one of those; false when `id` is not one of them.
  bool resolve_external(const std::string& id, const std::string& decision, const std::string& resolved_by,
                        std::function<void(Result<void>)> done);

 private:
  struct Connection;
  struct ExternalApproval;
  struct PendingInvoke;
  struct NodeRunGrant;
  /// Approved host=node runs (operator_approvals.cc): granted when an approval naming a node and
  /// its plan is allowed (a WebSocket request's, or a service's), used by node.invoke.
  void grant_node_run(const std::string& id, const json::Object& request, const std::string& decision);
  /// The grant `run_id` for `node_id` when it is live, unused, for this argv and these env
  /// override names (sorted): marks it used and returns it. Else nullptr.
  const NodeRunGrant* use_node_grant(const std::string& run_id, const std::string& node_id, const json::Value* argv,
                                     const std::vector<std::string>& env_keys);
  std::map<std::string, NodeRunGrant> node_grants_;
  std::map<std::string, json::Object> service_node_requests_;  // pending service approvals for nodes, by id
  /// A node finished its handshake: its surface is checked against the approved one.
  void node_connected(const std::shared_ptr<Connection>& c, const json::Object& params, const json::Object& client);
  void node_closed(const Connection& c);
  /// An operator went away: the node invokes it was waiting for are stopped on their nodes.
  void operator_closed(const Connection& c);
  void node_role_method(const std::shared_ptr<Connection>& c, const std::string& id, const std::string& method,
                        const json::Object& params);
  void node_method(const std::shared_ptr<Connection>& c, const std::string& id, const std::string& method,
                   const json::Object& params);
  /// node.rename and node.pair.remove (operator_node_admin.cc).
  void node_admin_method(const std::shared_ptr<Connection>& c, const std::string& id, const std::string& method,
                         const json::Object& params);
  json::Object node_json(const std::string& node_id) const;
  void finish_invoke(const std::string& invoke_id, exec::NodeInvokeResult result);
  /// Sends the node `node.invoke.cancel` for a pending invoke (it kills that command's tree).
  void tell_node_to_stop(const std::string& invoke_id);
  struct StreamWatch {
    std::string node_id;
    exec::NodeStreamHandler handler;
  };
  std::map<std::string, StreamWatch> stream_watches_;  // by streamId
  /// Tells every watcher of `node_id`'s streams that its link went down or came back.
  void tell_stream_watchers(const std::string& node_id, exec::NodeStreamEvent::Kind kind);
  /// A node's clawexec.exec.output / .exit event; false when no watcher takes it.
  bool route_stream_event(const Connection& c, const std::string& event, const json::Value& payload);
  void on_message(const std::shared_ptr<Connection>& c, std::string text);
  void handshake(const std::shared_ptr<Connection>& c, const json::Object& frame);
  // The device part of connect: proof, device token, pairing. False when it refused the
  // connection (it has answered and closed).
  bool admit_device(const std::shared_ptr<Connection>& c, const std::string& id, const json::Object& params,
                    const json::Object& client, bool shared_secret_ok);
  void dispatch(const std::shared_ptr<Connection>& c, const std::string& id, const std::string& method,
                const json::Object& params);
  void approval_method(const std::shared_ptr<Connection>& c, const std::string& id, const std::string& method,
                       const json::Object& params);
  void request_approval(const std::shared_ptr<Connection>& c, const std::string& id, const json::Object& params);
  void settle_external(const std::shared_ptr<ExternalApproval>& a, std::optional<std::string> decision,
                       const std::string& terminal_reason, const std::string& resolved_by);
  bool visible(const Connection& c, const ExternalApproval& a) const;
  void admin_method(const std::shared_ptr<Connection>& c, const std::string& id, const std::string& method,
                    const json::Object& params);
  void policy_method(const std::shared_ptr<Connection>& c, const std::string& id, const json::Object& params);
  void presets_method(const std::shared_ptr<Connection>& c, const std::string& id, const json::Object& params);
  void audit_method(const std::shared_ptr<Connection>& c, const std::string& id, const std::string& method,
                    const json::Object& params);
  void session_method(const std::shared_ptr<Connection>& c, const std::string& id, const std::string& method,
                      const json::Object& params);
  void schedule_follow();
  void check_followed();
  void device_method(const std::shared_ptr<Connection>& c, const std::string& id, const std::string& method,
                     const json::Object& params);
  /// Sends `event` to every authenticated operator whose scopes satisfy `scope`.
  void broadcast(const std::string& event, const json::Object& payload, std::string_view scope);
  void close_device(const std::string& device_id, std::optional<std::string> role, const std::string& why);
  void schedule_tick();

  boost::asio::io_context& io_;
  OperatorOptions options_;
  ApprovalSource source_;
  std::map<uint64_t, std::shared_ptr<Connection>> connections_;
  std::map<std::string, std::shared_ptr<ExternalApproval>> external_;
  std::map<std::string, uint64_t> node_conns_;                      // node id -> connection id
  std::map<std::string, std::shared_ptr<PendingInvoke>> invokes_;  // by invoke id
  // waitDecision callers on the exec services' approvals, answered by approval_resolved.
  std::map<std::string, std::vector<std::function<void(const std::optional<std::string>&)>>> service_waiters_;
  uint64_t next_conn_ = 1;
  uint64_t event_seq_ = 0;
  int64_t started_ms_ = 0;
  boost::asio::steady_timer tick_timer_;
  boost::asio::steady_timer follow_timer_;
  bool follow_scheduled_ = false;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace clawexec::gateway
