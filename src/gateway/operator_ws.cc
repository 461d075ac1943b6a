// OpenClaw's operator WebSocket protocol: frames, the handshake, the method policy and the
// approval methods. See operator_ws.h; devices are in operator_devices.cc.

#include "gateway/operator_ws.h"

#include <algorithm>
#include <boost/asio/post.hpp>

#include "approvals/random.h"
#include "base/time.h"
#include "gateway/operator_admin.h"
#include "gateway/operator_internal.h"

namespace clawexec::gateway {
namespace frames {

std::string str(const json::Object& o, std::string_view key) { return json::string_member(o, key); }

const json::Object* obj(const json::Object& o, std::string_view key) { return json::object_member(o, key); }

std::optional<int64_t> int_member(const json::Object& o, std::string_view key) { return json::integer_member(o, key); }

std::optional<std::vector<std::string>> string_list(const json::Object& o, std::string_view key, std::string* error) {
  const json::Value* v = json::find(o, key);
  if (!v) return std::nullopt;
  std::vector<std::string> out;
  if (!v->is_array()) {
    *error = std::string(key) + " must be an array of strings";
    return out;
  }
  for (const json::Value& s : v->get_array()) {
    if (!s.is_string()) {
      *error = std::string(key) + " must be an array of strings";
      return out;
    }
    out.emplace_back(s.get_string());
  }
  return out;
}

json::Array to_array(const std::vector<std::string>& items) { return json::string_array(items); }

std::string res_ok(const std::string& id, json::Value payload) {
  return json::serialize(json::Object{{"type", "res"}, {"id", id}, {"ok", true}, {"payload", std::move(payload)}});
}

std::string res_error(const std::string& id, std::string_view code, const std::string& message,
                      std::optional<json::Object> details) {
  json::Object error{{"code", code}, {"message", message}};
  if (details) error["details"] = std::move(*details);
  return json::serialize(json::Object{{"type", "res"}, {"id", id}, {"ok", false}, {"error", std::move(error)}});
}

std::string res_error_retry(const std::string& id, const std::string& message, json::Object details, int64_t retry_after_ms) {
  json::Object error{{"code", "UNAVAILABLE"}, {"message", message}, {"details", std::move(details)}, {"retryable", true},
                     {"retryAfterMs", retry_after_ms}};
  return json::serialize(json::Object{{"type", "res"}, {"id", id}, {"ok", false}, {"error", std::move(error)}});
}

std::string event(const std::string& name, const json::Value& payload, std::optional<int64_t> seq) {
  json::Object frame{{"type", "event"}, {"event", name}, {"payload", payload}};
  if (seq) frame["seq"] = *seq;
  return json::serialize(frame);
}

}  // namespace frames

namespace {

constexpr std::string_view kConnectKeys[] = {
    "minProtocol", "maxProtocol", "client",      "caps",      "commands",   "permissions", "pathEnv",
    "role",        "scopes",      "computerUse", "workerRuns", "modelCatalog", "device",   "auth",
    "locale",      "userAgent"};
constexpr int kMinNodeProtocol = 3;

// OpenClaw's method policy for what we serve: the one operator scope a method needs
// (operator.admin satisfies every one, operator.write satisfies read).
std::string_view required_scope(const std::string& method) {
  if (method.rfind("exec.approval.", 0) == 0) return "operator.approvals";
  if (method.rfind("device.pair.", 0) == 0 || method.rfind("device.token.", 0) == 0) return "operator.pairing";
  if (method == "health" || method == "status" || method == "config.get") return "operator.read";
  if (method == "clawexec.sessions.list" || method == "clawexec.sessions.log" || method == "clawexec.sessions.follow" ||
      method == "clawexec.sessions.unfollow") {
    return "operator.read";
  }
  if (method == "clawexec.sessions.kill") return "operator.write";
  if (method == "node.list" || method == "node.describe") return "operator.read";
  if (method == "clawexec.policy.presets") return "operator.read";
  if (method == "node.invoke") return "operator.write";
  if (method.rfind("node.pair.", 0) == 0 || method == "node.rename") return "operator.pairing";
  return "operator.admin";
}

std::string mode_name(config::GatewayAuthMode mode) { return mode == config::GatewayAuthMode::kPassword ? "password" : "token"; }

}  // namespace

const std::vector<std::string>& OperatorHub::methods() {
  static const std::vector<std::string> m = {"connect",
                                             "health",
                                             "status",
                                             "exec.approval.list",
                                             "exec.approval.get",
                                             "exec.approval.resolve",
                                             "exec.approval.request",
                                             "exec.approval.waitDecision",
                                             "device.pair.list",
                                             "device.pair.approve",
                                             "device.pair.reject",
                                             "device.pair.remove",
                                             "device.pair.rename",
                                             "device.token.rotate",
                                             "device.token.revoke",
                                             "exec.approvals.get",
                                             "exec.approvals.set",
                                             "config.get",
                                             "config.patch",
                                             "clawexec.sessions.list",
                                             "clawexec.sessions.log",
                                             "clawexec.sessions.follow",
                                             "clawexec.sessions.unfollow",
                                             "clawexec.sessions.write",
                                             "clawexec.sessions.sendKeys",
                                             "clawexec.sessions.submit",
                                             "clawexec.sessions.paste",
                                             "clawexec.sessions.kill",
                                             "clawexec.policy.explain",
                                             "clawexec.policy.presets",
                                             "clawexec.security.audit",
                                             "clawexec.doctor",
                                             "clawexec.doctor.fix",
                                             "node.list",
                                             "node.describe",
                                             "node.invoke",
                                             "node.invoke.result",
                                             "node.event",
                                             "node.pair.list",
                                             "node.pair.approve",
                                             "node.pair.reject",
                                             "node.pair.remove",
                                             "node.rename",
                                             "exec.approvals.node.get",
                                             "exec.approvals.node.set"};
  return m;
}

const std::vector<std::string>& OperatorHub::events() {
  static const std::vector<std::string> e = {"connect.challenge",      "tick",
                                             "exec.approval.requested", "exec.approval.resolved",
                                             "device.pair.requested",  "device.pair.resolved",
                                             "device.pair.changed",    "clawexec.session.output",
                                             "clawexec.session.exited", "node.pair.requested",
                                             "node.pair.resolved",     "node.invoke.request"};
  return e;
}

OperatorHub::OperatorHub(boost::asio::io_context& io, OperatorOptions options, ApprovalSource source)
    : io_(io), options_(std::move(options)), source_(std::move(source)), started_ms_(steady_ms()), tick_timer_(io), follow_timer_(io) {
  schedule_tick();
}

OperatorHub::~OperatorHub() {
  *alive_ = false;
  tick_timer_.cancel();
  follow_timer_.cancel();
  close_all();
}

void OperatorHub::close_all() {
  std::vector<std::string> invokes;
  for (const auto& [id, inv] : invokes_) invokes.push_back(id);
  for (const std::string& id : invokes) finish_invoke(id, exec::NodeInvokeError{"UNAVAILABLE", "gateway shutting down"});
  node_conns_.clear();
  auto all = std::move(connections_);
  connections_.clear();
  for (auto& [id, c] : all) c->socket->close(1012, "gateway shutting down");
}

void OperatorHub::accept(const net::HttpRequest& request, std::shared_ptr<net::WebSocket> socket) {
  auto c = std::make_shared<Connection>();
  c->id = next_conn_++;
  c->conn_id = approvals::random_uuid();
  c->socket = std::move(socket);
  c->loopback = request.peer_loopback;
  c->peer_address = request.peer_address;
  c->has_origin = request.header("origin").has_value();
  c->nonce = approvals::random_uuid();
  c->challenge_ts = epoch_ms();
  connections_[c->id] = c;
  std::weak_ptr<Connection> weak = c;
  std::weak_ptr<bool> alive = alive_;
  c->socket->start({[this, weak, alive](std::string text) {
                      if (alive.expired()) return;
                      if (auto live = weak.lock()) on_message(live, std::move(text));
                    },
                    [this, weak, alive](uint16_t, std::string) {
                      if (alive.expired()) return;
                      if (auto live = weak.lock()) {
                        if (live->handshake_timer) live->handshake_timer->cancel();
                        if (live->authenticated && live->role == "node") node_closed(*live);
                        if (live->authenticated && live->role != "node") operator_closed(*live);
                        live->authenticated = false;
                        // Not erased here: this runs inside send() when a peer that does not
                        // read is cut off, and send() is called while iterating connections_.
                        boost::asio::post(io_, [this, alive, cid = live->id] {
                          if (!alive.expired()) connections_.erase(cid);
                        });
                      }
                    }});
  c->handshake_timer = std::make_unique<boost::asio::steady_timer>(io_, std::chrono::milliseconds(options_.handshake_timeout_ms));
  c->handshake_timer->async_wait([weak, alive](const boost::system::error_code& ec) {
    if (ec || alive.expired()) return;
    if (auto live = weak.lock(); live && !live->authenticated) live->socket->close(1008, "handshake timeout");
  });
  c->send(frames::event("connect.challenge",
                        json::Object{{"nonce", c->nonce}, {"ts", c->challenge_ts}, {"capabilities", json::Array()}}));
}

void OperatorHub::on_message(const std::shared_ptr<Connection>& c, std::string text) {
  std::optional<json::Value> parsed = json::parse(text);
  if (!parsed || !parsed->is_object()) {
    if (!c->authenticated) return c->socket->close(1008, "invalid-handshake");
    return c->send(res_error("", "INVALID_REQUEST", "invalid frame: expected a JSON object"));
  }
  const json::Object& frame = parsed->get_object();
  if (!c->authenticated) return handshake(c, frame);
  std::string id = str(frame, "id");
  if (str(frame, "type") != "req" || id.empty() || str(frame, "method").empty()) {
    return c->send(res_error(id, "INVALID_REQUEST", "invalid frame: expected {type:\"req\", id, method, params?}"));
  }
  const json::Object* params = obj(frame, "params");
  static const json::Object kEmpty;
  dispatch(c, id, str(frame, "method"), params ? *params : kEmpty);
}

void OperatorHub::handshake(const std::shared_ptr<Connection>& c, const json::Object& frame) {
  std::string id = str(frame, "id");
  auto refuse = [&](std::string_view code, const std::string& message, uint16_t close_code, const std::string& reason,
                    std::optional<json::Object> details = std::nullopt) {
    c->send(res_error(id, code, message, std::move(details)));
    c->socket->close(close_code, reason);
  };
  if (str(frame, "type") != "req" || str(frame, "method") != "connect" || id.empty()) {
    return refuse("INVALID_REQUEST", "invalid handshake: the first request must be connect", 1008, "invalid-handshake");
  }
  const json::Object* params = obj(frame, "params");
  if (!params) return refuse("INVALID_REQUEST", "invalid connect params: params must be an object", 1008, "invalid-handshake");
  for (const auto& kv : *params) {
    if (std::find(std::begin(kConnectKeys), std::end(kConnectKeys), std::string_view(kv.key())) == std::end(kConnectKeys)) {
      return refuse("INVALID_REQUEST", "invalid connect params: unexpected property '" + std::string(kv.key()) + "'", 1008,
                    "invalid-handshake");
    }
  }
  const json::Object* client = obj(*params, "client");
  std::optional<int64_t> min = int_member(*params, "minProtocol"), max = int_member(*params, "maxProtocol");
  if (!client || !min || !max || str(*client, "id").empty() || str(*client, "mode").empty()) {
    return refuse("INVALID_REQUEST",
                  "invalid connect params: minProtocol, maxProtocol and client{id, version, platform, mode} are required", 1008,
                  "invalid-handshake");
  }
  std::string role = str(*params, "role");
  if (role.empty()) role = "operator";
  if (role != "operator" && role != "node") {
    return refuse("INVALID_REQUEST", "invalid role: \"" + role + "\" (expected operator or node)", 1008, "invalid role");
  }
  const int lowest = role == "node" && str(*client, "mode") == "node" ? kMinNodeProtocol : kProtocolVersion;
  if (*min > kProtocolVersion || *max < lowest) {
    return refuse("INVALID_REQUEST", "protocol mismatch", 1002, "protocol mismatch",
                  json::Object{{"expectedProtocol", kProtocolVersion}});
  }
  std::string list_error;
  std::vector<std::string> scopes = frames::string_list(*params, "scopes", &list_error).value_or(std::vector<std::string>{});
  if (!list_error.empty()) return refuse("INVALID_REQUEST", "invalid connect params: " + list_error, 1008, "invalid-handshake");
  for (const std::string& s : scopes) {
    if (role == "operator" ? !is_operator_scope(s) : true) {
      return refuse("INVALID_REQUEST", "invalid connect params: unknown scope '" + s + "' for role " + role, 1008, "invalid-handshake");
    }
  }
  std::vector<std::string> unique;
  for (const std::string& s : scopes) {
    if (std::find(unique.begin(), unique.end(), s) == unique.end()) unique.push_back(s);
  }
  c->role = role;
  c->client_id = str(*client, "id");
  c->client_mode = str(*client, "mode");
  c->scopes = std::move(unique);
  c->caps = frames::string_list(*params, "caps", &list_error).value_or(std::vector<std::string>{});
  if (!list_error.empty()) return refuse("INVALID_REQUEST", "invalid connect params: " + list_error, 1008, "invalid-handshake");

  // The shared secret, when one is sent, must be right; a device token alone is checked with the
  // device below.
  const json::Object* auth = obj(*params, "auth");
  const bool password_mode = options_.credential.mode == config::GatewayAuthMode::kPassword;
  std::string secret = auth ? str(*auth, password_mode ? "password" : "token") : std::string();
  std::string device_token = auth ? str(*auth, "deviceToken") : std::string();
  const std::string what = password_mode ? "password" : "token";
  const int64_t now = steady_ms();
  if (options_.limiter) {
    if (std::optional<int64_t> wait = options_.limiter->blocked_for(c->peer_address, c->loopback, now)) {
      std::string why = "too many failed authentication attempts (retry later)";
      c->send(frames::res_error_retry(id, "unauthorized: " + why, json::Object{{"code", "AUTH_RATE_LIMITED"}}, *wait));
      return c->socket->close(1008, "unauthorized: " + why);
    }
  }
  auto failed = [&] {
    if (options_.limiter) options_.limiter->record_failure(c->peer_address, c->loopback, now);
  };
  if (!secret.empty() && !options_.credential.accepts(secret)) {
    failed();
    std::string why = "gateway " + what + " mismatch";
    return refuse("INVALID_REQUEST", "unauthorized: " + why, 1008, "unauthorized: " + why,
                  json::Object{{"code", password_mode ? "AUTH_PASSWORD_MISMATCH" : "AUTH_TOKEN_MISMATCH"}});
  }
  if (secret.empty() && (device_token.empty() || !json::find(*params, "device"))) {
    failed();
    std::string why = "gateway " + what + " missing";
    return refuse("INVALID_REQUEST", "unauthorized: " + why, 1008, "unauthorized: " + why,
                  json::Object{{"code", password_mode ? "AUTH_PASSWORD_MISSING" : "AUTH_TOKEN_MISSING"}});
  }
  c->auth_method = secret.empty() ? "device-token" : mode_name(options_.credential.mode);
  if (json::find(*params, "device")) {
    if (!admit_device(c, id, *params, *client, !secret.empty())) return;
  } else if (!c->loopback || role != "operator") {
    return refuse("NOT_PAIRED", "device identity required", 1008, "device identity required",
                  json::Object{{"code", "DEVICE_IDENTITY_REQUIRED"}});
  }

  if (options_.limiter) options_.limiter->record_success(c->peer_address);
  if (role == "node") {
    std::vector<std::string> commands = frames::string_list(*params, "commands", &list_error).value_or(std::vector<std::string>{});
    if (!list_error.empty()) return refuse("INVALID_REQUEST", "invalid connect params: " + list_error, 1008, "invalid-handshake");
    c->node.commands = std::move(commands);
    c->path_env = str(*params, "pathEnv");
    node_connected(c, *params, *client);
  }
  c->authenticated = true;
  if (c->handshake_timer) c->handshake_timer->cancel();
  c->socket->set_max_message(kMaxPayload);
  json::Object snapshot{{"presence", json::Array()},
                        {"health", json::Object{{"ok", true}}},
                        {"stateVersion", json::Object{{"presence", 0}, {"health", 0}}},
                        {"uptimeMs", steady_ms() - started_ms_}};
  if (c->admin()) snapshot["authMode"] = mode_name(options_.credential.mode);
  json::Object hello_auth{{"method", c->auth_method}, {"role", c->role}, {"scopes", frames::to_array(c->scopes)}};
  if (!c->issued_device_token.empty()) {
    hello_auth["deviceToken"] = c->issued_device_token;
    hello_auth["issuedAtMs"] = c->issued_at_ms;
  }
  json::Object hello{
      {"type", "hello-ok"},
      {"protocol", kProtocolVersion},
      {"server", json::Object{{"version", options_.version}, {"connId", c->conn_id}}},
      {"features", json::Object{{"methods", frames::to_array(methods())}, {"events", frames::to_array(events())}, {"capabilities", json::Array{exec::kNodeStreamCap}}}},
      {"snapshot", std::move(snapshot)},
      {"auth", std::move(hello_auth)},
      {"policy", json::Object{{"maxPayload", kMaxPayload},
                              {"maxBufferedBytes", kMaxBufferedBytes},
                              {"tickIntervalMs", options_.tick_interval_ms}}}};
  c->send(res_ok(id, std::move(hello)));
}

void OperatorHub::dispatch(const std::shared_ptr<Connection>& c, const std::string& id, const std::string& method,
                           const json::Object& params) {
  if (std::find(methods().begin(), methods().end(), method) == methods().end() || method == "connect") {
    return c->send(res_error(id, "INVALID_REQUEST", "unknown method: " + method));
  }
  if (c->role == "node") return node_role_method(c, id, method, params);
  if (method == "node.invoke.result" || method == "node.event") {
    return c->send(res_error(id, "FORBIDDEN", "method " + method + " is for nodes; this connection's role is " + c->role));
  }
  if (c->role != "operator") {
    return c->send(res_error(id, "FORBIDDEN", "method " + method + " is for operators; this connection's role is " + c->role));
  }
  std::string_view needed = required_scope(method);
  if (!c->holds(needed)) {
    return c->send(res_error(id, "FORBIDDEN", "missing scope: " + std::string(needed),
                             json::Object{{"code", "MISSING_SCOPE"}, {"missingScope", needed}, {"requiredScopes", json::Array{json::Value(needed)}}}));
  }
  if (method.rfind("device.", 0) == 0) return device_method(c, id, method, params);
  if (method == "node.rename" || method == "node.pair.remove") return node_admin_method(c, id, method, params);
  if (method.rfind("node.", 0) == 0 || method.rfind("exec.approvals.node.", 0) == 0) return node_method(c, id, method, params);
  if (method.rfind("exec.approvals.", 0) == 0 || method.rfind("config.", 0) == 0) return admin_method(c, id, method, params);
  if (method.rfind("clawexec.sessions.", 0) == 0) return session_method(c, id, method, params);
  if (method == "clawexec.policy.explain") return policy_method(c, id, params);
  if (method == "clawexec.policy.presets") return presets_method(c, id, params);
  if (method == "clawexec.security.audit" || method.rfind("clawexec.doctor", 0) == 0) return audit_method(c, id, method, params);
  if (method == "health") {
    return c->send(res_ok(id, json::Object{{"ok", true}, {"ts", epoch_ms()}, {"uptimeMs", steady_ms() - started_ms_}}));
  }
  if (method == "status") {
    json::Object out = source_.status ? source_.status() : json::Object();
    out["version"] = options_.version;
    out["uptimeMs"] = steady_ms() - started_ms_;
    out["operators"] = static_cast<int64_t>(connections_.size());
    return c->send(res_ok(id, std::move(out)));
  }
  return approval_method(c, id, method, params);
}

void OperatorHub::admin_method(const std::shared_ptr<Connection>& c, const std::string& id, const std::string& method,
                               const json::Object& params) {
  auto answer = [&](Result<json::Object> r) {
    if (!r.ok()) return c->send(res_error(id, "INVALID_REQUEST", r.error().message));
    c->send(res_ok(id, std::move(*r)));
  };
  std::optional<std::string> base_hash;
  if (const json::Value* h = json::find(params, "baseHash")) {
    if (!h->is_string() || h->get_string().empty()) return c->send(res_error(id, "INVALID_REQUEST", "invalid " + method + " params: baseHash must be a non-empty string"));
    base_hash = std::string(h->get_string());
  }
  if (method == "exec.approvals.get") return answer(exec_approvals_get(options_.files));
  if (method == "config.get") return answer(exec_config_get(options_.files));
  if (method == "exec.approvals.set") {
    const json::Value* file = json::find(params, "file");
    if (!file) return c->send(res_error(id, "INVALID_REQUEST", "invalid exec.approvals.set params: file (object) required"));
    return answer(exec_approvals_set(options_.files, *file, base_hash));
  }
  const json::Value* raw = json::find(params, "raw");
  if (!raw || !raw->is_string() || raw->get_string().empty()) {
    return c->send(res_error(id, "INVALID_REQUEST", "invalid config.patch params: raw (string) required"));
  }
  Result<json::Object> patched = exec_config_patch(options_.files, raw->get_string(), base_hash);
  bool changed = patched.ok() && json::find(*patched, "changed") && json::find(*patched, "changed")->as_bool();
  answer(std::move(patched));
  if (changed && options_.config_changed) options_.config_changed();
}

void OperatorHub::broadcast(const std::string& event, const json::Object& payload, std::string_view scope) {
  std::string frame = frames::event(event, payload, static_cast<int64_t>(++event_seq_));
  for (auto& [id, c] : connections_) {
    if (c->authenticated && c->holds(scope)) c->send(frame);
  }
}

void OperatorHub::schedule_tick() {
  tick_timer_.expires_after(std::chrono::milliseconds(options_.tick_interval_ms));
  std::weak_ptr<bool> alive = alive_;
  tick_timer_.async_wait([this, alive](const boost::system::error_code& ec) {
    if (ec || alive.expired()) return;
    std::string frame = frames::event("tick", json::Object{{"ts", epoch_ms()}});
    for (auto& [id, c] : connections_) {
      if (c->authenticated) c->send(frame);
    }
    schedule_tick();
  });
}

}  // namespace clawexec::gateway
