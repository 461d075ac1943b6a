// The approvals cache: resolutions are reused while the file is unchanged and re-read as soon
// as it changes, by the store (rename) or by an editor writing in place.

#include "approvals/cache.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "approvals/bookkeeping.h"
#include "approvals/store.h"

namespace clawexec::approvals {
namespace {

namespace fs = std::filesystem;

class CacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/clawexec-approvals-cache-XXXXXX";
    home_ = ::mkdtemp(tmpl);
    config::PathContext ctx;
    ctx.env = config::env_from_map({{"HOME", home_}});
    ctx.cwd = "/";
    paths_ = resolve_approvals_paths(ctx);
    fs::create_directories(paths_.state_dir);
  }
  void TearDown() override { fs::remove_all(home_); }
  void write(const std::string& text) { std::ofstream(paths_.file) << text; }

  std::string home_;
  ApprovalsPaths paths_;
  policy::ApprovalsOverrides full_off{policy::ExecSecurity::kFull, policy::ExecAsk::kOff, std::nullopt, std::nullopt};
};

TEST_F(CacheTest, ReusesTheResolutionWhileTheFileIsUnchanged) {
  write(R"({"version":1,"agents":{"main":{"allowlist":[{"id":"a","pattern":"ls"}]}}})");
  ApprovalsCache cache(paths_);
  auto first = cache.resolve("main", full_off);
  auto second = cache.resolve("main", full_off);
  EXPECT_EQ(first.get(), second.get());
  ASSERT_EQ(first->allowlist.size(), 1u);
  auto other_agent = cache.resolve("ops", full_off);
  EXPECT_NE(other_agent.get(), first.get());
  EXPECT_TRUE(other_agent->allowlist.empty());
}

TEST_F(CacheTest, AStoreUpdateIsSeenAtOnce) {
  write(R"({"version":1,"agents":{"main":{"allowlist":[{"id":"a","pattern":"ls"}]}}})");
  ApprovalsCache cache(paths_);
  ASSERT_EQ(cache.resolve("main", full_off)->allowlist.size(), 1u);
  ApprovalsStore store(paths_);
  ASSERT_TRUE(store.update([](Document& doc) -> Result<bool> {
    return add_allowlist_entry(doc, "main", {"git", std::nullopt, std::nullopt}, 1, [] { return std::string("b"); });
  }).ok());
  EXPECT_EQ(cache.resolve("main", full_off)->allowlist.size(), 2u);
}

TEST_F(CacheTest, AnInPlaceEditOfTheSameSizeIsSeen) {
  write(R"({"version":1,"defaults":{"security":"full"}})");
  ApprovalsCache cache(paths_);
  EXPECT_EQ(cache.resolve("main", full_off)->agent.security, policy::ExecSecurity::kFull);
  // Same length, same inode: only the modification time tells.
  std::fstream f(paths_.file, std::ios::in | std::ios::out);
  f << R"({"version":1,"defaults":{"security":"deny"}})";
  f.close();
  EXPECT_EQ(cache.resolve("main", full_off)->agent.security, policy::ExecSecurity::kDeny);
}

TEST_F(CacheTest, ACorruptFileFailsClosedAndRecoveryIsSeen) {
  write("{ broken");
  ApprovalsCache cache(paths_);
  EXPECT_EQ(cache.resolve("main", full_off)->agent.security, policy::ExecSecurity::kDeny);
  fs::remove(paths_.file);
  EXPECT_EQ(cache.resolve("main", full_off)->agent.security, policy::ExecSecurity::kFull);
}

}  // namespace
}  // namespace clawexec::approvals
