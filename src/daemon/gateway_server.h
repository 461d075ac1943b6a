#pragma once
// `clawexec gateway`: one long-running process, one port, serving agents MCP over streamable
// HTTP at /mcp (each MCP session its own client of the agent's exec service), with the
// gateway's pending approvals on the operator channel (`clawexec approvals ...`).
// `clawexec gateway status` and `clawexec dashboard` read the status file the running gateway
// keeps (gateway_status.cc).

#include <optional>
#include <string>

namespace clawexec::daemon {

struct GatewayOptions {
  std::string agent_id = "main";  // the agent of sessions that name none
  std::string version;
  std::optional<int> port;            // --port (wins over OPENCLAW_GATEWAY_PORT and gateway.port)
  std::optional<std::string> bind;    // --bind loopback|lan|auto|ADDR
  std::optional<std::string> tls_cert, tls_key;
};

/// Runs until SIGTERM/SIGINT; SIGHUP re-reads the gateway's settings. Returns the exit code.
int run_gateway(const GatewayOptions& options);

/// <state>/gateway/gateway.json: what the running gateway writes about itself (pid, url, auth).
std::string gateway_status_path(const std::string& state_dir);

/// `clawexec gateway status [--json]`: where the gateway listens and how to authenticate.
/// Exit 0 when one is running, 1 when not.
int gateway_status(bool json);

/// `clawexec dashboard [--json]`: the running gateway's control UI URL and how to log in.
/// Exit 0 when one is running, 1 when not.
int gateway_dashboard(bool json);

}  // namespace clawexec::daemon
