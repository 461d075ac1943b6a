// OpenClaw's operator WebSocket protocol: see operator_ws.h.

#include "gateway/operator_ws.h"

#include <algorithm>
#include <set>

#include "approvals/random.h"
#include "base/time.h"

namespace clawexec::gateway {
namespace {

constexpr std::string_view kConnectKeys[] = {
    "minProtocol", "maxProtocol", "client",      "caps",      "commands",   "permissions", "pathEnv",
    "role",        "scopes",      "computerUse", "workerRuns", "modelCatalog", "device",   "auth",
    "locale",      "userAgent"};
constexpr std::string_view kOperatorScopes[] = {"operator.read",      "operator.write",     "operator.admin",
                                                "operator.approvals", "operator.questions", "operator.pairing",
                                                "operator.talk",      "operator.talk.secrets"};

std::string str(const json::Object& o, std::string_view key) {
  const json::Value* v = json::find(o, key);
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

const json::Object* obj(const json::Object& o, std::string_view key) {
  const json::Value* v = json::find(o, key);
  return v && v->is_object() ? &v->get_object() : nullptr;
}

std::optional<int64_t> int_member(const json::Object& o, std::string_view key) {
  const json::Value* v = json::find(o, key);
  if (v && v->is_int64()) return v->get_int64();
  if (v && v->is_uint64()) return static_cast<int64_t>(v->get_uint64());
  return std::nullopt;
}

std::string res_ok(const std::string& id, json::Value payload) {
  return json::serialize(json::Object{{"type", "res"}, {"id", id}, {"ok", true}, {"payload", std::move(payload)}});
}

std::string res_error(const std::string& id, std::string_view code, const std::string& message,
                      std::optional<json::Object> details = std::nullopt) {
  json::Object error{{"code", code}, {"message", message}};
  if (details) error["details"] = std::move(*details);
  return json::serialize(json::Object{{"type", "res"}, {"id", id}, {"ok", false}, {"error", std::move(error)}});
}

// OpenClaw's method policy for what we serve: the scopes any one of which allows a method.
std::vector<std::string_view> required_scopes(const std::string& method) {
  if (method.rfind("exec.approval.", 0) == 0) return {"operator.approvals", "operator.admin"};
  return {"operator.read", "operator.write", "operator.admin"};
}

// The approval as `exec.approval.list` and the events carry it.
json::Object approval_record(const json::Object& a) {
  json::Object request;
  for (std::string_view key : {"command", "cwd", "host", "agentId", "warningText", "allowedDecisions", "security", "ask"}) {
    if (const json::Value* v = json::find(a, key)) request[key] = *v;
  }
  request["nodeId"] = nullptr;
  json::Object out{{"approvalKind", "exec"}, {"id", str(a, "id")}, {"request", std::move(request)}};
  if (auto v = int_member(a, "createdAtMs")) out["createdAtMs"] = *v;
  if (auto v = int_member(a, "expiresAtMs")) out["expiresAtMs"] = *v;
  return out;
}

}  // namespace

struct OperatorHub::Connection {
  uint64_t id = 0;
  std::string conn_id;
  std::shared_ptr<net::WebSocket> socket;
  std::string nonce;
  bool authenticated = false;
  bool loopback = false;
  std::set<std::string> scopes;
  std::unique_ptr<boost::asio::steady_timer> handshake_timer;

