// What a shell on the gateway's machine can learn about the running gateway without speaking
// to it: `clawexec gateway status` (where it listens, the MCP endpoint, how to authenticate)
// and `clawexec dashboard` (the control UI's URL and how to log in there). Both read the status
// file the gateway writes at start (<state>/gateway/gateway.json) and count the gateway as
// running only while the pid in it is alive. Neither prints a secret: they say where it is.

#include <signal.h>

#include <cstdio>
#include <optional>

#include "config/paths.h"
#include "daemon/gateway_server.h"
#include "json/json.h"
#include "sys/whole_file.h"
#include "term/display_escape.h"

namespace clawexec::daemon {
namespace {

struct RunningGateway {
  std::string path;  // the status file
  json::Object status;
  bool running = false;
};

RunningGateway read_running_gateway() {
  RunningGateway g;
  g.path = gateway_status_path(config::resolve_state_dir(config::process_path_context()));
  Result<std::string> text = sys::read_whole_file(g.path);
  std::optional<json::Value> parsed = text.ok() ? json::parse(*text) : std::nullopt;
  if (!parsed || !parsed->is_object()) return g;
  g.status = parsed->get_object();
  int64_t pid = 0;
  if (const json::Value* p = json::find(g.status, "pid"); p && p->is_int64()) pid = p->get_int64();
  g.running = pid > 0 && ::kill(static_cast<pid_t>(pid), 0) == 0;
  return g;
}

std::string field(const json::Object& o, std::string_view key) {
  const json::Value* v = json::find(o, key);
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

/// Text from the status file, made safe for a terminal (a path could hold escape sequences).
std::string shown(const std::string& s) { return term::escape_for_display(s, term::DisplayStyle::kLines); }

int not_running(const RunningGateway& g) {
  std::printf("No gateway is running (no live gateway in %s). Start one with `clawexec gateway`.\n", shown(g.path).c_str());
  return 1;
}

/// How to log in to the control UI: the secret's kind and where it is kept.
std::string login_hint(const json::Object& s) {
  if (!field(s, "tokenFile").empty()) {
    return "paste the gateway token (the contents of " + field(s, "tokenFile") + ") into the login form, kind \"Token\"";
  }
  if (field(s, "authMode") == "password") {
    return "choose \"Password\" and enter gateway.auth.password from " + field(s, "configPath");
  }
  return "paste gateway.auth.token from " + field(s, "configPath") + " into the login form, kind \"Token\"";
}

}  // namespace

std::string gateway_status_path(const std::string& state_dir) { return state_dir + "/gateway/gateway.json"; }

int gateway_status(bool as_json) {
  RunningGateway g = read_running_gateway();
  if (as_json) {
    json::Object out = g.running ? g.status : json::Object();
    out["running"] = g.running;
    std::printf("%s\n", json::serialize(out).c_str());
    return g.running ? 0 : 1;
  }
  if (!g.running) return not_running(g);
  const json::Object& s = g.status;
  const json::Value* pid = json::find(s, "pid");
  std::printf("Gateway running (pid %lld) on %s\n", static_cast<long long>(pid->get_int64()), shown(field(s, "url")).c_str());
  std::printf("MCP endpoint: %s (streamable HTTP)\n", shown(field(s, "mcpUrl")).c_str());
  if (!field(s, "tokenFile").empty()) {
    std::printf("Auth: Authorization: Bearer <token>, the token is in %s\n", shown(field(s, "tokenFile")).c_str());
  } else {
    std::printf("Auth: the %s configured in %s\n", field(s, "authMode") == "password" ? "gateway.auth.password" : "gateway.auth.token",
                shown(field(s, "configPath")).c_str());
  }
  return 0;
}

int gateway_dashboard(bool as_json) {
  RunningGateway g = read_running_gateway();
  const json::Object& s = g.status;
  // The UI is served at the root of the gateway's own URL.
  std::string url = g.running ? field(s, "url") + "/" : std::string();
  if (as_json) {
    json::Object out{{"running", g.running}};
    if (g.running) {
      out["url"] = url;
      out["authMode"] = field(s, "authMode");
      if (!field(s, "tokenFile").empty()) out["tokenFile"] = field(s, "tokenFile");
      out["configPath"] = field(s, "configPath");
      out["login"] = login_hint(s);
    }
    std::printf("%s\n", json::serialize(out).c_str());
    return g.running ? 0 : 1;
  }
  if (!g.running) return not_running(g);
  std::printf("Control UI: %s\n", shown(url).c_str());
  std::printf("Log in: %s.\n", shown(login_hint(s)).c_str());
  if (field(s, "bind") != "127.0.0.1" && url.rfind("https:", 0) != 0) {
    const json::Value* p = json::find(s, "port");
    long long port = p && p->is_int64() ? static_cast<long long>(p->get_int64()) : 18789;
    std::printf("From another machine a browser gets in only as a paired device, which needs https (--tls-cert/--tls-key)\n"
                "or an SSH tunnel: ssh -L %lld:127.0.0.1:%lld <this host>, then open http://127.0.0.1:%lld/.\n",
                port, port, port);
  }
  return 0;
}

}  // namespace clawexec::daemon
