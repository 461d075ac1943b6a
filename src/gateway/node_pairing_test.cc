#include "gateway/node_pairing.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

namespace clawexec::gateway {
namespace {

class NodePairingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("clawexec-nodes-" + std::to_string(::getpid()) + "-" +
                                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    path_ = (dir_ / "gateway" / "nodes.json").string();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::unique_ptr<NodePairing> open() {
    auto r = NodePairing::open(path_);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(*r) : nullptr;
  }
  static NodeSurface surface(std::vector<std::string> commands, std::string id = "node-a") {
    return {std::move(id), "node-host", "node", "build box", "linux", "2026.9.6", "Linux", {"system"}, std::move(commands)};
  }
  std::filesystem::path dir_;
  std::string path_;
};

const std::vector<std::string> kAdmin = {"operator.pairing", "operator.admin"};
const std::vector<std::string> kWrite = {"operator.pairing", "operator.write"};

TEST(NodeApproveScopes, SystemCommandsNeedAdminOthersWriteNoneOnlyPairing) {
  EXPECT_EQ(node_approve_scopes({}), std::vector<std::string>{"operator.pairing"});
  EXPECT_EQ(node_approve_scopes({"canvas.snapshot"}), kWrite);
  EXPECT_EQ(node_approve_scopes({"canvas.snapshot", "system.run"}), kAdmin);
  EXPECT_EQ(node_approve_scopes({"system.execApprovals.set"}), kAdmin);
  EXPECT_EQ(node_approve_scopes({"system.which"}), kAdmin);
}

TEST_F(NodePairingTest, ANewSurfaceWaitsForApprovalAndPersistsOnceApproved) {
  auto store = open();
  auto first = store->check(surface({"system.run", "system.which"}), false, 1000);
  ASSERT_TRUE(first.ok());
  EXPECT_TRUE(first->allowed.empty());
  ASSERT_TRUE(first->request.has_value());
  EXPECT_TRUE(first->created);
  EXPECT_EQ(first->request->required_scopes, kAdmin);
  json::Object wire = NodePairing::pending_json(*first->request);
  EXPECT_EQ(wire.at("nodeId"), "node-a");
  EXPECT_EQ(wire.at("displayName"), "build box");
  EXPECT_EQ(wire.at("commands").as_array().size(), 2u);
  EXPECT_EQ(wire.at("ts"), 1000);

  // The node reconnects with the same surface: the same request, not a new one.
  auto again = store->check(surface({"system.run", "system.which"}), false, 2000);
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again->created);
  EXPECT_EQ(again->request->request_id, first->request->request_id);
  EXPECT_EQ(store->pending().size(), 1u);

  auto denied = store->approve(first->request->request_id, kWrite, 3000);
  ASSERT_FALSE(denied.ok());
  EXPECT_EQ(denied.error().message, "missing scope: operator.admin");
  EXPECT_EQ(store->pending().size(), 1u) << "a refused approval leaves the request pending";

  auto approved = store->approve(first->request->request_id, kAdmin, 3000);
  ASSERT_TRUE(approved.ok()) << approved.error().message;
  EXPECT_EQ(approved->approved_at_ms, 3000);
  EXPECT_TRUE(store->pending().empty());
  EXPECT_FALSE(store->approve(first->request->request_id, kAdmin, 3000).ok()) << "a request is approved once";

