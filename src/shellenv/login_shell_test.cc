#include "shellenv/login_shell.h"

#include <gtest/gtest.h>

namespace clawexec::shellenv {
namespace {

const std::set<std::string> kShells = parse_etc_shells("# comment\n/bin/sh\n/bin/bash\r\n  /usr/bin/zsh  \nrelative/sh\n\n");

TEST(EtcShells, KeepsAbsoluteNonCommentLines) {
  EXPECT_EQ(kShells, (std::set<std::string>{"/bin/sh", "/bin/bash", "/usr/bin/zsh"}));
}

TEST(LoginShell, UsesShellOnlyWhenListedAbsoluteAndNormalised) {
  EXPECT_EQ(select_login_shell(std::string("/bin/bash"), kShells), "/bin/bash");
  EXPECT_EQ(select_login_shell(std::string(" /usr/bin/zsh "), kShells), "/usr/bin/zsh");
  EXPECT_EQ(select_login_shell(std::string("/usr/bin/fish"), kShells), "/bin/sh") << "not listed";
  EXPECT_EQ(select_login_shell(std::string("bash"), kShells), "/bin/sh") << "not absolute";
  EXPECT_EQ(select_login_shell(std::string("/bin/../bin/bash"), parse_etc_shells("/bin/../bin/bash\n")), "/bin/sh")
      << "not normalised, even if listed";
  EXPECT_EQ(select_login_shell(std::string("//bin/bash"), parse_etc_shells("//bin/bash\n")), "/bin/sh");
  EXPECT_EQ(select_login_shell(std::nullopt, kShells), "/bin/sh");
}

TEST(LoginShell, ProbeRunsTheShellAsALoginShellPrintingItsEnvironment) {
  EXPECT_EQ(login_probe_argv("/bin/bash"), (std::vector<std::string>{"/bin/bash", "-l", "-c", "printf '\\0'; env -0"}));
}

TEST(LoginShell, ProbeEnvironmentIsFilteredWithTheRealHomeAndNoZdotdir) {
  env::EnvList server{{"PATH", "/usr/bin"}, {"HOME", "/elsewhere"}, {"ZDOTDIR", "/z"}, {"NODE_OPTIONS", "--x"},
                      {"LANG", "C.UTF-8"}};
  env::EnvList probe = login_probe_env(server, "/home/u");
  EXPECT_EQ(*env::find_var(probe, "HOME"), "/home/u");
  EXPECT_EQ(env::find_var(probe, "ZDOTDIR"), nullptr);
  EXPECT_EQ(env::find_var(probe, "NODE_OPTIONS"), nullptr) << "blocked names are filtered as for commands";
  EXPECT_EQ(*env::find_var(probe, "LANG"), "C.UTF-8");
  EXPECT_EQ(env::find_var(login_probe_env(server, "  "), "HOME"), nullptr);
}

TEST(LoginShell, ParsesTheEnvironmentAfterTheFirstNul) {
  using namespace std::string_literals;
  std::string output = "motd noise\n\0PATH=/a:/b\0EMPTY=\0=nokey\0noequals\0X=1=2\0"s;
  env::EnvList parsed = parse_login_env(output);
  EXPECT_EQ(parsed, (env::EnvList{{"PATH", "/a:/b"}, {"EMPTY", ""}, {"X", "1=2"}}));
  EXPECT_TRUE(parse_login_env("PATH=/a").empty()) << "no frame marker, no answer";
}

TEST(LoginShell, PathIsTrimmedAndBlankMeansNone) {
  EXPECT_EQ(login_path_of({{"PATH", " /a:/b \n"}}), "/a:/b");
  EXPECT_EQ(login_path_of({{"PATH", "  "}}), std::nullopt);
  EXPECT_EQ(login_path_of({}), std::nullopt);
}

TEST(LoginShell, TimeoutIsAStrictNonNegativeInteger) {
  EXPECT_EQ(login_probe_timeout_ms(std::nullopt), 15000);
  EXPECT_EQ(login_probe_timeout_ms(std::string("2500")), 2500);
  EXPECT_EQ(login_probe_timeout_ms(std::string(" 300 ")), 300);
  EXPECT_EQ(login_probe_timeout_ms(std::string("+40")), 40);
  EXPECT_EQ(login_probe_timeout_ms(std::string("99999999999")), 2147483647);
  EXPECT_EQ(login_probe_timeout_ms(std::string("0")), 0) << "0 means no limit";
  for (const char* bad : {"", "-1", "+", "1.5", "1e3", "abc", "12ms"}) {
    EXPECT_EQ(login_probe_timeout_ms(std::string(bad)), 15000) << bad;
  }
}

TEST(LoginShell, StartupFilesCoverSystemAndUserFiles) {
  std::vector<std::string> files = login_startup_files("/home/u/");
  for (const char* f : {"/etc/profile", "/etc/profile.d", "/home/u/.profile", "/home/u/.bash_profile",
                        "/home/u/.bashrc", "/home/u/.zprofile", "/home/u/.zshenv"}) {
    EXPECT_NE(std::find(files.begin(), files.end(), f), files.end()) << f;
  }
}

}  // namespace
}  // namespace clawexec::shellenv
