#include "config/reviewer_settings.h"

#include <gtest/gtest.h>

namespace clawexec::config {
namespace {

Result<ReviewerSettings> reviewer(std::string_view json5, std::string agent = "main") {
  ConfigSources sources;
  sources.file_text = std::string(json5);
  sources.agent_id = agent;
  auto loaded = load_config(sources);
  EXPECT_TRUE(loaded.ok()) << loaded.error().message;
  if (!loaded.ok()) return loaded.error();
  return resolve_reviewer_settings(loaded->exec, loaded->document, agent);
}

TEST(ReviewerSettings, NothingConfiguredMeansNoModelAndTheDefaultTimeout) {
  auto r = reviewer("{}");
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->provider);
  EXPECT_FALSE(r->model);
  EXPECT_EQ(r->timeout_ms, 30000);
}

TEST(ReviewerSettings, TheGlobalReviewerModelIsSplitIntoProviderAndModel) {
  auto r = reviewer(R"({tools: {exec: {reviewer: {model: "openai/gpt-5.4-mini", timeoutMs: 5000}}}})");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->provider, "openai");
  EXPECT_EQ(r->model, "gpt-5.4-mini");
  EXPECT_EQ(r->model_source, "tools.exec.reviewer.model");
  EXPECT_EQ(r->timeout_ms, 5000);
}

TEST(ReviewerSettings, TheObjectFormUsesPrimaryOnly) {
  auto r = reviewer(R"({tools: {exec: {reviewer: {model: {primary: "anthropic/claude-haiku-4-5",
                        fallbacks: ["openai/gpt-x"]}}}}})");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->provider, "anthropic");
  EXPECT_EQ(r->model, "claude-haiku-4-5");
}

TEST(ReviewerSettings, AnAgentsReviewerReplacesTheGlobalOneAsAWhole) {
  constexpr std::string_view kDoc = R"({tools: {exec: {reviewer: {model: "openai/a", timeoutMs: 5000}}},
      agents: {entries: {work: {tools: {exec: {reviewer: {model: "local/b"}}}}}}})";
  auto work = reviewer(kDoc, "work");
  ASSERT_TRUE(work.ok());
  EXPECT_EQ(work->provider, "local");
  EXPECT_EQ(work->model, "b");
  EXPECT_EQ(work->timeout_ms, 30000);  // not inherited from the global object
  auto main = reviewer(kDoc, "main");
  EXPECT_EQ(main->model, "a");
  EXPECT_EQ(main->timeout_ms, 5000);
}

TEST(ReviewerSettings, WithoutAReviewerModelTheAgentsPrimaryModelIsUsed) {
  auto r = reviewer(R"({agents: {defaults: {model: {primary: "anthropic/claude-x"}},
                        entries: {work: {model: "openai/gpt-w"}}}})",
                    "work");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->provider, "openai");
  EXPECT_EQ(r->model, "gpt-w");
  EXPECT_EQ(r->model_source, "agents.entries.work.model");
  auto other = reviewer(R"({agents: {defaults: {model: {primary: "anthropic/claude-x"}}}})");
  EXPECT_EQ(other->provider, "anthropic");
  EXPECT_EQ(other->model_source, "agents.defaults.model");
}

TEST(ReviewerSettings, ABareModelIdTakesTheAgentsProviderElseOpenAi) {
  auto r = reviewer(R"({tools: {exec: {reviewer: {model: "small"}}}, agents: {defaults: {model: "local/big"}}})");
  EXPECT_EQ(r->provider, "local");
  EXPECT_EQ(r->model, "small");
  auto o = reviewer(R"({tools: {exec: {reviewer: {model: "gpt-x"}}}})");
  EXPECT_EQ(o->provider, "openai");
}

TEST(ReviewerSettings, TheTimeoutIsClampedToAtLeastOneSecond) {
  EXPECT_EQ(reviewer(R"({tools: {exec: {reviewer: {timeoutMs: 5}}}})")->timeout_ms, 1000);
  EXPECT_EQ(reviewer(R"({tools: {exec: {reviewer: {timeoutMs: 9000000000}}}})")->timeout_ms, 2147000000);
}

TEST(ReviewerSettings, ThinkingAndFastModeAreKeptForTheCaller) {
  auto r = reviewer(R"({tools: {exec: {reviewer: {thinking: "low", fastMode: true}}}})");
  EXPECT_EQ(r->thinking, "low");
  EXPECT_EQ(r->fast_mode, true);
}

}  // namespace
}  // namespace clawexec::config
