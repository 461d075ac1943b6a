#pragma once
// Which node an `exec host=node` call runs on. The agent may name one (`node`), the
// configuration or an `/exec node=` directive may bind one, and with neither the sole connected
// node that can run commands is used. The rules and every error text are OpenClaw 2026.9.6's
// (`resolveNodeExecutionTarget`): a name resolves by exact id, remote address, display name
// (normalized) or an id prefix of six or more characters; a bound node wins and a different
// requested one is refused; an ineligible node (disconnected, or without `system.run`) is
// refused, never replaced by another. Pure: the caller passes the node list.

#include <optional>
#include <string>
#include <vector>

#include "base/result.h"

namespace clawexec::exec {

/// A node as `node.list` describes it.
struct NodeSummary {
  std::string node_id;
  std::string display_name;
  std::string platform;
  std::string remote_ip;
  std::string client_id;
  std::vector<std::string> commands;  // the approved ones it declared
  std::vector<std::string> caps;      // as it declared them (approved with its surface)
  bool connected = false;
};

/// The node for the call; an error whose message is the text the agent reads.
Result<NodeSummary> select_node(const std::vector<NodeSummary>& nodes, const std::optional<std::string>& requested,
                                const std::optional<std::string>& bound);

/// The argv that runs `command` through the node platform's shell (`src/infra/node-shell.ts`).
/// OpenClaw's normalizeNodeKey: the form in which a `node` argument or binding matches a node's
/// name (lowercase, each run of other characters than letters and digits one "-").
std::string node_name_key(const std::string& name);

std::vector<std::string> node_shell_argv(const std::string& command, const std::string& platform);

}  // namespace clawexec::exec
