#include "shellenv/snapshot_text.h"

#include <gtest/gtest.h>

namespace clawexec::shellenv {
namespace {

using namespace std::string_literals;

std::string capture_output(const std::string& state, const std::string& env_zero) {
  return "rc noise\n\n"s + std::string(kCaptureMarker) + "\n" + state + "\n\n" + std::string(kEnvMarker) + "\n" + env_zero;
}

TEST(SnapshotSwitch, OffValuesDisableTheSnapshot) {
  for (const char* off : {"0", "false", "NO", " off "}) EXPECT_TRUE(snapshot_disabled_by(std::string(off))) << off;
  for (const char* on : {"1", "true", "", "yes"}) EXPECT_FALSE(snapshot_disabled_by(std::string(on))) << on;
  EXPECT_FALSE(snapshot_disabled_by(std::nullopt));
}

TEST(SnapshotShells, OnlyBashAndZshWithDashC) {
  EXPECT_TRUE(snapshot_supported("/bin/bash", {"--noprofile", "--norc", "-c"}));
  EXPECT_TRUE(snapshot_supported("/usr/bin/zsh", {"-f", "-c"}));
  EXPECT_FALSE(snapshot_supported("/bin/sh", {"-c"}));
  EXPECT_FALSE(snapshot_supported("/usr/bin/fish", {"--no-config", "-c"}));
  EXPECT_FALSE(snapshot_supported("/bin/bash", {"-s"}));
  EXPECT_EQ(capture_shell_args("/bin/bash"), (std::vector<std::string>{"-i", "-c"}));
  EXPECT_EQ(capture_shell_args("/usr/bin/zsh"), (std::vector<std::string>{"-f", "-i", "-c"}));
}

TEST(SnapshotSecrets, SecretLookingNames) {
  for (const char* n : {"GITHUB_TOKEN", "my_secret", "PASSWD", "SESSION_ID", "AUTH", "API_KEY", "Cookie_jar"}) {
    EXPECT_TRUE(is_secret_env_name(n)) << n;
  }
  for (const char* n : {"PATH", "NVM_DIR", "HOME", "RUSTUP_HOME"}) EXPECT_FALSE(is_secret_env_name(n)) << n;
}

TEST(SnapshotSecrets, SecretLookingShellState) {
  for (const char* text : {"alias gh2='GITHUB_TOKEN=ghp_x gh'", "export api_key=abc", "password: hunter2",
                           "alias x='curl -H \"Authorization = y\"'", "MY_SERVICE_TOKEN=abc", "echo $OPENAI_API_KEY",
                           "alias t='x sk-abc'", "alias s='xoxb-123'", "key AKIAABCDEFGHIJKLMNOP",
                           "-----BEGIN RSA PRIVATE KEY-----", "AIzaSyX", "ya29.token"}) {
    EXPECT_TRUE(contains_secret_shell_state(text)) << text;
  }
  for (const char* text : {"alias ll='ls -la'", "f () { printf fn-ok; }", "alias tok='echo tokens'",
                           "alias sk='echo sk-'", "secretary() { :; }", "\xff\xfe binary"}) {
    EXPECT_FALSE(contains_secret_shell_state(text)) << text;
  }
}

TEST(SnapshotFile, HoldsAliasesFunctionsAndSafeExportsOnly) {
  std::string env_zero = "PATH=/snap/bin:/usr/bin\0NVM_DIR=/h/.nvm\0OPENAI_API_KEY=sk-123\0HOME=/h\0MANPATH=it's\0"s;
  std::optional<SnapshotFile> file =
      build_snapshot_file(capture_output("alias a='printf alias-ok'\nf () \n{ \n    printf fn-ok\n}", env_zero));
  ASSERT_TRUE(file);
  EXPECT_EQ(file->text,
            "# OpenClaw exec shell snapshot. Generated; do not edit.\n"
            "if [ -n \"${BASH_VERSION:-}\" ]; then shopt -s expand_aliases 2>/dev/null || true; fi\n"
            "unalias -a 2>/dev/null || true\n"
            "alias a='printf alias-ok'\nf () \n{ \n    printf fn-ok\n}\n"
            "export MANPATH='it'\\''s'\n"
            "export NVM_DIR='/h/.nvm'\n"
            "export PATH='/snap/bin:/usr/bin'\n");
  EXPECT_EQ(file->exported_path, "/snap/bin:/usr/bin");
  EXPECT_EQ(file->text.find("OPENAI"), std::string::npos);
  EXPECT_EQ(file->text.find("sk-123"), std::string::npos);
}

TEST(SnapshotFile, SecretLookingValuesOfSafeNamesAreLeftOut) {
  std::string env_zero = "PATH=/usr/bin\0CDPATH=.:ghp_abcdef\0MANPATH=/usr/share/man\0"s;
  std::optional<SnapshotFile> file = build_snapshot_file(capture_output("", env_zero));
  ASSERT_TRUE(file);
  EXPECT_EQ(file->text.find("ghp_"), std::string::npos);
  EXPECT_EQ(file->text.find("CDPATH"), std::string::npos);
  EXPECT_NE(file->text.find("export MANPATH='/usr/share/man'"), std::string::npos);
}

TEST(SnapshotFile, NoSnapshotAtAllWhenAnAliasCarriesASecret) {
  EXPECT_EQ(build_snapshot_file(capture_output("alias a='x'\nalias gh2='GITHUB_TOKEN=ghp_x gh'", "PATH=/x\0"s)),
            std::nullopt);
}

TEST(SnapshotFile, MissingOrMisorderedMarkersMeanNoSnapshot) {
  EXPECT_EQ(build_snapshot_file("alias a=b"), std::nullopt);
  EXPECT_EQ(build_snapshot_file(std::string(kEnvMarker) + "\n" + std::string(kCaptureMarker)), std::nullopt);
}

TEST(SnapshotFile, EmptyStateStillExportsTheEnvironment) {
  std::optional<SnapshotFile> file = build_snapshot_file(capture_output("", "PATH=/x\0"s));
  ASSERT_TRUE(file);
  EXPECT_NE(file->text.find("unalias -a 2>/dev/null || true\nexport PATH='/x'\n"), std::string::npos);
}

TEST(SnapshotCapture, EnvironmentKeepsOnlyCaptureNamesWithRealHome) {
  env::EnvList base{{"PATH", "/p"},   {"HOME", "/wrong"},        {"SHELL", "/bin/bash"}, {"NVM_DIR", "/n"},
                    {"EDITOR", "vi"}, {"AWS_SECRET_ACCESS_KEY", "s"}, {"OPENCLAW_SHELL", "x"}};
  env::EnvList capture = capture_env(base, "/home/u");
  EXPECT_EQ(capture, (env::EnvList{{"PATH", "/p"},
                                   {"HOME", "/home/u"},
                                   {"SHELL", "/bin/bash"},
                                   {"NVM_DIR", "/n"},
                                   {"OPENCLAW_SHELL", "exec"}}));
}

TEST(SnapshotCapture, CommandSourcesZshrcOnlyForZsh) {
  std::string zsh = capture_command("/usr/bin/zsh", "/tmp/o'ut");
  EXPECT_NE(zsh.find(". \"${ZDOTDIR:-$HOME}/.zshrc\""), std::string::npos);
  EXPECT_NE(zsh.find("alias -L"), std::string::npos);
  EXPECT_NE(zsh.find("} > '/tmp/o'\\''ut'"), std::string::npos);
  std::string bash = capture_command("/bin/bash", "/tmp/out");
  EXPECT_EQ(bash.find(".zshrc"), std::string::npos);
  EXPECT_NE(bash.find("alias 2>/dev/null || true"), std::string::npos);
  EXPECT_NE(bash.find("env -0"), std::string::npos);
}

TEST(SnapshotUse, RestoreLinesFollowTheCallEnvironmentExceptPath) {
  env::EnvList baseline{{"PATH", "/a"}, {"NVM_DIR", "/n"}, {"CARGO_HOME", "/c"}};
  env::EnvList exec_env{{"PATH", "/other"}, {"NVM_DIR", "/call's"}, {"MANPATH", "/m"}};
  EXPECT_EQ(restore_script(exec_env, baseline), "unset CARGO_HOME\nexport MANPATH='/m'\nexport NVM_DIR='/call'\\''s'");
  EXPECT_EQ(restore_script(baseline, baseline), "");
}

TEST(SnapshotUse, WrapsTheCommandInEval) {
  EXPECT_EQ(wrap_with_snapshot("echo 'hi'", "/s/k.sh", ""),
            "if [ -r '/s/k.sh' ]; then . '/s/k.sh'; fi\neval 'echo '\\''hi'\\'''");
  EXPECT_EQ(wrap_with_snapshot("true", "/s/k.sh", "unset NVM_DIR"),
            "if [ -r '/s/k.sh' ]; then . '/s/k.sh'; fi\nunset NVM_DIR\neval 'true'");
}

TEST(SnapshotKey, ChangesWithStartupFilesAndSafeEnvironmentOnly) {
  env::EnvList capture{{"PATH", "/a"}, {"HOME", "/h"}};
  std::vector<StartupFileState> rc{{"/h/.bashrc", "sha256:aa"}};
  std::string key = snapshot_key("/bin/bash", {"-c"}, "/h", "/s", capture, rc, "start-up");
  EXPECT_EQ(key.size(), 64u);
  EXPECT_EQ(snapshot_key("/bin/bash", {"-c"}, "/h", "/s", capture, rc, "start-up"), key);
  std::vector<StartupFileState> edited{{"/h/.bashrc", "sha256:ab"}};
  EXPECT_NE(snapshot_key("/bin/bash", {"-c"}, "/h", "/s", capture, edited, "start-up"), key);
  std::vector<StartupFileState> missing{{"/h/.bashrc", "absent"}};
  EXPECT_NE(snapshot_key("/bin/bash", {"-c"}, "/h", "/s", capture, missing, "start-up"), key);
  env::EnvList other_path{{"PATH", "/b"}, {"HOME", "/h"}};
  EXPECT_NE(snapshot_key("/bin/bash", {"-c"}, "/h", "/s", other_path, rc, "start-up"), key);
  env::EnvList other_home{{"PATH", "/a"}, {"HOME", "/elsewhere"}};
  EXPECT_EQ(snapshot_key("/bin/bash", {"-c"}, "/h", "/s", other_home, rc, "start-up"), key) << "HOME is not a safe name";
  EXPECT_NE(snapshot_key("/usr/bin/zsh", {"-c"}, "/h", "/s", capture, rc, "start-up"), key);
  EXPECT_NE(snapshot_key("/bin/bash", {"-c"}, "/h", "/s", capture, rc, "rerun"), key) << "the lanes never share a file";
}

TEST(SnapshotStartupFiles, BashrcOrZshrcUnderZdotdir) {
  EXPECT_EQ(snapshot_startup_files("/bin/bash", "/h/", ""), (std::vector<std::string>{"/etc/bash.bashrc", "/h/.bashrc"}));
  EXPECT_EQ(snapshot_startup_files("/usr/bin/zsh", "/h", "/z"),
            (std::vector<std::string>{"/etc/zsh/zshrc", "/etc/zshrc", "/z/.zshrc"}));
  EXPECT_EQ(snapshot_startup_files("/usr/bin/zsh", "/h", " "),
            (std::vector<std::string>{"/etc/zsh/zshrc", "/etc/zshrc", "/h/.zshrc"}));
}

}  // namespace
}  // namespace clawexec::shellenv
