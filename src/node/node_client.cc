// The node host's gateway connection (node_client.h): dial, challenge, connect, hello, then
// invokes; on any close, back off (1 s doubling to the cap, reset once live) and dial again.
// The credential is re-resolved for every attempt, so a device token issued in one hello is
// used from the next connect on, and one the gateway no longer accepts is forgotten and the
// shared token used again. Invoke answers go through the outbox (written in order; an entry
// leaves when the gateway has answered it), which survives reconnects.

#include "node/node_client.h"

#include <algorithm>

#include <boost/asio/post.hpp>

#include "approvals/random.h"
#include "base/strings.h"
#include "base/time.h"
#include "exec/node_invoker.h"
#include "node/host_stats.h"
#include "node/run_plan.h"

namespace clawexec::node {
namespace asio = boost::asio;
namespace {

std::string frame_text(const json::Object& frame) { return json::serialize(frame); }

}  // namespace

NodeClient::NodeClient(asio::io_context& io, NodeClientOptions options, NodeIdentity identity, PipelineRunner& runner)
    : io_(io), options_(std::move(options)), identity_(std::move(identity)), runner_(runner),
      endpoint_(options_.host + ":" + std::to_string(options_.port)), backoff_(options_.reconnect_initial),
      reconnect_timer_(io), tick_timer_(io), stats_timer_(io), detached_timer_(io) {
  Result<std::optional<std::string>> saved = load_device_token(options_.node_dir, identity_.device_id, endpoint_);
  if (saved.ok()) {
    device_token_ = *saved;
  } else if (options_.log) {
    options_.log("device token: " + saved.error().message);
  }
}

// Work still on the worker thread finishes first; its answers find no client and are dropped.
NodeClient::~NodeClient() { worker_.join(); }

void NodeClient::start() { connect(); }

void NodeClient::stop(std::function<void()> done) {
  stopping_ = true;
  reconnect_timer_.cancel();
  tick_timer_.cancel();
  stats_timer_.cancel();
  detached_timer_.cancel();
  if (!ws_) {
    if (done) asio::post(io_, std::move(done));
    return;
  }
  stopped_ = std::move(done);
  std::shared_ptr<net::WsClient>(ws_)->close(1000, "node host stopping");
}

std::string NodeClient::next_request_id() { return std::to_string(++request_seq_) + ":" + approvals::random_uuid(); }

void NodeClient::connect() {
  if (stopping_) return;
  net::WsClientOptions o;
  o.host = options_.host;
  o.port = options_.port;
  o.tls = options_.tls;
  o.connect_timeout = options_.connect_timeout;
  std::weak_ptr<NodeClient> weak = weak_from_this();
  net::WsClient::Handlers h;
  h.message = [weak](std::string text) {
    if (auto self = weak.lock()) self->on_message(text);
  };
  h.closed = [weak](uint16_t code, std::string reason) {
    if (auto self = weak.lock()) self->on_closed(code, reason);
  };
  last_frame_ms_ = steady_ms();
  ws_ = net::ws_connect(io_, o, std::move(h));
}

void NodeClient::schedule_reconnect() {
  if (stopping_) return;
  reconnect_timer_.expires_after(backoff_);
  backoff_ = std::min(backoff_ * 2, options_.reconnect_max);
  std::weak_ptr<NodeClient> weak = weak_from_this();
  reconnect_timer_.async_wait([weak](const boost::system::error_code& ec) {
    if (auto self = weak.lock(); self && !ec) self->connect();
  });
}

void NodeClient::on_closed(uint16_t code, const std::string& reason) {
  ws_.reset();
  bool was_live = live_;
  live_ = false;
  for (Outgoing& o : outbox_) o.sent_id.reset();  // unanswered: sent again after the reconnect
  streams_link_down();
  tick_timer_.cancel();
  stats_timer_.cancel();
  if (stopping_) {
    if (stopped_) std::exchange(stopped_, nullptr)();
    return;
  }
  // One line per change: a gateway that stays down (or a pairing that stays pending) is not
  // reported again on every attempt.
  std::string why = std::to_string(code) + (reason.empty() ? "" : " " + reason);
  if (options_.log && (was_live || (pairing_request_id_.empty() && why != last_close_))) {
    options_.log("gateway " + endpoint_ + ": disconnected (" + why + "); reconnecting (backoff " + std::to_string(backoff_.count()) +
                 " ms, at most " + std::to_string(options_.reconnect_max.count()) + " ms)");
  }
  last_close_ = why;
  schedule_reconnect();
}

void NodeClient::on_message(const std::string& text) {
  last_frame_ms_ = steady_ms();
  std::optional<json::Value> parsed = json::parse(text);
  if (!parsed || !parsed->is_object()) return;
  const json::Object& frame = parsed->get_object();
  std::string type = json::string_member(frame, "type");
  if (type == "event") {
    std::string event = json::string_member(frame, "event");
    const json::Object* payload = json::object_member(frame, "payload");
    static const json::Object kEmpty;
    if (event == "connect.challenge") return on_challenge(payload ? *payload : kEmpty);
    if (event == "node.invoke.request" && live_ && payload) return on_invoke(*payload);
    if (event == "node.invoke.cancel" && payload) {
      std::string invoke_id = json::string_member(*payload, "invokeId");
      if (!invoke_id.empty()) runner_.cancel(run_scope(invoke_id));
      return;
    }
    return;
  }
  if (type == "res") {
    std::string id = json::string_member(frame, "id");
    if (!connect_id_.empty() && id == connect_id_) return on_connect_response(frame);
    return on_response(id, frame);
  }
}

void NodeClient::on_challenge(const json::Object& payload) {
  if (!ws_ || live_) return;
  auth_ = resolve_node_auth(options_.env_token, device_token_, options_.flag_token, options_.config_token);
  ConnectInputs in;
  in.display_name = options_.display_name;
  in.version = options_.version;
  in.path_env = options_.path_env;
  in.nonce = json::string_member(payload, "nonce");
  in.signed_at = json::integer_member(payload, "ts").value_or(epoch_ms());
  Result<json::Object> params = connect_params(identity_, auth_, in);
  if (!params.ok()) {
    if (options_.log) options_.log("connect: " + params.error().message);
    return std::shared_ptr<net::WsClient>(ws_)->close(1008, "connect failed");
  }
  connect_id_ = next_request_id();
  send_request("connect", std::move(*params), connect_id_);
}

void NodeClient::on_connect_response(const json::Object& frame) {
  connect_id_.clear();
  const json::Value* ok = json::find(frame, "ok");
  if (ok && ok->is_bool() && ok->get_bool()) {
    const json::Object* payload = json::object_member(frame, "payload");
    live_ = true;
    backoff_ = options_.reconnect_initial;
    pairing_request_id_.clear();
    gateway_streams_ = false;
    if (payload) {
      if (const json::Object* features = json::object_member(*payload, "features")) {
        for (const std::string& cap : json::strings_member(*features, "capabilities")) gateway_streams_ |= cap == exec::kNodeStreamCap;
      }
      if (const json::Object* policy = json::object_member(*payload, "policy")) {
        tick_interval_ms_ = std::max<int64_t>(1000, json::integer_member(*policy, "tickIntervalMs").value_or(30000));
      }
      const json::Object* auth = json::object_member(*payload, "auth");
      std::optional<std::string> token = auth ? nonempty_string(*auth, "deviceToken") : std::nullopt;
      if (token && token != device_token_) {
        device_token_ = token;
        off_thread([dir = options_.node_dir, id = identity_.device_id, ep = endpoint_, t = *token] { return save_device_token(dir, id, ep, t); },
                   [](NodeClient& self, Result<void> r) {
                     if (!r.ok() && self.options_.log) self.options_.log("saving the device token: " + r.error().message);
                   });
      }
    }
    if (options_.log) {
      options_.log("connected to gateway " + endpoint_ + " as node " + identity_.device_id + " (auth: " + auth_.source + ")");
    }
    schedule_tick_watch();
    schedule_stats();
    pump_outbox();
    detached_timer_.cancel();
    detached_armed_ = false;
    if (gateway_streams_) {
      // What this node still runs for the gateway: a session it no longer has ended here.
      json::Array ids;
      for (const auto& [sid, stream] : streams_) ids.emplace_back(sid);
      send_request("node.event", json::Object{{"event", "clawexec.exec.streams"}, {"payloadJSON", json::serialize(json::Object{{"streamIds", std::move(ids)}})}},
                   next_request_id());
    }
    pump_streams();
    return;
  }
  const json::Object* error = json::object_member(frame, "error");
  static const json::Object kEmpty;
  const json::Object& e = error ? *error : kEmpty;
  const json::Object* details = json::object_member(e, "details");
  std::string detail_code = details ? json::string_member(*details, "code") : std::string();
  std::string message = json::string_member(e, "message");
  if (detail_code == "PAIRING_REQUIRED") {
    std::string request_id = json::string_member(*details, "requestId");
    if (request_id != pairing_request_id_ && options_.log) {
      options_.log("pairing required: approve device " + identity_.device_id + " on the gateway (requestId " + request_id +
                   "); retrying until it is approved");
    }
    pairing_request_id_ = request_id.empty() ? "pending" : request_id;
  } else if (auth_.kind == NodeAuth::Kind::kDeviceToken &&
             (detail_code.rfind("AUTH_DEVICE_TOKEN", 0) == 0 || message.find("unauthorized") != std::string::npos)) {
    // The gateway no longer knows this device token (its state was reset, the token revoked):
    // forget it and present the shared credential on the next attempt.
    if (options_.log) options_.log("gateway refused the saved device token (" + message + "); forgetting it");
    device_token_.reset();
    backoff_ = std::chrono::milliseconds(250);
    off_thread([dir = options_.node_dir, id = identity_.device_id, ep = endpoint_] { return save_device_token(dir, id, ep, ""); },
               [](NodeClient&, Result<void>) {});
  } else if (detail_code.rfind("AUTH_TOKEN_", 0) == 0 || detail_code.rfind("AUTH_PASSWORD_", 0) == 0) {
    std::string why = "gateway " + endpoint_ + " refused the credential from " +
                      (auth_.source.empty() ? std::string("nowhere (none configured)") : auth_.source) + ": " + message +
                      ". Set OPENCLAW_GATEWAY_TOKEN or --token to the gateway's token.";
    stopping_ = true;
    if (ws_) std::shared_ptr<net::WsClient>(ws_)->close(1008, "connect failed");
    if (options_.fatal) options_.fatal(why);
    return;
  } else if (options_.log) {
    options_.log("gateway " + endpoint_ + " refused the connect: " + json::string_member(e, "code") + " " + message);
  }
  if (ws_) std::shared_ptr<net::WsClient>(ws_)->close(1008, "connect failed");
}

void NodeClient::schedule_tick_watch() {
  tick_timer_.expires_after(std::chrono::milliseconds(tick_interval_ms_));
  std::weak_ptr<NodeClient> weak = weak_from_this();
  tick_timer_.async_wait([weak](const boost::system::error_code& ec) {
    auto self = weak.lock();
    if (!self || ec || !self->live_ || !self->ws_) return;
    if (steady_ms() - self->last_frame_ms_ > 2 * self->tick_interval_ms_) {
      if (self->options_.log) self->options_.log("gateway " + self->endpoint_ + " went silent; reconnecting");
      std::shared_ptr<net::WsClient>(self->ws_)->close(4000, "tick timeout");
      return;
    }
    self->schedule_tick_watch();
  });
}

// Stats are current or nothing: sent only while live, outside the outbox (nothing to replay).
void NodeClient::schedule_stats() {
  off_thread([dir = options_.node_dir] { return host_stats(dir); }, [](NodeClient& self, json::Object stats) {
    if (!self.live_ || !self.ws_) return;
    self.send_request("node.event", json::Object{{"event", "node.host.stats"}, {"payloadJSON", json::serialize(stats)}}, self.next_request_id());
  });
  stats_timer_.expires_after(options_.stats_interval);
  std::weak_ptr<NodeClient> weak = weak_from_this();
  stats_timer_.async_wait([weak](const boost::system::error_code& ec) {
    if (auto self = weak.lock(); self && !ec && self->live_) self->schedule_stats();
  });
}

void NodeClient::send_request(const std::string& method, json::Object params, std::string id) {
  if (!ws_) return;
  json::Object frame{{"type", "req"}, {"id", std::move(id)}, {"method", method}, {"params", std::move(params)}};
  ws_->send(frame_text(frame));
}

void NodeClient::on_response(const std::string& id, const json::Object& frame) {
  if (on_stream_response(id, frame)) return;
  auto it = std::find_if(outbox_.begin(), outbox_.end(), [&](const Outgoing& o) { return o.sent_id == id; });
  if (it == outbox_.end()) return;
  Outgoing done = std::move(*it);
  outbox_.erase(it);
  const json::Value* ok = json::find(frame, "ok");
  if (!(ok && ok->is_bool() && ok->get_bool()) && options_.log) {
    const json::Object* e = json::object_member(frame, "error");
    options_.log("gateway refused " + done.method + " for invoke " + done.invoke_id + ": " +
                 (e ? json::string_member(*e, "message") : std::string("?")));
  }
  if (done.method == "node.invoke.result") active_invokes_.erase(done.invoke_id);
}

void NodeClient::enqueue(Outgoing out) {
  // Bounded: a gateway that stays away does not grow the node without limit. The oldest
  // frame not yet sent goes first.
  if (outbox_.size() >= kMaxOutbox) {
    auto victim = std::find_if(outbox_.begin(), outbox_.end(), [](const Outgoing& o) { return !o.sent_id; });
    if (victim != outbox_.end()) {
      if (options_.log) options_.log("outbox full: dropping " + victim->method + " for invoke " + victim->invoke_id);
      if (victim->method == "node.invoke.result") active_invokes_.erase(victim->invoke_id);
      outbox_.erase(victim);
    }
  }
  outbox_.push_back(std::move(out));
  pump_outbox();
}

// Frames are written in queue order on the one connection, so an event reaches the gateway
// before its result without waiting for the gateway's answer in between.
void NodeClient::pump_outbox() {
  if (!live_ || !ws_) return;
  for (Outgoing& o : outbox_) {
    if (o.sent_id) continue;
    o.sent_id = next_request_id();
    send_request(o.method, o.params, *o.sent_id);
  }
}

}  // namespace clawexec::node
