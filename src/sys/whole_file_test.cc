#include "sys/whole_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "sys/file_system.h"

namespace clawexec::sys {
namespace {

class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/clawexec-replace-XXXXXX";
    path_ = ::mkdtemp(tmpl);
  }
  ~TempDir() {
    Result<std::vector<std::string>> names = list_directory(path_);
    if (names.ok()) {
      for (const std::string& n : *names) ::unlink((path_ + "/" + n).c_str());
    }
    ::rmdir(path_.c_str());
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

TEST(ReplaceFileAtomically, ReplacesContentWithExactlyTheModeAndLeavesNoTempFile) {
  for (Durability durability : {Durability::kFsync, Durability::kFsyncFileAndDirectory, Durability::kNone}) {
    TempDir dir;
    const std::string file = dir.path() + "/doc.json";
    ASSERT_TRUE(replace_file_atomically(file, "old", 0644, durability).ok());
    Result<void> r = replace_file_atomically(file, "new", 0600, durability);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(read_whole_file(file).value(), "new");
    EXPECT_EQ(stat_path(file).value()->mode, 0600u);
    EXPECT_EQ(list_directory(dir.path()).value(), std::vector<std::string>{"doc.json"});
  }
}

TEST(PrivateFile, WrittenOwnerOnlyAndRefusedOnceOthersCanReadIt) {
  TempDir dir;
  const std::string sub = dir.path() + "/state";
  const std::string file = sub + "/secret";
  EXPECT_FALSE(read_private_file(file, "test secret").value().has_value()) << "absent is not an error";
  ASSERT_TRUE(write_private_file(file, "s3cret").ok());
  EXPECT_EQ(stat_path(file).value()->mode, 0600u);
  EXPECT_EQ(stat_path(sub).value()->mode, 0700u);
  EXPECT_EQ(read_private_file(file, "test secret").value(), std::optional<std::string>("s3cret"));

  ASSERT_EQ(::chmod(file.c_str(), 0640), 0);
  Result<std::optional<std::string>> readable = read_private_file(file, "test secret", "fix it");
  ASSERT_FALSE(readable.ok());
  EXPECT_EQ(readable.error().message, "test secret " + file + ": readable by group or others (fix it)");

  ::unlink(file.c_str());
  ASSERT_EQ(::symlink("/etc/hostname", file.c_str()), 0);
  Result<std::optional<std::string>> link = read_private_file(file, "test secret");
  ASSERT_FALSE(link.ok()) << "a symlink is never followed";
  EXPECT_EQ(link.error().message, "test secret " + file + ": not a regular file");
  ::unlink(file.c_str());
  ::rmdir(sub.c_str());
}

TEST(ReplaceFileAtomically, AFailedRenameKeepsTheOldFileAndRemovesTheTempFile) {
  TempDir dir;
  const std::string target = dir.path() + "/sub";
  ASSERT_TRUE(make_directory(target, 0700).value());
  ASSERT_TRUE(replace_file_atomically(target + "/x", "inside", std::nullopt).ok());
  // A directory that is not empty cannot be replaced by a file.
  Result<void> r = replace_file_atomically(target, "data", 0600, Durability::kFsyncFileAndDirectory);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find(target), std::string::npos) << r.error().message;
  EXPECT_EQ(list_directory(dir.path()).value(), std::vector<std::string>{"sub"});
  EXPECT_EQ(read_whole_file(target + "/x").value(), "inside");
  ::unlink((target + "/x").c_str());
  ::rmdir(target.c_str());
}

}  // namespace
}  // namespace clawexec::sys
