// ProtectedPaths against real temp directories: every spelling of a protected location is
// refused, neighbours are not, and only the classes an operator may allow can be allowed.

#include "patch/protected_paths.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace clawexec::patch {
namespace {

namespace fs = std::filesystem;
using config::PatchPathClass;

class Protected : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/clawexec-protected-XXXXXX";
    base_ = mkdtemp(tmpl);
    home_ = base_ + "/home";
    state_ = home_ + "/.openclaw";
    fs::create_directories(state_ + "/cache");
    fs::create_directories(base_ + "/bin");
    std::ofstream(state_ + "/exec-approvals.json") << "{}\n";
    std::ofstream(base_ + "/openclaw.json") << "{}\n";
    std::ofstream(base_ + "/bin/clawexec-shim") << "shim\n";
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(base_, ec);
  }
  ProtectedPathInputs inputs(std::vector<PatchPathClass> allowed = {}) {
    ProtectedPathInputs in;
    in.homes = {home_};
    in.state_dir = state_;
    in.config_path = base_ + "/openclaw.json";
    in.executables = {base_ + "/bin/clawexec-shim"};
    in.allowed = std::move(allowed);
    return in;
  }
  // The refusal message for `path`, or "" when it may be written.
  std::string refusal(const std::string& path, std::vector<PatchPathClass> allowed = {}) {
    ProtectedPaths guard(inputs(std::move(allowed)));
    Result<void> r = guard.check(path, "shown");
    return r.ok() ? "" : r.error().message;
  }
  std::string base_, home_, state_;
};

TEST_F(Protected, EverythingInTheStateDirectoryIsRefusedWithTheReason) {
  EXPECT_EQ(refusal(state_ + "/exec-approvals.json"),
            "apply_patch: refusing to write shown: it is in clawexec's state directory " + state_ +
                " (exec approvals, config, snapshots), which apply_patch never writes");
  EXPECT_NE(refusal(state_), "");
  EXPECT_NE(refusal(state_ + "/cache/shell-snapshots/new.sh"), "");
  EXPECT_NE(refusal(state_ + "/missing/dir/file"), "");
  EXPECT_EQ(refusal(home_ + "/.openclaw-notes"), "");
  EXPECT_EQ(refusal(home_ + "/project/a.txt"), "");
}

TEST_F(Protected, NeverWritableLocationsCannotBeAllowed) {
  std::vector<PatchPathClass> all{PatchPathClass::kShellStartup, PatchPathClass::kGit, PatchPathClass::kSsh};
  EXPECT_NE(refusal(state_ + "/exec-approvals.json", all), "");
  EXPECT_NE(refusal(base_ + "/openclaw.json", all).find("it is clawexec's config file " + base_ + "/openclaw.json"),
            std::string::npos);
  EXPECT_NE(refusal(base_ + "/bin/clawexec-shim", all).find("it is clawexec's executable"), std::string::npos);
  EXPECT_EQ(refusal(base_ + "/bin/other", all), "");
}

TEST_F(Protected, SymlinkedDirectoriesAndFinalSymlinksResolveToTheProtectedPath) {
  fs::create_directories(base_ + "/ws");
  fs::create_directory_symlink(state_, base_ + "/ws/state");
  fs::create_symlink(state_ + "/exec-approvals.json", base_ + "/ws/doc");
  fs::create_symlink(state_ + "/not-yet", base_ + "/ws/dangling");
  std::string via_dir = refusal(base_ + "/ws/state/exec-approvals.json");
  EXPECT_NE(via_dir.find("shown (resolves to " + state_ + "/exec-approvals.json): it is in clawexec's state"),
            std::string::npos)
      << via_dir;
  EXPECT_NE(refusal(base_ + "/ws/doc"), "");
  EXPECT_NE(refusal(base_ + "/ws/dangling"), "");
}

TEST_F(Protected, AStateDirectoryReachedThroughASymlinkIsProtectedUnderBothNames) {
  fs::rename(state_, base_ + "/real-state");
  fs::create_directory_symlink(base_ + "/real-state", state_);
  EXPECT_NE(refusal(base_ + "/real-state/exec-approvals.json"), "");
  EXPECT_NE(refusal(state_ + "/exec-approvals.json"), "");
}

TEST_F(Protected, HardLinksToTheConfigFileOrAStateFileAreRefused) {
  fs::create_directories(base_ + "/ws");
  fs::create_hard_link(base_ + "/openclaw.json", base_ + "/ws/cfg");
  fs::create_hard_link(state_ + "/exec-approvals.json", base_ + "/ws/doc");
  EXPECT_NE(refusal(base_ + "/ws/cfg").find("it is clawexec's config file"), std::string::npos);
  EXPECT_EQ(refusal(base_ + "/ws/doc"),
            "apply_patch: refusing to write shown: it is a hard link (2 links) to a file in clawexec's state directory " +
                state_ + ", which apply_patch never writes");
  std::ofstream(base_ + "/ws/plain") << "x\n";
  fs::create_hard_link(base_ + "/ws/plain", base_ + "/ws/plain2");
  EXPECT_EQ(refusal(base_ + "/ws/plain"), "");
}

