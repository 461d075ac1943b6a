// The node side of the hub: the registry of connected nodes, their command-surface approval,
// node.invoke and its results, node events, and the operator's node methods. See
// operator_ws.h ("Nodes") and node_pairing.h.
//
// An invoke is a `node.invoke.request` event to the node's connection and a pending entry with
// a deadline; it ends exactly once: with the node's `node.invoke.result` (accepted only from
// the node it was sent to), at the deadline (TIMEOUT), or when the node disconnects
// (UNAVAILABLE), so no caller waits forever on a node that went away.

#include <algorithm>
#include <boost/asio/post.hpp>

#include "approvals/random.h"
#include "base/time.h"
#include "gateway/operator_internal.h"
#include "term/display_escape.h"

namespace clawexec::gateway {
namespace {

// Approved runs held for one approval whose decision this gateway has not heard yet: the owning
// process sends one; more are refused at once rather than queued.
constexpr size_t kMaxGrantWaiters = 4;

bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

json::Value parsed_payload(const json::Object& params) {
  if (const json::Value* p = json::find(params, "payload")) return *p;
  if (const json::Value* j = json::find(params, "payloadJSON"); j && j->is_string()) {
    if (std::optional<json::Value> v = json::parse(j->get_string())) return *v;
  }
  return nullptr;
}

}  // namespace

void OperatorHub::node_connected(const std::shared_ptr<Connection>& c, const json::Object& params, const json::Object& client) {
  (void)params;
  NodeSurface& s = c->node;
  s.node_id = c->device_id;
  s.client_id = c->client_id;
  s.client_mode = c->client_mode;
  s.display_name = str(client, "displayName");
  s.platform = str(client, "platform");
  s.version = str(client, "version");
  s.device_family = str(client, "deviceFamily");
  s.caps = c->caps;
  c->connected_at_ms = epoch_ms();
  Result<NodePairing::Checked> checked = options_.nodes->check(s, c->loopback && options_.auto_approve_local, c->connected_at_ms);
  if (!checked.ok()) {
    c->node_allowed.clear();
  } else {
    c->node_allowed = checked->allowed;
    if (checked->request && checked->created) {
      broadcast("node.pair.requested", NodePairing::pending_json(*checked->request), "operator.pairing");
    }
  }
  // A node that reconnects replaces its older connection.
  if (auto old = node_conns_.find(s.node_id); old != node_conns_.end() && old->second != c->id) {
    if (auto it = connections_.find(old->second); it != connections_.end()) {
      std::shared_ptr<Connection> previous = it->second;
      node_closed(*previous);
      previous->authenticated = false;
      previous->socket->close(1008, "replaced by a newer connection of the same node");
    }
  }
  node_conns_[s.node_id] = c->id;
  tell_stream_watchers(s.node_id, exec::NodeStreamEvent::Kind::kLinkUp);
}

void OperatorHub::watch_stream(const std::string& node_id, const std::string& stream_id, exec::NodeStreamHandler handler) {
  stream_watches_[stream_id] = StreamWatch{node_id, std::move(handler)};
}

void OperatorHub::unwatch_stream(const std::string& stream_id) { stream_watches_.erase(stream_id); }

void OperatorHub::tell_stream_watchers(const std::string& node_id, exec::NodeStreamEvent::Kind kind) {
  std::vector<exec::NodeStreamHandler> handlers;  // a handler may unwatch while others run
  for (const auto& [id, w] : stream_watches_) {
    if (w.node_id == node_id) handlers.push_back(w.handler);
  }
  exec::NodeStreamEvent e;
  e.kind = kind;
  for (exec::NodeStreamHandler& h : handlers) h(e);
}

bool OperatorHub::route_stream_event(const Connection& c, const std::string& event, const json::Value& payload) {
  if (!payload.is_object()) return false;
  const json::Object& p = payload.get_object();
  auto it = stream_watches_.find(str(p, "streamId"));
  if (it == stream_watches_.end() || it->second.node_id != c.node.node_id) return false;
  exec::NodeStreamEvent e;
  e.kind = event == "clawexec.exec.exit" ? exec::NodeStreamEvent::Kind::kExit : exec::NodeStreamEvent::Kind::kOutput;
  std::optional<int64_t> offset = int_member(p, "offset");
  if (!offset || *offset < 0) return false;
  e.offset = *offset;
  if (e.kind == exec::NodeStreamEvent::Kind::kOutput) {
    const json::Value* data = json::find(p, "data");
    if (!data || !data->is_string()) return false;
    e.data = data->get_string();
  } else {
    e.payload = p;
  }
  std::string stream_id = it->first;
  exec::NodeStreamHandler handler = it->second.handler;
  if (handler(e)) return true;
  stream_watches_.erase(stream_id);  // its session is gone: the node stops the command
  return false;
}

void OperatorHub::node_closed(const Connection& c) {
  auto it = node_conns_.find(c.node.node_id);
  if (it == node_conns_.end() || it->second != c.id) return;
  node_conns_.erase(it);
  std::vector<std::string> orphaned;
  for (const auto& [id, inv] : invokes_) {
    if (inv->node_id == c.node.node_id) orphaned.push_back(id);
  }
  for (const std::string& id : orphaned) {
    finish_invoke(id, exec::NodeInvokeError{"NODE_DISCONNECTED", "node " + c.node.node_id + " disconnected before it answered"});
  }
  tell_stream_watchers(c.node.node_id, exec::NodeStreamEvent::Kind::kLinkDown);
}

void OperatorHub::operator_closed(const Connection& c) {
  std::vector<std::string> abandoned;
  for (const auto& [id, inv] : invokes_) {
    if (inv->operator_conn == c.id) abandoned.push_back(id);
  }
  for (const std::string& id : abandoned) {
    tell_node_to_stop(id);  // nobody will read the answer: nothing keeps running for it
    finish_invoke(id, exec::NodeInvokeError{"CANCELLED", "the operator connection closed"});
  }
}

std::vector<exec::NodeSummary> OperatorHub::nodes() const {
  std::vector<exec::NodeSummary> out;
  auto summary = [](const NodeSurface& s, const std::vector<std::string>& commands, bool connected, const std::string& ip) {
    return exec::NodeSummary{s.node_id, s.display_name, s.platform, ip, s.client_id, commands, {}, connected};
  };
  for (const ApprovedNode* n : options_.nodes->approved_nodes()) {
    auto conn = node_conns_.find(n->surface.node_id);
    if (conn != node_conns_.end()) {
      const Connection& c = *connections_.at(conn->second);
      exec::NodeSummary live = summary(c.node, c.node_allowed, true, c.loopback ? "" : c.peer_address);
      live.display_name = n->surface.display_name;  // the approved name, not what the node says now
      for (const std::string& cap : c.node.caps) {
        if (has(n->surface.caps, cap)) live.caps.push_back(cap);  // declared now and approved
      }
      out.push_back(std::move(live));
    } else {
      out.push_back(summary(n->surface, n->surface.commands, false, ""));
    }
  }
  return out;
}

json::Object OperatorHub::node_json(const std::string& node_id) const {
  const ApprovedNode* approved = options_.nodes->approved(node_id);
  auto conn = node_conns_.find(node_id);
  const Connection* c = conn != node_conns_.end() ? connections_.at(conn->second).get() : nullptr;
  const NodeSurface& s = c ? c->node : approved->surface;
  const std::string& name = approved ? approved->surface.display_name : s.display_name;
  auto shown = [](const std::string& v) { return term::escape_for_display(v); };  // the node chose these
  json::Object o{{"nodeId", s.node_id}};
  if (!name.empty()) o["displayName"] = shown(name);
  if (!s.platform.empty()) o["platform"] = shown(s.platform);
  if (!s.version.empty()) o["version"] = shown(s.version);
  if (!s.client_id.empty()) o["clientId"] = shown(s.client_id);
  if (!s.client_mode.empty()) o["clientMode"] = shown(s.client_mode);
  if (!s.device_family.empty()) o["deviceFamily"] = shown(s.device_family);
  o["caps"] = json::string_array(s.caps);
  o["commands"] = json::string_array(c ? c->node_allowed : approved->surface.commands);
  if (c && !c->host_stats.empty()) o["hostStats"] = c->host_stats;
  if (c && !c->path_env.empty()) o["pathEnv"] = c->path_env;
  if (c && !c->loopback) o["remoteIp"] = c->peer_address;
  o["approvalState"] = approved ? "approved" : "pending";
  if (c) o["connectedAtMs"] = c->connected_at_ms;
  if (approved) o["approvedAtMs"] = approved->approved_at_ms;
  o["paired"] = approved != nullptr;
  o["connected"] = c != nullptr;
  return o;
}

std::string OperatorHub::invoke(const std::string& node_id, const std::string& command, json::Object params, int64_t timeout_ms,
                                std::function<void(exec::NodeInvokeResult)> done) {
  auto fail_soon = [this, &done](std::string code, std::string message) {
    boost::asio::post(io_, [done = std::move(done), code = std::move(code), message = std::move(message)] {
      done(exec::NodeInvokeError{code, message});
    });
    return std::string();
  };
  auto conn = node_conns_.find(node_id);
  if (conn == node_conns_.end()) return fail_soon("NOT_CONNECTED", "node not connected");
  const std::shared_ptr<Connection>& c = connections_.at(conn->second);
  // The streaming extension's commands run what system.run runs (the node applies the same
  // checks and policy), so they need system.run approved and the cap approved with the surface.
  bool stream_command = command.rfind("clawexec.exec.", 0) == 0;
  if (stream_command) {
    const ApprovedNode* approved = options_.nodes->approved(node_id);
    if (!has(c->node_allowed, "system.run") || !has(c->node.caps, exec::kNodeStreamCap) || !approved ||
        !has(approved->surface.caps, exec::kNodeStreamCap)) {
      return fail_soon("INVALID_REQUEST", "node " + node_id + " does not serve streamed sessions (" + exec::kNodeStreamCap + ")");
    }
  } else if (!has(c->node_allowed, command)) {
    return fail_soon("INVALID_REQUEST", "node command not allowed: " + command +
                                            (has(c->node.commands, command)
                                                 ? " (awaiting approval of the node's command surface: node.pair.approve)"
                                                 : " (the node does not declare it)"));
  }
  auto inv = std::make_shared<PendingInvoke>();
  inv->id = approvals::random_uuid();
  inv->node_id = node_id;
  inv->command = command;
  inv->done = std::move(done);
  inv->timer = std::make_unique<boost::asio::steady_timer>(io_, std::chrono::milliseconds(std::max<int64_t>(timeout_ms, 1)));
  std::weak_ptr<bool> alive = alive_;
  inv->timer->async_wait([this, alive, id = inv->id](const boost::system::error_code& ec) {
    if (ec || alive.expired()) return;
    tell_node_to_stop(id);  // nobody waits for it any more: nothing may keep running for it
    finish_invoke(id, exec::NodeInvokeError{"TIMEOUT", "node invoke timed out"});
  });
  invokes_[inv->id] = inv;
  c->send(frames::event("node.invoke.request", json::Object{{"id", inv->id},
                                                            {"nodeId", node_id},
                                                            {"command", command},
                                                            {"paramsJSON", json::serialize(params)},
                                                            {"timeoutMs", timeout_ms},
                                                            {"idempotencyKey", approvals::random_uuid()}}));
  return inv->id;
}

void OperatorHub::tell_node_to_stop(const std::string& invoke_id) {
  auto it = invokes_.find(invoke_id);
  if (it == invokes_.end()) return;
  auto conn = node_conns_.find(it->second->node_id);
  if (conn == node_conns_.end()) return;
  connections_.at(conn->second)->send(frames::event(
      "node.invoke.cancel", json::Object{{"id", invoke_id}, {"invokeId", invoke_id}, {"nodeId", it->second->node_id}}));
}

void OperatorHub::cancel(const std::string& token) {
  if (!invokes_.count(token)) return;
  tell_node_to_stop(token);
  finish_invoke(token, exec::NodeInvokeError{"CANCELLED", "cancelled"});
}

void OperatorHub::finish_invoke(const std::string& invoke_id, exec::NodeInvokeResult result) {
  auto it = invokes_.find(invoke_id);
  if (it == invokes_.end()) return;
  std::shared_ptr<PendingInvoke> inv = it->second;
  invokes_.erase(it);
  inv->timer->cancel();
  inv->done(std::move(result));
}

void OperatorHub::node_role_method(const std::shared_ptr<Connection>& c, const std::string& id, const std::string& method,
                                   const json::Object& params) {
  if (method == "node.invoke.result") {
    std::string invoke_id = str(params, "id");
    auto it = invokes_.find(invoke_id);
    // Only the node an invoke went to may answer it.
    if (it == invokes_.end() || it->second->node_id != c->node.node_id) {
      return c->send(res_ok(id, json::Object{{"ok", true}, {"ignored", true}}));
    }
    const json::Value* ok = json::find(params, "ok");
    if (ok && ok->is_bool() && ok->get_bool()) {
      finish_invoke(invoke_id, parsed_payload(params));
    } else {
      const json::Object* error = obj(params, "error");
      std::string code = error ? str(*error, "code") : std::string();
      std::string message = error ? str(*error, "message") : std::string();
      finish_invoke(invoke_id, exec::NodeInvokeError{code.empty() ? "UNAVAILABLE" : code, message.empty() ? "node error" : message});
    }
    return c->send(res_ok(id, json::Object{{"ok", true}}));
  }
  if (method == "node.event") {
    std::string event = str(params, "event");
    json::Value payload = parsed_payload(params);
    if (event == "clawexec.exec.streams") {
      // Sent by the node when it goes live: the streamed sessions it still has. A watched one
      // it does not list ended with the node (it restarted).
      std::vector<std::string> listed = payload.is_object() ? json::strings_member(payload.get_object(), "streamIds") : std::vector<std::string>{};
      std::vector<exec::NodeStreamHandler> gone;
      for (const auto& [sid, w] : stream_watches_) {
        if (w.node_id == c->node.node_id && !has(listed, sid)) gone.push_back(w.handler);
      }
      exec::NodeStreamEvent e;
      e.kind = exec::NodeStreamEvent::Kind::kGone;
      for (exec::NodeStreamHandler& h : gone) h(e);
      return c->send(res_ok(id, json::Object{{"ok", true}}));
    }
    if (event == "clawexec.exec.output" || event == "clawexec.exec.exit") {
      if (!route_stream_event(*c, event, payload)) {
        return c->send(res_error(id, "INVALID_REQUEST", "unknown streamed session: " +
                                                            (payload.is_object() ? str(payload.get_object(), "streamId") : std::string("?"))));
      }
      return c->send(res_ok(id, json::Object{{"ok", true}}));
    }
    if (event == "node.host.stats" && payload.is_object()) {
      c->host_stats = payload.get_object();
      c->host_stats["updatedAtMs"] = epoch_ms();
      return c->send(res_ok(id, json::Object{{"ok", true}, {"event", event}, {"handled", true}, {"reason", "updated"}}));
    }
    return c->send(res_ok(id, json::Object{{"ok", true}, {"event", event}, {"handled", event.rfind("exec.", 0) == 0}}));
  }
  c->send(res_error(id, "FORBIDDEN", "method " + method + " is for operators; this connection's role is node"));
}

void OperatorHub::node_method(const std::shared_ptr<Connection>& c, const std::string& id, const std::string& method,
                              const json::Object& params) {
  const int64_t now = epoch_ms();
  std::string node_id = str(params, "nodeId");
  if (method == "node.list") {
    json::Array list;
    std::vector<std::string> seen;
    for (const ApprovedNode* n : options_.nodes->approved_nodes()) {
      list.emplace_back(node_json(n->surface.node_id));
      seen.push_back(n->surface.node_id);
    }
    for (const auto& [nid, cid] : node_conns_) {
      if (!has(seen, nid)) list.emplace_back(node_json(nid));
    }
    return c->send(res_ok(id, json::Object{{"ts", now}, {"nodes", std::move(list)}}));
  }
  if (method == "node.describe") {
    if (!options_.nodes->approved(node_id) && !node_conns_.count(node_id)) {
      return c->send(res_error(id, "INVALID_REQUEST", "unknown nodeId"));
    }
    json::Object o = node_json(node_id);
    o["ts"] = now;
    return c->send(res_ok(id, std::move(o)));
  }
  if (method == "node.pair.list") {
    json::Array pending, paired;
    for (const PendingNode* p : options_.nodes->pending()) pending.emplace_back(NodePairing::pending_json(*p));
    for (const ApprovedNode* n : options_.nodes->approved_nodes()) paired.emplace_back(NodePairing::approved_json(*n));
    return c->send(res_ok(id, json::Object{{"pending", std::move(pending)}, {"paired", std::move(paired)}}));
  }
  if (method == "node.pair.approve" || method == "node.pair.reject") {
    std::string request_id = str(params, "requestId");
    if (request_id.empty()) return c->send(res_error(id, "INVALID_REQUEST", "invalid " + method + " params: requestId required"));
    if (method == "node.pair.reject") {
      Result<std::string> rejected = options_.nodes->reject(request_id);
      if (!rejected.ok()) return c->send(res_error(id, "INVALID_REQUEST", rejected.error().message));
      broadcast("node.pair.resolved",
                json::Object{{"requestId", request_id}, {"nodeId", *rejected}, {"decision", "rejected"}, {"ts", now}},
                "operator.pairing");
      return c->send(res_ok(id, json::Object{{"requestId", request_id}, {"nodeId", *rejected}}));
    }
    Result<ApprovedNode> approved = options_.nodes->approve(request_id, c->scopes, now);
    if (!approved.ok()) {
      if (approved.error().code == ErrorCode::kPermissionDenied) {
        std::string scope = approved.error().message.substr(std::string("missing scope: ").size());
        return c->send(res_error(id, "FORBIDDEN", approved.error().message,
                                 json::Object{{"code", "MISSING_SCOPE"}, {"missingScope", scope}}));
      }
      return c->send(res_error(id, "INVALID_REQUEST", approved.error().message));
    }
    // The connected node's commands widen at once.
    if (auto conn = node_conns_.find(approved->surface.node_id); conn != node_conns_.end()) {
      Connection& nc = *connections_.at(conn->second);
      nc.node_allowed.clear();
      for (const std::string& cmd : nc.node.commands) {
        if (has(approved->surface.commands, cmd)) nc.node_allowed.push_back(cmd);
      }
    }
    broadcast("node.pair.resolved",
              json::Object{{"requestId", request_id}, {"nodeId", approved->surface.node_id}, {"decision", "approved"}, {"ts", now}},
              "operator.pairing");
    return c->send(res_ok(id, json::Object{{"requestId", request_id}, {"node", NodePairing::approved_json(*approved)}}));
  }
  if (method == "node.invoke" || method == "exec.approvals.node.get" || method == "exec.approvals.node.set") {
    std::string command = method == "exec.approvals.node.get"   ? "system.execApprovals.get"
                          : method == "exec.approvals.node.set" ? "system.execApprovals.set"
                                                                : str(params, "command");
    if (node_id.empty() || command.empty()) return c->send(res_error(id, "INVALID_REQUEST", "nodeId and command required"));
    json::Object forwarded;
    if (method == "node.invoke") {
      if (command == "system.execApprovals.get" || command == "system.execApprovals.set") {
        return c->send(res_error(id, "INVALID_REQUEST", "node.invoke does not allow system.execApprovals.*; use exec.approvals.node.*",
                                 json::Object{{"command", command}}));
      }
      if (command.rfind("clawexec.", 0) == 0) {
        return c->send(res_error(id, "INVALID_REQUEST", "node.invoke does not allow " + command + " (the gateway's own streamed sessions)"));
      }
      if (str(params, "idempotencyKey").empty()) {
        return c->send(res_error(id, "INVALID_REQUEST", "invalid node.invoke params: idempotencyKey (string) required"));
      }
      if (node_command_needs_admin(command) && !c->admin()) {
        return c->send(res_error(id, "FORBIDDEN", "missing scope: operator.admin",
                                 json::Object{{"code", "MISSING_SCOPE"}, {"missingScope", "operator.admin"}}));
      }
      if (const json::Object* p = obj(params, "params")) forwarded = *p;
      // Approval flags are never taken from the caller: an operator's raw system.run is judged
      // by the node's own policy like any other - unless it names (runId) an approval this
      // gateway granted for this node and this argv. Then exactly the approved plan is sent,
      // marked approved, once; a replay, or another node or command, is refused.
      const json::Value* approved = json::find(forwarded, "approved");
      bool claims = (approved && approved->is_bool() && approved->get_bool()) || json::find(forwarded, "approvalDecision");
      for (std::string_view key : {"approved", "approvalDecision", "approvalSource"}) forwarded.erase(key);
      std::string run_id = str(forwarded, "runId");
      if (command == "system.run" && claims && !run_id.empty()) {
        std::vector<std::string> env_keys;
        if (const json::Object* env = obj(forwarded, "env")) {
          for (const auto& kv : *env) env_keys.emplace_back(kv.key());
        }
        std::sort(env_keys.begin(), env_keys.end());
        const NodeRunGrant* grant = use_node_grant(run_id, node_id, json::find(forwarded, "command"), env_keys);
        if (!grant && service_node_requests_.count(run_id) && service_waiters_[run_id].size() < kMaxGrantWaiters) {
          // Another process's approval whose decision this gateway has not heard yet (it was
          // given on that process's channel): checked again once it has.
          std::weak_ptr<Connection> weak = c;
          service_waiters_[run_id].push_back([this, weak, id, method, params](const std::optional<std::string>&) {
            if (auto live = weak.lock()) node_method(live, id, method, params);
          });
          return;
        }
        if (!grant) {
          return c->send(res_error(id, "INVALID_REQUEST", "approval required",
                                   json::Object{{"code", "APPROVAL_REQUIRED"}, {"runId", run_id}}));
        }
        // Only what the approval covers goes on: the plan itself, the env overrides the
        // approver saw the names of (same names), and the run's own bookkeeping.
        json::Object approved_run;
        for (std::string_view key : {"env", "timeoutMs", "needsScreenRecording", "suppressNotifyOnExit"}) {
          if (const json::Value* v = json::find(forwarded, key)) approved_run[key] = *v;
        }
        approved_run["command"] = json::find(grant->plan, "argv") ? *json::find(grant->plan, "argv") : json::Value(json::Array{});
        approved_run["rawCommand"] = str(grant->plan, "commandText");
        approved_run["systemRunPlan"] = grant->plan;
        if (std::string cwd = str(grant->plan, "cwd"); !cwd.empty()) approved_run["cwd"] = cwd;
        for (std::string_view key : {"agentId", "sessionKey"}) {
          if (std::string v = str(grant->plan, key); !v.empty()) approved_run[key] = v;
        }
        approved_run["runId"] = run_id;
        approved_run["approved"] = true;
        approved_run["approvalDecision"] = grant->decision;
        forwarded = std::move(approved_run);
      }
    } else {
      forwarded = params;
      forwarded.erase("nodeId");
    }
    int64_t timeout = int_member(params, "timeoutMs").value_or(method == "node.invoke" ? 30000 : 10000);
    if (timeout <= 0) timeout = 30000;
    std::weak_ptr<Connection> weak = c;
    std::string token = invoke(node_id, command, std::move(forwarded), timeout,
                  [weak, id, node_id, command, method](exec::NodeInvokeResult r) {
                    auto live = weak.lock();
                    if (!live) return;
                    if (auto* e = std::get_if<exec::NodeInvokeError>(&r)) {
                      bool dispatched = e->code != "NOT_CONNECTED" && e->code != "INVALID_REQUEST";
                      json::Object details{{"nodeError", json::Object{{"code", e->code}, {"message", e->message}}},
                                           {"nodeCommandDispatched", dispatched}};
                      std::string code = e->code == "INVALID_REQUEST" && !dispatched ? "INVALID_REQUEST" : "UNAVAILABLE";
                      std::string message = e->code == "NOT_CONNECTED" || e->code == "NODE_DISCONNECTED" ? e->message : e->code + ": " + e->message;
                      return live->send(res_error(id, code, message, std::move(details)));
                    }
                    json::Value& payload = std::get<json::Value>(r);
                    if (method != "node.invoke") return live->send(res_ok(id, payload));
                    live->send(res_ok(id, json::Object{{"ok", true},
                                                       {"nodeId", node_id},
                                                       {"command", command},
                                                       {"payload", payload},
                                                       {"payloadJSON", json::serialize(payload)}}));
                  });
    if (auto it = invokes_.find(token); it != invokes_.end()) it->second->operator_conn = c->id;
    return;
  }
  c->send(res_error(id, "INVALID_REQUEST", "unknown method: " + method));
}

}  // namespace clawexec::gateway
