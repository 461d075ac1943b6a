// StartupFingerprints on real files: content decides, identities only save reads.

#include "shellenv/startup_fingerprint.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace clawexec::shellenv {
namespace {

namespace fs = std::filesystem;

class StartupFingerprintTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/clawexec-fingerprint-XXXXXX";
    root_ = ::mkdtemp(tmpl);
  }
  void TearDown() override { fs::remove_all(root_); }
  std::string write(const std::string& name, const std::string& text) {
    std::string path = root_ + "/" + name;
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream(path) << text;
    return path;
  }
  // Moves the file's times an hour back, so its identity is no longer "racy".
  void age(const std::string& path) {
    fs::last_write_time(path, fs::file_time_type::clock::now() - std::chrono::hours(1));
  }
  std::string root_;
};

TEST_F(StartupFingerprintTest, AbsentFilesAndContentHashes) {
  StartupFingerprints prints;
  EXPECT_EQ(prints.of(root_ + "/missing"), "absent");
  std::string a = write("a", "export A=1\n");
  std::string b = write("b", "export A=1\n");
  EXPECT_EQ(prints.of(a).rfind("sha256:", 0), 0u);
  EXPECT_EQ(prints.of(a), prints.of(b)) << "same bytes, same fingerprint";
  write("b", "export A=2\n");
  EXPECT_NE(prints.of(a), prints.of(b));
}

TEST_F(StartupFingerprintTest, AChangeBehindAResetMtimeIsSeen) {
  StartupFingerprints prints;
  std::string a = write("a", "export A=1\n");
  auto stamp = fs::file_time_type::clock::now() - std::chrono::hours(5);
  fs::last_write_time(a, stamp);
  std::string before = prints.of(a);
  write("a", "export A=2\n");  // same size, same inode
  fs::last_write_time(a, stamp);
  EXPECT_NE(prints.of(a), before);
}

TEST_F(StartupFingerprintTest, AnUnchangedOldFileIsReadOnce) {
  StartupFingerprints prints;
  std::string a = write("a", "x\n");
  age(a);
  // ctime cannot be set back: a freshly written file stays "racy" for a second, so this test
  // only counts reads of a file whose identity no longer moves.
  std::string first = prints.of(a);
  ::usleep(1'200'000);
  prints.of(a);
  int reads = prints.files_hashed();
  EXPECT_EQ(prints.of(a), first);
  EXPECT_EQ(prints.of(a), first);
  EXPECT_EQ(prints.files_hashed(), reads);
}

TEST_F(StartupFingerprintTest, ADirectoryCoversItsEntriesContents) {
  StartupFingerprints prints;
  write("profile.d/a.sh", "one\n");
  std::string dir = root_ + "/profile.d";
  std::string before = prints.of(dir);
  write("profile.d/a.sh", "two\n");  // the directory's own identity does not move
  EXPECT_NE(prints.of(dir), before);
  std::string edited = prints.of(dir);
  write("profile.d/b.sh", "");
  EXPECT_NE(prints.of(dir), edited);
}

TEST_F(StartupFingerprintTest, SymlinksAreFollowedAndAFifoIsNotOpened) {
  StartupFingerprints prints;
  std::string target = write("target", "one\n");
  std::string link = root_ + "/link";
  fs::create_symlink(target, link);
  EXPECT_EQ(prints.of(link), prints.of(target));
  std::string fifo = root_ + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(prints.of(fifo).rfind("identity:", 0), 0u) << "fingerprinted without blocking on open";
}

TEST_F(StartupFingerprintTest, SignatureListsEveryFile) {
  StartupFingerprints prints;
  std::string a = write("a", "x\n");
  std::string sig = prints.signature({a, root_ + "/none"});
  EXPECT_NE(sig.find(a + "=sha256:"), std::string::npos) << sig;
  EXPECT_NE(sig.find(root_ + "/none=absent\n"), std::string::npos) << sig;
}

}  // namespace
}  // namespace clawexec::shellenv
