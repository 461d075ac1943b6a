#pragma once
// `clawexec serve`: the MCP server on stdin/stdout.

#include <optional>
#include <string>

namespace clawexec::daemon {

struct ServeOptions {
  std::string agent_id = "main";
  std::string version;
  /// The client's session defaults (exec spec §5), set by whoever starts the server: host and
  /// node replace the configured ones; security and ask can only tighten the configuration.
  std::optional<std::string> host, node, security, ask;
  /// The model the client runs (for tools.exec.applyPatch.allowModels) when its initialize
  /// request does not say.
  std::string model;
  /// OpenClaw's session key for this client ("" = the agent's main session `agent:<id>:main`):
  /// agents.*.sandbox.mode "non-main" sandboxes every other key.
  std::string session_key;
};

/// Runs until stdin reaches EOF or a terminating signal arrives; then stops every command and
/// returns the process exit code.
int run_stdio_server(const ServeOptions& options);

}  // namespace clawexec::daemon
