// The auto-reviewer's pipeline pieces that need no service (auto_review.h): how a model call's
// outcome becomes an answer, the audit record, and the audit log's file rules.

#include "exec/auto_review.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace clawexec::exec {
namespace {

namespace fs = std::filesystem;

TEST(ReviewAnswerFor, EachOutcomeOfTheModelCallBecomesTheReferencesAnswer) {
  ModelReply ok{ModelReply::Kind::kAnswered, R"({"decision":"allow","risk":"low","rationale":"reads"})", "stop", "", ""};
  policy::ReviewAnswer a = review_answer_for(ok, 30000);
  EXPECT_TRUE(policy::review_allows_run(a));
  EXPECT_EQ(a.rationale, "reads");

  ModelReply cut{ModelReply::Kind::kAnswered, R"({"decision":"allow","risk":"low","rationale":"reads"})", "length", "", ""};
  EXPECT_EQ(review_answer_for(cut, 30000).rationale,
            "exec reviewer completion failed: model stopped without a complete response (length)")
      << "a cut answer is never read, even when it parses";
  ModelReply failed{ModelReply::Kind::kAnswered, "", "error", "HTTP 500: down", ""};
  EXPECT_EQ(review_answer_for(failed, 30000).rationale, "exec reviewer completion failed: HTTP 500: down");
  EXPECT_EQ(review_answer_for({ModelReply::Kind::kTimedOut, "", "", "", ""}, 1500).rationale, "exec reviewer timed out after 1500ms");
  policy::ReviewAnswer refused = review_answer_for({ModelReply::Kind::kFailed, "", "", "", "connect 127.0.0.1:1: Connection refused"}, 1500);
  EXPECT_EQ(refused.decision, policy::ReviewDecision::kAsk);
  EXPECT_EQ(refused.rationale, "exec reviewer failed: connect 127.0.0.1:1: Connection refused");
}

TEST(ReviewRecord, NamesTheDecisionAndCutsALongCommand) {
  policy::ReviewInput in;
  in.command = std::string(10000, 'x');
  in.cwd = "/work";
  in.host = "gateway";
  in.reason = "allowlist-miss";
  in.agent_id = "main";
  policy::ReviewAnswer answer{policy::ReviewDecision::kAsk, policy::ReviewLevel::kHigh, "unclear", std::nullopt};
  json::Object o = review_record_json({&in, &answer, "local/qwen", true, 2500, 2000, 1700000000000});
  EXPECT_EQ(json::string_member(o, "decision"), "ask");
  EXPECT_EQ(json::string_member(o, "risk"), "high");
  EXPECT_EQ(json::string_member(o, "model"), "local/qwen");
  EXPECT_EQ(json::string_member(o, "command").size(), 4096u);
  EXPECT_EQ(*json::integer_member(o, "latencyMs"), 2);
  EXPECT_EQ(*json::integer_member(o, "modelUs"), 2000);
}

TEST(WithholdReviewerSecrets, EveryVariableHoldingTheKeyOrASecretHeaderGoes) {
  ReviewerConfig reviewer;
  config::ModelEndpoint endpoint;
  endpoint.api_key = "sk-live-1234";
  endpoint.headers = {{"x-org", "org-secret-value"}, {"x-short", "v1"}};
  reviewer.endpoint = endpoint;
  env::EnvList env = {{"OPENAI_API_KEY", "sk-live-1234"}, {"MY_KEY_COPY", "sk-live-1234"}, {"ORG", "org-secret-value"},
                      {"VERSION", "v1"}, {"PATH", "/usr/bin"}};
  EXPECT_EQ(withhold_reviewer_secrets(reviewer, env), (std::vector<std::string>{"OPENAI_API_KEY", "MY_KEY_COPY", "ORG"}));
  EXPECT_EQ(env, (env::EnvList{{"VERSION", "v1"}, {"PATH", "/usr/bin"}})) << "a short header value is no secret";
  ReviewerConfig none;
  env::EnvList kept = {{"OPENAI_API_KEY", "sk-other"}};
  EXPECT_TRUE(withhold_reviewer_secrets(none, kept).empty()) << "no reviewer model: nothing to withhold";
  EXPECT_EQ(kept.size(), 1u);
}

class ReviewLog : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/clawexec-review-log-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  std::string dir_;
};

TEST_F(ReviewLog, AppendsPrivateLines) {
  append_review_record(dir_, R"({"a":1})");
  append_review_record(dir_, R"({"a":2})");
  EXPECT_EQ(read(review_log_path(dir_)), "{\"a\":1}\n{\"a\":2}\n");
  struct stat st {};
  ASSERT_EQ(::stat(review_log_path(dir_).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  ASSERT_EQ(::stat((dir_ + "/logs").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0077, 0u);
}

TEST_F(ReviewLog, NeverWritesThroughASymlink) {
  fs::create_directories(dir_ + "/elsewhere");
  fs::create_directory_symlink(dir_ + "/elsewhere", dir_ + "/logs");
  append_review_record(dir_, R"({"a":1})");
  EXPECT_FALSE(fs::exists(dir_ + "/elsewhere/exec-reviews.jsonl")) << "a symlinked logs directory is refused";
  fs::remove(dir_ + "/logs");
  fs::create_directory(dir_ + "/logs", dir_);
  fs::permissions(dir_ + "/logs", fs::perms::owner_all, fs::perm_options::replace);
  { std::ofstream(dir_ + "/target") << ""; }
  fs::create_symlink(dir_ + "/target", review_log_path(dir_));
  append_review_record(dir_, R"({"a":2})");
  EXPECT_EQ(read(dir_ + "/target"), "") << "a symlinked log file is refused";
}

TEST_F(ReviewLog, RotatesAtTheSizeLimit) {
  append_review_record(dir_, R"({"first":true})");
  fs::resize_file(review_log_path(dir_), static_cast<uintmax_t>(kReviewLogMaxBytes));
  append_review_record(dir_, R"({"next":true})");
  EXPECT_EQ(fs::file_size(dir_ + "/logs/exec-reviews.jsonl.1"), static_cast<uintmax_t>(kReviewLogMaxBytes));
  EXPECT_EQ(read(review_log_path(dir_)), "{\"next\":true}\n");
}

}  // namespace
}  // namespace clawexec::exec