  void send(std::string text) { socket->send(std::move(text)); }
  bool has_any(const std::vector<std::string_view>& wanted) const {
    return std::any_of(wanted.begin(), wanted.end(), [&](std::string_view s) { return scopes.count(std::string(s)) > 0; });
  }
  bool admin() const { return scopes.count("operator.admin") > 0; }
  bool approval_client() const { return admin() || scopes.count("operator.approvals") > 0; }
};

const std::vector<std::string>& OperatorHub::methods() {
  static const std::vector<std::string> m = {"connect", "health", "status", "exec.approval.list", "exec.approval.get",
                                             "exec.approval.resolve"};
  return m;
}

const std::vector<std::string>& OperatorHub::events() {
  static const std::vector<std::string> e = {"connect.challenge", "tick", "exec.approval.requested", "exec.approval.resolved"};
  return e;
}

OperatorHub::OperatorHub(boost::asio::io_context& io, OperatorOptions options, ApprovalSource source)
    : io_(io), options_(std::move(options)), source_(std::move(source)), started_ms_(steady_ms()), tick_timer_(io) {
  schedule_tick();
}

OperatorHub::~OperatorHub() {
  *alive_ = false;
  tick_timer_.cancel();
  close_all();
}

void OperatorHub::close_all() {
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
  c->nonce = approvals::random_uuid();
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
                        connections_.erase(live->id);
                      }
                    }});
  c->handshake_timer = std::make_unique<boost::asio::steady_timer>(io_, std::chrono::milliseconds(options_.handshake_timeout_ms));
  c->handshake_timer->async_wait([weak, alive](const boost::system::error_code& ec) {
    if (ec || alive.expired()) return;
    if (auto live = weak.lock(); live && !live->authenticated) live->socket->close(1008, "handshake timeout");
  });
  c->send(json::serialize(json::Object{
      {"type", "event"},
      {"event", "connect.challenge"},
      {"payload", json::Object{{"nonce", c->nonce}, {"ts", epoch_ms()}, {"capabilities", json::Array()}}}}));
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
  if (str(frame, "type") != "req" || str(frame, "method") != "connect" || id.empty()) {
    c->send(res_error(id, "INVALID_REQUEST", "invalid handshake: the first request must be connect"));
    return c->socket->close(1008, "invalid-handshake");
  }
  const json::Object* params = obj(frame, "params");
  if (!params) {
    c->send(res_error(id, "INVALID_REQUEST", "invalid connect params: params must be an object"));
    return c->socket->close(1008, "invalid-handshake");
  }
  for (const auto& kv : *params) {
    if (std::find(std::begin(kConnectKeys), std::end(kConnectKeys), std::string_view(kv.key())) == std::end(kConnectKeys)) {
      c->send(res_error(id, "INVALID_REQUEST", "invalid connect params: unexpected property '" + std::string(kv.key()) + "'"));
      return c->socket->close(1008, "invalid-handshake");
    }
  }
  const json::Object* client = obj(*params, "client");
  std::optional<int64_t> min = int_member(*params, "minProtocol"), max = int_member(*params, "maxProtocol");
  if (!client || !min || !max || str(*client, "id").empty() || str(*client, "mode").empty()) {
    c->send(res_error(id, "INVALID_REQUEST", "invalid connect params: minProtocol, maxProtocol and client{id, version, platform, mode} are required"));
    return c->socket->close(1008, "invalid-handshake");
  }
  if (*min > kProtocolVersion || *max < kProtocolVersion) {
    c->send(res_error(id, "INVALID_REQUEST", "protocol mismatch",
                      json::Object{{"expectedProtocol", kProtocolVersion}}));
    return c->socket->close(1002, "protocol mismatch");
  }
  std::string role = str(*params, "role");
  if (role.empty()) role = "operator";
  if (role != "operator") {
    c->send(res_error(id, "INVALID_REQUEST", "role \"" + role + "\" is not served by this gateway yet (operators only)"));
    return c->socket->close(1008, "invalid role");
  }
  const json::Object* auth = obj(*params, "auth");
  std::string secret = auth ? (options_.credential.mode == config::GatewayAuthMode::kPassword ? str(*auth, "password")
                                                                                              : str(*auth, "token"))
                            : std::string();
  if (!options_.credential.accepts(secret)) {
    std::string why = secret.empty() ? "gateway token missing" : "gateway token mismatch";
    if (options_.credential.mode == config::GatewayAuthMode::kPassword) why = secret.empty() ? "gateway password missing" : "gateway password mismatch";
    c->send(res_error(id, "INVALID_REQUEST", "unauthorized: " + why, json::Object{{"code", "AUTH_FAILED"}}));
    return c->socket->close(1008, "unauthorized: " + why);
  }
  if (json::find(*params, "device")) {
    c->send(res_error(id, "INVALID_REQUEST", "device identity is not supported by this gateway yet; connect without device from loopback",
                      json::Object{{"code", "DEVICE_AUTH_UNSUPPORTED"}}));
    return c->socket->close(1008, "device identity unsupported");
  }
  if (!c->loopback) {
    c->send(res_error(id, "NOT_PAIRED", "device identity required", json::Object{{"code", "DEVICE_IDENTITY_REQUIRED"}}));
    return c->socket->close(1008, "device identity required");
  }
  json::Array granted;
  if (const json::Value* scopes = json::find(*params, "scopes"); scopes && scopes->is_array()) {
    for (const json::Value& s : scopes->get_array()) {
      if (!s.is_string()) continue;
      std::string_view scope = s.get_string();
      if (std::find(std::begin(kOperatorScopes), std::end(kOperatorScopes), scope) == std::end(kOperatorScopes)) {
        c->send(res_error(id, "INVALID_REQUEST", "invalid connect params: unknown scope '" + std::string(scope) + "'"));
        return c->socket->close(1008, "invalid-handshake");
      }
      if (c->scopes.insert(std::string(scope)).second) granted.emplace_back(scope);
    }
  }
  c->authenticated = true;
  if (c->handshake_timer) c->handshake_timer->cancel();
  c->socket->set_max_message(kMaxPayload);
  json::Array methods, events;
  for (const std::string& m : OperatorHub::methods()) methods.emplace_back(m);
  for (const std::string& e : OperatorHub::events()) events.emplace_back(e);
  json::Object hello{
      {"type", "hello-ok"},
      {"protocol", kProtocolVersion},
      {"server", json::Object{{"version", options_.version}, {"connId", c->conn_id}}},
      {"features", json::Object{{"methods", std::move(methods)}, {"events", std::move(events)}, {"capabilities", json::Array()}}},
      {"snapshot", json::Object{{"presence", json::Array()},
                                {"health", json::Object{{"ok", true}}},
                                {"stateVersion", json::Object{{"presence", 0}, {"health", 0}}},
                                {"uptimeMs", steady_ms() - started_ms_},
                                {"authMode", options_.credential.mode == config::GatewayAuthMode::kPassword ? "password" : "token"}}},
      {"auth", json::Object{{"method", options_.credential.mode == config::GatewayAuthMode::kPassword ? "password" : "token"},
                            {"role", "operator"},
                            {"scopes", std::move(granted)}}},
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
  std::vector<std::string_view> needed = required_scopes(method);
  if (!c->has_any(needed)) {
    json::Array req;
    for (std::string_view s : needed) req.emplace_back(s);
    return c->send(res_error(id, "FORBIDDEN", "missing scope: " + std::string(needed.front()),
                             json::Object{{"code", "MISSING_SCOPE"}, {"missingScope", needed.front()}, {"requiredScopes", std::move(req)}}));
  }
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
  // exec.approval.*: the reference shows a record to operator.admin, and to operator.approvals
  // when no connection or device requested it; ours all come from MCP sessions, not from
  // operator connections, so every approver sees them.
  std::vector<json::Object> pending = source_.list();
  if (method == "exec.approval.list") {
    json::Array out;
    for (const json::Object& a : pending) out.emplace_back(approval_record(a));
    return c->send(res_ok(id, std::move(out)));
  }
  std::string approval_id = str(params, "id");
  auto found = std::find_if(pending.begin(), pending.end(), [&](const json::Object& a) { return str(a, "id") == approval_id; });
  if (found == pending.end()) {
    return c->send(res_error(id, "INVALID_REQUEST", "unknown or expired approval id", json::Object{{"reason", "APPROVAL_NOT_FOUND"}}));
  }
  if (method == "exec.approval.get") {
    json::Object out{{"id", approval_id}, {"commandText", str(*found, "command")}, {"host", str(*found, "host")},
                     {"nodeId", nullptr}, {"agentId", str(*found, "agentId")}};
    if (const json::Value* d = json::find(*found, "allowedDecisions")) out["allowedDecisions"] = *d;
    if (auto v = int_member(*found, "expiresAtMs")) out["expiresAtMs"] = *v;
    return c->send(res_ok(id, std::move(out)));
  }
  std::string decision = str(params, "decision");
  if (decision != "allow-once" && decision != "allow-always" && decision != "deny") {
    return c->send(res_error(id, "INVALID_REQUEST", "invalid decision: expected allow-once, allow-always or deny"));
  }
  std::weak_ptr<Connection> weak = c;
  source_.resolve(approval_id, decision, "gateway", [weak, id](Result<void> r) {
    auto live = weak.lock();
    if (!live) return;
    if (!r.ok()) return live->send(res_error(id, "INVALID_REQUEST", r.error().message));
    live->send(res_ok(id, json::Object{{"ok", true}}));
  });
}

