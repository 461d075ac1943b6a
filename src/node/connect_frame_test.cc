#include "node/connect_frame.h"

#include <gtest/gtest.h>

#include "gateway/device_auth.h"
#include "hash/ed25519.h"

namespace clawexec::node {
namespace {

NodeIdentity make_identity() {
  Result<hash::Ed25519KeyPair> keys = hash::ed25519_generate();
  EXPECT_TRUE(keys.ok());
  NodeIdentity id;
  id.public_key = keys->public_key;
  id.private_key = keys->private_key;
  id.device_id = gateway::device_id_of(id.public_key);
  id.instance_id = "94f4fc21-bf6c-4023-a77c-dfe8907ff207";
  return id;
}

std::vector<std::string> keys_of(const json::Object& o) {
  std::vector<std::string> out;
  for (const auto& kv : o) out.emplace_back(kv.key());
  return out;
}

ConnectInputs inputs() {
  ConnectInputs in;
  in.display_name = "clawexec-probe-node";
  in.version = "2026.9.6";
  in.nonce = "34161933-bd59-48f9-90d4-54e86145f646";
  in.signed_at = 1796151806795;
  return in;
}

// OpenClaw 2026.9.6's node host with the restricted surface (transcript conn 37):
// {"minProtocol":4,"maxProtocol":4,"client":{"id":"node-host","displayName":...,"version":...,
//  "platform":"linux","deviceFamily":"Linux","mode":"node","instanceId":...},"caps":["system"],
//  "commands":["system.execApprovals.get","system.execApprovals.set","system.run",
//  "system.run.prepare","system.which"],"auth":{"deviceToken":...},"role":"node","scopes":[],
//  "device":{"id","publicKey","signature","signedAt","nonce"}}
TEST(ConnectFrame, HasTheShapeOfOpenClawsRestrictedNodeHostConnect) {
  NodeIdentity id = make_identity();
  NodeAuth auth{NodeAuth::Kind::kDeviceToken, "_C6VLZLjD8_k9pJBYTVJowYuvmEihr2IUGCAu2Az230", "device token"};
  Result<json::Object> params = connect_params(id, auth, inputs());
  ASSERT_TRUE(params.ok());
  EXPECT_EQ(keys_of(*params), (std::vector<std::string>{"minProtocol", "maxProtocol", "client", "caps", "commands", "auth", "role",
                                                        "scopes", "device"}));
  EXPECT_EQ(json::serialize(json::find(*params, "client")->as_object()),
            R"({"id":"node-host","displayName":"clawexec-probe-node","version":"2026.9.6","platform":"linux","deviceFamily":"Linux","mode":"node","instanceId":"94f4fc21-bf6c-4023-a77c-dfe8907ff207"})");
  EXPECT_EQ(json::serialize(*json::find(*params, "caps")), R"(["system","clawexec.exec-stream"])");
  EXPECT_EQ(json::serialize(*json::find(*params, "commands")),
            R"(["system.execApprovals.get","system.execApprovals.set","system.run","system.run.prepare","system.which"])");
  EXPECT_EQ(json::serialize(*json::find(*params, "auth")), R"({"deviceToken":"_C6VLZLjD8_k9pJBYTVJowYuvmEihr2IUGCAu2Az230"})");
  EXPECT_EQ(json::string_member(*params, "role"), "node");
  EXPECT_EQ(json::serialize(*json::find(*params, "scopes")), "[]");
  EXPECT_EQ(json::integer_member(*params, "minProtocol"), 4);
  EXPECT_EQ(json::integer_member(*params, "maxProtocol"), 4);
  const json::Object& device = json::find(*params, "device")->as_object();
  EXPECT_EQ(keys_of(device), (std::vector<std::string>{"id", "publicKey", "signature", "signedAt", "nonce"}));
  EXPECT_EQ(json::string_member(device, "id"), id.device_id);
  EXPECT_EQ(json::integer_member(device, "signedAt"), 1796151806795);
}

TEST(ConnectFrame, SignatureVerifiesAsV3WithTheTokenTheGatewayWillUse) {
  NodeIdentity id = make_identity();
  for (NodeAuth auth : {NodeAuth{NodeAuth::Kind::kSharedToken, "tok-shared", "env"}, NodeAuth{NodeAuth::Kind::kDeviceToken, "tok-device", "saved"}}) {
    Result<json::Object> params = connect_params(id, auth, inputs());
    ASSERT_TRUE(params.ok());
    const json::Object& device = json::find(*params, "device")->as_object();
    gateway::DeviceProof proof{json::string_member(device, "id"), json::string_member(device, "publicKey"),
                               json::string_member(device, "signature"), json::integer_member(device, "signedAt"),
                               json::string_member(device, "nonce")};
    gateway::DeviceClaims claims{"node-host", "node", "node", {}, auth.value, "linux", "Linux"};
    gateway::DeviceCheck check = gateway::verify_device_proof(proof, claims, inputs().nonce, inputs().signed_at + 10);
    ASSERT_TRUE(check.ok) << check.message;
    EXPECT_EQ(check.version, 3);
    // Signed over one token, it does not verify for another.
    claims.token = "something-else";
    EXPECT_FALSE(gateway::verify_device_proof(proof, claims, inputs().nonce, inputs().signed_at).ok);
  }
}

TEST(ConnectFrame, PathEnvIsSentOnlyWhenKnownAndSharedTokensGoInAuthToken) {
  NodeIdentity id = make_identity();
  ConnectInputs in = inputs();
  in.path_env = "/usr/bin:/bin";
  Result<json::Object> params = connect_params(id, {NodeAuth::Kind::kSharedToken, "tok", "env"}, in);
  ASSERT_TRUE(params.ok());
  EXPECT_EQ(json::string_member(*params, "pathEnv"), "/usr/bin:/bin");
  EXPECT_EQ(json::serialize(*json::find(*params, "auth")), R"({"token":"tok"})");
}

TEST(NodeAuth, FollowsTheReferenceOrder) {
  EXPECT_EQ(resolve_node_auth("env", "dev", "flag", "cfg").source, "OPENCLAW_GATEWAY_TOKEN");
  NodeAuth saved = resolve_node_auth(std::nullopt, "dev", "flag", "cfg");
  EXPECT_EQ(saved.kind, NodeAuth::Kind::kDeviceToken);
  EXPECT_EQ(saved.value, "dev");
  EXPECT_EQ(resolve_node_auth(std::nullopt, std::nullopt, "flag", "cfg").value, "flag");
  EXPECT_EQ(resolve_node_auth("", "", std::nullopt, "cfg").value, "cfg");
  EXPECT_EQ(resolve_node_auth(std::nullopt, std::nullopt, std::nullopt, std::nullopt).kind, NodeAuth::Kind::kNone);
}

}  // namespace
}  // namespace clawexec::node
