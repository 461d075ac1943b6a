#pragma once
// ExecRequest: one exec call as the pipeline reads it, whoever asked (an MCP tool call, the
// `clawexec exec` CLI, later the gateway or a node host). Requested values stay raw (host as
// written, ask as written): the pipeline validates them in the reference's order, so every
// entry point gets the same errors in the same order. The MCP tool fills it from its JSON
// arguments (tools/exec_args.h); nothing below this header sees tool JSON.

#include <optional>
#include <string>

#include "env/env_list.h"

namespace clawexec::exec {

struct ExecRequest {
  std::string command;
  /// Where to run; absent or empty = the configured default, else the server's directory.
  std::optional<std::string> workdir;
  /// Environment overrides, in the order given.
  env::EnvList env;
  /// As requested (validated by the pipeline): auto | sandbox | gateway | node.
  std::optional<std::string> host;
  /// Ignored per call, like the reference (tools.exec.security and host approvals decide).
  std::optional<std::string> security;
  /// A per-call ask (off | on-miss | always): it can only tighten.
  std::optional<std::string> ask;
  std::optional<std::string> node;
  std::optional<bool> elevated;
  bool pty = false;
  std::optional<double> timeout_seconds;
  /// The yield window; absent = tools.exec.backgroundMs.
  std::optional<double> yield_ms;
  bool background = false;
  /// The caller passed the legacy `timeout` argument: refused first, as the reference does.
  bool legacy_timeout = false;
};

}  // namespace clawexec::exec
