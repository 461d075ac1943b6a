#pragma once
// `clawexec serve`: the MCP server on stdin/stdout.

#include <string>

namespace clawexec::daemon {

struct ServeOptions {
  std::string agent_id = "main";
  std::string version;
};

/// Runs until stdin reaches EOF or a terminating signal arrives; then stops every command and
/// returns the process exit code.
int run_stdio_server(const ServeOptions& options);

}  // namespace clawexec::daemon
