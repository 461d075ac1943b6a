#pragma once
// `clawexec node run` and `clawexec node identity`: the node host's composition root. It loads
// the node's own configuration and state directory (the same rules as every other command),
// builds the exec pipeline that runs its system.run commands, and keeps the gateway
// connection (node/node_client.h) until SIGINT/SIGTERM.

#include <optional>
#include <string>

namespace clawexec::daemon {

struct NodeHostOptions {
  std::string host = "127.0.0.1";
  int port = 18789;
  bool tls = false;
  bool tls_insecure = false;  // wss:// without certificate verification
  std::optional<std::string> display_name;
  std::optional<std::string> token;
  std::string version;
};

/// Runs in the foreground, logging on stderr. 0 after a signal; 1 when it cannot start or the
/// gateway refuses its credential for good.
int run_node_host(const NodeHostOptions& options);

/// Prints the device id and public key (creating the identity when there is none yet).
int node_identity(bool json);

}  // namespace clawexec::daemon
