#include "policy/exec_resolution.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace clawexec::policy {
namespace {

// Executable files and symlinks (path -> realpath) of an in-memory file system.
struct Fs {
  std::set<std::string> executables;
  std::map<std::string, std::string> links;
  FsView view() const {
    FsView v;
    v.is_executable_file = [this](const std::string& p) {
      auto l = links.find(p);
      return executables.count(l == links.end() ? p : l->second) > 0;
    };
    v.realpath = [this](const std::string& p) -> std::optional<std::string> {
      if (auto l = links.find(p); l != links.end()) return l->second;
      if (executables.count(p)) return p;
      return std::nullopt;
    };
    return v;
  }
};

class ExecResolution : public ::testing::Test {
 protected:
  void SetUp() override {
    fs_.executables = {"/usr/bin/rg", "/opt/bin/rg", "/work/tools/run", "/home/u/bin/tool",
                       "/opt/Cellar/rg/14/bin/rg", "/bin/busybox", "/usr/bin/env"};
    fs_.links = {{"/usr/local/bin/rg", "/opt/Cellar/rg/14/bin/rg"}};
    view_ = fs_.view();
    ctx_.cwd = "/work";
    ctx_.home = "/home/u";
    ctx_.path_env = "/usr/local/bin:/usr/bin:/opt/bin";
    ctx_.fs = &view_;
  }
  Fs fs_;
  FsView view_;
  ResolveContext ctx_;
};

TEST_F(ExecResolution, BareNamesTakeTheFirstExecutableOnPath) {
  ExecutableResolution r = resolve_executable("rg", ctx_);
  EXPECT_EQ(r.resolved_path, "/usr/local/bin/rg");
  EXPECT_EQ(r.resolved_real_path, "/opt/Cellar/rg/14/bin/rg");
  EXPECT_EQ(r.executable_name, "rg");
  ctx_.path_env = "/opt/bin:/usr/bin";
  EXPECT_EQ(resolve_executable("rg", ctx_).resolved_path, "/opt/bin/rg");
}

TEST_F(ExecResolution, UnresolvedNamesKeepTheRawToken) {
  ExecutableResolution r = resolve_executable("nope", ctx_);
  EXPECT_EQ(r.resolved_path, std::nullopt);
  EXPECT_EQ(r.executable_name, "nope");
  EXPECT_EQ(resolve_executable_candidate_path(r, ctx_), std::nullopt);
}

TEST_F(ExecResolution, PathTokensResolveAgainstCwdAndHome) {
  EXPECT_EQ(resolve_executable("tools/run", ctx_).resolved_path, "/work/tools/run");
  EXPECT_EQ(resolve_executable("./tools/../tools/run", ctx_).resolved_path, "/work/tools/run");
  EXPECT_EQ(resolve_executable("~/bin/tool", ctx_).resolved_path, "/home/u/bin/tool");
  EXPECT_EQ(resolve_executable("~/bin/tool", ctx_).raw_executable, "~/bin/tool");
  ExecutableResolution missing = resolve_executable("./missing", ctx_);
  EXPECT_EQ(missing.resolved_path, std::nullopt);
  EXPECT_EQ(resolve_executable_candidate_path(missing, ctx_), "/work/missing");
  EXPECT_EQ(resolve_executable_trust_path(missing, ctx_), "/work/missing");
}

TEST_F(ExecResolution, EmptyPathEntriesMeanTheWorkingDirectory) {
  fs_.executables.insert("/work/localtool");
  ctx_.path_env = "/usr/bin:";
  EXPECT_EQ(resolve_executable("localtool", ctx_).resolved_path, "/work/localtool");
  ctx_.path_env = "/usr/bin";
  EXPECT_EQ(resolve_executable("localtool", ctx_).resolved_path, std::nullopt);
}

TEST_F(ExecResolution, PolicyTargetIsTheMultiplexerAndPlannedArgvUsesTheRealpath) {
  ctx_.path_env = "/bin:/usr/local/bin";
  auto r = resolve_command_resolution_from_argv({"busybox", "sh", "-c", "id"}, ctx_);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->execution.raw_executable, "sh");
  EXPECT_EQ(r->policy.resolved_path, "/bin/busybox");
  auto rg = resolve_command_resolution_from_argv({"nice", "rg", "-n", "x"}, ctx_);
  ASSERT_TRUE(rg);
  EXPECT_EQ(rg->wrapper_chain, std::vector<std::string>{"nice"});
  EXPECT_EQ(planned_argv(&*rg, {"nice", "rg", "-n", "x"}),
            (Argv{"/opt/Cellar/rg/14/bin/rg", "-n", "x"}));
  auto blocked = resolve_command_resolution_from_argv({"sudo", "rg"}, ctx_);
  ASSERT_TRUE(blocked);
  EXPECT_TRUE(blocked->policy_blocked);
  EXPECT_EQ(planned_argv(&*blocked, {"sudo", "rg"}), std::nullopt);
  EXPECT_EQ(resolve_command_resolution_from_argv({"  "}, ctx_), std::nullopt);
}

TEST_F(ExecResolution, CommandStringsResolveTheirFirstWord) {
  auto r = resolve_command_resolution("  \"/usr/bin/env\" FOO=1 rg", ctx_);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->execution.resolved_path, "/usr/bin/env");
  EXPECT_EQ(resolve_command_resolution("   ", ctx_), std::nullopt);
}

TEST(SafeExecutableValue, RejectsShellSyntaxAndOptionLikeNames) {
  for (const char* ok : {"node", "/usr/bin/node", "./bin/x", "~/x", "C:\\Tools\\a.exe", "g++", "a.b_c-d"})
    EXPECT_TRUE(is_safe_executable_value(ok)) << ok;
  for (const char* bad : {"", "  ", "-rf", "node;id", "a|b", "$(x)", "a`b`", "a>b", "\"node\"", "n'x",
                          "node\nx", "node\rx", "a b", "nöde"})
    EXPECT_FALSE(is_safe_executable_value(bad)) << bad;
  EXPECT_FALSE(is_safe_executable_value(std::string("node\0", 5)));
}

}  // namespace
}  // namespace clawexec::policy
