// edit_allowlist on a scratch state dir: add, upgrade-free repeats, removal by exact
// pattern and argPattern, validation, the sentences shown, and a corrupt file left alone.

#include "operator/allowlist_edit.h"

#include "json/json.h"
#include "operator/operator_test_support.h"

namespace clawexec::operator_ops {
namespace {

namespace bj = boost::json;

class AllowlistEditTest : public testing::ScratchStateTest {
 protected:
  bj::array allowlist(const std::string& agent) {
    auto doc = json::parse(read(approvals_file()));
    if (!doc) return {};
    return doc->at("agents").at(agent).at("allowlist").as_array();
  }
};

TEST_F(AllowlistEditTest, AddsATrimmedPatternAndSaysSo) {
  auto added = edit_allowlist(env_, {AllowlistAction::kAdd, " main ", "  /bin/ls  ", std::nullopt});
  ASSERT_TRUE(added.ok()) << added.error().message;
  EXPECT_TRUE(added->changed);
  EXPECT_EQ(added->message, "Added agents.main.allowlist: /bin/ls");
  bj::array list = allowlist("main");
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0].at("pattern"), bj::value("/bin/ls"));
  EXPECT_FALSE(list[0].at("id").as_string().empty());
  bj::object out = to_json(*added);
  EXPECT_EQ(out.at("action"), bj::value("added"));
  EXPECT_EQ(out.at("argPattern"), bj::value(nullptr));
  EXPECT_FALSE(out.contains("removed"));
  EXPECT_EQ(out.at("path"), bj::value(approvals_file()));
}

TEST_F(AllowlistEditTest, AddingThePresentPatternAgainChangesNothing) {
  ASSERT_TRUE(edit_allowlist(env_, {AllowlistAction::kAdd, "main", "/bin/ls", "^-l$"}).ok());
  const std::string before = read(approvals_file());
  auto again = edit_allowlist(env_, {AllowlistAction::kAdd, "main", "/bin/ls", "^-l$"});
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_FALSE(again->changed);
  EXPECT_EQ(again->message, "Already allowlisted: agents.main.allowlist: /bin/ls (argPattern ^-l$)");
  EXPECT_EQ(to_json(*again).at("action"), bj::value("unchanged"));
  EXPECT_EQ(read(approvals_file()), before);
}

TEST_F(AllowlistEditTest, RemovesOnlyTheEntryWithTheSameArgPattern) {
  ASSERT_TRUE(edit_allowlist(env_, {AllowlistAction::kAdd, "ops", "/usr/bin/git", "^status$"}).ok());
  ASSERT_TRUE(edit_allowlist(env_, {AllowlistAction::kAdd, "ops", "/usr/bin/git", std::nullopt}).ok());
  auto removed = edit_allowlist(env_, {AllowlistAction::kRemove, "ops", "/usr/bin/git", "^status$"});
  ASSERT_TRUE(removed.ok()) << removed.error().message;
  EXPECT_TRUE(removed->changed);
  EXPECT_EQ(removed->removed, 1u);
  EXPECT_EQ(removed->message, "Removed agents.ops.allowlist: /usr/bin/git (argPattern ^status$)");
  bj::object out = to_json(*removed);
  EXPECT_EQ(out.at("action"), bj::value("removed"));
  EXPECT_EQ(out.at("removed"), bj::value(1));
  bj::array list = allowlist("ops");
  ASSERT_EQ(list.size(), 1u);
  EXPECT_FALSE(list[0].as_object().contains("argPattern"));
}

TEST_F(AllowlistEditTest, RemovingAnAbsentPatternIsNotFoundAndNoError) {
  auto missing = edit_allowlist(env_, {AllowlistAction::kRemove, "main", "/bin/cat", std::nullopt});
  ASSERT_TRUE(missing.ok()) << missing.error().message;
  EXPECT_FALSE(missing->changed);
  EXPECT_EQ(missing->removed, 0u);
  EXPECT_EQ(missing->message, "Pattern not found: agents.main.allowlist: /bin/cat");
  EXPECT_EQ(to_json(*missing).at("action"), bj::value("not-found"));
  EXPECT_FALSE(exists(approvals_file()));
}

TEST_F(AllowlistEditTest, AnEmptyArgPatternCountsAsNone) {
  auto added = edit_allowlist(env_, {AllowlistAction::kAdd, "main", "/bin/ls", ""});
  ASSERT_TRUE(added.ok()) << added.error().message;
  EXPECT_FALSE(added->arg_pattern.has_value());
  EXPECT_EQ(added->message, "Added agents.main.allowlist: /bin/ls");
}

TEST_F(AllowlistEditTest, ValidationErrorsNameWhatIsWrong) {
  auto blank_agent = edit_allowlist(env_, {AllowlistAction::kAdd, " ", "/bin/ls", std::nullopt});
  ASSERT_FALSE(blank_agent.ok());
  EXPECT_EQ(blank_agent.error().message, "allowlist edit: the agent id must not be blank");
  auto blank_pattern = edit_allowlist(env_, {AllowlistAction::kRemove, "main", "\t", std::nullopt});
  ASSERT_FALSE(blank_pattern.ok());
  EXPECT_EQ(blank_pattern.error().message, "allowlist edit: the pattern must not be blank");
  auto bad_regex = edit_allowlist(env_, {AllowlistAction::kAdd, "main", "/bin/ls", "(unclosed"});
  ASSERT_FALSE(bad_regex.ok());
  EXPECT_EQ(bad_regex.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(bad_regex.error().message.rfind("invalid argPattern (unclosed: ", 0), 0u) << bad_regex.error().message;
  EXPECT_FALSE(exists(approvals_file()));
}

TEST_F(AllowlistEditTest, ACorruptFileIsNeverOverwritten) {
  write(approvals_file(), "{ not json");
  auto added = edit_allowlist(env_, {AllowlistAction::kAdd, "main", "/bin/ls", std::nullopt});
  ASSERT_FALSE(added.ok());
  EXPECT_NE(added.error().message.find(approvals_file()), std::string::npos) << added.error().message;
  EXPECT_EQ(read(approvals_file()), "{ not json");
}

}  // namespace
}  // namespace clawexec::operator_ops
