#include <gtest/gtest.h>

#include <string>

#include "shell/control_guard.h"
#include "shell/lexical_path.h"

namespace clawexec::shell {
namespace {

constexpr std::string_view kStateDbMessage =
    "external sqlite3 cannot open databases under the active OpenClaw state directory. Use "
    "OpenClaw "
    "commands for live state, or inspect a private backup copy outside `OPENCLAW_STATE_DIR`.";

StateDbContext context() {
  return StateDbContext{"/home/u/.openclaw", "/home/u", "/wd/x", nullptr};
}

bool refused(std::string_view command, const StateDbContext& ctx = context()) {
  Result<void> result = check_state_db_access(command, ctx);
  if (result.ok()) return false;
  EXPECT_EQ(result.error().code, ErrorCode::kRejected);
  EXPECT_EQ(result.error().message, kStateDbMessage) << command;
  return true;
}

TEST(CheckStateDbAccess, RefusesDatabasesInsideTheStateDirectory) {
  for (std::string_view command :
       {"sqlite3 /home/u/.openclaw/state.db .tables", "sqlite3 /home/u/.openclaw",
        "sqlite3 -- ~/.openclaw/a.db", "sqlite3 -separator , ~/.openclaw/a.db",
        "sqlite3 ../../home/u/.openclaw/a.db", "SQLITE3.EXE ~/.openclaw/x",
        "/usr/bin/sqlite3 -readonly /home/u/./.openclaw//a/../b.db"}) {
    EXPECT_TRUE(refused(command)) << command;
  }
}

TEST(CheckStateDbAccess, ExpandsHomeStateDirAndTilde) {
  EXPECT_TRUE(refused("sqlite3 ~/.openclaw/state.db"));
  EXPECT_TRUE(refused("sqlite3 $HOME/.openclaw/x.db"));
  EXPECT_TRUE(refused("sqlite3 \"${HOME}/.openclaw/x.db\""));
  EXPECT_TRUE(refused("sqlite3 $OPENCLAW_STATE_DIR/x.db"));
  EXPECT_TRUE(refused("sqlite3 '${OPENCLAW_STATE_DIR}'"));
  EXPECT_FALSE(refused("sqlite3 $OPENCLAW_STATE_DIRx/a.db"));  // a different variable
  EXPECT_FALSE(refused("sqlite3 ~user/.openclaw/a.db"));       // not the home directory
  EXPECT_FALSE(refused("sqlite3 ~"));
}

TEST(CheckStateDbAccess, UnderstandsFileUris) {
  EXPECT_TRUE(refused("sqlite3 file:/home/u/.openclaw/a.db?mode=ro"));
  EXPECT_TRUE(refused("sqlite3 file:///home/u/.openclaw/a%20b.db"));
  EXPECT_TRUE(refused("sqlite3 file://localhost/home/u/.openclaw/a.db"));
  EXPECT_TRUE(
      refused("sqlite3 'file:%2Fhome%2Fu/.openclaw/x'"));  // encoded slashes: decoded as text
  EXPECT_TRUE(refused("sqlite3 file:/home/u/x/%2e%2e/.openclaw/a"));
  EXPECT_FALSE(refused("sqlite3 file://otherhost/home/u/.openclaw/a.db"));  // "/otherhost/home/..."
}

TEST(CheckStateDbAccess, FindsDotOpenCommands) {
  EXPECT_TRUE(refused("sqlite3 -cmd '.open /home/u/.openclaw/a.db' /tmp/x.db"));
  EXPECT_TRUE(refused("sqlite3 /tmp/x.db '.open ~/.openclaw/a.db'"));
  EXPECT_TRUE(refused("sqlite3 /tmp/x.db '.op --readonly ~/.openclaw/a.db'"));
  EXPECT_TRUE(refused("sqlite3 /tmp/x.db '.open --key k ~/.openclaw/a.db'"));
  EXPECT_FALSE(refused("sqlite3 /tmp/x.db '.o ~/.openclaw/a.db'"));
  EXPECT_FALSE(refused("sqlite3 -init ~/.openclaw/init.sql /tmp/x.db"));  // -init takes a value
}

TEST(CheckStateDbAccess, AllowsOtherDatabases) {
  for (std::string_view command :
       {"sqlite3 :memory:", "sqlite3 ' :memory: '", "sqlite3 /tmp/x.db",
        "sqlite3 /home/u/.openclawx/a.db", "sqlite3 ~/other.db", "sqlite3 state.db",
        "sqlite3 ~/.openclaw/../x.db", "sqlite3 ':memory:' '.open /tmp/y.db'",
        "echo ~/.openclaw/a.db | sqlite3", "sqlite ~/.openclaw/a.db", "cat ~/.openclaw/a.db"}) {
    EXPECT_FALSE(refused(command)) << command;
  }
}

TEST(CheckStateDbAccess, LooksThroughCarriersAndWrappers) {
  EXPECT_TRUE(refused("sudo sqlite3 ~/.openclaw/a.db"));
  EXPECT_TRUE(refused("env X=1 sqlite3 ~/.openclaw/a.db"));
  EXPECT_TRUE(refused("bash -c 'sqlite3 ~/.openclaw/a.db'"));
  EXPECT_TRUE(refused("echo; x=$(sqlite3 ~/.openclaw/a.db .dump)"));
}

TEST(CheckStateDbAccess, ResolvesRelativeOperandsAgainstTheWorkdir) {
  StateDbContext ctx = context();
  ctx.workdir = "/home/u/.openclaw/agents";
  EXPECT_TRUE(refused("sqlite3 state.db", ctx));
  EXPECT_FALSE(refused("sqlite3 ../../x.db", ctx));
}

TEST(CheckStateDbAccess, UsesTheCanonicalizerForSymlinks) {
  StateDbContext ctx = context();
  ctx.state_dir = "/data/state";
  // /home/u/link is a symlink to /data/state.
  ctx.canonicalize = [](const std::string& path) {
    const std::string link = "/home/u/link";
    if (path == link || path.rfind(link + "/", 0) == 0)
      return "/data/state" + path.substr(link.size());
    return path;
  };
  EXPECT_TRUE(refused("sqlite3 /home/u/link/a.db", ctx));
  ctx.canonicalize = nullptr;
  EXPECT_FALSE(refused("sqlite3 /home/u/link/a.db", ctx));
}

TEST(CheckStateDbAccess, DoesNothingWithoutStateDirOrWorkdir) {
  StateDbContext ctx = context();
  ctx.state_dir = "  ";
  EXPECT_FALSE(refused("sqlite3 /home/u/.openclaw/a.db", ctx));
  ctx = context();
  ctx.workdir.clear();
  EXPECT_FALSE(refused("sqlite3 /home/u/.openclaw/a.db", ctx));
}

TEST(CheckStateDbAccess, ControlCommandsAreNotItsConcern) {
  EXPECT_TRUE(check_state_db_access("/approve abc deny", context()).ok());
  EXPECT_TRUE(check_control_commands("sqlite3 ~/.openclaw/a.db").ok());
}

TEST(LexicalPath, ResolvesLikeNodePathResolve) {
  EXPECT_EQ(resolve_lexically("/wd/x", "a/../b/./c/"), "/wd/x/b/c");
  EXPECT_EQ(resolve_lexically("/wd/x", "/a//b/.."), "/a");
  EXPECT_EQ(resolve_lexically("/wd", "../../.."), "/");
  EXPECT_EQ(join_lexically("/home/u", ""), "/home/u");
}

TEST(LexicalPath, IsPathInsideMatchesWholeSegments) {
  EXPECT_TRUE(is_path_inside("/a/b", "/a/b"));
  EXPECT_TRUE(is_path_inside("/a/b", "/a/b/c"));
  EXPECT_FALSE(is_path_inside("/a/b", "/a/bc"));
  EXPECT_TRUE(is_path_inside("/", "/x"));
}

TEST(LexicalPath, FileUrlToPathFollowsNodeOnPosix) {
  EXPECT_EQ(file_url_to_path("file:///a/b%20c"), "/a/b c");
  EXPECT_EQ(file_url_to_path("FILE://LOCALHOST/a"), "/a");
  EXPECT_EQ(file_url_to_path("file:a/./b/../c?x#y"), "/a/c");
  EXPECT_EQ(file_url_to_path("file:\\a\\b"), "/a/b");
  EXPECT_EQ(file_url_to_path("file:/a/%2e%2E/b"), "/b");
  EXPECT_EQ(file_url_to_path("file://host/a"), std::nullopt);
  EXPECT_EQ(file_url_to_path("file:/a%2Fb"), std::nullopt);
  EXPECT_EQ(file_url_to_path("file:/a%zz"), std::nullopt);
}

TEST(LexicalPath, DecodeUriComponentRejectsMalformedInput) {
  EXPECT_EQ(decode_uri_component("a%20b%C3%A9"), "a b\xC3\xA9");
  EXPECT_EQ(decode_uri_component("%"), std::nullopt);
  EXPECT_EQ(decode_uri_component("%ff"), std::nullopt);
  EXPECT_EQ(decode_uri_component("%C3"), std::nullopt);
  EXPECT_EQ(decode_uri_component("%ED%A0%80"), std::nullopt);  // a surrogate
}

}  // namespace
}  // namespace clawexec::shell
