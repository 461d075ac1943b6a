// The gateway's composition: configuration, one exec service per agent (made when a session
// first names the agent), the credential, the HTTP server with the MCP endpoint behind the
// front door's checks, the operator channel, the status file, signals and shutdown. Shutdown
// ends every MCP session and stops every command (bounded in time); commands also die if the
// gateway is killed outright, because each one's reaper loses its control socket.

#include "daemon/gateway_server.h"

#include <signal.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cstdio>
#include <map>

#include "approvals/operator_channel.h"
#include "base/time.h"
#include "config/env_lookup.h"
#include "config/paths.h"
#include "daemon/channel_mirror.h"
#include "daemon/operator_link.h"
#include "daemon/setup.h"
#include "gateway/auth.h"
#include "gateway/device_pairing.h"
#include "gateway/http_front.h"
#include "gateway/mcp_http.h"
#include "gateway/operator_ws.h"
#include "json/json.h"
#include "net/http_server.h"
#include "operator/operator_env.h"
#include "policy/modes.h"
#include "sys/file_system.h"
#include "sys/whole_file.h"

namespace clawexec::daemon {
namespace asio = boost::asio;
namespace {

constexpr std::chrono::seconds kShutdownDeadline{12};
constexpr int64_t kConfigWatchMs = 1000;


Result<gateway::GatewayCredential> credential_for(const config::GatewaySettings& s, const std::string& state_dir) {
  gateway::GatewayCredential c;
  c.mode = s.auth_mode;
  if (s.auth_mode == config::GatewayAuthMode::kPassword) {
    c.secret = s.password;
  } else if (!s.token.empty()) {
    c.secret = s.token;
  } else {
    c.secret = TRY(gateway::load_or_create_token(state_dir));
    c.token_file = gateway::token_file_path(state_dir);
  }
  return c;
}

// The exec services of the agents the gateway's sessions act for.
class Services {
 public:
  Services(asio::io_context& io, std::string default_agent, exec::ServiceConfig first)
      : io_(io) {
    auto service = std::make_unique<exec::ExecService>(io_, std::move(first));
    default_ = service.get();
    services_[default_agent] = std::move(service);
  }
  Result<exec::ExecService*> get(const std::string& agent) {
    auto it = services_.find(agent);
    if (it != services_.end()) return it->second.get();
    Result<Setup> setup = load_setup(agent);
    if (!setup.ok()) return setup.error();
    auto service = std::make_unique<exec::ExecService>(io_, std::move(setup->service));
    exec::ExecService* raw = service.get();
    if (events_.requested) raw->set_approval_events(events_);
    if (route_) raw->set_approval_route(route_);
    if (nodes_) raw->set_node_invoker(nodes_);
    services_[agent] = std::move(service);
    raw->warm_up_shell_environment();
    return raw;
  }
  void set_approval_route(std::function<bool()> route) {
    route_ = std::move(route);
    for (auto& [agent, s] : services_) s->set_approval_route(route_);
  }
  void set_node_invoker(exec::NodeInvoker* nodes) {
    nodes_ = nodes;
    for (auto& [agent, s] : services_) s->set_node_invoker(nodes_);
  }
  void set_approval_events(exec::ExecService::ApprovalEvents events) {
    events_ = std::move(events);
    for (auto& [agent, s] : services_) s->set_approval_events(events_);
  }
  std::vector<json::Object> pending() const {
    std::vector<json::Object> out;
    for (const auto& [agent, s] : services_) {
      for (json::Object& o : s->pending_approvals_json()) out.push_back(std::move(o));
    }
    return out;
  }
  void resolve(const std::string& id, const std::string& decision, const std::string& by,
               std::function<void(Result<void>)> done) {
    for (auto& [agent, s] : services_) {
      for (const json::Object& o : s->pending_approvals_json()) {
        const json::Value* v = json::find(o, "id");
        if (v && v->is_string() && v->get_string() == id) return s->resolve_approval(id, decision, by, std::move(done));
      }
    }
    done(Error{ErrorCode::kNotFound, 0, "unknown or expired approval id"});
  }
  // Stops every service's commands; `done` once all have.
  void shutdown(std::function<void()> done) {
    auto left = std::make_shared<size_t>(services_.size());
    auto finish = std::make_shared<std::function<void()>>(std::move(done));
    for (auto& [agent, s] : services_) {
      s->shutdown(std::chrono::milliseconds(0), [left, finish] {
        if (--*left == 0) (*finish)();
      });
    }
  }
  /// Every service takes the exec settings of a fresh read of the config (a reload).
  void reload_exec_settings() {
    for (auto& [agent, s] : services_) {
      Result<Setup> setup = load_setup(agent);
      if (!setup.ok()) {
        std::fprintf(stderr, "clawexec gateway: agent %s keeps its exec settings: %s\n", agent.c_str(), setup.error().message.c_str());
        continue;
      }
      s->set_exec_settings(setup->service.exec);
      s->set_reviewer(setup->service.reviewer);
    }
  }
  /// Every agent's service, by agent id.
  std::vector<std::pair<std::string, exec::ExecService*>> all() const {
    std::vector<std::pair<std::string, exec::ExecService*>> out;
    for (const auto& [agent, s] : services_) out.emplace_back(agent, s.get());
    return out;
  }
  /// The service of the gateway's default agent (--agent).
  exec::ExecService& default_service() { return *default_; }

