#pragma once
// What the node host says when it connects: the credential it presents (the reference's
// resolution order) and the `connect` request answering the gateway's challenge, shaped like
// OpenClaw 2026.9.6's node host with its restricted surface (client node-host, mode and role
// node, no scopes, caps ["system"] plus our streaming cap (exec/node_invoker.h; an OpenClaw
// gateway ignores it), the five system.* commands) and signed with the device
// key over the v3 payload (gateway/device_auth.h). Pure: the caller supplies the identity, the
// challenge and the environment.

#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "json/json.h"
#include "node/identity.h"

namespace clawexec::node {

/// The commands a clawexec node host serves, in the order OpenClaw's node host declares them.
const std::vector<std::string>& node_commands();

/// The credential of one connect attempt: a shared gateway token or a device token.
struct NodeAuth {
  enum class Kind { kNone, kSharedToken, kDeviceToken };
  Kind kind = Kind::kNone;
  std::string value;
  std::string source;  // "OPENCLAW_GATEWAY_TOKEN", "device token", "--token", "gateway.auth.token"
};

/// The reference's order: $OPENCLAW_GATEWAY_TOKEN, then the device token saved for this
/// gateway, then the local configuration (--token, else gateway.auth.token).
NodeAuth resolve_node_auth(const std::optional<std::string>& env_token, const std::optional<std::string>& saved_device_token,
                           const std::optional<std::string>& flag_token, const std::optional<std::string>& config_token);

struct ConnectInputs {
  std::string display_name;
  std::string version;
  std::string platform = "linux";
  std::string device_family = "Linux";
  std::string path_env;  // "" = not sent
  std::string nonce;     // connect.challenge payload.nonce
  int64_t signed_at = 0;  // connect.challenge payload.ts
};

/// The `connect` params (not the whole frame).
Result<json::Object> connect_params(const NodeIdentity& identity, const NodeAuth& auth, const ConnectInputs& inputs);

}  // namespace clawexec::node
