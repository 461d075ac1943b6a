#include "exec/node_selection.h"

#include <gtest/gtest.h>

namespace clawexec::exec {
namespace {

NodeSummary node(std::string id, std::string name, bool connected = true, std::vector<std::string> commands = {"system.run"}) {
  NodeSummary n;
  n.node_id = std::move(id);
  n.display_name = std::move(name);
  n.platform = "linux";
  n.connected = connected;
  n.commands = std::move(commands);
  return n;
}

std::string error_of(const Result<NodeSummary>& r) { return r.ok() ? "ok:" + r->node_id : r.error().message; }

TEST(SelectNode, NoNodesSaysNoneAvailable) {
  EXPECT_EQ(error_of(select_node({}, std::nullopt, std::nullopt)),
            "exec host=node requires a paired node (none available). This requires a companion app or node host.");
}

TEST(SelectNode, SoleEligibleNodeIsPickedAndOthersDoNotCount) {
  std::vector<NodeSummary> nodes = {node("aaaa1111", "build box"), node("bbbb2222", "phone", true, {"camera.snap"}),
                                    node("cccc3333", "old", false)};
  EXPECT_EQ(error_of(select_node(nodes, std::nullopt, std::nullopt)), "ok:aaaa1111");
}

TEST(SelectNode, SeveralEligibleNodesNeedABinding) {
  std::vector<NodeSummary> nodes = {node("aaaa1111", "one"), node("bbbb2222", "")};
  EXPECT_EQ(error_of(select_node(nodes, std::nullopt, std::nullopt)),
            "exec host=node requires a node when multiple executable nodes are connected: aaaa1111 (one), bbbb2222. Set "
            "exec.node, tools.exec.node, or /exec node=...");
}

TEST(SelectNode, ResolvesByNormalizedNameAndIdPrefix) {
  std::vector<NodeSummary> nodes = {node("aaaa1111", "Build Box"), node("bbbb2222", "other")};
  EXPECT_EQ(error_of(select_node(nodes, std::string("build-box"), std::nullopt)), "ok:aaaa1111");
  EXPECT_EQ(error_of(select_node(nodes, std::string("bbbb22"), std::nullopt)), "ok:bbbb2222");
  EXPECT_EQ(error_of(select_node(nodes, std::string("bbbb"), std::nullopt)),
            "requested node not found: bbbb (unknown node: bbbb (known: Build Box, other))");
}

TEST(SelectNode, BoundNodeWinsAndADifferentRequestIsRefused) {
  std::vector<NodeSummary> nodes = {node("aaaa1111", "one"), node("bbbb2222", "two")};
  EXPECT_EQ(error_of(select_node(nodes, std::nullopt, std::string("two"))), "ok:bbbb2222");
  EXPECT_EQ(error_of(select_node(nodes, std::string("two"), std::string("two"))), "ok:bbbb2222");
  EXPECT_EQ(error_of(select_node(nodes, std::string("one"), std::string("two"))),
            "exec node not allowed (bound to bbbb2222, requested resolved to aaaa1111)");
}

TEST(SelectNode, IneligibleExactNodeIsRefusedNotRedirected) {
  std::vector<NodeSummary> nodes = {node("aaaa1111", "one", false), node("bbbb2222", "two")};
  EXPECT_EQ(error_of(select_node(nodes, std::string("aaaa1111"), std::nullopt)),
            "exec host=node requires a connected node that supports system.run (aaaa1111 is not eligible; eligible node ids: "
            "bbbb2222).");
  EXPECT_EQ(error_of(select_node({node("aaaa1111", "one", false)}, std::nullopt, std::nullopt)),
            "exec host=node requires a connected node that supports system.run (none available). Start or reconnect the "
            "companion app or node host.");
}

TEST(NodeShellArgv, FollowsThePlatform) {
  EXPECT_EQ(node_shell_argv("ls", "linux"), (std::vector<std::string>{"/bin/sh", "-lc", "ls"}));
  EXPECT_EQ(node_shell_argv("ls", "darwin"), (std::vector<std::string>{"/bin/sh", "-c", "ls"}));
  EXPECT_EQ(node_shell_argv("dir", "win32"), (std::vector<std::string>{"cmd.exe", "/d", "/s", "/c", "dir"}));
  EXPECT_EQ(node_shell_argv("ls", ""), (std::vector<std::string>{"/bin/sh", "-lc", "ls"}));
}

}  // namespace
}  // namespace clawexec::exec
