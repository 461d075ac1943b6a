#pragma once
// The gateway's front door for HTTP: which path goes where, and the checks every request to
// an authenticated endpoint passes first, in this order: the Host header on a loopback bind
// (a browser tricked by DNS rebinding names a foreign host: 403), the Origin header (a browser
// page from an origin not allowed: 403), the failed-auth limiter (429 with Retry-After), and
// the shared secret (`Authorization: Bearer <token>`; 401 with WWW-Authenticate). The control
// UI's files (ui_http.h) pass the Host and Origin checks only. WebSocket
// upgrades at `/` pass the Host and Origin checks and the limiter; their secret is in the
// connect frame, whose failures count in the same limiter.

#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "gateway/auth.h"
#include "gateway/mcp_http.h"
#include "net/http_server.h"

namespace clawexec::gateway {

struct FrontOptions {
  GatewayCredential credential;
  config::GatewayRateLimit rate_limit;
  std::vector<std::string> allowed_origins;
  bool loopback_bind = true;
  bool tls = false;  // the gateway serves https/wss (same-origin checks compare schemes)
  std::string version;
};

/// True when `host` (a Host header value, maybe with a port) names this machine's loopback.
bool is_loopback_host(std::string_view host);
/// True when `origin` (scheme://host[:port]) is a loopback origin.
bool is_loopback_origin(std::string_view origin);
/// True when `origin` is the request's own origin: the scheme this gateway serves and the
/// request's Host (a page the gateway served, calling back home).
bool is_same_origin(std::string_view origin, std::string_view host, bool tls);

class HttpFront {
 public:
  HttpFront(FrontOptions options, McpHttpEndpoint& mcp) : options_(std::move(options)), limiter_(options_.rate_limit), mcp_(mcp) {}
  void handle(const net::HttpRequest& request, std::shared_ptr<net::ResponseWriter> response);
  /// Why a WebSocket upgrade is refused (nullopt: accept it).
  std::optional<std::pair<int, std::string>> check_upgrade(const net::HttpRequest& request);
  void set_options(FrontOptions options);
  /// The failed-auth limiter, shared with the operator WebSocket's connect.
  AuthLimiter& limiter() { return limiter_; }

 private:
  /// The Host and Origin checks; a refusal's status and text.
  std::optional<std::pair<int, std::string>> check_browser(const net::HttpRequest& request) const;
  FrontOptions options_;
  AuthLimiter limiter_;
  McpHttpEndpoint& mcp_;
};

}  // namespace clawexec::gateway
