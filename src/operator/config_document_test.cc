// The config document on a scratch directory: JSON5 in, plain JSON out, atomic replacement
// that keeps permission bits, and errors that name the file.

#include "operator/config_document.h"

#include <sys/stat.h>

#include <boost/json/object.hpp>

#include "operator/operator_test_support.h"

namespace clawexec::operator_ops {
namespace {

namespace bj = boost::json;
namespace fs = std::filesystem;

class ConfigDocumentTest : public testing::ScratchStateTest {};

unsigned mode_of(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 0777;
}

TEST_F(ConfigDocumentTest, AMissingFileIsAnEmptyObjectThatDoesNotExist) {
  auto doc = read_config_document(config_file());
  ASSERT_TRUE(doc.ok()) << doc.error().message;
  EXPECT_FALSE(doc->exists);
  EXPECT_EQ(doc->document, bj::value(bj::object()));
}

TEST_F(ConfigDocumentTest, ReadsJson5WithCommentsAndUnquotedKeys) {
  write(config_file(), "{ // the exec tool\n tools: { exec: { host: 'gateway', }, }, }\n");
  auto doc = read_config_document(config_file());
  ASSERT_TRUE(doc.ok()) << doc.error().message;
  EXPECT_TRUE(doc->exists);
  EXPECT_EQ(doc->document.at("tools").at("exec").at("host"), bj::value("gateway"));
}

TEST_F(ConfigDocumentTest, AParseErrorNamesTheFile) {
  write(config_file(), "{ broken");
  auto doc = read_config_document(config_file());
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(doc.error().message.rfind("read config " + config_file() + ": ", 0), 0u) << doc.error().message;
}

TEST_F(ConfigDocumentTest, ATopLevelThatIsNotAnObjectIsAnError) {
  write(config_file(), "[1, 2]");
  auto doc = read_config_document(config_file());
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.error().message, "read config " + config_file() + ": the top level is not an object");
}

TEST_F(ConfigDocumentTest, WritesIndentedJsonIntoANewPrivateDirectoryAndFile) {
  fs::create_directories(root_ + "/fresh");
  const std::string path = root_ + "/fresh/dir/openclaw.json";
  ASSERT_TRUE(write_config_document(path, bj::object{{"tools", bj::object{{"exec", bj::object{{"ask", "off"}}}}}}).ok());
  EXPECT_EQ(read(path), "{\n  \"tools\": {\n    \"exec\": {\n      \"ask\": \"off\"\n    }\n  }\n}\n");
  EXPECT_EQ(mode_of(path), 0600u);
  EXPECT_EQ(mode_of(root_ + "/fresh/dir"), 0700u);
  // No temp file is left beside it.
  size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(root_ + "/fresh/dir")) ++entries;
  EXPECT_EQ(entries, 1u);
}

TEST_F(ConfigDocumentTest, OnlyTheLastDirectoryIsCreatedAndAFailureNamesTheFile) {
  const std::string path = root_ + "/missing/dir/openclaw.json";
  auto written = write_config_document(path, bj::object());
  ASSERT_FALSE(written.ok());
  EXPECT_EQ(written.error().message.rfind("write config " + path + ": ", 0), 0u) << written.error().message;
  EXPECT_FALSE(exists(root_ + "/missing"));
}

TEST_F(ConfigDocumentTest, ReplacingKeepsTheOldPermissionBits) {
  write(config_file(), "{}");
  ASSERT_EQ(::chmod(config_file().c_str(), 0640), 0);
  ASSERT_TRUE(write_config_document(config_file(), bj::object{{"a", 1}}).ok());
  EXPECT_EQ(mode_of(config_file()), 0640u);
  EXPECT_EQ(read(config_file()), "{\n  \"a\": 1\n}\n");
}

TEST_F(ConfigDocumentTest, RefusesToReplaceASymlinkAndLeavesItsTargetAlone) {
  write(root_ + "/elsewhere.json", "{\"keep\": true}");
  fs::create_directories(fs::path(config_file()).parent_path());
  fs::create_symlink(root_ + "/elsewhere.json", config_file());
  auto written = write_config_document(config_file(), bj::object{{"a", 1}});
  ASSERT_FALSE(written.ok());
  EXPECT_EQ(written.error().code, ErrorCode::kRejected);
  EXPECT_EQ(written.error().message, "write config " + config_file() + ": refusing to replace a symlink");
  EXPECT_EQ(read(root_ + "/elsewhere.json"), "{\"keep\": true}");
  EXPECT_TRUE(fs::is_symlink(config_file()));
}

}  // namespace
}  // namespace clawexec::operator_ops
