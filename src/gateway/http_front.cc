// Routing and the request checks of the gateway's HTTP side: see http_front.h.

#include "gateway/http_front.h"

#include <algorithm>
#include <boost/asio/ip/address.hpp>
#include <optional>

#include "base/strings.h"
#include "base/time.h"
#include "gateway/ui_http.h"

namespace clawexec::gateway {
namespace {

// The host of "host[:port]" or "[v6][:port]", lower-cased; nullopt when the value is not that
// shape (a port part that is not 1-5 digits, text after "]", characters no host name has), so
// "localhost:evil" or "[::1].evil" are never read as loopback.
std::optional<std::string> host_part(std::string_view hostport) {
  std::string h = ascii_lower(trim_ascii(hostport));
  std::string host;
  std::string_view rest;
  if (!h.empty() && h.front() == '[') {
    size_t close = h.find(']');
    if (close == std::string::npos) return std::nullopt;
    host = h.substr(0, close + 1);
    rest = std::string_view(h).substr(close + 1);
  } else {
    size_t colon = h.find(':');
    host = h.substr(0, colon);
    if (colon != std::string::npos) rest = std::string_view(h).substr(colon);
    if (host.empty() || host.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789.-_") != std::string::npos) {
      return std::nullopt;
    }
  }
  if (!rest.empty()) {
    std::string_view port = rest.substr(1);
    if (rest.front() != ':' || port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string_view::npos) {
      return std::nullopt;
    }
  }
  return host;
}

// An IP address written literally ("10.0.0.5", "[fe80::1]"): a name no DNS answer can rebind.
bool is_ip_literal(const std::string& host) {
  boost::system::error_code ec;
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    boost::asio::ip::make_address_v6(host.substr(1, host.size() - 2), ec);
  } else {
    boost::asio::ip::make_address_v4(host, ec);
  }
  return !ec;
}

// A host (as host_part returns it) that names this machine's loopback.
bool is_loopback_name(const std::string& h) {
  return h == "localhost" || h == "127.0.0.1" || h == "[::1]" || (h.size() > 10 && h.ends_with(".localhost"));
}

net::Headers text_headers() { return {{"Content-Type", "text/plain; charset=utf-8"}}; }

}  // namespace

bool is_loopback_host(std::string_view host) {
  std::optional<std::string> parsed = host_part(host);
  return parsed && is_loopback_name(*parsed);
}

bool is_loopback_origin(std::string_view origin) {
  std::string o = ascii_lower(trim_ascii(origin));
  size_t scheme = o.find("://");
  if (scheme == std::string::npos) return false;
  std::string s = o.substr(0, scheme);
  if (s != "http" && s != "https") return false;
  std::string rest = o.substr(scheme + 3);
  if (rest.find('/') != std::string::npos || rest.find('@') != std::string::npos) return false;
  return is_loopback_host(rest);
}

bool is_same_origin(std::string_view origin, std::string_view host, bool tls) {
  std::string h = ascii_lower(trim_ascii(host));
  std::optional<std::string> name = host_part(h);
  // Only an address or loopback: a page on a DNS name (one an attacker could point at this
  // gateway: DNS rebinding) must be listed in gateway.controlUi.allowedOrigins.
  if (!name || (!is_ip_literal(*name) && !is_loopback_name(*name))) return false;
  std::string o = ascii_lower(trim_ascii(origin));
  std::string scheme = tls ? "https://" : "http://";
  if (o == scheme + h) return true;
  // A Host with the scheme's default port written out, or an Origin with it (browsers omit it).
  std::string port = tls ? ":443" : ":80";
  return o + port == scheme + h || o == scheme + h + port;
}

void HttpFront::set_options(FrontOptions options) {
  options_ = std::move(options);
  limiter_.set_limits(options_.rate_limit);
}