  struct stat st {};
  ASSERT_EQ(::stat(path_.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);

  auto reopened = open();
  ASSERT_NE(reopened->approved("node-a"), nullptr);
  EXPECT_EQ(reopened->approved("node-a")->approved_at_ms, 3000);
  auto live = reopened->check(surface({"system.run", "system.which"}), false, 4000);
  ASSERT_TRUE(live.ok());
  EXPECT_EQ(live->allowed, (std::vector<std::string>{"system.run", "system.which"}));
  EXPECT_FALSE(live->request.has_value());
}

TEST_F(NodePairingTest, AGrowingSurfaceKeepsTheOldCommandsAndAsksForTheNewOnesEvenUnderAutoApproval) {
  auto store = open();
  auto auto_ok = store->check(surface({"system.which"}), true, 1000);
  ASSERT_TRUE(auto_ok.ok());
  EXPECT_EQ(auto_ok->allowed, std::vector<std::string>{"system.which"});
  EXPECT_FALSE(auto_ok->request.has_value());

  auto grown = store->check(surface({"system.which", "system.run"}), true, 2000);
  ASSERT_TRUE(grown.ok());
  EXPECT_EQ(grown->allowed, std::vector<std::string>{"system.which"}) << "system.run is never approved silently";
  ASSERT_TRUE(grown->request.has_value());
  EXPECT_TRUE(grown->created);

  // The node changes its surface again while the first request waits: the request is replaced.
  auto changed = store->check(surface({"system.which", "system.run", "system.run.prepare"}), true, 3000);
  ASSERT_TRUE(changed.ok());
  EXPECT_TRUE(changed->created);
  EXPECT_NE(changed->request->request_id, grown->request->request_id);
  ASSERT_EQ(store->pending().size(), 1u);
  EXPECT_FALSE(store->approve(grown->request->request_id, kAdmin, 3500).ok());
}

TEST_F(NodePairingTest, AnApprovedNodeKeepsTheNameItWasApprovedUnderAndNamesAreEscapedForOperators) {
  auto store = open();
  NodeSurface first = surface({"system.run"});
  first.display_name = "build box";
  auto req = store->check(first, false, 1000);
  ASSERT_TRUE(store->approve(req->request->request_id, kAdmin, 1000).ok());
  NodeSurface renamed = first;
  renamed.display_name = "prod-db";  // taking over another node's name, for bindings by name
  renamed.version = "2026.9.7";
  auto again = store->check(renamed, false, 2000);
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again->request.has_value());
  EXPECT_EQ(store->approved("node-a")->surface.display_name, "build box");
  EXPECT_EQ(store->approved("node-a")->surface.version, "2026.9.7");

