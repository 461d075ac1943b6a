// The control UI's HTTP answers: path → embedded file, method and conditional-request handling,
// and the security headers every answer carries (see ui_http.h).

#include "gateway/ui_http.h"

#include <algorithm>

#include "base/strings.h"
#include "gateway/ui_assets.h"

namespace clawexec::gateway {
namespace {

// A Host header fit to be written into the CSP (no spaces, quotes, semicolons or commas that
// could add a directive).
bool plain_host(std::string_view host) {
  return !host.empty() && host.size() <= 255 && std::all_of(host.begin(), host.end(), [](char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.' || ch == '-' ||
           ch == ':' || ch == '[' || ch == ']';
  });
}

std::string content_security_policy(const net::HttpRequest& request, bool tls) {
  // connect-src: the same-origin WebSocket. CSP3's 'self' covers ws(s) to this host, but name it
  // too for browsers that predate that rule.
  std::string connect = "'self'";
  if (std::optional<std::string_view> host = request.header("host"); host && plain_host(trim_ascii(*host))) {
    connect += std::string(tls ? " wss://" : " ws://") + std::string(trim_ascii(*host));
  }
  return "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src " + connect +
         "; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
}

net::Headers security_headers(const net::HttpRequest& request, bool tls) {
  return {{"Content-Security-Policy", content_security_policy(request, tls)},
          {"X-Frame-Options", "DENY"},
          {"Referrer-Policy", "no-referrer"},
          {"X-Content-Type-Options", "nosniff"},
          {"Cross-Origin-Opener-Policy", "same-origin"},
          {"Cross-Origin-Resource-Policy", "same-origin"}};
}

const UiAsset* find_asset(std::string_view path) {
  if (path == "/" || path == "/index.html" || path == "/ui" || path == "/ui/") path = "/ui/index.html";
  if (path == "/favicon.ico") path = "/ui/icon.svg";  // browsers ask for it whatever the page links
  for (const UiAsset& a : ui_assets()) {
    if (a.path == path) return &a;
  }
  return nullptr;
}

// If-None-Match: "*" or a list of entity tags (weak ones compare weakly, as RFC 9110 says for
// this header).
bool etag_matches(std::string_view header, std::string_view etag) {
  for (std::string_view rest = header; !rest.empty();) {
    size_t comma = rest.find(',');
    std::string_view tag = trim_ascii(rest.substr(0, comma));
    if (tag.starts_with("W/")) tag.remove_prefix(2);
    if (tag == "*" || tag == etag) return true;
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return false;
}

}  // namespace

std::optional<UiResponse> ui_response(const net::HttpRequest& request, bool tls) {
  const bool ui_path = request.path == "/" || request.path == "/index.html" || request.path == "/ui" ||
                       request.path == "/favicon.ico" || request.path.starts_with("/ui/");
  if (!ui_path) return std::nullopt;
  UiResponse r;
  r.headers = security_headers(request, tls);
  if (request.method != "GET") {
    r.status = 405;
    r.headers.emplace_back("Allow", "GET");
    r.headers.emplace_back("Content-Type", "text/plain; charset=utf-8");
    r.body = "Method Not Allowed: " + request.method + " " + request.path + " (the control UI is read with GET)\n";
    return r;
  }
  const UiAsset* asset = find_asset(request.path);
  if (!asset) {
    r.status = 404;
    r.headers.emplace_back("Content-Type", "text/plain; charset=utf-8");
    r.body = "Not Found: " + request.path + " (no such control UI file)\n";
    return r;
  }
  r.headers.emplace_back("ETag", std::string(asset->etag));
  r.headers.emplace_back("Cache-Control", "no-cache");
  if (std::optional<std::string_view> inm = request.header("if-none-match"); inm && etag_matches(*inm, asset->etag)) {
    r.status = 304;
    return r;
  }
  r.headers.emplace_back("Content-Type", std::string(asset->content_type));
  r.body = std::string(asset->body);
  return r;
}

}  // namespace clawexec::gateway