TEST_F(Protected, ShellStartupFilesAreRefusedUnlessAllowed) {
  std::string why = refusal(home_ + "/.profile");
  EXPECT_EQ(why, "apply_patch: refusing to write shown: it is a shell startup file, run by the shells the server "
                 "starts; an operator can allow this with tools.exec.applyPatch.allowProtectedPaths: "
                 "[\"shell-startup\"]");
  for (const char* name : {".bashrc", ".bash_profile", ".zshenv", ".config/fish/config.fish", ".bashrc.d/a.sh"}) {
    EXPECT_NE(refusal(home_ + "/" + name), "") << name;
  }
  EXPECT_EQ(refusal(home_ + "/.profile.orig"), "");
  EXPECT_EQ(refusal(home_ + "/project/.bashrc"), "");  // only HOME's
  EXPECT_EQ(refusal(home_ + "/.profile", {PatchPathClass::kShellStartup}), "");
  EXPECT_NE(refusal(home_ + "/.profile", {PatchPathClass::kGit, PatchPathClass::kSsh}), "");
}

TEST_F(Protected, EnvironmentLocationsOfZshFishGitAndBashEnvAreCovered) {
  ProtectedPathInputs in = inputs();
  in.zdotdir = base_ + "/zdot";
  in.xdg_config_home = base_ + "/xdg";
  in.bash_env = base_ + "/bash_env.sh";
  in.git_config_global = base_ + "/gitconfig";
  ProtectedPaths guard(in);
  for (const char* path : {"/zdot/.zshrc", "/xdg/fish/conf.d/x.fish", "/xdg/git/config", "/bash_env.sh", "/gitconfig"}) {
    EXPECT_FALSE(guard.check(base_ + path, "p").ok()) << path;
  }
  EXPECT_TRUE(guard.check(base_ + "/zdot/notes", "p").ok());
}

TEST_F(Protected, GitConfigurationAndAnythingThroughADotGitComponentIsRefused) {
  for (const char* path : {"/p/.git/config", "/p/.git/hooks/pre-commit", "/p/.git/modules/m/config", "/p/sub/.git"}) {
    std::string why = refusal(base_ + path);
    EXPECT_NE(why.find("allowProtectedPaths: [\"git\"]"), std::string::npos) << path;
  }
  EXPECT_NE(refusal(home_ + "/.gitconfig").find("it is git configuration (" + home_ + "/.gitconfig)"), std::string::npos);
  EXPECT_NE(refusal(home_ + "/.config/git/attributes"), "");
  EXPECT_EQ(refusal(base_ + "/p/.gitignore"), "");
  EXPECT_EQ(refusal(base_ + "/p/.github/workflows/ci.yml"), "");
  EXPECT_EQ(refusal(base_ + "/p/.git/config", {PatchPathClass::kGit}), "");
}

TEST_F(Protected, SshDirectoryIsRefusedUnlessAllowed) {
  EXPECT_NE(refusal(home_ + "/.ssh/authorized_keys").find("[\"ssh\"]"), std::string::npos);
  EXPECT_EQ(refusal(home_ + "/.ssh/authorized_keys", {PatchPathClass::kSsh}), "");
}

TEST_F(Protected, GitDirectoryShapesCountThePatchsOwnFiles) {
  ProtectedPaths guard(inputs());
  auto writes = [&](std::vector<std::string> rel) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const std::string& r : rel) out.emplace_back(base_ + "/" + r, r);
    return guard.check_git_directories(out);
  };
  EXPECT_TRUE(writes({"d/HEAD", "d/config"}).ok());  // HEAD alone does not make a git directory
  EXPECT_FALSE(writes({"d/HEAD", "d/refs/heads/main"}).ok());
  fs::create_directories(base_ + "/bare/objects");
  std::ofstream(base_ + "/bare/HEAD") << "ref: refs/heads/main\n";
  Result<void> r = writes({"ok.txt", "bare/hooks/post-update"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "apply_patch: refusing to write bare/hooks/post-update: it is in " + base_ +
                                   "/bare, which git treats as a git directory (HEAD beside objects, refs or commondir) "
                                   "and runs hooks and config commands from; an operator can allow this with "
                                   "tools.exec.applyPatch.allowProtectedPaths: [\"git\"]");
  EXPECT_FALSE(writes({"x/HEAD", "x/commondir"}).ok());
  EXPECT_TRUE(writes({"src/HEAD.md", "src/refs/x"}).ok());
  ProtectedPaths allowed(inputs({PatchPathClass::kGit}));
  EXPECT_TRUE(allowed.check_git_directories({{base_ + "/bare/config", "bare/config"}}).ok());
}

}  // namespace
}  // namespace clawexec::patch
