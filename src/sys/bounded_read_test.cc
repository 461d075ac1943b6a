// read_file_within_root against real temp directories: containment, file types, size cap.

#include "sys/bounded_read.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace clawexec::sys {
namespace {

namespace fs = std::filesystem;

class RootDir : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/clawexec-bounded-XXXXXX";
    base_ = ::mkdtemp(tmpl);
    root_ = base_ + "/root";
    fs::create_directories(root_ + "/sub");
    fs::create_directories(base_ + "/outside");
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(base_, ec);
  }
  static void write(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }
  BoundedRead read(const std::string& relative, size_t max_bytes = 1024) {
    Result<BoundedRead> r = read_file_within_root(root_, relative, max_bytes);
    EXPECT_TRUE(r.ok()) << r.error().message;
    return r.ok() ? r.value() : BoundedRead{};
  }
  ReadSkip skip_of(const std::string& relative, size_t max_bytes = 1024) {
    BoundedRead r = read(relative, max_bytes);
    EXPECT_FALSE(r.content.has_value()) << relative;
    return r.skip;
  }
  std::string base_, root_;
};

TEST_F(RootDir, ReadsARegularFileInsideTheRoot) {
  write(root_ + "/sub/a.py", "print(1)\n");
  EXPECT_EQ(read("sub/a.py").content, "print(1)\n");
  write(root_ + "/empty.py", "");
  EXPECT_EQ(read("empty.py").content, "");
}

TEST_F(RootDir, MissingFilesAndDanglingLinksAreSkipped) {
  EXPECT_EQ(skip_of("nope.py"), ReadSkip::kMissing);
  write(root_ + "/file", "x");
  EXPECT_EQ(skip_of("file/below.py"), ReadSkip::kMissing);  // ENOTDIR
  fs::create_symlink(root_ + "/gone.py", root_ + "/dangling.py");
  EXPECT_EQ(skip_of("dangling.py"), ReadSkip::kMissing);
}

TEST_F(RootDir, AFileExactlyAtTheCapIsReadAndOneByteMoreIsRefusedWhole) {
  write(root_ + "/at.py", std::string(100, 'a'));
  write(root_ + "/over.py", std::string(101, 'a'));
  EXPECT_EQ(read("at.py", 100).content, std::string(100, 'a'));
  EXPECT_EQ(skip_of("over.py", 100), ReadSkip::kTooLarge);
}

TEST_F(RootDir, AFifoIsSkippedWithoutBlocking) {
  ASSERT_EQ(::mkfifo((root_ + "/pipe.py").c_str(), 0600), 0);
  EXPECT_EQ(skip_of("pipe.py"), ReadSkip::kNotRegularFile);
  // Also when reached through a symlink inside the root.
  fs::create_symlink(root_ + "/pipe.py", root_ + "/to-pipe.py");
  EXPECT_EQ(skip_of("to-pipe.py"), ReadSkip::kNotRegularFile);
}

TEST_F(RootDir, DirectoriesAndDevicesAreNotRegularFiles) {
  EXPECT_EQ(skip_of("sub"), ReadSkip::kNotRegularFile);
  EXPECT_EQ(skip_of(""), ReadSkip::kNotRegularFile);    // the root itself
  fs::create_symlink("/dev/null", root_ + "/null.py");  // outside the root as well
  EXPECT_EQ(skip_of("null.py"), ReadSkip::kOutsideRoot);
}

TEST_F(RootDir, SymlinksAreFollowedOnlyWhileTheyStayInsideTheRoot) {
  write(root_ + "/sub/real.py", "inside");
  write(base_ + "/outside/secret.py", "outside");
  fs::create_symlink("sub/real.py", root_ + "/link.py");
  fs::create_symlink(base_ + "/outside/secret.py", root_ + "/escape.py");
  fs::create_directory_symlink(base_ + "/outside", root_ + "/outdir");
  EXPECT_EQ(read("link.py").content, "inside");
  EXPECT_EQ(skip_of("escape.py"), ReadSkip::kOutsideRoot);
  EXPECT_EQ(skip_of("outdir/secret.py"), ReadSkip::kOutsideRoot);
}

TEST_F(RootDir, RelativePathsMayNotClimbOrBeAbsolute) {
  write(base_ + "/outside/secret.py", "outside");
  EXPECT_EQ(skip_of("../outside/secret.py"), ReadSkip::kOutsideRoot);
  EXPECT_EQ(skip_of("sub/../../outside/secret.py"), ReadSkip::kOutsideRoot);
  EXPECT_EQ(skip_of(base_ + "/outside/secret.py"), ReadSkip::kOutsideRoot);
  // A name that merely starts with two dots is an ordinary name.
  write(root_ + "/..hidden.py", "ok");
  EXPECT_EQ(read("..hidden.py").content, "ok");
}

TEST_F(RootDir, ARootReachedThroughASymlinkStillContainsItsFiles) {
  write(root_ + "/a.py", "a");
  fs::create_directory_symlink(root_, base_ + "/alias");
  Result<BoundedRead> r = read_file_within_root(base_ + "/alias", "a.py", 1024);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->content, "a");
}

TEST_F(RootDir, HardLinkedFilesAreSkipped) {
  write(base_ + "/outside/secret.py", "outside");
  fs::create_hard_link(base_ + "/outside/secret.py", root_ + "/alias.py");
  EXPECT_EQ(skip_of("alias.py"), ReadSkip::kHardLinked);
}

TEST_F(RootDir, SymlinkLoopsAndOverlongNamesAreUnusablePaths) {
  fs::create_symlink(root_ + "/b.py", root_ + "/a.py");
  fs::create_symlink(root_ + "/a.py", root_ + "/b.py");
  EXPECT_EQ(skip_of("a.py"), ReadSkip::kUnusablePath);
  EXPECT_EQ(skip_of(std::string(5000, 'x') + ".py"), ReadSkip::kUnusablePath);
}

TEST_F(RootDir, AMissingRootIsASkip) {
  Result<BoundedRead> r = read_file_within_root(base_ + "/no-such-root", "a.py", 1024);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_FALSE(r->content.has_value());
  EXPECT_EQ(r->skip, ReadSkip::kMissing);
}

TEST(ReadSkipForErrno, ListsTheReferenceSkippableCodesAndNothingElse) {
  EXPECT_EQ(read_skip_for_errno(EACCES), ReadSkip::kNoAccess);
  EXPECT_EQ(read_skip_for_errno(EPERM), ReadSkip::kNoAccess);
  EXPECT_EQ(read_skip_for_errno(EISDIR), ReadSkip::kNotRegularFile);
  EXPECT_EQ(read_skip_for_errno(ELOOP), ReadSkip::kUnusablePath);
  EXPECT_EQ(read_skip_for_errno(EINVAL), ReadSkip::kUnusablePath);
  EXPECT_EQ(read_skip_for_errno(ENAMETOOLONG), ReadSkip::kUnusablePath);
  EXPECT_EQ(read_skip_for_errno(ENOENT), ReadSkip::kMissing);
  EXPECT_EQ(read_skip_for_errno(ENOTDIR), ReadSkip::kMissing);
  EXPECT_EQ(read_skip_for_errno(EIO), std::nullopt);
  EXPECT_EQ(read_skip_for_errno(EMFILE), std::nullopt);
  EXPECT_EQ(read_skip_for_errno(ENXIO), std::nullopt);
}

}  // namespace
}  // namespace clawexec::sys
