// The stdio MCP server's composition: the configuration, the exec service, the operator
// channel, one MCP server on rpc::StdioTransport (which owns the reader and writer threads and
// their back-pressure), signals and shutdown. Shutdown (stdin EOF, SIGTERM/SIGINT/SIGHUP, or a
// broken stdout) stops every command with the kill sequence, bounded in time; commands also die
// if this process is killed outright, because each one's reaper loses its control socket. On
// stdin EOF, foreground calls already received get a short grace to finish and be answered
// first.

#include "daemon/stdio_server.h"

#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cstdio>

#include "approvals/operator_channel.h"
#include "base/utf.h"
#include "daemon/operator_link.h"
#include "daemon/gateway_node_link.h"
#include "daemon/setup.h"
#include "policy/modes.h"
#include "mcp/server.h"
#include "rpc/stdio_transport.h"

namespace clawexec::daemon {
namespace asio = boost::asio;
namespace {

constexpr std::chrono::seconds kShutdownDeadline{12};
// After stdin EOF, foreground calls already received get this long to finish and be answered.
constexpr std::chrono::milliseconds kEofForegroundGrace{2000};

}  // namespace

namespace {

// serve --host/--node/--security/--ask: the client's defaults, validated like /exec values.
Result<void> apply_session_defaults(const ServeOptions& o, exec::ExecDefaults& config) {
  if (o.host) {
    std::optional<config::ExecHost> host = policy::normalize_exec_target(*o.host);
    if (!host) return Error::invalid("--host " + *o.host + ": expected auto, sandbox, gateway or node");
    config.host = *host;
  }
  if (o.node) {
    if (js_trim(*o.node).empty()) return Error::invalid("--node requires a value");
    config.node = std::string(js_trim(*o.node));
  }
  if (o.security) {
    std::optional<config::ExecSecurity> security = policy::normalize_exec_security(*o.security);
    if (!security) return Error::invalid("--security " + *o.security + ": expected deny, allowlist or full");
    config.security = *security;
  }
  if (o.ask) {
    std::optional<config::ExecAsk> ask = policy::normalize_exec_ask(*o.ask);
    if (!ask) return Error::invalid("--ask " + *o.ask + ": expected off, on-miss or always");
    config.ask = *ask;
  }
  return {};
}

// `client`: the served client, once it exists (an operator's `/exec` applies to it).
std::unique_ptr<approvals::OperatorChannel> start_channel(asio::io_context& io, exec::ExecService& service,
                                                          exec::ClientSession* const& client) {
  approvals::OperatorChannel::Provider provider;
  provider.list = [&service] { return service.pending_approvals_json(); };
  provider.command = [&service, &client](const std::string& text) -> std::optional<std::string> {
    if (!client) return std::nullopt;
    return service.exec_directive(*client, text);
  };
  provider.resolve = [&service](std::string id, std::string decision, std::string resolved_by,
                                std::function<void(Result<void>)> done) {
    service.resolve_approval(id, decision, resolved_by, std::move(done));
  };
  return start_operator_channel(io, service.config(), "serve", std::move(provider),
                                [&service](exec::ExecService::ApprovalEvents e) { service.set_approval_events(std::move(e)); });
}

}  // namespace

int run_stdio_server(const ServeOptions& options) {
  prepare_process();
  std::optional<Setup> setup = load_setup_reporting(options.agent_id, "serve");
  if (!setup) return 1;

  exec::ExecDefaults defaults;
  if (Result<void> applied = apply_session_defaults(options, defaults); !applied.ok()) {
    std::fprintf(stderr, "clawexec serve: %s\n", applied.error().message.c_str());
    return 2;
  }
  asio::io_context io;
  std::string state_dir = setup->service.state_dir;
  exec::ExecService service(io, std::move(setup->service));
  // exec host=node goes through the gateway running on this machine, if any.
  GatewayNodeLink nodes(io, state_dir, setup->gateway, options.version);
  service.set_node_invoker(&nodes);
  bool shutting_down = false;
  asio::steady_timer deadline(io);
  // `grace`: how long foreground calls may still finish and be answered (the client closed its
  // input but may still read our output); background sessions are stopped at once.
  std::function<void(std::chrono::milliseconds)> shutdown = [&](std::chrono::milliseconds grace) {
    if (shutting_down) return;
    shutting_down = true;
    deadline.expires_after(kShutdownDeadline + grace);
    deadline.async_wait([&](const boost::system::error_code& ec) {
      if (!ec) io.stop();
    });
    service.shutdown(grace, [&] { io.stop(); });
  };
  std::function<void(std::string)> on_line;
  std::function<void(size_t)> on_oversized;
  rpc::StdioTransport transport(io, {[&](std::string line) { on_line(std::move(line)); },
                                     [&](size_t n) { on_oversized(n); },
                                     [&] { shutdown(kEofForegroundGrace); },
                                     [&] { shutdown(std::chrono::milliseconds(0)); }});
  mcp::ServerOptions server_options;
  server_options.version = options.version;
  server_options.scope_key = "mcp-stdio:" + std::to_string(::getpid());
  server_options.session_key = options.session_key;
  exec::ClientSession* client = nullptr;
  std::unique_ptr<approvals::OperatorChannel> channel = start_channel(io, service, client);
  server_options.pending_approvals = channel != nullptr;
  server_options.model_id = options.model;
  server_options.structured_content = setup->mcp.structured_content;
  server_options.elicitation = setup->mcp.elicitation == config::Elicitation::kElicit;
  server_options.exec_defaults = defaults;
  mcp::Server server(service, [&](std::string line) { transport.send(std::move(line)); }, server_options);
  client = &server.client();

  asio::signal_set signals(io, SIGTERM, SIGINT, SIGHUP);
  signals.async_wait([&](const boost::system::error_code& ec, int) {
    if (!ec) shutdown(std::chrono::milliseconds(0));
  });
  on_line = [&](std::string line) { server.handle_line(line); };
  on_oversized = [&](size_t n) { server.handle_oversized(n); };
  transport.start();
  // The login PATH and the shell snapshot are made while the client is still initialising.
  service.warm_up_shell_environment();
  io.run();
  if (channel) channel->stop();
  nodes.close();
  transport.stop();
  client = nullptr;
  return 0;
}

}  // namespace clawexec::daemon
