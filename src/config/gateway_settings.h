#pragma once
// The gateway's settings (`clawexec gateway`): OpenClaw's `gateway.*` keys that apply to us
// (port, bind, auth, rate limit, TLS, Control UI origins, node pairing) and our own
// `clawexec.gateway.*` (MCP session idle time), with OpenClaw's environment overrides
// (OPENCLAW_GATEWAY_PORT, OPENCLAW_GATEWAY_TOKEN, OPENCLAW_GATEWAY_PASSWORD). Pure: the parsed
// document and an environment lookup in, settings or an error naming the key out.

#include <boost/json/value.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "config/env_lookup.h"

namespace clawexec::config {

enum class GatewayAuthMode { kToken, kPassword };

struct GatewayRateLimit {
  int max_attempts = 10;
  int64_t window_ms = 60000;
  int64_t lockout_ms = 300000;
  bool exempt_loopback = true;
};

struct GatewaySettings {
  uint16_t port = 18789;
  std::string bind = "loopback";       // loopback | lan | auto | custom
  std::string bind_address = "127.0.0.1";
  GatewayAuthMode auth_mode = GatewayAuthMode::kToken;
  std::string token;     // "" = none configured (the gateway generates and keeps one)
  std::string password;  // for auth mode password
  GatewayRateLimit rate_limit;
  bool tls_enabled = false;
  std::string tls_cert_path, tls_key_path;
  /// gateway.controlUi.allowedOrigins: browser origins besides the gateway's own.
  std::vector<std::string> allowed_origins;
  /// gateway.nodes.pairing.autoApproveLocal.
  bool auto_approve_local = true;
  /// clawexec.gateway.mcpSessionIdleMs: an MCP session unused this long is ended (its
  /// background commands stopped). 0 = never.
  int64_t mcp_session_idle_ms = 30 * 60 * 1000;
};

/// The address a bind mode listens on ("loopback" → 127.0.0.1, "lan" → 0.0.0.0, "auto" →
/// loopback, an IPv4/IPv6 literal as is), or an error naming the accepted values.
Result<std::string> gateway_bind_address(std::string_view bind, std::string_view custom_host);

/// Reads the settings from the whole config document and the environment; `origin` (the
/// file) prefixes errors.
Result<GatewaySettings> read_gateway_settings(const boost::json::value& document, const EnvLookup& env,
                                              const std::string& origin);

}  // namespace clawexec::config