std::optional<std::pair<int, std::string>> HttpFront::check_browser(const net::HttpRequest& request) const {
  if (options_.loopback_bind) {
    std::optional<std::string_view> host = request.header("host");
    if (!host || !is_loopback_host(*host)) {
      return std::pair(403, "Forbidden: Host \"" + std::string(host.value_or("")) +
                                "\" is not this loopback gateway (DNS-rebinding protection)\n");
    }
  }
  if (std::optional<std::string_view> origin = request.header("origin")) {
    std::string o(trim_ascii(*origin));
    bool listed = std::find(options_.allowed_origins.begin(), options_.allowed_origins.end(), o) != options_.allowed_origins.end();
    bool same_machine = options_.loopback_bind && is_loopback_origin(o);
    // A page this gateway served (the control UI) connecting back to it, opened at an address
    // (is_same_origin refuses names: a rebound name would pass as its own origin).
    std::optional<std::string_view> host = request.header("host");
    bool same_origin = host && is_same_origin(o, *host, options_.tls);
    if (!listed && !same_machine && !same_origin) {
      return std::pair(403, "Forbidden: Origin \"" + o + "\" is not allowed (gateway.controlUi.allowedOrigins)\n");
    }
  }
  return std::nullopt;
}

std::optional<std::pair<int, std::string>> HttpFront::check_upgrade(const net::HttpRequest& request) {
  if (request.path != "/") return std::pair(404, "Not Found: the operator WebSocket endpoint is /\n");
  if (auto refused = check_browser(request)) return refused;
  if (std::optional<int64_t> wait = limiter_.blocked_for(request.peer_address, request.peer_loopback, steady_ms())) {
    return std::pair(429, "Too Many Requests: too many failed authentication attempts from this address; retry in " +
                              std::to_string((*wait + 999) / 1000) + " s\n");
  }
  return std::nullopt;
}

void HttpFront::handle(const net::HttpRequest& request, std::shared_ptr<net::ResponseWriter> response) {
  if (request.path == "/healthz" || request.path == "/readyz") {
    return response->respond(200, {{"Content-Type", "application/json"}},
                             "{\"ok\":true,\"name\":\"clawexec\",\"version\":\"" + options_.version + "\"}");
  }
  if (request.path != "/mcp") {
    if (std::optional<UiResponse> ui = ui_response(request, options_.tls)) {
      if (auto refusal = check_browser(request)) return response->respond(refusal->first, text_headers(), refusal->second);
      return response->respond(ui->status, std::move(ui->headers), std::move(ui->body));
    }
    return response->respond(404, text_headers(), "Not Found: " + request.path + " (the MCP endpoint is /mcp, the control UI is /)\n");
  }
  if (auto refusal = check_browser(request)) return response->respond(refusal->first, text_headers(), refusal->second);
  int64_t now = steady_ms();
  if (std::optional<int64_t> wait = limiter_.blocked_for(request.peer_address, request.peer_loopback, now)) {
    int64_t seconds = (*wait + 999) / 1000;
    return response->respond(429, {{"Content-Type", "text/plain; charset=utf-8"}, {"Retry-After", std::to_string(seconds)}},
                             "Too Many Requests: too many failed authentication attempts; retry in " +
                                 std::to_string(seconds) + " s\n");
  }
  std::optional<std::string_view> authorization = request.header("authorization");
  std::optional<std::string> token = authorization ? bearer_token(*authorization) : std::nullopt;
  if (!token || !options_.credential.accepts(*token)) {
    limiter_.record_failure(request.peer_address, request.peer_loopback, now);
    std::string why = !authorization ? "no Authorization header" : !token ? "the Authorization header is not \"Bearer <token>\""
                                                                           : "the token is wrong";
    return response->respond(401, {{"Content-Type", "text/plain; charset=utf-8"}, {"WWW-Authenticate", "Bearer realm=\"clawexec\""}},
                             "Unauthorized: " + why + " (run `clawexec gateway status` to see how to get the token)\n");
  }
  limiter_.record_success(request.peer_address);
  mcp_.handle(request, std::move(response));
}

}  // namespace clawexec::gateway
