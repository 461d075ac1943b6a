#pragma once
// Building the exec service's configuration from the outside world: the OpenClaw config file
// (JSON5, $OPENCLAW_CONFIG_PATH or <state>/openclaw.json), the process environment, and the
// location of clawexec-shim.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "config/gateway_settings.h"
#include "config/mcp_settings.h"
#include "exec/service.h"

namespace clawexec::daemon {

struct Setup {
  exec::ServiceConfig service;
  config::McpSettings mcp;  // clawexec.mcp.* (used by serve)
  config::GatewaySettings gateway;  // gateway.* (used by `clawexec gateway`)
  std::vector<std::string> warnings;  // for stderr
  std::string config_path;
};

/// Reads and validates the configuration for `agent_id`. Errors name the file and the key.
Result<Setup> load_setup(const std::string& agent_id);

/// load_setup for a CLI command: prints the error, or the warnings, to stderr prefixed with
/// "clawexec <command>: ". nullopt after an error.
std::optional<Setup> load_setup_reporting(const std::string& agent_id, std::string_view command);

/// Ignores SIGPIPE and raises the open-file limit (each session holds a few descriptors).
void prepare_process();

}  // namespace clawexec::daemon
