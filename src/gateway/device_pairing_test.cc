#include "gateway/device_pairing.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "gateway/scopes.h"

namespace clawexec::gateway {
namespace {

class DevicePairingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("clawexec-devices-" + std::to_string(::getpid()) + "-" +
                                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    path_ = (dir_ / "gateway" / "devices.json").string();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::unique_ptr<DevicePairing> open() {
    auto r = DevicePairing::open(path_);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(*r) : nullptr;
  }
  static DeviceInfo node(std::string id = "dev-node") {
    return {std::move(id), "pk-" + std::string("node"), "probe-node", "linux", "Linux", "node-host", "node", ""};
  }
  std::filesystem::path dir_;
  std::string path_;
};

TEST_F(DevicePairingTest, ANodeIsApprovedWithATokenThatSurvivesARestart) {
  auto store = open();
  auto req = store->request(node(), "node", {}, false, 1000);
  EXPECT_TRUE(req.created);
  EXPECT_FALSE(req.request.is_repair);
  ASSERT_EQ(store->pending(1000).size(), 1u);
  json::Object wire = DevicePairing::pending_json(req.request);
  EXPECT_EQ(wire.at("deviceId"), "dev-node");
  EXPECT_EQ(wire.at("clientId"), "node-host");
  EXPECT_EQ(wire.at("roles").as_array().size(), 1u);
  EXPECT_EQ(wire.at("silent"), false);

  auto approved = store->approve(req.request.request_id, "owner", std::vector<std::string>{"operator.admin"}, 2000);
  ASSERT_TRUE(approved.ok()) << approved.error().message;
  EXPECT_TRUE(store->pending(2000).empty());
  const DeviceToken* token = store->live_token("dev-node", "node");
  ASSERT_NE(token, nullptr);
  EXPECT_EQ(token->token.size(), 43u);  // base64url of 32 random bytes
  EXPECT_TRUE(token->scopes.empty());
  std::string issued = token->token;

  struct stat st {};
  ASSERT_EQ(::stat(path_.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  json::Object summary = DevicePairing::paired_json(*approved);
  EXPECT_EQ(summary.at("approvedVia"), "owner");
  EXPECT_EQ(json::serialize(summary).find(issued), std::string::npos) << "the token string never leaves in a summary";

  auto again = open();
  ASSERT_NE(again->live_token("dev-node", "node"), nullptr);
  EXPECT_EQ(again->live_token("dev-node", "node")->token, issued);
  EXPECT_EQ(again->paired("dev-node")->approved_at_ms, 2000);
}

TEST_F(DevicePairingTest, RequestsExpireAfterFiveMinutesAndARepeatRefreshesTheSameRequest) {
  auto store = open();
  auto first = store->request(node(), "node", {}, false, 1000);
  auto repeat = store->request(node(), "node", {}, false, 2000);
  EXPECT_FALSE(repeat.created);
  EXPECT_EQ(repeat.request.request_id, first.request.request_id);
  EXPECT_EQ(store->pending(2000 + kDevicePairingTtlMs).size(), 1u);  // refreshed at 2000
  EXPECT_TRUE(store->pending(2001 + kDevicePairingTtlMs).empty());
  EXPECT_FALSE(store->approve(first.request.request_id, "owner", std::nullopt, 2001 + kDevicePairingTtlMs).ok());
}

TEST_F(DevicePairingTest, AWiderRequestSupersedesTheOldOneAndMergesIt) {
  auto store = open();
  DeviceInfo ui{"dev-ui", "pk-ui", "browser", "linux", "", "openclaw-control-ui", "ui", ""};
  auto narrow = store->request(ui, "operator", {"operator.read"}, false, 1000);
  auto wide = store->request(ui, "operator", {"operator.approvals"}, false, 1100);
  EXPECT_TRUE(wide.created);
  ASSERT_EQ(wide.superseded.size(), 1u);
  EXPECT_EQ(wide.superseded[0].request_id, narrow.request.request_id);
  EXPECT_EQ(wide.request.scopes, (std::vector<std::string>{"operator.read", "operator.approvals"}));
  EXPECT_EQ(store->pending(1100).size(), 1u);
}

TEST_F(DevicePairingTest, AnApproverMustHoldTheOperatorScopesItGrants) {
  auto store = open();
  DeviceInfo ui{"dev-ui", "pk-ui", "browser", "linux", "", "openclaw-control-ui", "ui", ""};
  auto req = store->request(ui, "operator", {"operator.read", "operator.approvals"}, false, 1000);
  auto denied = store->approve(req.request.request_id, "owner", std::vector<std::string>{"operator.pairing", "operator.write"}, 1001);
  ASSERT_FALSE(denied.ok());
  EXPECT_EQ(denied.error().message, "missing scope: operator.approvals");
  EXPECT_EQ(store->pending(1001).size(), 1u) << "a refused approval leaves the request pending";
  auto ok = store->approve(req.request.request_id, "owner", std::vector<std::string>{"operator.pairing", "operator.approvals", "operator.write"}, 1002);
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(store->live_token("dev-ui", "operator")->scopes, (std::vector<std::string>{"operator.read", "operator.approvals"}));

  auto bad = store->request({"dev-x", "pk-x", "", "", "", "cli", "cli", ""}, "node", {"operator.admin"}, false, 1003);
  auto refused = store->approve(bad.request.request_id, "owner", std::nullopt, 1004);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message, "invalid scope for requested roles: operator.admin");
}

TEST_F(DevicePairingTest, RotateRevokeRejectRemove) {
  auto store = open();
  auto req = store->request(node(), "node", {}, false, 1000);
  ASSERT_TRUE(store->approve(req.request.request_id, "owner", std::nullopt, 1000).ok());
  std::string first = store->live_token("dev-node", "node")->token;
  auto rotated = store->rotate("dev-node", "node", std::nullopt, std::nullopt, 2000);
  ASSERT_TRUE(rotated.ok());
  EXPECT_NE(rotated->token, first);
  EXPECT_EQ(rotated->rotated_at_ms, 2000);
  EXPECT_EQ(store->live_token("dev-node", "node")->token, rotated->token);
  EXPECT_EQ(store->rotate("dev-node", "operator", std::nullopt, std::nullopt, 2000).error().message, "device token rotation denied");
  EXPECT_EQ(store->rotate("nobody", "node", std::nullopt, std::nullopt, 2000).error().message, "device token rotation denied");

  auto revoked = store->revoke("dev-node", "node", std::nullopt, 3000);
  ASSERT_TRUE(revoked.ok());
  EXPECT_EQ(revoked->revoked_at_ms, 3000);
  EXPECT_EQ(store->live_token("dev-node", "node"), nullptr);
  EXPECT_EQ(open()->live_token("dev-node", "node"), nullptr) << "revocation is persisted";

  auto pending = store->request({"dev-2", "pk-2", "", "", "", "node-host", "node", ""}, "node", {}, false, 4000);
  auto rejected = store->reject(pending.request.request_id, 4001);
  ASSERT_TRUE(rejected.ok());
  EXPECT_EQ(*rejected, "dev-2");
  EXPECT_EQ(store->reject(pending.request.request_id, 4002).error().message, "unknown requestId");

  ASSERT_TRUE(store->remove("dev-node").ok());
  EXPECT_EQ(store->paired("dev-node"), nullptr);
  EXPECT_EQ(store->remove("dev-node").error().message, "unknown deviceId");
  EXPECT_EQ(open()->paired("dev-node"), nullptr);
}

TEST_F(DevicePairingTest, ALooseOrMalformedFileIsRefusedByName) {
  {
    auto store = open();
    auto req = store->request(node(), "node", {}, false, 1000);
    ASSERT_TRUE(store->approve(req.request.request_id, "owner", std::nullopt, 1000).ok());
  }
  ::chmod(path_.c_str(), 0644);
  auto loose = DevicePairing::open(path_);
  ASSERT_FALSE(loose.ok());
  EXPECT_NE(loose.error().message.find(path_), std::string::npos);
  ::chmod(path_.c_str(), 0600);
  { std::ofstream(path_) << "{\"paired\": 3}"; }
  ::chmod(path_.c_str(), 0600);
  auto bad = DevicePairing::open(path_);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("gateway device file"), std::string::npos);
}

TEST(GatewayScopes, AdminAndWriteImplyAsOpenClawsDo) {
  EXPECT_TRUE(scope_satisfied("operator", "operator.approvals", {"operator.admin"}));
  EXPECT_TRUE(scope_satisfied("operator", "operator.read", {"operator.write"}));
  EXPECT_FALSE(scope_satisfied("operator", "operator.approvals", {"operator.write"}));
  EXPECT_FALSE(scope_satisfied("operator", "node.x", {"operator.admin"}));
  EXPECT_TRUE(scope_satisfied("node", "node.x", {"node.x"}));
  EXPECT_FALSE(scope_satisfied("node", "node.x", {"operator.admin"}));
  EXPECT_EQ(missing_scope("operator", {"operator.read", "operator.pairing"}, {"operator.write"}), "operator.pairing");
  EXPECT_FALSE(missing_scope("operator", {}, {}));
  EXPECT_TRUE(is_operator_scope("operator.talk.secrets"));
  EXPECT_FALSE(is_operator_scope("operator.everything"));
}

}  // namespace
}  // namespace clawexec::gateway
