#include "shell/executable.h"

#include <gtest/gtest.h>

namespace clawexec::shell {
namespace {

TEST(NormalizeExecutableToken, UsesLowerCaseBaseNameWithoutWindowsSuffix) {
  EXPECT_EQ(normalize_executable_token("/usr/bin/ENV"), "env");
  EXPECT_EQ(normalize_executable_token("bash.exe"), "bash");
  EXPECT_EQ(normalize_executable_token("C:\\tools\\sudo.CMD"), "sudo");
  EXPECT_EQ(normalize_executable_token("C:sh.bat"), "sh");
  EXPECT_EQ(normalize_executable_token("sh/"), "sh");
  EXPECT_EQ(normalize_executable_token(" zsh "), "zsh");
  EXPECT_EQ(normalize_executable_token("x.exe.com"), "x.exe");  // one suffix only
}

TEST(NormalizeExecutableToken, KelvinSignLowerCasesToK) {
  EXPECT_EQ(normalize_executable_token("\xE2\x84\xAAsh"), "ksh");
}

TEST(CommandBaseName, TakesTheLastSegmentAndDropsCmdOrExe) {
  EXPECT_EQ(command_base_name("/opt/OpenClaw.EXE"), "openclaw");
  EXPECT_EQ(command_base_name("a\\b\\sqlite3.cmd"), "sqlite3");
  EXPECT_EQ(command_base_name("dir/"), "");
  EXPECT_EQ(command_base_name("x.bat"), "x.bat");
}

TEST(IsEnvAssignmentToken, AcceptsNameEqualsValueWithoutLineBreaks) {
  EXPECT_TRUE(is_env_assignment_token("FOO=1"));
  EXPECT_TRUE(is_env_assignment_token("_a9="));
  EXPECT_FALSE(is_env_assignment_token("9A=1"));
  EXPECT_FALSE(is_env_assignment_token("A-B=1"));
  EXPECT_FALSE(is_env_assignment_token("A=x\ny"));
  EXPECT_FALSE(is_env_assignment_token("A=x\xE2\x80\xA8"));
  EXPECT_FALSE(is_env_assignment_token("A"));
}

}  // namespace
}  // namespace clawexec::shell
