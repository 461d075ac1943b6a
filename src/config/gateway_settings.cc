// gateway.* and clawexec.gateway.*: see gateway_settings.h.

#include "config/gateway_settings.h"

#include <arpa/inet.h>

#include "base/strings.h"
#include "config/exec_layer.h"

namespace clawexec::config {
namespace {

using boost::json::value;

const value* member(const value* v, std::string_view key) {
  if (!v || !v->is_object()) return nullptr;
  return v->get_object().if_contains(key);
}

// Reads typed members of one section, remembering the first error (prefixed by the file).
struct Reader {
  const std::string& origin;
  std::optional<Error> error;

  void fail(const std::string& key, const std::string& expected, const value& got) {
    if (error) return;
    std::string message = key + ": expected " + expected + ", got " + detail::describe_value(got);
    error = Error::invalid(origin.empty() ? message : origin + ": " + message);
  }
  void string(const value* section, std::string_view name, const std::string& key, std::string& out) {
    const value* v = member(section, name);
    if (!v || v->is_null()) return;
    if (!v->is_string()) return fail(key, "a string", *v);
    out = std::string(v->get_string());
  }
  void boolean(const value* section, std::string_view name, const std::string& key, bool& out) {
    const value* v = member(section, name);
    if (!v || v->is_null()) return;
    if (!v->is_bool()) return fail(key, "true or false", *v);
    out = v->get_bool();
  }
  void integer(const value* section, std::string_view name, const std::string& key, int64_t min, int64_t max,
               int64_t& out) {
    const value* v = member(section, name);
    if (!v || v->is_null()) return;
    std::optional<int64_t> n;
    if (v->is_int64()) n = v->get_int64();
    if (v->is_uint64() && v->get_uint64() <= static_cast<uint64_t>(INT64_MAX)) n = static_cast<int64_t>(v->get_uint64());
    if (v->is_double() && v->get_double() == static_cast<double>(static_cast<int64_t>(v->get_double()))) {
      n = static_cast<int64_t>(v->get_double());
    }
    if (!n || *n < min || *n > max) {
      return fail(key, "an integer from " + std::to_string(min) + " to " + std::to_string(max), *v);
    }
    out = *n;
  }
};

bool is_ip_literal(std::string_view text) {
  std::string s(text);
  unsigned char buf[16];
  return inet_pton(AF_INET, s.c_str(), buf) == 1 || inet_pton(AF_INET6, s.c_str(), buf) == 1;
}

}  // namespace

Result<std::string> gateway_bind_address(std::string_view bind, std::string_view custom_host) {
  std::string mode = ascii_lower(trim_ascii(bind));
  if (mode == "loopback" || mode == "auto" || mode.empty()) return std::string("127.0.0.1");
  if (mode == "lan") return std::string("0.0.0.0");
  if (mode == "custom") {
    std::string host(trim_ascii(custom_host));
    if (host.empty()) return Error::invalid("gateway.bind \"custom\" needs gateway.customBindHost (an IP address)");
    if (!is_ip_literal(host)) return Error::invalid("gateway.customBindHost: \"" + host + "\" is not an IP address");
    return host;
  }
  if (is_ip_literal(mode)) return mode;
  return Error::invalid("bind \"" + std::string(bind) + "\": expected loopback, lan, auto, custom or an IP address");
}

Result<GatewaySettings> read_gateway_settings(const value& document, const EnvLookup& env, const std::string& origin) {
  GatewaySettings out;
  Reader r{origin, std::nullopt};
  const value* gateway = member(&document, "gateway");
  if (gateway && !gateway->is_object() && !gateway->is_null()) r.fail("gateway", "an object", *gateway);
  int64_t port = out.port;
  r.integer(gateway, "port", "gateway.port", 1, 65535, port);
  std::string custom_host;
  r.string(gateway, "bind", "gateway.bind", out.bind);
  r.string(gateway, "customBindHost", "gateway.customBindHost", custom_host);
  const value* auth = member(gateway, "auth");
  std::string mode;
  r.string(auth, "mode", "gateway.auth.mode", mode);
  r.string(auth, "token", "gateway.auth.token", out.token);
  r.string(auth, "password", "gateway.auth.password", out.password);
  const value* limit = member(auth, "rateLimit");
  int64_t attempts = out.rate_limit.max_attempts;
  r.integer(limit, "maxAttempts", "gateway.auth.rateLimit.maxAttempts", 1, 1000000, attempts);
  out.rate_limit.max_attempts = static_cast<int>(attempts);
  r.integer(limit, "windowMs", "gateway.auth.rateLimit.windowMs", 1, INT32_MAX, out.rate_limit.window_ms);
  r.integer(limit, "lockoutMs", "gateway.auth.rateLimit.lockoutMs", 0, INT32_MAX, out.rate_limit.lockout_ms);
  r.boolean(limit, "exemptLoopback", "gateway.auth.rateLimit.exemptLoopback", out.rate_limit.exempt_loopback);
  const value* tls = member(gateway, "tls");
  r.boolean(tls, "enabled", "gateway.tls.enabled", out.tls_enabled);
  r.string(tls, "certPath", "gateway.tls.certPath", out.tls_cert_path);
  r.string(tls, "keyPath", "gateway.tls.keyPath", out.tls_key_path);
  if (const value* origins = member(member(gateway, "controlUi"), "allowedOrigins"); origins && !origins->is_null()) {
    if (!origins->is_array()) {
      r.fail("gateway.controlUi.allowedOrigins", "an array of origins", *origins);
    } else {
      for (const value& o : origins->get_array()) {
        if (!o.is_string()) {
          r.fail("gateway.controlUi.allowedOrigins[]", "a string", o);
          break;
        }
        out.allowed_origins.emplace_back(trim_ascii(std::string_view(o.get_string())));
      }
    }
  }
  r.boolean(member(member(gateway, "nodes"), "pairing"), "autoApproveLocal", "gateway.nodes.pairing.autoApproveLocal",
            out.auto_approve_local);
  r.integer(member(member(&document, "clawexec"), "gateway"), "mcpSessionIdleMs", "clawexec.gateway.mcpSessionIdleMs", 0,
            INT64_C(1) << 50, out.mcp_session_idle_ms);
  if (r.error) return *r.error;

  if (std::optional<std::string> p = env ? env("OPENCLAW_GATEWAY_PORT") : std::nullopt; p && !trim_ascii(*p).empty()) {
    std::optional<int64_t> n = parse_strict_integer(*p);
    if (!n || *n < 1 || *n > 65535) return Error::invalid("OPENCLAW_GATEWAY_PORT: expected a port from 1 to 65535, got \"" + *p + "\"");
    port = *n;
  }
  out.port = static_cast<uint16_t>(port);
  if (std::optional<std::string> t = env ? env("OPENCLAW_GATEWAY_TOKEN") : std::nullopt; t && !trim_ascii(*t).empty()) {
    out.token = std::string(trim_ascii(*t));
  }
  if (std::optional<std::string> t = env ? env("OPENCLAW_GATEWAY_PASSWORD") : std::nullopt; t && !t->empty()) {
    out.password = *t;
  }
  std::string m = ascii_lower(trim_ascii(mode));
  if (m.empty()) {
    if (!out.token.empty() && !out.password.empty()) {
      std::string message = "gateway.auth: both a token and a password are configured; set gateway.auth.mode to \"token\" or \"password\"";
      return Error::invalid(origin.empty() ? message : origin + ": " + message);
    }
    out.auth_mode = out.password.empty() ? GatewayAuthMode::kToken : GatewayAuthMode::kPassword;
  } else if (m == "token") {
    out.auth_mode = GatewayAuthMode::kToken;
  } else if (m == "password") {
    out.auth_mode = GatewayAuthMode::kPassword;
    if (out.password.empty()) {
      std::string message = "gateway.auth.mode is \"password\" but no gateway.auth.password or OPENCLAW_GATEWAY_PASSWORD is set";
      return Error::invalid(origin.empty() ? message : origin + ": " + message);
    }
  } else {
    std::string message = "gateway.auth.mode: expected \"token\" or \"password\" (clawexec has no unauthenticated mode), got \"" + mode + "\"";
    return Error::invalid(origin.empty() ? message : origin + ": " + message);
  }
  Result<std::string> address = gateway_bind_address(out.bind, custom_host);
  if (!address.ok()) return Error::invalid(origin.empty() ? address.error().message : origin + ": gateway." + address.error().message);
  out.bind_address = *address;
  if (out.tls_enabled && (out.tls_cert_path.empty() || out.tls_key_path.empty())) {
    std::string message = "gateway.tls.enabled needs gateway.tls.certPath and gateway.tls.keyPath";
    return Error::invalid(origin.empty() ? message : origin + ": " + message);
  }
  return out;
}

}  // namespace clawexec::config
