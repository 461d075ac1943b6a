// get_approvals and set_approvals on a scratch state dir: the token never leaves the file,
// strict validation before any write, the compare-and-swap, and a corrupt file that is
// never overwritten.

#include "operator/approvals_edit.h"

#include "approvals/store.h"
#include "json/json.h"
#include "operator/operator_test_support.h"

namespace clawexec::operator_ops {
namespace {

namespace bj = boost::json;

class ApprovalsEditTest : public testing::ScratchStateTest {};

constexpr std::string_view kDocument =
    R"({"defaults":{"security":"allowlist"},"agents":{"main":{"allowlist":[{"id":"11111111-1111-4111-8111-111111111111","pattern":"/bin/ls"}]}}})";

TEST_F(ApprovalsEditTest, GetOfAMissingFileReportsDefaultsAndTheEffectivePolicy) {
  auto out = get_approvals(env_, "main");
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->at("path"), bj::value(approvals_file()));
  EXPECT_EQ(out->at("exists"), bj::value(false));
  EXPECT_EQ(out->at("agent"), bj::value("main"));
  EXPECT_EQ(out->at("agentPolicy").at("security").at("effective"), bj::value("full"));
  EXPECT_FALSE(out->at("effectivePolicy").at("scopes").as_array().empty());
  EXPECT_FALSE(exists(approvals_file()));  // reading creates nothing
}

TEST_F(ApprovalsEditTest, GetNeverShowsTheSocketToken) {
  write(approvals_file(), R"({"version":1,"socket":{"path":"/tmp/s.sock","token":"secret-token"}})");
  auto out = get_approvals(env_, "main");
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->at("file").at("socket"), bj::value(bj::object{{"path", "/tmp/s.sock"}}));
  EXPECT_EQ(json::serialize(*out).find("secret-token"), std::string::npos);
}

TEST_F(ApprovalsEditTest, GetWithAnUnreadableConfigSaysSoInTheNote) {
  write(config_file(), "{ broken");
  auto out = get_approvals(env_, "main");
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_TRUE(out->at("effectivePolicy").at("scopes").as_array().empty());
  const std::string note(out->at("effectivePolicy").at("note").as_string());
  EXPECT_EQ(note.rfind("Config unavailable: read config " + config_file(), 0), 0u) << note;
  EXPECT_FALSE(out->contains("agentPolicy"));
}

TEST_F(ApprovalsEditTest, GetOfACorruptFileIsAnErrorNamingIt) {
  write(approvals_file(), "{ not json");
  auto out = get_approvals(env_, "main");
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error().message.find(approvals_file()), std::string::npos) << out.error().message;
}

TEST_F(ApprovalsEditTest, GetRefusesABlankAgentId) {
  auto out = get_approvals(env_, "  ");
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(out.error().message, "approvals get: the agent id must not be blank");
}

TEST_F(ApprovalsEditTest, SetWritesTheDocumentWithASocketTokenItDoesNotReturn) {
  auto set = set_approvals(env_, kDocument);
  ASSERT_TRUE(set.ok()) << set.error().message;
  EXPECT_TRUE(set->changed);
  const std::string text = read(approvals_file());
  auto file = json::parse(text);
  ASSERT_TRUE(file.has_value()) << text;
  EXPECT_EQ(file->at("defaults").at("security"), bj::value("allowlist"));
  EXPECT_EQ(file->at("socket").at("path"), bj::value(env_.approvals.socket));
  const std::string token(file->at("socket").at("token").as_string());
  EXPECT_FALSE(token.empty());
  EXPECT_EQ(json::serialize(to_json(*set)).find(token), std::string::npos);
  EXPECT_EQ(to_json(*set).at("changed"), bj::value(true));
  EXPECT_EQ(set->snapshot.at("hash"), bj::value(approvals::ApprovalsStore(env_.approvals).read_snapshot()->hash));
}

TEST_F(ApprovalsEditTest, SetKeepsTheExistingTokenAndReportsAnIdenticalDocumentAsUnchanged) {
  ASSERT_TRUE(set_approvals(env_, kDocument).ok());
  const bj::value token = json::parse(read(approvals_file()))->at("socket").at("token");
  auto again = set_approvals(env_, kDocument);
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_FALSE(again->changed);
  EXPECT_EQ(json::parse(read(approvals_file()))->at("socket").at("token"), token);
}

TEST_F(ApprovalsEditTest, SetValidatesStrictlyBeforeWritingAnything) {
  auto bad = set_approvals(env_, R"({"agents":{"main":{"allowlist":[{"pattern":5}]}}})");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(bad.error().message.rfind("invalid approvals document: agents.main.allowlist[0]", 0), 0u)
      << bad.error().message;
  EXPECT_FALSE(exists(approvals_file()));

  auto unparsable = set_approvals(env_, "{bad");
  ASSERT_FALSE(unparsable.ok());
  EXPECT_EQ(unparsable.error().message.rfind("Failed to parse approvals JSON: ", 0), 0u);
  auto not_object = set_approvals(env_, "[1]");
  ASSERT_FALSE(not_object.ok());
  EXPECT_EQ(not_object.error().message, "Exec approvals JSON must be an object.");
  EXPECT_FALSE(exists(approvals_file()));
}

TEST_F(ApprovalsEditTest, SetRefusesInputOverTheSizeLimit) {
  auto big = set_approvals(env_, std::string(kMaxApprovalsDocumentBytes + 1, ' '));
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error().message, "Exec approvals input exceeds 1048576 bytes.");
}

TEST_F(ApprovalsEditTest, SetNeverOverwritesACorruptFile) {
  write(approvals_file(), "{ not json");
  auto set = set_approvals(env_, kDocument);
  ASSERT_FALSE(set.ok());
  EXPECT_NE(set.error().message.find(approvals_file()), std::string::npos) << set.error().message;
  EXPECT_EQ(read(approvals_file()), "{ not json");
}

TEST_F(ApprovalsEditTest, SetWithAStaleBaseHashIsAConflictAndWritesNothing) {
  ASSERT_TRUE(set_approvals(env_, kDocument).ok());
  const std::string before = read(approvals_file());
  auto stale = set_approvals(env_, R"({"defaults":{"security":"deny"}})", std::string(64, '0'));
  ASSERT_FALSE(stale.ok());
  EXPECT_EQ(stale.error().code, ErrorCode::kRejected);
  EXPECT_EQ(stale.error().message, kApprovalsChangedMessage);
  EXPECT_EQ(read(approvals_file()), before);
}

TEST_F(ApprovalsEditTest, SetWithTheCurrentBaseHashReplacesTheDocument) {
  auto first = set_approvals(env_, kDocument);
  ASSERT_TRUE(first.ok());
  const std::string hash(first->snapshot.at("hash").as_string());
  auto second = set_approvals(env_, R"({"defaults":{"security":"deny"}})", hash);
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_TRUE(second->changed);
  EXPECT_EQ(json::parse(read(approvals_file()))->at("defaults").at("security"), bj::value("deny"));
}

}  // namespace
}  // namespace clawexec::operator_ops
