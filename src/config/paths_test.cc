#include "config/paths.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <string>

#include "config/exec_settings.h"

namespace clawexec::config {
namespace {

using Env = std::map<std::string, std::string, std::less<>>;

PathContext context(Env env, std::optional<std::string> os_home = std::nullopt) {
  return PathContext{env_from_map(std::move(env)), "/work/dir", std::move(os_home)};
}

TEST(ConfigPaths, DefaultsLiveUnderHome) {
  PathContext c = context({{"HOME", "/home/u"}});
  EXPECT_EQ(resolve_state_dir(c), "/home/u/.openclaw");
  EXPECT_EQ(resolve_config_path(c), "/home/u/.openclaw/openclaw.json");
}

TEST(ConfigPaths, StateDirOverrideMovesTheConfigToo) {
  PathContext c = context({{"HOME", "/home/u"}, {"OPENCLAW_STATE_DIR", "  /srv/claw/  "}});
  EXPECT_EQ(resolve_state_dir(c), "/srv/claw");
  EXPECT_EQ(resolve_config_path(c), "/srv/claw/openclaw.json");
}

TEST(ConfigPaths, ConfigPathOverrideIsIndependentOfTheStateDir) {
  PathContext c = context(
      {{"HOME", "/home/u"}, {"OPENCLAW_STATE_DIR", "/srv"}, {"OPENCLAW_CONFIG_PATH", "/etc/claw.json5"}});
  EXPECT_EQ(resolve_state_dir(c), "/srv");
  EXPECT_EQ(resolve_config_path(c), "/etc/claw.json5");
}

TEST(ConfigPaths, OverridesExpandTildeAndResolveRelativePaths) {
  PathContext c = context(
      {{"HOME", "/home/u"}, {"OPENCLAW_STATE_DIR", "~/state"}, {"OPENCLAW_CONFIG_PATH", "conf/../x.json"}});
  EXPECT_EQ(resolve_state_dir(c), "/home/u/state");
  EXPECT_EQ(resolve_config_path(c), "/work/dir/x.json");
  EXPECT_EQ(resolve_state_dir(context({{"HOME", "/home/u"}, {"OPENCLAW_STATE_DIR", "~"}})), "/home/u");
  // "~user" is not expanded; it is an ordinary relative name.
  EXPECT_EQ(resolve_state_dir(context({{"HOME", "/home/u"}, {"OPENCLAW_STATE_DIR", "~bob/s"}})),
            "/work/dir/~bob/s");
}

TEST(ConfigPaths, BlankOverridesAreIgnored) {
  PathContext c = context({{"HOME", "/home/u"}, {"OPENCLAW_STATE_DIR", "   "}, {"OPENCLAW_CONFIG_PATH", ""}});
  EXPECT_EQ(resolve_config_path(c), "/home/u/.openclaw/openclaw.json");
}

TEST(ConfigPaths, HomeComesFromOpenclawHomeThenHomeThenTheUserDatabaseThenCwd) {
  EXPECT_EQ(resolve_home_dir(context({{"OPENCLAW_HOME", "/opt/h"}, {"HOME", "/home/u"}})), "/opt/h");
  EXPECT_EQ(resolve_home_dir(context({{"OPENCLAW_HOME", "~/alt"}, {"HOME", "/home/u"}})), "/home/u/alt");
  EXPECT_EQ(resolve_home_dir(context({{"OPENCLAW_HOME", "undefined"}, {"HOME", " /home/u "}})), "/home/u");
  EXPECT_EQ(resolve_home_dir(context({{"HOME", "null"}, {"USERPROFILE", "/users/u"}})), "/users/u");
  EXPECT_EQ(resolve_home_dir(context({}, "/var/lib/svc")), "/var/lib/svc");
  EXPECT_EQ(resolve_home_dir(context({{"OPENCLAW_HOME", "~"}})), "/work/dir");
  EXPECT_EQ(resolve_home_dir(context({})), "/work/dir");
  EXPECT_EQ(resolve_state_dir(context({{"OPENCLAW_HOME", "/opt/h"}, {"HOME", "/home/u"}})),
            "/opt/h/.openclaw");
}

TEST(ConfigPaths, ResolvePathNormalisesLikeNode) {
  EXPECT_EQ(resolve_path("/a/b", "c"), "/a/b/c");
  EXPECT_EQ(resolve_path("/a/b", "/x//y/./z/"), "/x/y/z");
  EXPECT_EQ(resolve_path("/a/b", "../../../c"), "/c");
  EXPECT_EQ(resolve_path("/a", "."), "/a");
  EXPECT_EQ(resolve_path("/", ".."), "/");
}

TEST(ConfigPaths, ProcessContextHasAnAbsoluteWorkingDirectory) {
  PathContext c = process_path_context();
  ASSERT_FALSE(c.cwd.empty());
  EXPECT_EQ(c.cwd[0], '/');
}

class ConfigFile : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "config_file_XXXXXX";
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::remove((dir_ + "/openclaw.json").c_str());
    rmdir((dir_ + "/sub").c_str());
    rmdir(dir_.c_str());
  }
  std::string dir_;
};

TEST_F(ConfigFile, MissingFileOrDirectoryIsNoConfig) {
  auto missing = read_config_file(dir_ + "/openclaw.json");
  ASSERT_TRUE(missing.ok());
  EXPECT_FALSE(missing->has_value());
  auto missing_dir = read_config_file(dir_ + "/nope/openclaw.json");
  ASSERT_TRUE(missing_dir.ok());
  EXPECT_FALSE(missing_dir->has_value());
}

TEST_F(ConfigFile, ReadsTheWholeFile) {
  std::string text = "{tools: {exec: {host: 'node'}}}\n" + std::string(200000, ' ');
  std::ofstream(dir_ + "/openclaw.json") << text;
  auto read = read_config_file(dir_ + "/openclaw.json");
  ASSERT_TRUE(read.ok());
  ASSERT_TRUE(read->has_value());
  EXPECT_EQ(**read, text);
  // A file used as a directory on the way counts as missing (ENOTDIR).
  auto through_file = read_config_file(dir_ + "/openclaw.json/x");
  ASSERT_TRUE(through_file.ok());
  EXPECT_FALSE(through_file->has_value());
}

TEST_F(ConfigFile, UnreadablePathIsAnErrorNamingIt) {
  ASSERT_EQ(mkdir((dir_ + "/sub").c_str(), 0700), 0);
  auto result = read_config_file(dir_ + "/sub");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().message, "read config file " + dir_ + "/sub: Is a directory");
}

}  // namespace
}  // namespace clawexec::config