 private:
  asio::io_context& io_;
  std::map<std::string, std::unique_ptr<exec::ExecService>> services_;
  exec::ExecService::ApprovalEvents events_;
  exec::NodeInvoker* nodes_ = nullptr;
  std::function<bool()> route_;
  exec::ExecService* default_ = nullptr;
};

// The operator channel (`clawexec approvals pending|resolve|watch`) sees every approval the
// gateway holds: the exec services' and the ones asked for over the WebSocket.
std::unique_ptr<approvals::OperatorChannel> start_channel(asio::io_context& io, Services& services, gateway::OperatorHub& hub,
                                                          const exec::ServiceConfig& config,
                                                          exec::ExecService::ApprovalEvents also) {
  approvals::OperatorChannel::Provider provider;
  provider.list = [&services, &hub] {
    std::vector<json::Object> all = services.pending();
    for (json::Object& o : hub.external_pending()) all.push_back(std::move(o));
    return all;
  };
  provider.resolve = [&services, &hub](std::string id, std::string decision, std::string by,
                                       std::function<void(Result<void>)> done) {
    if (hub.resolve_external(id, decision, by, done)) return;
    services.resolve(id, decision, by, std::move(done));
  };
  return start_operator_channel(io, config, "gateway", std::move(provider),
                                [&services](exec::ExecService::ApprovalEvents e) { services.set_approval_events(std::move(e)); },
                                std::move(also));
}

std::string url_of(const std::string& address, uint16_t port, bool tls) {
  std::string host = address == "0.0.0.0" ? "127.0.0.1" : address;
  if (host.find(':') != std::string::npos) host = "[" + host + "]";
  return std::string(tls ? "https" : "http") + "://" + host + ":" + std::to_string(port);
}

gateway::FrontOptions front_options(const config::GatewaySettings& s, const gateway::GatewayCredential& credential,
                                    const std::string& address, const std::string& version, bool tls) {
  gateway::FrontOptions f;
  f.tls = tls;
  f.credential = credential;
  f.rate_limit = s.rate_limit;
  f.allowed_origins = s.allowed_origins;
  f.loopback_bind = address == "127.0.0.1" || address == "::1";
  f.version = version;
  return f;
}

}  // namespace

int run_gateway(const GatewayOptions& options) {
  prepare_process();
  std::optional<Setup> setup = load_setup_reporting(options.agent_id, "gateway");
  if (!setup) return 1;
  config::GatewaySettings settings = setup->gateway;
  if (options.port) {
    if (*options.port < 0 || *options.port > 65535) {
      std::fprintf(stderr, "clawexec gateway: --port %d: expected 0 to 65535\n", *options.port);
      return 2;
    }
    settings.port = static_cast<uint16_t>(*options.port);
  }
  if (options.bind) {
    Result<std::string> address = config::gateway_bind_address(*options.bind, "");
    if (!address.ok()) {
      std::fprintf(stderr, "clawexec gateway: --%s\n", address.error().message.c_str());
      return 2;
    }
    settings.bind_address = *address;
  }
  if (options.tls_cert || options.tls_key) {
    if (!options.tls_cert || !options.tls_key) {
      std::fprintf(stderr, "clawexec gateway: --tls-cert and --tls-key go together\n");
      return 2;
    }
    settings.tls_enabled = true;
    settings.tls_cert_path = *options.tls_cert;
    settings.tls_key_path = *options.tls_key;
  }
  std::string state_dir = setup->service.state_dir;
  Result<gateway::GatewayCredential> credential = credential_for(settings, state_dir);
  if (!credential.ok()) {
    std::fprintf(stderr, "clawexec gateway: %s\n", credential.error().message.c_str());
    return 1;
  }

  asio::io_context io;
  mcp::ServerOptions server_options;
  server_options.version = options.version;
  server_options.structured_content = setup->mcp.structured_content;
  server_options.elicitation = setup->mcp.elicitation == config::Elicitation::kElicit;
  std::string config_path = setup->config_path;
  Services services(io, options.agent_id, std::move(setup->service));
  Result<std::unique_ptr<gateway::DevicePairing>> devices = gateway::DevicePairing::open(state_dir + "/gateway/devices.json");
  if (!devices.ok()) {
    std::fprintf(stderr, "clawexec gateway: %s\n", devices.error().message.c_str());
    return 1;
  }
  Result<std::unique_ptr<gateway::NodePairing>> node_surfaces = gateway::NodePairing::open(state_dir + "/gateway/nodes.json");
  if (!node_surfaces.ok()) {
    std::fprintf(stderr, "clawexec gateway: %s\n", node_surfaces.error().message.c_str());
    return 1;
  }
  gateway::OperatorOptions operator_options;
  operator_options.credential = *credential;
  operator_options.devices = devices->get();
  operator_options.nodes = node_surfaces->get();
  operator_options.auto_approve_local = settings.auto_approve_local;
  operator_options.files = operator_ops::process_operator_env();
  operator_options.services = [&services] { return services.all(); };
  operator_options.service_for = [&services](const std::string& agent) { return services.get(agent); };
  operator_options.default_agent = options.agent_id;
  std::function<void()> reload_settings;
  operator_options.config_changed = [&reload_settings] {
    if (reload_settings) reload_settings();
  };
  operator_options.version = options.version;
  if (const char* t = std::getenv("OPENCLAW_HANDSHAKE_TIMEOUT_MS"); t && *t) {
    if (std::optional<int64_t> ms = config::parse_strict_integer(t); ms && *ms > 0) operator_options.handshake_timeout_ms = *ms;
  }
  // The WebSocket's approvals: the gateway's own services' and, through the operator channel,
  // those of every other clawexec process on the machine (the mirror, started below).
  std::unique_ptr<ChannelMirror> mirror;
  gateway::ApprovalSource approval_source;
  approval_source.list = [&services, &mirror] {
    std::vector<json::Object> all = services.pending();
    if (mirror) {
      for (json::Object& o : mirror->pending()) all.push_back(std::move(o));
    }
    return all;
  };
  approval_source.resolve = [&services, &mirror](std::string id, std::string decision, std::string by,
                                                 std::function<void(Result<void>)> done) {
    if (mirror && mirror->has(id)) return mirror->resolve(id, decision, by, std::move(done));
    services.resolve(id, decision, by, std::move(done));
  };
  gateway::OperatorHub hub(io, operator_options, approval_source);
  services.set_node_invoker(&hub);
  std::unique_ptr<approvals::OperatorChannel> channel =
      start_channel(io, services, hub, services.default_service().config(),
                    {[&hub](const json::Object& a) { hub.approval_requested(a); },
                     [&hub](const std::string& id, const std::string& decision, const std::string& by) {
                       hub.approval_resolved(id, decision, by);
                     }});
  server_options.pending_approvals = channel != nullptr;
  // OpenClaw's "no route" rule for the MCP sessions' approvals: with no connected client that
  // shows approvals (a WebSocket approval client, or `clawexec approvals watch` on the channel
  // this gateway is the hub of) an approval takes askFallback at once instead of waiting for
  // nobody. When another process is the channel's hub its watchers are not known here, so a
  // route is assumed.
  services.set_approval_route([&hub, raw = channel.get()] {
    return hub.has_approval_client() || (raw && (raw->is_member() || raw->foreign_subscribers() > 0));
  });
  if (channel) {
    if (Result<ChannelAddress> address = operator_channel_address(services.default_service().config()); address.ok()) {
      mirror = std::make_unique<ChannelMirror>(io, address->socket_path, address->token, ::getpid(),
                                               ChannelMirror::Events{[&hub](const json::Object& a) { hub.approval_requested(a); },
                                                                     [&hub](const std::string& id, const std::string& d, const std::string& by) {
                                                                       hub.approval_resolved(id, d, by);
                                                                     }});
      mirror->start();
    }
  }

  gateway::McpEndpointOptions endpoint_options;
  endpoint_options.service_for = [&services](const std::string& agent) { return services.get(agent); };
  endpoint_options.default_agent = options.agent_id;
  endpoint_options.server = server_options;
  endpoint_options.idle_ms = settings.mcp_session_idle_ms;
  gateway::McpHttpEndpoint endpoint(io, endpoint_options);
  gateway::HttpFront front(front_options(settings, *credential, settings.bind_address, options.version, settings.tls_enabled),
                           endpoint);
  hub.set_limiter(&front.limiter());
  net::HttpServer::Handlers handlers;
  handlers.request = [&front](net::HttpRequest r, std::shared_ptr<net::ResponseWriter> w) { front.handle(r, std::move(w)); };
  handlers.upgrade_check = [&front](const net::HttpRequest& r) { return front.check_upgrade(r); };
  handlers.websocket = [&hub](net::HttpRequest r, std::shared_ptr<net::WebSocket> ws) { hub.accept(r, std::move(ws)); };
  handlers.log = [](const std::string& line) { std::fprintf(stderr, "clawexec gateway: %s\n", line.c_str()); };
  net::ServerLimits limits;
  // Test seam: how long a client may take to send its request.
  if (const char* t = std::getenv("CLAWEXEC_TEST_HTTP_REQUEST_TIMEOUT_MS"); t && *t) {
    if (std::optional<int64_t> ms = config::parse_strict_integer(t); ms && *ms > 0) limits.request_timeout = std::chrono::milliseconds(*ms);
  }
  net::HttpServer http(io, handlers, limits);
  if (settings.tls_enabled) {
    if (Result<void> tls = http.use_tls({settings.tls_cert_path, settings.tls_key_path}); !tls.ok()) {
      std::fprintf(stderr, "clawexec gateway: %s\n", tls.error().message.c_str());
      return 1;
    }
  }
  if (Result<void> listening = http.listen(settings.bind_address, settings.port); !listening.ok()) {
    std::fprintf(stderr, "clawexec gateway: %s\n", listening.error().message.c_str());
    return 1;
  }
  std::string url = url_of(settings.bind_address, http.port(), http.tls());
  std::string status_path = gateway_status_path(state_dir);
  {
    json::Object status{{"pid", static_cast<int64_t>(::getpid())},
                        {"url", url},
                        {"mcpUrl", url + "/mcp"},
                        {"bind", settings.bind_address},
                        {"port", static_cast<int64_t>(http.port())},
                        {"authMode", settings.auth_mode == config::GatewayAuthMode::kToken ? "token" : "password"},
                        {"tokenFile", credential->token_file},
                        {"configPath", config_path},
                        {"startedAtMs", epoch_ms()}};
    ignore_error(sys::make_directories(state_dir + "/gateway"));
    if (Result<void> w = sys::replace_file_atomically(status_path, json::serialize(status) + "\n", 0600); !w.ok()) {
      std::fprintf(stderr, "clawexec gateway: warning: status file: %s\n", w.error().message.c_str());
    }
  }
  std::fprintf(stderr, "clawexec gateway: listening on %s (MCP endpoint %s/mcp)\n", url.c_str(), url.c_str());
  if (!credential->token_file.empty()) {
    std::fprintf(stderr, "clawexec gateway: auth: Authorization: Bearer <the token in %s>\n", credential->token_file.c_str());
  } else {
    std::fprintf(stderr, "clawexec gateway: auth: the configured %s\n",
                 settings.auth_mode == config::GatewayAuthMode::kToken ? "gateway.auth.token" : "gateway.auth.password");
  }
  std::fflush(stderr);

  bool shutting_down = false;
  asio::steady_timer deadline(io);
  auto shutdown = [&] {
    if (shutting_down) return;
    shutting_down = true;
    hub.close_all();
    http.stop();
    endpoint.close_all();
    deadline.expires_after(kShutdownDeadline);
    deadline.async_wait([&](const boost::system::error_code& ec) {
      if (!ec) io.stop();
    });
    services.shutdown([&] { io.stop(); });
  };
  asio::signal_set stop_signals(io, SIGTERM, SIGINT);
  stop_signals.async_wait([&](const boost::system::error_code& ec, int) {
    if (!ec) shutdown();
  });
  // SIGHUP (and a config.patch from an operator): the front door's settings (credential,
  // origins, rate limit, loopback auto-approval), the session idle time and every agent's
  // tools.exec settings are read again.
  asio::signal_set reload(io, SIGHUP);
  reload_settings = [&] {
    Result<Setup> again = load_setup(options.agent_id);
    if (!again.ok()) {
      std::fprintf(stderr, "clawexec gateway: reload failed, keeping the running settings: %s\n", again.error().message.c_str());
      return;
    }
    Result<gateway::GatewayCredential> c = credential_for(again->gateway, state_dir);
    if (!c.ok()) {
      std::fprintf(stderr, "clawexec gateway: reload failed, keeping the running settings: %s\n", c.error().message.c_str());
      return;
    }
    front.set_options(front_options(again->gateway, *c, settings.bind_address, options.version, settings.tls_enabled));
    hub.set_credential(*c);
    hub.set_auto_approve_local(again->gateway.auto_approve_local);
    endpoint.set_idle_ms(again->gateway.mcp_session_idle_ms);
    services.reload_exec_settings();
    std::fprintf(stderr, "clawexec gateway: settings reloaded\n");
  };
  std::function<void(const boost::system::error_code&, int)> on_hup = [&](const boost::system::error_code& ec, int) {
    if (ec) return;
    reload_settings();
    reload.async_wait(on_hup);
  };
  reload.async_wait(on_hup);
  // openclaw.json is watched too: a change (content, replacement, creation or removal) seen by
  // a stat every second reloads the same way. A write that our own config.patch made is
  // reloaded once more here, which changes nothing.
  auto config_stamp = [&config_path]() -> std::string {
    Result<std::optional<sys::FileInfo>> info = sys::stat_path(config_path);
    if (!info.ok() || !*info) return "absent";
    const sys::FileInfo& f = **info;
    return std::to_string(f.dev) + ":" + std::to_string(f.ino) + ":" + std::to_string(f.size) + ":" + std::to_string(f.mtime_ns) +
           ":" + std::to_string(f.ctime_ns);
  };
  std::string seen_stamp = config_stamp();
  asio::steady_timer config_watch(io);
  std::function<void(const boost::system::error_code&)> on_watch = [&](const boost::system::error_code& ec) {
    if (ec) return;
    if (std::string now = config_stamp(); now != seen_stamp) {
      seen_stamp = now;
      std::fprintf(stderr, "clawexec gateway: %s changed\n", config_path.c_str());
      reload_settings();
    }
    config_watch.expires_after(std::chrono::milliseconds(kConfigWatchMs));
    config_watch.async_wait(on_watch);
  };
  config_watch.expires_after(std::chrono::milliseconds(kConfigWatchMs));
  config_watch.async_wait(on_watch);
  services.default_service().warm_up_shell_environment();
  io.run();
  if (mirror) mirror->stop();
  if (channel) channel->stop();
  ::unlink(status_path.c_str());
  return 0;
}

}  // namespace clawexec::daemon
