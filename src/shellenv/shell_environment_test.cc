// ShellEnvironment against real shells in a scratch home: probes and captures are counted, so
// these tests show what is cached and when it is made again.

#include "shellenv/shell_environment.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace clawexec::shellenv {
namespace {

namespace fs = std::filesystem;
const std::string kShim = std::string(CLAWEXEC_BINARY_DIR) + "/bin/clawexec-shim";

class ShellEnvironmentTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/clawexec-shellenv-XXXXXX";
    root_ = ::mkdtemp(tmpl);
    home_ = root_ + "/home";
    state_ = root_ + "/state";
    fs::create_directories(home_);
    fs::create_directories(state_);
  }
  void TearDown() override { fs::remove_all(root_); }

  void write(const std::string& name, const std::string& text) { std::ofstream(home_ + "/" + name) << text; }

  std::unique_ptr<ShellEnvironment> make(env::EnvList extra = {},
                                         std::chrono::milliseconds refresh = std::chrono::minutes(5)) {
    env::EnvList server{{"PATH", "/usr/bin:/bin"}, {"SHELL", "/bin/bash"}, {"HOME", home_}};
    for (auto& [k, v] : extra) env::set_var(server, k, v);
    ShellEnvironmentSettings settings{.server_env = server, .home = home_, .state_dir = state_};
    settings.snapshot_refresh = refresh;
    settings.warn = [this](const std::string& text) { warnings_.push_back(text); };
    return std::make_unique<ShellEnvironment>(io_, spawner_, std::move(settings));
  }

  std::optional<std::string> login_path(ShellEnvironment& shell_env, StartupFileUse use = StartupFileUse::kRerunChanged) {
    std::optional<std::optional<std::string>> answer;
    shell_env.login_path(use, [&](const std::optional<std::string>& p) { answer = p; });
    run_until([&] { return answer.has_value(); });
    return answer.value_or(std::nullopt);
  }

  std::shared_ptr<const ShellEnvironment::Snapshot> snapshot(ShellEnvironment& shell_env,
                                                              const std::string& shell = "/bin/bash",
                                                              StartupFileUse use = StartupFileUse::kRerunChanged) {
    std::vector<std::string> args = shell.ends_with("zsh") ? std::vector<std::string>{"-f", "-c"}
                                                           : std::vector<std::string>{"--noprofile", "--norc", "-c"};
    bool done = false;
    std::shared_ptr<const ShellEnvironment::Snapshot> out;
    shell_env.snapshot(shell, args, "/usr/bin:/bin", use, [&](auto s) {
      out = std::move(s);
      done = true;
    });
    run_until([&] { return done; });
    return out;
  }

  void run_until(const std::function<bool()>& ready) {
    for (int i = 0; i < 2000 && !ready(); ++i) {
      io_.restart();
      io_.run_for(std::chrono::milliseconds(10));
    }
    ASSERT_TRUE(ready()) << "no answer within 20 s";
  }

  std::vector<std::string> snapshot_files() {
    std::vector<std::string> out;
    fs::path dir = state_ + "/cache/shell-snapshots";
    if (!fs::exists(dir)) return out;
    for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename());
    return out;
  }

  bool exists(const std::string& name) { return fs::exists(home_ + "/" + name); }

  std::string root_, home_, state_;
  std::vector<std::string> warnings_;
  boost::asio::io_context io_;
  proc::Spawner spawner_{kShim};
};

TEST_F(ShellEnvironmentTest, LoginPathIsProbedOnceAndAgainWhenAStartupFileChanges) {
  write(".profile", "export PATH=\"$HOME/one:$PATH\"\n");
  auto shell_env = make();
  std::optional<std::string> first = login_path(*shell_env);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->rfind(home_ + "/one:", 0), 0u) << *first;
  EXPECT_EQ(login_path(*shell_env), first);
  EXPECT_EQ(shell_env->probes_started(), 1);
  write(".profile", "export PATH=\"$HOME/two:$HOME/one:$PATH\"\n");
  std::optional<std::string> second = login_path(*shell_env);
  ASSERT_TRUE(second);
  EXPECT_EQ(second->rfind(home_ + "/two:", 0), 0u) << *second;
  EXPECT_EQ(shell_env->probes_started(), 2);
}

TEST_F(ShellEnvironmentTest, ConcurrentCallersShareOneProbe) {
  auto shell_env = make();
  int answers = 0;
  for (int i = 0; i < 3; ++i) {
    shell_env->login_path(StartupFileUse::kTrustedOnly, [&](const std::optional<std::string>&) { ++answers; });
  }
  run_until([&] { return answers == 3; });
  EXPECT_EQ(shell_env->probes_started(), 1);
}

