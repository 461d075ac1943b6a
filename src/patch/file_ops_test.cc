// apply_patch against real temp directories: results, atomicity, workspace containment.

#include "patch/file_ops.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace clawexec::patch {
namespace {

namespace fs = std::filesystem;

class PatchDir : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/clawexec-patch-XXXXXX";
    base_ = mkdtemp(tmpl);
    ws_ = base_ + "/ws";
    fs::create_directories(ws_);
    fs::create_directories(base_ + "/outside");
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(base_, ec);
  }
  void write(const std::string& rel, const std::string& text) {
    fs::create_directories(fs::path(ws_ + "/" + rel).parent_path());
    std::ofstream(ws_ + "/" + rel, std::ios::binary) << text;
  }
  std::string read(const std::string& rel) {
    std::ifstream in(ws_ + "/" + rel, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  bool exists(const std::string& rel) { return fs::exists(fs::symlink_status(ws_ + "/" + rel)); }
  Result<PatchSummary> apply(const std::string& body, Containment c = Containment::kWorkspaceOnly) {
    PatchOptions o{ws_, ws_, base_ + "/home", c};
    return apply_patch_to_workspace("*** Begin Patch\n" + body + "*** End Patch", o);
  }
  std::string base_, ws_;
};

TEST_F(PatchDir, AddFileCreatesItAndReportsAdded) {  // §8.2 case 63
  auto r = apply("*** Add File: hello.txt\n+hello\n");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(read("hello.txt"), "hello\n");
  EXPECT_EQ(r->added, std::vector<std::string>{"hello.txt"});
  EXPECT_EQ(summary_text(*r), "Success. Updated the following files:\nA hello.txt");
}

TEST_F(PatchDir, AddCreatesParentDirectories) {
  ASSERT_TRUE(apply("*** Add File: a/b/c.txt\n+x\n").ok());
  EXPECT_EQ(read("a/b/c.txt"), "x\n");
}

TEST_F(PatchDir, MoveWritesDestinationRemovesSourceReportsDestination) {  // case 64
  write("source.txt", "foo\nbar\n");
  auto r = apply("*** Update File: source.txt\n*** Move to: dest.txt\n@@\n foo\n-bar\n+baz\n");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(read("dest.txt"), "foo\nbaz\n");
  EXPECT_FALSE(exists("source.txt"));
  EXPECT_EQ(r->modified, std::vector<std::string>{"dest.txt"});
}

TEST_F(PatchDir, EndOfFileInsertionAppends) {  // case 65
  write("end.txt", "line1\n");
  ASSERT_TRUE(apply("*** Update File: end.txt\n@@\n+line2\n*** End of File\n").ok());
  EXPECT_EQ(read("end.txt"), "line1\nline2\n");
}

TEST_F(PatchDir, DotDotEscapeIsRejectedAbsoluteInsideAllowed) {  // case 66
  auto r = apply("*** Add File: ../escaped.txt\n+x\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "Path escapes sandbox root (" + ws_ + "): ../escaped.txt");
  EXPECT_FALSE(fs::exists(base_ + "/escaped.txt"));
  auto ok = apply("*** Add File: " + ws_ + "/abs.txt\n+x\n");
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(ok->added, std::vector<std::string>{"abs.txt"});
}

TEST_F(PatchDir, AbsolutePathOutsideIsRejected) {
  auto r = apply("*** Add File: " + base_ + "/outside/x.txt\n+x\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "Path escapes sandbox root (" + ws_ + "): " + base_ + "/outside/x.txt");
}

TEST_F(PatchDir, AddOnExistingFileNamesTheFile) {  // case 68
  write("a.txt", "x\n");
  auto r = apply("*** Add File: a.txt\n+y\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "Cannot create a.txt: the file already exists. Use \"*** Update File: a.txt\" to change it, or delete it "
            "earlier in the same patch.");
  EXPECT_EQ(read("a.txt"), "x\n");
}

TEST_F(PatchDir, AddAfterDeleteInSamePatchReplaces) {
  write("a.txt", "old\n");
  auto r = apply("*** Delete File: a.txt\n*** Add File: a.txt\n+new\n");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(read("a.txt"), "new\n");
  EXPECT_EQ(summary_text(*r), "Success. Updated the following files:\nA a.txt\nD a.txt");
}

TEST_F(PatchDir, MoveOntoExistingFileIsRejectedUnlessDeletedFirst) {
  write("s.txt", "a\n");
  write("d.txt", "d\n");
  auto r = apply("*** Update File: s.txt\n*** Move to: d.txt\n@@\n-a\n+b\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "Cannot create d.txt: the file already exists. Delete it earlier in the same patch to replace it.");
  auto ok = apply("*** Delete File: d.txt\n*** Update File: s.txt\n*** Move to: d.txt\n@@\n-a\n+b\n");
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(read("d.txt"), "b\n");
  EXPECT_FALSE(exists("s.txt"));
}

TEST_F(PatchDir, NoOpUpdateReportsNoChanges) {
  write("a.txt", "x\n");
  auto r = apply("*** Update File: a.txt\n@@\n-x\n+x\n");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->all_noop);
  EXPECT_EQ(summary_text(*r), "No changes made to a.txt.");
}

TEST_F(PatchDir, UpdateKeepsPermissionBits) {
  write("run.sh", "a\n");
  ::chmod((ws_ + "/run.sh").c_str(), 0751);
  ASSERT_TRUE(apply("*** Update File: run.sh\n@@\n-a\n+b\n").ok());
  struct stat st {};
  ASSERT_EQ(::stat((ws_ + "/run.sh").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0751u);
}

TEST_F(PatchDir, BadLastHunkLeavesEveryFileUntouched) {
  write("a.txt", "a\n");
  write("b.txt", "b\n");
  auto r = apply("*** Update File: a.txt\n@@\n-a\n+A\n*** Add File: c.txt\n+c\n*** Delete File: b.txt\n"
                 "*** Update File: b.txt\n@@\n-nope\n+x\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(read("a.txt"), "a\n");
  EXPECT_EQ(read("b.txt"), "b\n");
  EXPECT_FALSE(exists("c.txt"));
}

TEST_F(PatchDir, FailedWriteWhereADirectoryBlocksTheParentRestoresEarlierFiles) {
  write("a.txt", "a\n");
  write("blocker", "file, not a directory\n");
  auto r = apply("*** Update File: a.txt\n@@\n-a\n+A\n*** Add File: fresh/f.txt\n+f\n*** Add File: blocker/x.txt\n+x\n");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("blocker/x.txt"), std::string::npos) << r.error().message;
  EXPECT_EQ(read("a.txt"), "a\n");
  EXPECT_FALSE(exists("fresh"));
  EXPECT_EQ(read("blocker"), "file, not a directory\n");
}

TEST_F(PatchDir, SymlinkedParentPointingOutsideIsRejected) {
  fs::create_directory_symlink(base_ + "/outside", ws_ + "/lnk");
  auto r = apply("*** Add File: lnk/x.txt\n+x\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "Symlink escapes sandbox root (" + ws_ + "): " + ws_ + "/lnk");
  EXPECT_FALSE(fs::exists(base_ + "/outside/x.txt"));
}

TEST_F(PatchDir, SymlinkedParentInsideIsAnAlias) {
  fs::create_directories(ws_ + "/real");
  fs::create_directory_symlink("real", ws_ + "/inlnk");
  auto r = apply("*** Add File: inlnk/x.txt\n+x\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "Path alias under sandbox root: inlnk");
}

TEST_F(PatchDir, SymlinkedFinalComponentIsRejectedButMayBeDeleted) {
  std::ofstream(base_ + "/outside/o.txt") << "o\n";
  fs::create_symlink(base_ + "/outside/o.txt", ws_ + "/fl");
  auto r = apply("*** Update File: fl\n@@\n-o\n+p\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "Symlink escapes sandbox root (" + ws_ + "): " + ws_ + "/fl");
  auto del = apply("*** Delete File: fl\n");
  ASSERT_TRUE(del.ok()) << del.error().message;
  EXPECT_FALSE(exists("fl"));
  EXPECT_TRUE(fs::exists(base_ + "/outside/o.txt"));
}

TEST_F(PatchDir, HardlinkedTargetIsRejected) {
  std::ofstream(base_ + "/outside/h.txt") << "h\n";
  fs::create_hard_link(base_ + "/outside/h.txt", ws_ + "/h.txt");
  auto r = apply("*** Update File: h.txt\n@@\n-h\n+i\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "Hardlinked path is not allowed under sandbox root (" + ws_ + "): " + ws_ + "/h.txt");
}

TEST_F(PatchDir, AtPrefixIsStrippedUnlessTheLiteralNameExists) {
  auto r = apply("*** Add File: @foo.txt\n+x\n");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->added, std::vector<std::string>{"foo.txt"});
  fs::create_directories(ws_ + "/@dir");
  auto lit = apply("*** Add File: @dir/f.txt\n+x\n");
  ASSERT_TRUE(lit.ok()) << lit.error().message;
  EXPECT_EQ(lit->added, std::vector<std::string>{"@dir/f.txt"});
}

TEST_F(PatchDir, TildeExpandsToHomeAndIsContained) {
  auto r = apply("*** Add File: ~/x.txt\n+x\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "Path escapes sandbox root (" + ws_ + "): ~/x.txt");
  fs::create_directories(base_ + "/home");
  auto anywhere = apply("*** Add File: ~/x.txt\n+x\n", Containment::kAnywhere);
  ASSERT_TRUE(anywhere.ok()) << anywhere.error().message;
  EXPECT_EQ(anywhere->added, std::vector<std::string>{base_ + "/home/x.txt"});
}

TEST(Workspace, RootIsShortenedWithTildeInMessages) {
  Workspace w{"/home/u/proj", "/home/u/proj", "/home/u", Containment::kWorkspaceOnly};
  auto r = resolve_patch_path("../x", w, AliasPolicy::kStrict);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "Path escapes sandbox root (~/proj): ../x");
}

TEST(Workspace, DisplayPathIsRelativeInsideAbsoluteOutsideBasenameForCwd) {
  EXPECT_EQ(display_path("/w/a/b.txt", "/w"), "a/b.txt");
  EXPECT_EQ(display_path("/other/b.txt", "/w"), "/other/b.txt");
  EXPECT_EQ(display_path("/w", "/w"), "w");
  EXPECT_EQ(lexically_normal("/a/./b/../c//d/"), "/a/c/d");
}

}  // namespace
}  // namespace clawexec::patch
