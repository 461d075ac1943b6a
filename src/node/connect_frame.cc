// The node host's connect request (connect_frame.h). The field order follows the frame
// OpenClaw's node host sends (openclaw-node-transcript.jsonl, conn 37), so a diff against the
// transcript shows only values; the device signature is over exactly the v3 text the gateway
// rebuilds (device_signature_payload), with the token the gateway will take from auth.

#include "node/connect_frame.h"

#include "exec/node_invoker.h"
#include "gateway/device_auth.h"
#include "hash/base64url.h"
#include "hash/ed25519.h"

namespace clawexec::node {

const std::vector<std::string>& node_commands() {
  static const std::vector<std::string> kCommands{"system.execApprovals.get", "system.execApprovals.set", "system.run",
                                                  "system.run.prepare", "system.which"};
  return kCommands;
}

NodeAuth resolve_node_auth(const std::optional<std::string>& env_token, const std::optional<std::string>& saved_device_token,
                           const std::optional<std::string>& flag_token, const std::optional<std::string>& config_token) {
  auto usable = [](const std::optional<std::string>& v) { return v && !v->empty(); };
  if (usable(env_token)) return {NodeAuth::Kind::kSharedToken, *env_token, "OPENCLAW_GATEWAY_TOKEN"};
  if (usable(saved_device_token)) return {NodeAuth::Kind::kDeviceToken, *saved_device_token, "device token"};
  if (usable(flag_token)) return {NodeAuth::Kind::kSharedToken, *flag_token, "--token"};
  if (usable(config_token)) return {NodeAuth::Kind::kSharedToken, *config_token, "gateway.auth.token"};
  return {};
}

Result<json::Object> connect_params(const NodeIdentity& identity, const NodeAuth& auth, const ConnectInputs& inputs) {
  const std::string client_id = "node-host";
  const std::string mode = "node";
  const std::string role = "node";
  gateway::DeviceProof proof;
  proof.id = identity.device_id;
  proof.public_key = identity.public_key_b64url();
  proof.signed_at = inputs.signed_at;
  proof.nonce = inputs.nonce;
  gateway::DeviceClaims claims;
  claims.client_id = client_id;
  claims.client_mode = mode;
  claims.role = role;
  claims.token = auth.value;
  claims.platform = inputs.platform;
  claims.device_family = inputs.device_family;
  std::string payload = gateway::device_signature_payload(3, proof, claims);
  std::string signature = TRY(hash::ed25519_sign(identity.private_key, payload));

  json::Object client{{"id", client_id},
                      {"displayName", inputs.display_name},
                      {"version", inputs.version},
                      {"platform", inputs.platform},
                      {"deviceFamily", inputs.device_family},
                      {"mode", mode}};
  if (!identity.instance_id.empty()) client["instanceId"] = identity.instance_id;
  json::Object params{{"minProtocol", 4}, {"maxProtocol", 4}, {"client", std::move(client)},
                      {"caps", json::Array{"system", exec::kNodeStreamCap}}, {"commands", json::string_array(node_commands())}};
  if (!inputs.path_env.empty()) params["pathEnv"] = inputs.path_env;
  json::Object auth_obj;
  if (auth.kind == NodeAuth::Kind::kSharedToken) auth_obj["token"] = auth.value;
  if (auth.kind == NodeAuth::Kind::kDeviceToken) auth_obj["deviceToken"] = auth.value;
  params["auth"] = std::move(auth_obj);
  params["role"] = role;
  params["scopes"] = json::Array();
  params["device"] = json::Object{{"id", identity.device_id},
                                  {"publicKey", proof.public_key},
                                  {"signature", hash::base64url_encode(signature)},
                                  {"signedAt", inputs.signed_at},
                                  {"nonce", inputs.nonce}};
  return params;
}

}  // namespace clawexec::node
