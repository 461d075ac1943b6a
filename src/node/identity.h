#pragma once
// The node host's identity on disk: an Ed25519 key pair (its device id is the SHA-256 of the
// raw public key) in <state>/node/device.json, and the device tokens gateways issued to it in
// <state>/node/device-auth.json, one per gateway endpoint. Both files are 0600 in a 0700
// directory, written atomically; a file that exists but cannot be read or is malformed is an
// error naming it, never silently replaced (a new key would be a new, unpaired device).

#include <optional>
#include <string>

#include "base/result.h"

namespace clawexec::node {

struct NodeIdentity {
  std::string device_id;        // lowercase hex sha256 of the raw public key
  std::string public_key;       // raw, 32 bytes
  std::string private_key;      // raw seed, 32 bytes
  std::string instance_id;      // a uuid kept with the key (client.instanceId)
  int64_t created_at_ms = 0;
  /// base64url of the raw public key, as the connect frame carries it.
  std::string public_key_b64url() const;
};

/// <state_dir>/node
std::string node_dir(const std::string& state_dir);

/// The identity in `dir`/device.json, or nullopt when there is none yet.
Result<std::optional<NodeIdentity>> load_identity(const std::string& dir);

/// The identity in `dir`, created (with `dir`) when there is none.
Result<NodeIdentity> load_or_create_identity(const std::string& dir);

/// The device token saved for `endpoint` ("host:port") and this device, if any.
Result<std::optional<std::string>> load_device_token(const std::string& dir, const std::string& device_id,
                                                     const std::string& endpoint);

/// Saves (or, with an empty token, forgets) the device token for `endpoint`.
Result<void> save_device_token(const std::string& dir, const std::string& device_id, const std::string& endpoint,
                               const std::string& token);

}  // namespace clawexec::node
