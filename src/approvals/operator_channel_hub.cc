// The operator channel's hub side: accepting connections, the hello handshake, the union of
// pending approvals (the hub's own provider plus what each member pushed), forwarding a
// resolution to the process that owns the approval, and fanning events out to subscribers.
//
// Every connection must first prove it belongs to our user (SO_PEERCRED uid), must not be a
// process running under a clawexec command (approvals come from humans, never from the
// agent's own commands: peer_check.h), and must know the token from the approvals document;
// anything else is answered with one error line and closed. A member's approvals live only as long as its connection: when it disconnects, its
// entries disappear and any resolution still waiting on it fails.

#include <unistd.h>

#include <algorithm>

#include "approvals/operator_channel_internal.h"
#include "json/json.h"
#include "sys/file_system.h"

namespace clawexec::approvals {

namespace bj = boost::json;
using boost::asio::local::stream_protocol;

namespace {

std::string approval_id(const bj::object& approval) { return string_field(approval, "id"); }

bool constant_time_equal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

// Copies the caller's optional "requestId" into a reply so pipelined requests can be matched.
bj::object reply_to(const bj::object& request, bj::object reply) {
  if (const bj::value* rid = json::find(request, "requestId")) reply["requestId"] = *rid;
  return reply;
}

}  // namespace

void OperatorChannel::Impl::accept_next() {
  if (!acceptor) return;
  acceptor->async_accept([weak = weak_from_this()](const boost::system::error_code& ec, stream_protocol::socket socket) {
    auto self = weak.lock();
    if (!self || self->state != State::kHub || !self->acceptor) return;
    if (!ec) self->accepted(std::move(socket));
    self->accept_next();
  });
}

void OperatorChannel::Impl::accepted(stream_protocol::socket socket) {
  set_close_on_exec(socket.native_handle());
  auto conn = std::make_shared<JsonConnection>(std::move(socket));
  auto identity = peer_identity(conn->socket());
  if (!identity.ok() || identity->uid != uid) {
    conn->start([](const bj::object&) {}, [] {});
    conn->send({{"type", "error"}, {"error", "peer is not the socket owner's user"}});
    conn->close_after_flush();
    return;
  }
  if (std::optional<std::string> refusal = options.refuse_peer(conn->socket().native_handle())) {
    options.log(*refusal);
    conn->start([](const bj::object&) {}, [] {});
    conn->send({{"type", "error"}, {"error", *refusal}});
    conn->close_after_flush();
    return;
  }
  const uint64_t id = next_peer_id++;
  peers[id].conn = conn;
  peers[id].pid = identity->pid;
  conn->start(
      [weak = weak_from_this(), id](const bj::object& message) {
        if (auto self = weak.lock()) self->hub_message(id, message);
      },
      [weak = weak_from_this(), id] {
        if (auto self = weak.lock()) self->peer_closed(id);
      });
}

void OperatorChannel::Impl::hub_message(uint64_t peer_id, const bj::object& message) {
  auto it = peers.find(peer_id);
  if (it == peers.end()) return;
  Peer& peer = it->second;
  const std::string type = string_field(message, "type");
  if (peer.role == Role::kUnknown) {
    if (type != "hello") {
      peer.conn->send({{"type", "error"}, {"error", "hello required"}});
      peer.conn->close_after_flush();
      return;
    }
    const std::string role = string_field(message, "role");
    if (!constant_time_equal(string_field(message, "token"), token)) {
      peer.conn->send({{"type", "error"}, {"error", "invalid token"}});
      peer.conn->close_after_flush();
      return;
    }
    if (role != "operator" && role != "member") {
      peer.conn->send({{"type", "error"}, {"error", "invalid role"}});
      peer.conn->close_after_flush();
      return;
    }
    peer.role = role == "member" ? Role::kMember : Role::kOperator;
    const bj::value* claimed = json::find(message, "pid");
    if (auto n = claimed ? json::as_number(*claimed) : std::nullopt; n && *n > 0) peer.pid = static_cast<int32_t>(*n);
    peer.conn->send({{"type", "hello"}, {"ok", true}, {"role", "hub"}, {"pid", pid}});
    return;
  }
  peer_message(peer, peer_id, message);
}

void OperatorChannel::Impl::peer_message(Peer& peer, uint64_t peer_id, const bj::object& message) {
  const std::string type = string_field(message, "type");
  auto conn = peer.conn;
  if (type == "list") {
    bj::array approvals;
    for (Owner& owner : all_pending()) approvals.push_back(std::move(owner.approval));
    conn->send(reply_to(message, {{"type", "pending"}, {"approvals", std::move(approvals)}}));
  } else if (type == "subscribe") {
    peer.subscribed = true;
    conn->send(reply_to(message, {{"type", "subscribed"}, {"ok", true}}));
  } else if (type == "resolve") {
    std::string by = string_field(message, "resolvedBy");
    if (by.empty()) by = "operator";
    const std::string decision = string_field(message, "decision");
    resolve(string_field(message, "id"), decision, by, [conn, message, decision](Result<std::string> result) {
      if (result.ok()) {
        conn->send(reply_to(message, {{"type", "resolved"}, {"ok", true}, {"id", *result}, {"decision", decision}}));
      } else {
        conn->send(reply_to(message, {{"type", "resolved"}, {"ok", false}, {"error", result.error().message}}));
      }
    });
  } else if (type == "command") {
    handle_command(conn, message);
  } else if (type == "pending.add" && peer.role == Role::kMember) {
    const bj::value* approval = json::find(message, "approval");
    if (!approval || !approval->is_object() || approval_id(approval->as_object()).empty()) return;
    bj::object entry = with_pid(approval->as_object(), peer.pid);
    const std::string id = approval_id(entry);
    auto same = [&](const bj::object& a) { return approval_id(a) == id; };
    peer.pending.erase(std::remove_if(peer.pending.begin(), peer.pending.end(), same), peer.pending.end());
    peer.pending.push_back(entry);
    broadcast({{"type", "event"}, {"event", "requested"}, {"approval", std::move(entry)}});
  } else if (type == "pending.remove" && peer.role == Role::kMember) {
    const std::string id = string_field(message, "id");
    auto same = [&](const bj::object& a) { return approval_id(a) == id; };
    peer.pending.erase(std::remove_if(peer.pending.begin(), peer.pending.end(), same), peer.pending.end());
    const bj::value* decision = json::find(message, "decision");
    broadcast({{"type", "event"},
               {"event", "resolved"},
               {"id", id},
               {"decision", decision ? *decision : bj::value(nullptr)},
               {"resolvedBy", string_field(message, "resolvedBy")},
               {"pid", peer.pid}});
  } else if (type == "resolve.result" && peer.role == Role::kMember) {
    const bj::value* fid = json::find(message, "forwardId");
    auto n = fid ? json::as_number(*fid) : std::nullopt;
    auto fw = n ? forwards.find(static_cast<uint64_t>(*n)) : forwards.end();
    if (fw == forwards.end() || fw->second.peer != peer_id) return;
    Forward forward = std::move(fw->second);
    forwards.erase(fw);
    const bj::value* ok = json::find(message, "ok");
    if (ok && ok->is_bool() && ok->as_bool()) {
      // Resolved means no longer pending, even before the member's pending.remove arrives.
      auto same = [&](const bj::object& a) { return approval_id(a) == forward.id; };
      peer.pending.erase(std::remove_if(peer.pending.begin(), peer.pending.end(), same), peer.pending.end());
      forward.done(forward.id);
    } else {
      std::string error = string_field(message, "error");
      forward.done(Error::rejected(error.empty() ? "the approval could not be resolved" : error));
    }
  } else if (type == "event" && peer.role == Role::kMember) {
    bj::object event = message;
    if (!event.contains("pid")) event["pid"] = peer.pid;
    broadcast(event);
  } else {
    conn->send(reply_to(message, {{"type", "error"}, {"error", "unknown request type: " + type}}));
  }
}

void OperatorChannel::Impl::peer_closed(uint64_t peer_id) {
  peers.erase(peer_id);
  std::vector<std::function<void(Result<std::string>)>> orphaned;
  for (auto it = forwards.begin(); it != forwards.end();) {
    if (it->second.peer == peer_id) {
      orphaned.push_back(std::move(it->second.done));
      it = forwards.erase(it);
    } else {
      ++it;
    }
  }
  for (auto& done : orphaned) done(Error::rejected("the process owning the approval disconnected"));
}

std::vector<OperatorChannel::Impl::Owner> OperatorChannel::Impl::all_pending() {
  std::vector<Owner> out;
  if (provider.list) {
    for (bj::object& approval : provider.list()) out.push_back({0, with_pid(std::move(approval), pid)});
  }
  for (auto& [peer_id, peer] : peers) {
    for (const bj::object& approval : peer.pending) out.push_back({peer_id, approval});
  }
  auto created = [](const Owner& o) {
    const bj::value* v = json::find(o.approval, "createdAtMs");
    return v ? json::as_number(*v).value_or(0) : 0.0;
  };
  std::stable_sort(out.begin(), out.end(), [&](const Owner& a, const Owner& b) { return created(a) < created(b); });
  return out;
}

void OperatorChannel::Impl::resolve(const std::string& input_id, const std::string& decision,
                                    const std::string& resolved_by, std::function<void(Result<std::string>)> done) {
  if (!is_valid_decision(decision)) return done(Error::invalid("invalid decision"));
  std::vector<Owner> pending = all_pending();
  std::vector<std::string> ids;
  for (const Owner& o : pending) ids.push_back(approval_id(o.approval));
  IdLookup found = lookup_approval_id(input_id, ids);
  if (found.kind == IdLookup::Kind::kAmbiguous) return done(Error::invalid(std::string(kAmbiguousApprovalId)));
  if (found.kind == IdLookup::Kind::kNone) return done(Error{ErrorCode::kNotFound, 0, std::string(kUnknownApprovalId)});
  const Owner& owner = *std::find_if(pending.begin(), pending.end(),
                                     [&](const Owner& o) { return approval_id(o.approval) == found.id; });
  if (const bj::value* allowed = json::find(owner.approval, "allowedDecisions"); allowed && allowed->is_array()) {
    const bj::array& list = allowed->as_array();
    if (std::find(list.begin(), list.end(), bj::value(decision)) == list.end()) {
      return done(Error::rejected(decision + " is unavailable for this command"));
    }
  }
  const std::string full_id = found.id;
  if (owner.peer == 0) {
    if (!provider.resolve) return done(Error::internal("this process cannot resolve approvals"));
    provider.resolve(full_id, decision, resolved_by, [done, full_id](Result<void> result) {
      if (result.ok()) done(full_id);
      else done(Error(result.error()));
    });
    return;
  }
  auto peer = peers.find(owner.peer);
  if (peer == peers.end()) return done(Error::rejected("the process owning the approval disconnected"));
  const uint64_t forward_id = next_forward_id++;
  forwards[forward_id] = Forward{owner.peer, std::move(done), full_id};
  peer->second.conn->send({{"type", "resolve"},
                           {"id", full_id},
                           {"decision", decision},
                           {"resolvedBy", resolved_by},
                           {"forwardId", forward_id}});
}

void OperatorChannel::Impl::broadcast(const bj::object& event) {
  for (auto& [id, peer] : peers) {
    if (peer.subscribed) peer.conn->send(event);
  }
}

void OperatorChannel::Impl::release_hub() {
  if (acceptor) {
    boost::system::error_code ignored;
    acceptor->close(ignored);
    acceptor.reset();
  }
  // Remove the socket file only if it is still the one we bound.
  auto info = sys::lstat_path(socket_path);
  if (info.ok() && *info && (*info)->dev == socket_dev && (*info)->ino == socket_ino) {
    ignore_error(sys::remove_file(socket_path));
  }
  lock_fd.reset();
  std::vector<std::shared_ptr<JsonConnection>> open;
  for (auto& [id, peer] : peers) open.push_back(peer.conn);
  peers.clear();
  std::vector<Forward> orphaned;
  for (auto& [id, fw] : forwards) orphaned.push_back(std::move(fw));
  forwards.clear();
  for (auto& conn : open) conn->close();
  for (auto& fw : orphaned) fw.done(Error::rejected("the approvals hub is shutting down"));
}

}  // namespace clawexec::approvals
