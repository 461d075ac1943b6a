#include "env/shell_select.h"

#include <gtest/gtest.h>

#include <set>

namespace clawexec::env {
namespace {

using Args = std::vector<std::string>;

ShellConfig select(std::optional<std::string> shell, std::string path, std::set<std::string> executables) {
  ShellSelectionInput input;
  input.shell_env = std::move(shell);
  input.path_env = std::move(path);
  input.is_executable = [files = std::move(executables)](const std::string& p) { return files.count(p) > 0; };
  return select_posix_shell(input);
}

// --- §8.2 case 61 ---

TEST(ShellSelect, Spec61FishShellPrefersBashFromPath) {
  ShellConfig config = select("/usr/bin/fish", "/usr/bin:/bin", {"/bin/bash", "/bin/sh", "/usr/bin/fish"});
  EXPECT_EQ(config.shell, "/bin/bash");
  EXPECT_EQ(config.args, (Args{"--noprofile", "--norc", "-c"}));
}

TEST(ShellSelect, Spec61FishShellFallsBackToShWithoutBash) {
  ShellConfig config = select("/usr/bin/fish", "/usr/bin:/bin", {"/bin/sh", "/usr/bin/fish"});
  EXPECT_EQ(config.shell, "/bin/sh");
  EXPECT_EQ(config.args, Args{"-c"});
}

TEST(ShellSelect, Spec61FishShellIsKeptWhenNeitherBashNorShExists) {
  ShellConfig config = select("/usr/bin/fish", "/usr/bin", {"/usr/bin/fish"});
  EXPECT_EQ(config.shell, "/usr/bin/fish");
  EXPECT_EQ(config.args, (Args{"--no-config", "-c"}));
}

TEST(ShellSelect, Spec61UnsetShellUsesShFromPath) {
  ShellConfig config = select(std::nullopt, "/usr/local/bin:/usr/bin", {"/usr/bin/sh", "/usr/bin/bash"});
  EXPECT_EQ(config.shell, "/usr/bin/sh");
  EXPECT_EQ(config.args, Args{"-c"});
}

// --- the rest of the POSIX rules ---

TEST(ShellSelect, UsableShellIsUsedTrimmedWithoutCheckingIt) {
  ShellConfig config = select("  /usr/local/bin/zsh\n", "/bin", {});
  EXPECT_EQ(config.shell, "/usr/local/bin/zsh");
  EXPECT_EQ(config.args, (Args{"-f", "-c"}));
}

TEST(ShellSelect, BareShellNameIsReturnedAsIs) {
  EXPECT_EQ(select("bash", "/bin", {"/bin/sh"}).shell, "bash");
}

TEST(ShellSelect, NonInteractiveShellsAreIgnored) {
  for (const char* shell : {"/usr/sbin/nologin", "/bin/false", "nologin", "/bin/false/"}) {
    EXPECT_EQ(select(shell, "/bin", {"/bin/sh"}).shell, "/bin/sh") << shell;
  }
  EXPECT_EQ(select("/bin/falsey", "/bin", {"/bin/sh"}).shell, "/bin/falsey");
}

TEST(ShellSelect, BlankShellCountsAsUnset) {
  EXPECT_EQ(select("   ", "/bin", {"/bin/sh"}).shell, "/bin/sh");
}

TEST(ShellSelect, WithoutShOnPathBashIsNextThenTheLiteralSh) {
  ShellConfig bash = select(std::nullopt, "/opt/bin", {"/opt/bin/bash"});
  EXPECT_EQ(bash.shell, "/opt/bin/bash");
  EXPECT_EQ(bash.args, (Args{"--noprofile", "--norc", "-c"}));
  ShellConfig literal = select(std::nullopt, "/opt/bin", {});
  EXPECT_EQ(literal.shell, "sh");
  EXPECT_EQ(literal.args, Args{"-c"});
  EXPECT_EQ(select(std::nullopt, "", {"/bin/sh"}).shell, "sh");
}

TEST(ShellSelect, FirstExecutablePathEntryWinsAndEmptyEntriesAreSkipped) {
  EXPECT_EQ(select(std::nullopt, "::/a:/b", {"/a/sh", "/b/sh", "sh"}).shell, "/a/sh");
  EXPECT_EQ(select(std::nullopt, ":/b", {"sh", "/b/sh"}).shell, "/b/sh");
}

TEST(ShellSelect, PathEntriesAreNormalisedLikeNodePathJoin) {
  EXPECT_EQ(select(std::nullopt, "/usr//bin/", {"/usr/bin/sh"}).shell, "/usr/bin/sh");
  EXPECT_EQ(select(std::nullopt, "/opt/./x/../bin", {"/opt/bin/sh"}).shell, "/opt/bin/sh");
  EXPECT_EQ(select(std::nullopt, "./tools", {"tools/sh"}).shell, "tools/sh");
}

TEST(ShellSelect, ArgsFollowTheBasenameEvenWithATrailingSlash) {
  EXPECT_EQ(posix_shell_args("/opt/x/bash/"), (Args{"--noprofile", "--norc", "-c"}));
  EXPECT_EQ(posix_shell_args("zsh"), (Args{"-f", "-c"}));
  EXPECT_EQ(posix_shell_args("/usr/bin/fish"), (Args{"--no-config", "-c"}));
  EXPECT_EQ(posix_shell_args("/bin/ksh"), Args{"-c"});
  EXPECT_EQ(posix_shell_args("/bin/bash5"), Args{"-c"});
}

TEST(PosixPath, BasenameIgnoresTrailingSlashes) {
  EXPECT_EQ(posix_basename("/usr/bin/fish"), "fish");
  EXPECT_EQ(posix_basename("/usr/bin/fish//"), "fish");
  EXPECT_EQ(posix_basename("fish"), "fish");
  EXPECT_EQ(posix_basename("/"), "");
  EXPECT_EQ(posix_basename(""), "");
}

TEST(PosixPath, JoinNormalisesLikeNode) {
  EXPECT_EQ(posix_join("/usr/bin", "sh"), "/usr/bin/sh");
  EXPECT_EQ(posix_join("//usr///bin/", "sh"), "/usr/bin/sh");
  EXPECT_EQ(posix_join("/../bin", "sh"), "/bin/sh");
  EXPECT_EQ(posix_join("a/../..", "sh"), "../sh");
  EXPECT_EQ(posix_join(".", "sh"), "sh");
  EXPECT_EQ(posix_join("a/b/../../..", ".."), "../..");
}

}  // namespace
}  // namespace clawexec::env