TEST_F(ShellEnvironmentTest, AHangingLoginShellIsCutOffAndTheFailureIsRemembered) {
  write(".profile", "sleep 30\n");
  auto shell_env = make({{"OPENCLAW_SHELL_ENV_TIMEOUT_MS", "200"}});
  EXPECT_EQ(login_path(*shell_env), std::nullopt);
  EXPECT_EQ(login_path(*shell_env), std::nullopt);
  EXPECT_EQ(shell_env->probes_started(), 1);
}

TEST_F(ShellEnvironmentTest, AFailingLoginShellGivesNoPath) {
  write(".profile", "exit 3\n");
  auto shell_env = make();
  EXPECT_EQ(login_path(*shell_env), std::nullopt);
}

TEST_F(ShellEnvironmentTest, SnapshotIsWrittenPrivatelyAndReused) {
  write(".bashrc", "alias a='printf alias-ok'\nf(){ printf fn-ok; }\nexport NVM_DIR=\"$HOME/.nvm\"\n");
  auto shell_env = make();
  auto snap = snapshot(*shell_env);
  ASSERT_TRUE(snap);
  struct stat st {};
  ASSERT_EQ(::stat(snap->path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  ASSERT_EQ(::stat((state_ + "/cache/shell-snapshots").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  std::ifstream in(snap->path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("alias a='printf alias-ok'"), std::string::npos) << text;
  EXPECT_NE(text.find("fn-ok"), std::string::npos);
  EXPECT_NE(text.find("export NVM_DIR='" + home_ + "/.nvm'"), std::string::npos);
  EXPECT_EQ(snapshot(*shell_env)->path, snap->path);
  EXPECT_EQ(shell_env->captures_started(), 1);
  EXPECT_EQ(snapshot_files(), std::vector<std::string>{fs::path(snap->path).filename()}) << "no temp files left";
  // A new server reuses the fresh file after checking that it still sources.
  auto restarted = make();
  EXPECT_EQ(snapshot(*restarted)->path, snap->path);
  EXPECT_EQ(restarted->captures_started(), 0);
}

TEST_F(ShellEnvironmentTest, EditingTheRcFileMakesANewSnapshot) {
  write(".bashrc", "alias a='printf one'\n");
  auto shell_env = make();
  auto first = snapshot(*shell_env);
  write(".bashrc", "alias a='printf two-two'\n");
  auto second = snapshot(*shell_env);
  ASSERT_TRUE(first && second);
  EXPECT_NE(first->path, second->path);
  EXPECT_EQ(shell_env->captures_started(), 2);
}

TEST_F(ShellEnvironmentTest, SecretsInAliasesMeanNoSnapshotAtAll) {
  write(".bashrc", "alias a='printf ok'\nalias gh2='GITHUB_TOKEN=ghp_x gh'\n");
  auto shell_env = make();
  EXPECT_EQ(snapshot(*shell_env), nullptr);
  EXPECT_EQ(snapshot(*shell_env), nullptr);
  EXPECT_EQ(shell_env->captures_started(), 1) << "the refusal is cached";
  EXPECT_TRUE(snapshot_files().empty());
}

TEST_F(ShellEnvironmentTest, SecretEnvironmentNeverReachesTheFile) {
  write(".bashrc", "export OPENAI_API_KEY=sk-test-123456\nexport PATH=\"$HOME/snap:$PATH\"\n");
  auto shell_env = make();
  auto snap = snapshot(*shell_env);
  ASSERT_TRUE(snap);
  std::ifstream in(snap->path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text.find("OPENAI_API_KEY"), std::string::npos);
  EXPECT_EQ(text.find("sk-test"), std::string::npos);
  EXPECT_NE(text.find("export PATH='" + home_ + "/snap:/usr/bin:/bin'"), std::string::npos) << text;
}

TEST_F(ShellEnvironmentTest, DisabledMeansNoCapture) {
  write(".bashrc", "alias a='printf ok'\n");
  auto shell_env = make({{std::string(kSnapshotSwitchKey), "off"}});
  EXPECT_FALSE(shell_env->snapshots_enabled());
  EXPECT_EQ(snapshot(*shell_env), nullptr);
  EXPECT_EQ(shell_env->captures_started(), 0);
}

TEST_F(ShellEnvironmentTest, AnRcFileThatBreaksTheCaptureGivesNoSnapshot) {
  write(".bashrc", "exit 1\n");
  auto shell_env = make();
  EXPECT_EQ(snapshot(*shell_env), nullptr);
  EXPECT_TRUE(snapshot_files().empty()) << "the capture's temp file is removed";
}

TEST_F(ShellEnvironmentTest, ZshSnapshotReadsZshrc) {
  if (::access("/usr/bin/zsh", X_OK) != 0) GTEST_FAIL() << "zsh is required (scripts/install-deps.sh --test installs it)";
  write(".zshrc", "alias z='printf zsh-ok'\ng() { printf g-ok }\n");
  auto shell_env = make({{"SHELL", "/usr/bin/zsh"}});
  auto snap = snapshot(*shell_env, "/usr/bin/zsh");
  ASSERT_TRUE(snap);
  std::ifstream in(snap->path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("zsh-ok"), std::string::npos) << text;
  EXPECT_NE(text.find("g-ok"), std::string::npos) << text;
}

// ---- Start-up trust (issue 10 #6b): strict calls never run a changed startup file. ----

constexpr StartupFileUse kStrict = StartupFileUse::kTrustedOnly;
constexpr StartupFileUse kFull = StartupFileUse::kRerunChanged;

TEST_F(ShellEnvironmentTest, StrictCallsKeepTheStartUpLoginPathAndDoNotRunAChangedProfile) {
  write(".profile", "export PATH=\"$HOME/one:$PATH\"\n");
  auto shell_env = make();
  std::optional<std::string> first = login_path(*shell_env, kStrict);
  ASSERT_TRUE(first);
  write(".profile", "touch \"$HOME/pwned\"\nexport PATH=\"$HOME/planted:$PATH\"\n");
  EXPECT_EQ(login_path(*shell_env, kStrict), first);
  EXPECT_EQ(login_path(*shell_env, kStrict), first);
  EXPECT_FALSE(exists("pwned"));
  EXPECT_EQ(shell_env->probes_started(), 1);
  ASSERT_EQ(warnings_.size(), 1u) << "one warning per change, not per call";
  EXPECT_NE(warnings_[0].find(home_ + "/.profile changed since this server started"), std::string::npos) << warnings_[0];
  EXPECT_NE(warnings_[0].find("Restart the server"), std::string::npos) << warnings_[0];
  write(".profile", "touch \"$HOME/pwned\"\n# another change\n");
  EXPECT_EQ(login_path(*shell_env, kStrict), first);
  EXPECT_EQ(warnings_.size(), 2u) << "a further change is reported again";
}

TEST_F(ShellEnvironmentTest, AFullPolicyCallProbesTheChangeButStrictCallsNeverSeeItsAnswer) {
  write(".profile", "export PATH=\"$HOME/one:$PATH\"\n");
  auto shell_env = make();
  std::optional<std::string> first = login_path(*shell_env, kStrict);
  write(".profile", "export PATH=\"$HOME/two:$PATH\"\n");
  std::optional<std::string> full = login_path(*shell_env, kFull);
  ASSERT_TRUE(full);
  EXPECT_EQ(full->rfind(home_ + "/two:", 0), 0u) << *full;
  EXPECT_EQ(login_path(*shell_env, kStrict), first);
  EXPECT_EQ(login_path(*shell_env, kFull), full);
  EXPECT_EQ(shell_env->probes_started(), 2);
  // Back to the trusted content: both get the start-up answer, nothing runs.
  write(".profile", "export PATH=\"$HOME/one:$PATH\"\n");
  EXPECT_EQ(login_path(*shell_env, kFull), first);
  EXPECT_EQ(shell_env->probes_started(), 2);
}

TEST_F(ShellEnvironmentTest, AContentChangeWithTheMtimeSetBackIsStillAChange) {
  write(".profile", "export PATH=\"$HOME/one:$PATH\"\n");
  fs::path file = home_ + "/.profile";
  auto stamp = fs::file_time_type::clock::now() - std::chrono::hours(24);
  fs::last_write_time(file, stamp);
  auto shell_env = make();
  ASSERT_TRUE(login_path(*shell_env, kFull));
  write(".profile", "export PATH=\"$HOME/two:$PATH\"\n");  // same size, same inode
  fs::last_write_time(file, stamp);
  std::optional<std::string> second = login_path(*shell_env, kFull);
  ASSERT_TRUE(second);
  EXPECT_EQ(second->rfind(home_ + "/two:", 0), 0u) << *second;
}

TEST_F(ShellEnvironmentTest, AStartUpProbeThatFailedIsNotRetriedForStrictCallsAfterAChange) {
  write(".profile", "exit 3\n");
  auto shell_env = make();
  EXPECT_EQ(login_path(*shell_env, kStrict), std::nullopt);
  write(".profile", "touch \"$HOME/pwned\"\nexport PATH=\"$HOME/planted:$PATH\"\n");
  EXPECT_EQ(login_path(*shell_env, kStrict), std::nullopt);
  EXPECT_FALSE(exists("pwned"));
  EXPECT_EQ(shell_env->probes_started(), 1);
}

TEST_F(ShellEnvironmentTest, AFileChangedBeforeTheFirstStrictCallIsNeverRun) {
  auto shell_env = make();  // trusts the files as they are now: no ~/.profile
  write(".profile", "touch \"$HOME/pwned\"\n");
  EXPECT_EQ(login_path(*shell_env, kStrict), std::nullopt);
  EXPECT_FALSE(exists("pwned"));
  EXPECT_EQ(shell_env->probes_started(), 0);
  EXPECT_EQ(warnings_.size(), 1u);
}

TEST_F(ShellEnvironmentTest, StrictCallsKeepTheStartUpSnapshotAndNeverRecaptureIt) {
  write(".bashrc", "alias a='printf one'\n");
  auto shell_env = make({}, std::chrono::milliseconds(0));  // every snapshot is "old" at once
  auto first = snapshot(*shell_env, "/bin/bash", kStrict);
  ASSERT_TRUE(first);
  EXPECT_EQ(snapshot(*shell_env, "/bin/bash", kStrict), first);
  EXPECT_EQ(shell_env->captures_started(), 1) << "no refresh for strict calls";
  write(".bashrc", "touch \"$HOME/pwned\"\nalias a='printf two'\n");
  EXPECT_EQ(snapshot(*shell_env, "/bin/bash", kStrict), first);
  EXPECT_FALSE(exists("pwned"));
  EXPECT_EQ(shell_env->captures_started(), 1);
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_NE(warnings_[0].find(home_ + "/.bashrc"), std::string::npos) << warnings_[0];
}

TEST_F(ShellEnvironmentTest, AFullPolicyRefreshWritesItsOwnFileAndLeavesTheStartUpSnapshotAlone) {
  write(".bashrc", "alias a='printf one'\n");
  auto shell_env = make({}, std::chrono::milliseconds(0));
  auto startup = snapshot(*shell_env, "/bin/bash", kStrict);
  ASSERT_TRUE(startup);
  std::ifstream before_in(startup->path);
  std::string before((std::istreambuf_iterator<char>(before_in)), std::istreambuf_iterator<char>());
  // The start-up snapshot is old at once: a full call gets it and starts a rerun capture.
  EXPECT_EQ(snapshot(*shell_env, "/bin/bash", kFull), startup);
  auto finished_files = [&] {
    std::vector<std::string> files = snapshot_files();
    return std::count_if(files.begin(), files.end(), [](const std::string& f) { return f.ends_with(".sh"); }) == 2 &&
           std::none_of(files.begin(), files.end(), [](const std::string& f) { return f.ends_with(".tmp"); });
  };
  run_until([&] { return shell_env->captures_started() == 2 && finished_files(); });
  auto rerun = snapshot(*shell_env, "/bin/bash", kFull);
  ASSERT_TRUE(rerun);
  EXPECT_NE(rerun->path, startup->path);
  EXPECT_EQ(snapshot(*shell_env, "/bin/bash", kStrict), startup);
  std::ifstream after_in(startup->path);
  std::string after((std::istreambuf_iterator<char>(after_in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(after, before);
}

TEST_F(ShellEnvironmentTest, AFullPolicyCallCapturesAChangedRcFile) {
  write(".bashrc", "alias a='printf one'\n");
  auto shell_env = make();
  auto startup = snapshot(*shell_env, "/bin/bash", kStrict);
  write(".bashrc", "alias a='printf two-two'\n");
  auto changed = snapshot(*shell_env, "/bin/bash", kFull);
  ASSERT_TRUE(startup && changed);
  EXPECT_NE(changed->path, startup->path);
  EXPECT_EQ(snapshot(*shell_env, "/bin/bash", kStrict), startup);
  EXPECT_TRUE(warnings_.size() == 1u) << "the strict call warned";
}

}  // namespace
}  // namespace clawexec::shellenv