void OperatorHub::broadcast(const std::string& event, const json::Object& payload) {
  std::string frame =
      json::serialize(json::Object{{"type", "event"}, {"event", event}, {"payload", payload}, {"seq", static_cast<int64_t>(++event_seq_)}});
  for (auto& [id, c] : connections_) {
    if (c->authenticated && c->approval_client()) c->send(frame);
  }
}

void OperatorHub::approval_requested(const json::Object& approval) {
  broadcast("exec.approval.requested", approval_record(approval));
}

void OperatorHub::approval_resolved(const std::string& id, const std::string& decision, const std::string& resolved_by) {
  json::Object payload{{"id", id}, {"resolvedBy", resolved_by}, {"ts", epoch_ms()}};
  if (decision.empty()) {
    payload["decision"] = nullptr;
  } else {
    payload["decision"] = decision;
  }
  broadcast("exec.approval.resolved", payload);
}

void OperatorHub::schedule_tick() {
  tick_timer_.expires_after(std::chrono::milliseconds(options_.tick_interval_ms));
  std::weak_ptr<bool> alive = alive_;
  tick_timer_.async_wait([this, alive](const boost::system::error_code& ec) {
    if (ec || alive.expired()) return;
    std::string frame = json::serialize(json::Object{{"type", "event"}, {"event", "tick"}, {"payload", json::Object{{"ts", epoch_ms()}}}});
    for (auto& [id, c] : connections_) {
      if (c->authenticated) c->send(frame);
    }
    schedule_tick();
  });
}

}  // namespace clawexec::gateway
