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

TEST_F(PatchDir, AProtectedPathAnywhereInThePatchWritesNothing) {
  write("keep.txt", "k\n");
  PatchOptions o{ws_, ws_, base_ + "/home", Containment::kWorkspaceOnly};
  o.protection.state_dir = ws_ + "/.openclaw";
  auto r = apply_patch_to_workspace(
      "*** Begin Patch\n*** Update File: keep.txt\n@@\n-k\n+K\n*** Add File: new.txt\n+n\n"
      "*** Add File: .openclaw/exec-approvals.json\n+{}\n*** End Patch",
      o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kRejected);
  EXPECT_EQ(r.error().message.rfind("apply_patch: refusing to write .openclaw/exec-approvals.json: it is in", 0), 0u)
      << r.error().message;
  EXPECT_EQ(read("keep.txt"), "k\n");
  EXPECT_FALSE(exists("new.txt"));
  EXPECT_FALSE(exists(".openclaw"));
  auto git = apply("*** Add File: a.txt\n+a\n*** Add File: .git/hooks/pre-commit\n+x\n");
  ASSERT_FALSE(git.ok());
  EXPECT_FALSE(exists("a.txt"));
}

TEST_F(PatchDir, FilesOverThePerFileLimitAreRefusedBeforeReadingAndMayStillBeDeleted) {
  write("big.txt", std::string(100, 'x') + "\n");
  write("small.txt", "s\n");
  PatchOptions o{ws_, ws_, base_ + "/home", Containment::kWorkspaceOnly};
  o.limits.max_file_bytes = 64;
  auto r = apply_patch_to_workspace("*** Begin Patch\n*** Update File: big.txt\n@@\n-x\n+y\n*** End Patch", o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "Failed to read file to update " + ws_ +
                                   "/big.txt: it is 101 bytes, over apply_patch's per-file limit of 64 bytes");
  auto grown = apply_patch_to_workspace(
      "*** Begin Patch\n*** Update File: small.txt\n@@\n-s\n+" + std::string(80, 'y') + "\n*** End Patch", o);
  ASSERT_FALSE(grown.ok());
  EXPECT_EQ(grown.error().message,
            "apply_patch: refusing to write small.txt: its new content would be 81 bytes, over apply_patch's per-file "
            "limit of 64 bytes");
  EXPECT_EQ(read("small.txt"), "s\n");
  auto del = apply_patch_to_workspace("*** Begin Patch\n*** Delete File: big.txt\n*** End Patch", o);
  ASSERT_TRUE(del.ok()) << del.error().message;
  EXPECT_FALSE(exists("big.txt"));
}

TEST_F(PatchDir, TheTotalOfFilesReadAndWrittenIsCapped) {
  for (const char* name : {"a.txt", "b.txt", "c.txt"}) write(name, std::string(30, 'x') + "\n");
  PatchOptions o{ws_, ws_, base_ + "/home", Containment::kWorkspaceOnly};
  o.limits.max_total_bytes = 100;
  std::string body;
  for (const char* name : {"a.txt", "b.txt", "c.txt"}) {
    body += std::string("*** Update File: ") + name + "\n@@\n-" + std::string(30, 'x') + "\n+" + std::string(30, 'y') + "\n";
  }
  auto r = apply_patch_to_workspace("*** Begin Patch\n" + body + "*** End Patch", o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "apply_patch: refusing this patch: the files it reads and writes add up to 186 bytes, over apply_patch's "
            "limit of 100 bytes per patch; split it into smaller patches");
  EXPECT_EQ(read("a.txt"), std::string(30, 'x') + "\n");
  write("d.txt", std::string(30, 'x') + "\n");
  auto reads = apply_patch_to_workspace(
      "*** Begin Patch\n" + body + "*** Update File: d.txt\n@@\n-" + std::string(30, 'x') + "\n+z\n*** End Patch", o);
  ASSERT_FALSE(reads.ok());
  EXPECT_EQ(reads.error().message, "Failed to read file to update " + ws_ +
                                       "/d.txt: it is 31 bytes, and with the files read before it this patch would "
                                       "hold more than apply_patch's limit of 100 bytes per patch; split it into "
                                       "smaller patches");
  o.limits.max_patch_bytes = 10;
  auto text = apply_patch_to_workspace("*** Begin Patch\n*** Add File: n\n+x\n*** End Patch", o);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.error().message,
            "apply_patch: the patch is 48 bytes, over apply_patch's limit of 10 bytes; split it into smaller patches");
}

TEST_F(PatchDir, LineLimitsBoundTheMatchingWorkOfFilesAndPatches) {
  write("many.txt", std::string(20, '\n') + "last\r\r\n");
  PatchOptions o{ws_, ws_, base_ + "/home", Containment::kWorkspaceOnly};
  o.limits.max_file_lines = 21;
  auto r = apply_patch_to_workspace("*** Begin Patch\n*** Update File: many.txt\n@@\n-last\n+x\n*** End Patch", o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "Failed to read file to update " + ws_ + "/many.txt: it has 22 lines, over apply_patch's per-file limit of 21 lines");
  o.limits.max_patch_lines = 3;
  auto p = apply_patch_to_workspace("*** Begin Patch\n*** Add File: n\n+x\n*** End Patch", o);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().message, "apply_patch: the patch has 4 lines, over apply_patch's limit of 3 lines; split it into "
                               "smaller patches");
}

TEST(DescribeSize, UsesTheLargestUnitAndTheExactByteCount) {
  EXPECT_EQ(describe_size(1), "1 byte");
  EXPECT_EQ(describe_size(1023), "1023 bytes");
  EXPECT_EQ(describe_size(3584), "3.5 KiB (3584 bytes)");
  EXPECT_EQ(describe_size(64u << 20), "64 MiB (67108864 bytes)");
  EXPECT_EQ(describe_size(uint64_t{100} << 30), "100 GiB (107374182400 bytes)");
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
