#include "net/model_wire.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/json.hpp>

namespace clawexec::net {
namespace {

using ::testing::HasSubstr;
using config::ModelApi;
namespace json = boost::json;

config::ModelEndpoint endpoint(ModelApi api, std::string model = "m") {
  config::ModelEndpoint e;
  e.model = std::move(model);
  e.api = api;
  e.api_key = "k";
  return e;
}

std::string target(ModelApi api, std::string_view base) {
  return build_wire_request(endpoint(api), *parse_base_url(base), {}).target;
}

TEST(ModelWire, PathsAreJoinedLikeOpenClaw) {
  EXPECT_EQ(target(ModelApi::kOpenAiCompletions, "http://h/v1/"), "/v1/chat/completions");
  EXPECT_EQ(target(ModelApi::kOpenAiResponses, "https://h:8443/openai/v1"), "/openai/v1/responses");
  EXPECT_EQ(target(ModelApi::kAnthropicMessages, "https://api.anthropic.com"), "/v1/messages");
  EXPECT_EQ(target(ModelApi::kAnthropicMessages, "https://proxy/anthropic/v1/"), "/anthropic/v1/messages");
  EXPECT_EQ(target(ModelApi::kOpenAiCompletions, "http://h"), "/chat/completions");
}

TEST(ModelWire, BaseUrlsAreSplitAndBadOnesNamed) {
  auto u = parse_base_url("https://[::1]:9443/v1");
  ASSERT_TRUE(u.ok());
  EXPECT_TRUE(u->tls);
  EXPECT_EQ(u->host, "::1");
  EXPECT_EQ(u->port, 9443);
  EXPECT_EQ(parse_base_url("http://example.com")->port, 80);
  EXPECT_EQ(parse_base_url("https://example.com")->port, 443);
  EXPECT_THAT(parse_base_url("http://h:99999").error().message, HasSubstr("invalid port"));
  EXPECT_THAT(parse_base_url("http://user:pw@h").error().message, HasSubstr("credentials in the URL"));
}

TEST(ModelWire, MaxTokensFieldAndTemperatureFollowTheModel) {
  auto e = endpoint(ModelApi::kOpenAiCompletions);
  e.uses_max_tokens_field = true;
  auto body = json::parse(build_wire_request(e, *parse_base_url("http://h"), {}).body).as_object();
  EXPECT_EQ(body.at("max_tokens").as_int64(), 360);
  EXPECT_FALSE(body.contains("max_completion_tokens"));
  auto r = json::parse(
      build_wire_request(endpoint(ModelApi::kOpenAiResponses, "gpt-5.6-luna"), *parse_base_url("http://h"), {}).body);
  EXPECT_FALSE(r.as_object().contains("temperature"));
  CompletionRequest small{.max_tokens = 4};
  auto r2 = json::parse(build_wire_request(endpoint(ModelApi::kOpenAiResponses), *parse_base_url("http://h"), small).body);
  EXPECT_EQ(r2.at("max_output_tokens").as_int64(), 16);
  EXPECT_EQ(r2.at("temperature").to_number<double>(), 0);
}

TEST(ModelWire, ConfiguredHeadersReplaceDefaultsOfTheSameName) {
  auto e = endpoint(ModelApi::kAnthropicMessages);
  e.headers = {{"Anthropic-Version", "2024-01-01"}, {"X-Extra", "1"}};
  auto w = build_wire_request(e, *parse_base_url("http://h"), {});
  int versions = 0;
  for (const auto& [name, value] : w.headers) {
    if (name == "anthropic-version" || name == "Anthropic-Version") ++versions;
  }
  EXPECT_EQ(versions, 1);
}

TEST(ModelWire, FinishReasonsMapLikeOpenClaw) {
  auto chat = [](std::string reason) {
    std::string body = R"({"choices":[{"message":{"content":"t"},"finish_reason":)" + reason + "}]}";
    return parse_completion(ModelApi::kOpenAiCompletions, 200, body, "");
  };
  EXPECT_EQ(chat("\"stop\"").stop_reason, "stop");
  EXPECT_EQ(chat("null").stop_reason, "stop");
  EXPECT_EQ(chat("\"length\"").stop_reason, "length");
  EXPECT_EQ(chat("\"tool_calls\"").stop_reason, "toolUse");
  auto filtered = chat("\"content_filter\"");
  EXPECT_EQ(filtered.stop_reason, "error");
  EXPECT_EQ(filtered.error_message, "Provider finish_reason: content_filter");
  auto refusal = parse_completion(ModelApi::kAnthropicMessages, 200,
                                  R"({"content":[],"stop_reason":"refusal","stop_details":{"category":"cyber"}})", "");
  EXPECT_EQ(refusal.stop_reason, "error");
  EXPECT_EQ(refusal.error_message, "Anthropic refusal (category: cyber).");
  auto failed = parse_completion(ModelApi::kOpenAiResponses, 200, R"({"status":"failed","output":[]})", "");
  EXPECT_EQ(failed.stop_reason, "error");
  auto tool = parse_completion(ModelApi::kOpenAiResponses, 200,
                               R"({"status":"completed","output":[{"type":"function_call"}]})", "");
  EXPECT_EQ(tool.stop_reason, "toolUse");
}

TEST(ModelWire, AStreamFedOneByteAtATimeGivesTheSameAnswer) {
  std::string sse =
      "event: message_start\r\ndata: {\"type\":\"message_start\"}\r\n\r\n"
      "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\","
      "\"text\":\"{\\\"decision\\\":\"}}\n\n"
      "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\","
      "\"text\":\"\\\"ask\\\"}\"}}\n\n"
      "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"max_tokens\"}}\n\n"
      "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
  StreamDecoder d(ModelApi::kAnthropicMessages);
  for (char c : sse) d.feed(std::string_view(&c, 1));
  EXPECT_TRUE(d.done());
  Completion c = d.finish(200);
  EXPECT_EQ(c.text, "{\"decision\":\"ask\"}");
  EXPECT_EQ(c.stop_reason, "length");
}

TEST(ModelWire, AStreamThatEndsEarlyIsAnErrorAndDoneWithoutReasonIsStop) {
  StreamDecoder cut(ModelApi::kOpenAiCompletions);
  cut.feed("data: {\"choices\":[{\"delta\":{\"content\":\"hal\"}}]}\n\n");
  EXPECT_EQ(cut.finish(200).stop_reason, "error");
  StreamDecoder plain(ModelApi::kOpenAiCompletions);
  plain.feed("data: {\"choices\":[{\"delta\":{\"content\":\"whole\"}}]}\n\ndata: [DONE]\n\n");
  EXPECT_EQ(plain.finish(200).stop_reason, "stop");
}

TEST(ModelWire, AnErrorEventInTheStreamIsStopReasonError) {
  StreamDecoder d(ModelApi::kOpenAiResponses);
  d.feed("event: error\ndata: {\"type\":\"error\",\"message\":\"rate limited\"}\n\n");
  Completion c = d.finish(200);
  EXPECT_EQ(c.stop_reason, "error");
  EXPECT_EQ(c.error_message, "rate limited");
}

TEST(ModelWire, ErrorExcerptsAreBoundedSanitisedAndMasked) {
  EXPECT_EQ(error_excerpt(R"({"error":{"message":"bad key sk-1\n\u001b[31mred"}})", "sk-1"), "bad key *** red");
  EXPECT_EQ(error_excerpt("", ""), "(no body)");
  std::string long_body(1000, 'a');
  EXPECT_EQ(error_excerpt(long_body, "", 10), "aaaaaaaaaa\u2026");
  EXPECT_EQ(parse_completion(ModelApi::kOpenAiCompletions, 429, "slow down", "").error_message, "HTTP 429: slow down");
}

}  // namespace
}  // namespace clawexec::net
