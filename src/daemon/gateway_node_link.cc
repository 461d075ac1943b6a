// A serve process's way to the node hosts: an operator connection to the local gateway; see
// gateway_node_link.h.

#include "daemon/gateway_node_link.h"

#include <signal.h>

#include "approvals/random.h"
#include "base/strings.h"
#include "net/ws_client.h"
#include "sys/whole_file.h"

namespace clawexec::daemon {
namespace {

constexpr char kProtocolError[] = "GATEWAY_DISCONNECTED";

json::Object error_res(const std::string& code, const std::string& message) {
  return json::Object{{"ok", false}, {"error", json::Object{{"code", code}, {"message", message}}}};
}

bool res_ok(const json::Object& res) {
  const json::Value* ok = json::find(res, "ok");
  return ok && ok->is_bool() && ok->get_bool();
}

// The gateway's error as the pipeline's NodeInvokeError: the node's own code and message when
// it dispatched (details.nodeError), else the gateway's detail code (NOT_CONNECTED, ...), else
// the frame's code.
exec::NodeInvokeError invoke_error(const json::Object& res) {
  const json::Object* error = json::object_member(res, "error");
  if (!error) return {kProtocolError, "the gateway answered node.invoke without a result or an error"};
  std::string code = json::string_member(*error, "code");
  std::string message = json::string_member(*error, "message");
  if (const json::Object* details = json::object_member(*error, "details")) {
    if (const json::Object* node_error = json::object_member(*details, "nodeError")) {
      std::string node_code = json::string_member(*node_error, "code");
      if (node_code == "NOT_CONNECTED" || node_code == "NODE_DISCONNECTED" || node_code == "TIMEOUT") return {node_code, message};
      return {node_code.empty() ? code : node_code, json::string_member(*node_error, "message")};
    }
    if (std::string detail = json::string_member(*details, "code"); !detail.empty()) return {detail, message};
  }
  return {code.empty() ? "UNAVAILABLE" : code, message};
}

}  // namespace

GatewayNodeLink::GatewayNodeLink(boost::asio::io_context& io, std::string state_dir, config::GatewaySettings settings,
                                 std::string version)
    : io_(io), state_dir_(std::move(state_dir)), settings_(std::move(settings)), version_(std::move(version)) {}

GatewayNodeLink::~GatewayNodeLink() {
  *alive_ = false;
  if (ws_) ws_->abort();
}

void GatewayNodeLink::close() {
  if (ws_) ws_->close(1000, "serve stopping");
}

void GatewayNodeLink::ensure(std::function<void(Result<void>)> then) {
  if (ready_ && ws_) return then(Result<void>{});
  connecting_.push_back(std::move(then));
  if (ws_) return;  // a dial is under way
  std::string status_path = state_dir_ + "/gateway/gateway.json";
  auto fail = [this](const std::string& why) {
    auto waiting = std::move(connecting_);
    connecting_.clear();
    for (auto& cb : waiting) cb(Error{ErrorCode::kIo, 0, why});
  };
  const std::string no_gateway =
      "no paired node: this server reaches node hosts through the gateway on this machine, and none is running (" +
      status_path + "); start `clawexec gateway` and pair a node (`clawexec node run`), or run the command with host=auto or "
      "host=gateway";
  // Only a status file no one else could have written is believed: it says where the secret goes.
  Result<std::optional<std::string>> text = sys::read_private_file(status_path, "gateway status file");
  if (!text.ok()) return fail("cannot reach the gateway: " + text.error().message);
  std::optional<json::Value> status = *text ? json::parse(**text) : std::nullopt;
  if (!status || !status->is_object()) return fail(no_gateway);
  const json::Object& s = status->get_object();
  std::optional<int64_t> pid = json::integer_member(s, "pid");
  std::optional<int64_t> port = json::integer_member(s, "port");
  if (!pid || *pid <= 0 || ::kill(static_cast<pid_t>(*pid), 0) != 0 || !port || *port <= 0 || *port > 65535) return fail(no_gateway);

  // The gateway's secret, as its own operators would give it.
  if (settings_.auth_mode == config::GatewayAuthMode::kPassword) {
    secret_ = settings_.password;
  } else if (!settings_.token.empty()) {
    secret_ = settings_.token;
  } else {
    std::string token_path = state_dir_ + "/gateway/token";  // never a path the status file names
    Result<std::optional<std::string>> token = sys::read_private_file(token_path, "gateway token file");
    if (!token.ok()) return fail("cannot reach the gateway: " + token.error().message);
    if (!*token) return fail("cannot reach the gateway: no token configured and no token file at " + token_path);
    secret_ = std::string(trim_ascii(**token));
  }
  std::string bind = json::string_member(s, "bind");
  net::WsClientOptions options;
  options.host = bind.empty() || bind == "0.0.0.0" || bind == "::" ? "127.0.0.1" : bind;
  options.port = static_cast<uint16_t>(*port);
  std::string url = json::string_member(s, "url");
  bool loopback = options.host == "127.0.0.1" || options.host == "::1";
  if (url.rfind("https:", 0) == 0) options.tls = loopback ? net::TlsMode::kInsecure : net::TlsMode::kVerify;
  std::weak_ptr<bool> alive = alive_;
  ws_ = net::ws_connect(io_, options,
                        {[] {},
                         [this, alive](std::string message) {
                           if (!alive.expired()) on_message(message);
                         },
                         [this, alive](uint16_t code, std::string reason) {
                           if (!alive.expired()) on_closed(code, reason);
                         }});
}

void GatewayNodeLink::on_message(const std::string& text) {
  std::optional<json::Value> frame = json::parse(text);
  if (!frame || !frame->is_object()) return;
  const json::Object& f = frame->get_object();
  std::string type = json::string_member(f, "type");
  if (type == "event" && json::string_member(f, "event") == "connect.challenge") {
    json::Object auth;
    auth[settings_.auth_mode == config::GatewayAuthMode::kPassword ? "password" : "token"] = secret_;
    json::Object connect{{"minProtocol", 4},
                         {"maxProtocol", 4},
                         {"client", json::Object{{"id", "cli"}, {"version", version_}, {"platform", "linux"}, {"mode", "cli"}}},
                         {"role", "operator"},
                         {"scopes", json::Array{"operator.admin"}},
                         {"caps", json::Array{}},
                         {"auth", std::move(auth)}};
    ws_->send(json::serialize(json::Object{{"type", "req"}, {"id", "connect"}, {"method", "connect"}, {"params", std::move(connect)}}));
    return;
  }
  if (type != "res") return;
  std::string id = json::string_member(f, "id");
  if (id == "connect") {
    auto waiting = std::move(connecting_);
    connecting_.clear();
    if (res_ok(f)) {
      ready_ = true;
      for (auto& cb : waiting) cb(Result<void>{});
      return;
    }
    exec::NodeInvokeError e = invoke_error(f);
    for (auto& cb : waiting) cb(Error{ErrorCode::kIo, 0, "the gateway refused this server's connection: " + e.message});
    if (ws_) ws_->close(1000, "refused");
    return;
  }
  auto it = waiting_.find(id);
  if (it == waiting_.end()) return;
  Answer answer = std::move(it->second);
  waiting_.erase(it);
  answer(f);
}

void GatewayNodeLink::on_closed(uint16_t code, const std::string& reason) {
  ws_.reset();
  ready_ = false;
  std::string why = "the connection to the gateway closed (" + std::to_string(code) + (reason.empty() ? "" : " " + reason) + ")";
  auto waiting = std::move(connecting_);
  connecting_.clear();
  for (auto& cb : waiting) cb(Error{ErrorCode::kIo, 0, "cannot reach the gateway: " + why});
  fail_all(why);
}

void GatewayNodeLink::fail_all(const std::string& why) {
  auto waiting = std::move(waiting_);
  waiting_.clear();
  for (auto& [id, answer] : waiting) answer(error_res(kProtocolError, why));
}

void GatewayNodeLink::request(const std::string& method, json::Object params, Answer answer) {
  std::string id = "serve-" + std::to_string(++next_id_);
  waiting_[id] = std::move(answer);
  ws_->send(json::serialize(json::Object{{"type", "req"}, {"id", id}, {"method", method}, {"params", std::move(params)}}));
}

void GatewayNodeLink::list_nodes(std::function<void(Result<std::vector<exec::NodeSummary>>)> done) {
  ensure([this, done = std::move(done)](Result<void> ready) mutable {
    if (!ready.ok()) return done(ready.error());
    request("node.list", {}, [done = std::move(done)](const json::Object& res) {
      if (!res_ok(res)) return done(Error{ErrorCode::kIo, 0, "the gateway's node.list failed: " + invoke_error(res).message});
      const json::Object* payload = json::object_member(res, "payload");
      const json::Value* nodes = payload ? json::find(*payload, "nodes") : nullptr;
      std::vector<exec::NodeSummary> out;
      if (nodes && nodes->is_array()) {
        for (const json::Value& v : nodes->get_array()) {
          if (!v.is_object()) continue;
          const json::Object& n = v.get_object();
          const json::Value* connected = json::find(n, "connected");
          out.push_back(exec::NodeSummary{json::string_member(n, "nodeId"), json::string_member(n, "displayName"),
                                          json::string_member(n, "platform"), json::string_member(n, "remoteIp"),
                                          json::string_member(n, "clientId"), json::strings_member(n, "commands"),
                                          json::strings_member(n, "caps"), connected && connected->is_bool() && connected->get_bool()});
        }
      }
      done(std::move(out));
    });
  });
}

std::string GatewayNodeLink::invoke(const std::string& node_id, const std::string& command, json::Object params, int64_t timeout_ms,
                                    std::function<void(exec::NodeInvokeResult)> done) {
  ensure([this, node_id, command, params = std::move(params), timeout_ms, done = std::move(done)](Result<void> ready) mutable {
    if (!ready.ok()) return done(exec::NodeInvokeError{kProtocolError, ready.error().message});
    json::Object p{{"nodeId", node_id},
                   {"command", command},
                   {"params", std::move(params)},
                   {"timeoutMs", timeout_ms},
                   {"idempotencyKey", approvals::random_uuid()}};
    request("node.invoke", std::move(p), [done = std::move(done)](const json::Object& res) {
      if (!res_ok(res)) return done(invoke_error(res));
      const json::Object* payload = json::object_member(res, "payload");
      const json::Value* result = payload ? json::find(*payload, "payload") : nullptr;
      done(result ? *result : json::Value(nullptr));
    });
  });
  return {};
}

}  // namespace clawexec::daemon
