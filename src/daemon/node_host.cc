// The node host process (node_host.h). One io_context thread runs the gateway connection and
// the exec pipeline; SIGINT/SIGTERM close the connection, stop every command with the kill
// sequence and return. Test seams from the environment: CLAWEXEC_NODE_RECONNECT_MS and
// CLAWEXEC_NODE_RECONNECT_MAX_MS (the reconnect backoff's start and cap).

#include "daemon/node_host.h"

#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <cstdio>
#include <cstdlib>

#include "config/paths.h"
#include "daemon/setup.h"
#include "gateway/http_front.h"
#include "json/json.h"
#include "node/identity.h"
#include "node/node_client.h"
#include "node/pipeline_runner.h"
#include "operator/operator_env.h"

namespace clawexec::daemon {
namespace asio = boost::asio;
namespace {

constexpr const char* kDefaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

std::optional<std::string> env_value(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v) return std::nullopt;
  return std::string(v);
}

std::chrono::milliseconds env_ms(const char* name, int64_t fallback) {
  std::optional<std::string> v = env_value(name);
  if (!v) return std::chrono::milliseconds(fallback);
  char* end = nullptr;
  long long n = std::strtoll(v->c_str(), &end, 10);
  if (!end || *end || n <= 0) return std::chrono::milliseconds(fallback);
  return std::chrono::milliseconds(n);
}

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0 || !buf[0]) return "clawexec-node";
  return buf;
}

std::string current_dir() {
  char buf[4096];
  return getcwd(buf, sizeof buf) ? std::string(buf) : std::string("/");
}

std::string state_dir() { return config::resolve_state_dir(config::process_path_context()); }

void log_line(const std::string& line) {
  std::fprintf(stderr, "clawexec node: %s\n", line.c_str());
  std::fflush(stderr);
}

}  // namespace

int run_node_host(const NodeHostOptions& options) {
  prepare_process();
  if (options.port <= 0 || options.port > 65535) {
    std::fprintf(stderr, "clawexec node run: --port must be 1-65535\n");
    return 2;
  }
  std::optional<Setup> setup = load_setup_reporting("main", "node run");
  if (!setup) return 1;
  std::string dir = node::node_dir(setup->service.state_dir.empty() ? state_dir() : setup->service.state_dir);
  Result<node::NodeIdentity> identity = node::load_or_create_identity(dir);
  if (!identity.ok()) {
    std::fprintf(stderr, "clawexec node run: %s\n", identity.error().message.c_str());
    return 1;
  }

  asio::io_context io;
  node::PipelineRunner runner(io, std::move(setup->service));
  node::NodeClientOptions o;
  o.host = options.host;
  o.port = static_cast<uint16_t>(options.port);
  o.tls = !options.tls ? net::TlsMode::kOff : options.tls_insecure ? net::TlsMode::kInsecure : net::TlsMode::kVerify;
  o.display_name = options.display_name.value_or(host_name());
  o.version = options.version;
  o.env_token = env_value("OPENCLAW_GATEWAY_TOKEN");
  o.flag_token = options.token;
  // This machine's own gateway secret goes only to this machine's gateway, never to another host.
  if (!setup->gateway.token.empty() && gateway::is_loopback_host(options.host)) o.config_token = setup->gateway.token;
  if (!options.tls && !gateway::is_loopback_host(options.host)) {
    log_line("warning: ws:// to " + options.host + " sends the gateway token and every command's output unencrypted; use --tls");
  }
  o.node_dir = dir;
  o.path_env = env_value("PATH").value_or(kDefaultPath);
  o.process_cwd = current_dir();
  o.files = operator_ops::process_operator_env();
  o.reconnect_initial = env_ms("CLAWEXEC_NODE_RECONNECT_MS", 1000);
  o.reconnect_max = std::max(o.reconnect_initial, env_ms("CLAWEXEC_NODE_RECONNECT_MAX_MS", 30000));
  o.detached_limit = env_ms("CLAWEXEC_NODE_DETACHED_LIMIT_MS", 600000);
  o.log = log_line;

  const std::string device_id = identity->device_id;
  int exit_code = 0;
  std::shared_ptr<node::NodeClient> client;
  bool shutting_down = false;
  auto shutdown = [&] {
    if (shutting_down) return;
    shutting_down = true;
    client->stop([&] { runner.shutdown([&] { io.stop(); }); });
  };
  o.fatal = [&](const std::string& why) {
    log_line(why);
    exit_code = 1;
    asio::post(io, shutdown);
  };
  client = std::make_shared<node::NodeClient>(io, std::move(o), std::move(*identity), runner);
  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const boost::system::error_code& ec, int signo) {
    if (ec) return;
    log_line("signal " + std::to_string(signo) + ": stopping");
    shutdown();
  });
  log_line("node " + device_id + ": connecting to " + std::string(options.tls ? "wss://" : "ws://") + options.host + ":" +
           std::to_string(options.port) + " (state " + dir + ")");
  client->start();
  io.run();
  signals.cancel();
  client.reset();
  return exit_code;
}

int node_identity(bool json) {
  std::string dir = node::node_dir(state_dir());
  Result<node::NodeIdentity> identity = node::load_or_create_identity(dir);
  if (!identity.ok()) {
    std::fprintf(stderr, "clawexec node identity: %s\n", identity.error().message.c_str());
    return 1;
  }
  if (json) {
    json::Object out{{"deviceId", identity->device_id}, {"publicKey", identity->public_key_b64url()}};
    std::printf("%s\n", json::serialize(out).c_str());
  } else {
    std::printf("deviceId:  %s\npublicKey: %s\n", identity->device_id.c_str(), identity->public_key_b64url().c_str());
  }
  return 0;
}

}  // namespace clawexec::daemon
