#pragma once
// Serving the control UI: the embedded files (ui_assets.h) at `GET /` (the page) and `/ui/...`,
// with the headers that keep a page holding an operator's secret safe: a strict
// Content-Security-Policy (scripts, styles and connections from this origin only, no inline
// code, no framing), X-Frame-Options DENY, Referrer-Policy no-referrer, nosniff, no cookies;
// strong ETags and `304 Not Modified` on If-None-Match. No authentication: the files hold no
// secret; everything the UI shows comes over the authenticated WebSocket.

#include <optional>
#include <string>

#include "net/http_server.h"

namespace clawexec::gateway {

struct UiResponse {
  int status = 200;
  net::Headers headers;
  std::string body;
};

/// The answer when `request` asks for a control UI path ("/", "/index.html", "/ui/..."); nullopt
/// for other paths. `tls`: the gateway serves https (the CSP names the matching ws scheme).
std::optional<UiResponse> ui_response(const net::HttpRequest& request, bool tls);

}  // namespace clawexec::gateway