  NodeSurface shady = surface({"system.run"}, "node-e");
  shady.display_name = "evil\x1b]0;pwned\x07";
  auto pending = store->check(shady, false, 3000);
  std::string shown = json::serialize(NodePairing::pending_json(*pending->request));
  EXPECT_EQ(shown.find('\x1b'), std::string::npos) << shown;
  EXPECT_EQ(pending->request->surface.display_name, shady.display_name) << "kept exact; escaped only when shown";
}

TEST_F(NodePairingTest, RejectAndRemoveForgetTheNode) {
  auto store = open();
  auto req = store->check(surface({"system.run"}), false, 1000);
  auto rejected = store->reject(req->request->request_id);
  ASSERT_TRUE(rejected.ok());
  EXPECT_EQ(*rejected, "node-a");
  EXPECT_TRUE(store->pending().empty());
  EXPECT_FALSE(store->reject(req->request->request_id).ok());

  auto other = store->check(surface({"system.run"}, "node-b"), false, 2000);
  ASSERT_TRUE(store->approve(other->request->request_id, kAdmin, 2000).ok());
  ASSERT_EQ(store->approved_nodes().size(), 1u);
  ASSERT_TRUE(store->remove("node-b").ok());
  EXPECT_EQ(store->approved("node-b"), nullptr);
  EXPECT_EQ(open()->approved("node-b"), nullptr) << "removal is persisted";
  EXPECT_EQ(store->remove("node-b").error().message, "unknown nodeId");
}

TEST_F(NodePairingTest, RenameNamesTheNodeForGoodAndRefusesANameThatSelectsAnother) {
  auto store = open();
  NodeSurface a = surface({"system.run"}, "node-a");
  a.display_name = "build box";
  NodeSurface b = surface({"system.run"}, "node-b");
  b.display_name = "gpu";
  ASSERT_TRUE(store->approve(store->check(a, false, 1)->request->request_id, kAdmin, 1).ok());
  ASSERT_TRUE(store->approve(store->check(b, false, 1)->request->request_id, kAdmin, 1).ok());

  Result<ApprovedNode> renamed = store->rename("node-a", "  Lab Runner ");
  ASSERT_TRUE(renamed.ok()) << renamed.error().message;
  EXPECT_EQ(renamed->surface.display_name, "Lab Runner");
  EXPECT_EQ(open()->approved("node-a")->surface.display_name, "Lab Runner") << "persisted";
  // The node's next connect, still calling itself "build box", keeps the operator's name, and
  // so does the approval of a wider surface.
  ASSERT_TRUE(store->check(a, false, 2).ok());
  EXPECT_EQ(store->approved("node-a")->surface.display_name, "Lab Runner");
  NodeSurface wider = surface({"system.run", "system.which"}, "node-a");
  wider.display_name = "build box";
  ASSERT_TRUE(store->approve(store->check(wider, false, 3)->request->request_id, kAdmin, 3).ok());
  EXPECT_EQ(store->approved("node-a")->surface.display_name, "Lab Runner");

  // Names that would select node-b (its name in another case or spelling, or its id) are refused.
  EXPECT_NE(store->rename("node-a", "GPU").error().message.find("already used by node node-b"), std::string::npos);
  EXPECT_FALSE(store->rename("node-a", "gpu!").ok()) << "selects node-b once normalised";
  EXPECT_FALSE(store->rename("node-a", "node-b").ok());
  EXPECT_EQ(store->rename("node-a", " \t").error().message, "displayName required");
  EXPECT_EQ(store->rename("nope", "x").error().message, "unknown nodeId");
  EXPECT_EQ(store->approved("node-a")->surface.display_name, "Lab Runner");
}

TEST_F(NodePairingTest, ANameCannotTakeOverAnotherNodesIdPrefixOrAnAddress) {
  auto store = open();
  ASSERT_TRUE(store->approve(store->check(surface({"system.run"}, "3fa85f64aa"), false, 1)->request->request_id, kAdmin, 1).ok());
  ASSERT_TRUE(store->approve(store->check(surface({"system.run"}, "node-y"), false, 1)->request->request_id, kAdmin, 1).ok());
  // A binding "3fa85f" meant node 3fa85f64aa by its id prefix; a name outranks a prefix.
  EXPECT_NE(store->rename("node-y", "3fa85f").error().message.find("would select node 3fa85f64aa"), std::string::npos);
  EXPECT_TRUE(store->rename("node-y", "3fa8").ok()) << "shorter than any prefix that selects";
  // Addresses select by remote IP before names are tried.
  EXPECT_NE(store->rename("node-y", "192.168.1.20").error().message.find("network address"), std::string::npos);
  EXPECT_FALSE(store->rename("node-y", "fe80::1").ok());
}

TEST_F(NodePairingTest, ANewNodesOwnNameThatWouldSelectAnotherIsNotKept) {
  auto store = open();
  NodeSurface real = surface({"system.run"}, "node-real");
  real.display_name = "build-box";
  ASSERT_TRUE(store->approve(store->check(real, false, 1)->request->request_id, kAdmin, 1).ok());
  // An impostor auto-approved (a loopback peer) or approved later under the same name is known
  // by its id only.
  NodeSurface impostor = surface({}, "node-fake");
  impostor.display_name = "Build Box";
  ASSERT_TRUE(store->check(impostor, true, 2).ok());
  EXPECT_EQ(store->approved("node-fake")->surface.display_name, "");
  NodeSurface other = surface({"system.run"}, "node-other");
  other.display_name = "build.box";
  ASSERT_TRUE(store->approve(store->check(other, false, 3)->request->request_id, kAdmin, 3).ok());
  EXPECT_EQ(store->approved("node-other")->surface.display_name, "");
  EXPECT_EQ(store->approved("node-real")->surface.display_name, "build-box");
}

TEST_F(NodePairingTest, AFileOthersCanReadOrThatIsMalformedIsRefusedByName) {
  std::filesystem::create_directories(dir_ / "gateway");
  {
    std::ofstream(path_) << "{\"version\":1,\"nodes\":[]}\n";
  }
  ::chmod(path_.c_str(), 0644);
  auto open_readable = NodePairing::open(path_);
  ASSERT_FALSE(open_readable.ok());
  EXPECT_NE(open_readable.error().message.find(path_), std::string::npos);
  EXPECT_NE(open_readable.error().message.find("readable by group or others"), std::string::npos);

  ::chmod(path_.c_str(), 0600);
  {
    std::ofstream(path_) << "{\"version\":1,\"nodes\":[{\"commands\":[]}]}\n";
  }
  auto no_id = NodePairing::open(path_);
  ASSERT_FALSE(no_id.ok());
  EXPECT_NE(no_id.error().message.find("lacks nodeId"), std::string::npos);

  {
    std::ofstream(path_) << "not json";
  }
  auto garbage = NodePairing::open(path_);
  ASSERT_FALSE(garbage.ok());
  EXPECT_NE(garbage.error().message.find(path_), std::string::npos);
}

}  // namespace
}  // namespace clawexec::gateway
