#include "config/model_providers.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "config/json5.h"

namespace clawexec::config {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

using Env = std::map<std::string, std::string, std::less<>>;

Result<ModelProviders> read(std::string_view json5) {
  auto doc = parse_json5(json5);
  EXPECT_TRUE(doc.ok()) << doc.error().message;
  return read_model_providers(*doc, "/cfg/openclaw.json");
}

Result<ModelEndpoint> resolve(std::string_view json5, std::string_view ref, Env env = {}) {
  auto providers = read(json5);
  if (!providers.ok()) return providers.error();
  auto split = split_model_ref(ref);
  if (!split.ok()) return split.error();
  return resolve_model_endpoint(*providers, split->first, split->second, env_from_map(std::move(env)),
                                "exec reviewer model");
}

constexpr std::string_view kLocal = R"({models: {providers: {local: {
  baseUrl: "http://127.0.0.1:8080/v1", api: "openai-completions", apiKey: "sk-local-secret",
  headers: {"X-Team": "exec"},
  models: [{id: "small", name: "Small", maxTokens: 512, compat: {maxTokensField: "max_tokens"},
            headers: {"X-Team": "review"}, contextWindow: 8192}]}}}})";

TEST(ModelProviders, ACustomProviderResolvesToItsEndpoint) {
  auto e = resolve(kLocal, "local/small");
  ASSERT_TRUE(e.ok()) << e.error().message;
  EXPECT_EQ(e->provider, "local");
  EXPECT_EQ(e->model, "small");
  EXPECT_EQ(e->base_url, "http://127.0.0.1:8080/v1");
  EXPECT_EQ(e->api, ModelApi::kOpenAiCompletions);
  EXPECT_EQ(e->api_key, "sk-local-secret");
  EXPECT_EQ(e->max_tokens, 512);
  EXPECT_TRUE(e->uses_max_tokens_field);
  ASSERT_EQ(e->headers.size(), 1u);  // the model's header replaces the provider's of that name
  EXPECT_EQ(e->headers[0].second, "review");
}

TEST(ModelProviders, AnUnsupportedApiNamesProviderValueAndTheSupportedOnes) {
  auto e = resolve(R"({models: {providers: {g: {baseUrl: "https://x", api: "google-generative-ai",
                       models: [{id: "m", name: "M"}]}}}})",
                   "g/m");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().message,
            "exec reviewer model g/m: provider g uses api \"google-generative-ai\", which clawexec does not "
            "support; supported: openai-completions, openai-responses, anthropic-messages");
}

TEST(ModelProviders, AnApiOpenClawDoesNotKnowIsAConfigError) {
  auto r = read(R"({models: {providers: {local: {api: "grpc"}}}})");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, HasSubstr("/cfg/openclaw.json: models.providers.local.api: expected one of "
                                           "\"openai-completions\", \"openai-responses\""));
  EXPECT_THAT(r.error().message, HasSubstr("got \"grpc\""));
}

TEST(ModelProviders, AnUnconfiguredProviderIsNamed) {
  auto e = resolve("{}", "acme/gpt-x");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().message,
            "exec reviewer model acme/gpt-x: provider acme is not configured under models.providers");
}

TEST(ModelProviders, AModelNotListedUnderACustomProviderIsNamedWithTheListedOnes) {
  auto e = resolve(kLocal, "local/big");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().message,
            "exec reviewer model local/big: model big is not listed in models.providers.local.models (listed: small)");
}

TEST(ModelProviders, BuiltInOpenAiTakesItsKeyFromTheEnvironmentAndAnyModelId) {
  auto e = resolve("{}", "openai/gpt-5.4-mini", {{"OPENAI_API_KEY", "sk-env"}});
  ASSERT_TRUE(e.ok()) << e.error().message;
  EXPECT_EQ(e->base_url, "https://api.openai.com/v1");
  EXPECT_EQ(e->api, ModelApi::kOpenAiResponses);
  EXPECT_EQ(e->api_key, "sk-env");
}

TEST(ModelProviders, BuiltInAnthropicWithoutAKeyIsAnErrorThatNamesWhereToSetIt) {
  auto e = resolve("{}", "anthropic/claude-haiku-4-5");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().message,
            "exec reviewer model anthropic/claude-haiku-4-5: no API key for provider anthropic: set "
            "ANTHROPIC_API_KEY or models.providers.anthropic.apiKey");
}

TEST(ModelProviders, TheEnvironmentKeyWinsOverAConfiguredOneUnlessAuthIsApiKey) {
  constexpr std::string_view kDoc = R"({models: {providers: {openai: {apiKey: "sk-config"}}}})";
  EXPECT_EQ(resolve(kDoc, "openai/gpt-x", {{"OPENAI_API_KEY", "sk-env"}})->api_key, "sk-env");
  EXPECT_EQ(resolve(kDoc, "openai/gpt-x")->api_key, "sk-config");
  constexpr std::string_view kPinned = R"({models: {providers: {openai: {apiKey: "sk-config", auth: "api-key"}}}})";
  EXPECT_EQ(resolve(kPinned, "openai/gpt-x", {{"OPENAI_API_KEY", "sk-env"}})->api_key, "sk-config");
}

TEST(ModelProviders, DollarBraceReferencesAreSubstitutedAndAMissingOneIsNamed) {
  constexpr std::string_view kDoc = R"({models: {providers: {local: {baseUrl: "http://${HOST_X}:1/v1",
      api: "openai-completions", apiKey: "${LOCAL_KEY}", models: [{id: "m", name: "M"}]}}}})";
  auto e = resolve(kDoc, "local/m", {{"HOST_X", "10.0.0.2"}, {"LOCAL_KEY", "sk-sub"}});
  ASSERT_TRUE(e.ok()) << e.error().message;
  EXPECT_EQ(e->base_url, "http://10.0.0.2:1/v1");
  EXPECT_EQ(e->api_key, "sk-sub");
  auto missing = resolve(kDoc, "local/m", {{"HOST_X", "h"}});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message,
            "exec reviewer model local/m: Missing env var \"LOCAL_KEY\" referenced at config path: "
            "models.providers.local.apiKey");
}

TEST(ModelProviders, SubstitutionKeepsEscapesAndNonMatchingDollars) {
  auto env = env_from_map({{"A", "1"}});
  EXPECT_EQ(*substitute_env_vars("$${A}-${A}-$x-${lower}-${A", env, "p"), "${A}-1-$x-${lower}-${A");
}

TEST(ModelProviders, AnEnvSecretRefIsReadAndAMissingVariableIsNamedWithoutAValue) {
  constexpr std::string_view kDoc = R"({models: {providers: {openai: {
      apiKey: {source: "env", provider: "default", id: "MY_OPENAI_KEY"}}}}})";
  EXPECT_EQ(resolve(kDoc, "openai/gpt-x", {{"MY_OPENAI_KEY", " sk-ref "}})->api_key, "sk-ref");
  auto missing = resolve(kDoc, "openai/gpt-x");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message,
            "exec reviewer model openai/gpt-x: models.providers.openai.apiKey: the env secret MY_OPENAI_KEY is "
            "not set or empty");
  constexpr std::string_view kPinned = R"({models: {providers: {openai: {auth: "api-key",
      apiKey: {source: "env", provider: "default", id: "MY_OPENAI_KEY"}}}}})";
  EXPECT_EQ(resolve(kPinned, "openai/gpt-x").error().message,
            "exec reviewer model openai/gpt-x: models.providers.openai.apiKey: the env secret MY_OPENAI_KEY is "
            "not set or empty");
}

TEST(ModelProviders, OtherSecretSourcesAreRejectedAsNotSupported) {
  auto r = read(R"({models: {providers: {openai: {apiKey: {source: "file", provider: "vault", id: "/openai"}}}}})");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message,
              HasSubstr("models.providers.openai.apiKey.source: secret source \"file\" is not supported by clawexec"));
}

TEST(ModelProviders, NoMessageEverContainsTheKey) {
  constexpr std::string_view kDoc = R"({models: {providers: {local: {baseUrl: "http://h/v1",
      api: "google-generative-ai", apiKey: "sk-very-secret", headers: {Authorization: 42},
      models: [{id: "m", name: "M"}]}}}})";
  auto r = read(kDoc);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, Not(HasSubstr("sk-very-secret")));
  auto e = resolve(R"({models: {providers: {local: {baseUrl: "http://h/v1", api: "google-generative-ai",
      apiKey: "sk-very-secret", models: [{id: "m", name: "M"}]}}}})",
                   "local/m");
  ASSERT_FALSE(e.ok());
  EXPECT_THAT(e.error().message, Not(HasSubstr("sk-very-secret")));
}

TEST(ModelProviders, ModelEntriesNeedIdAndNameAndUnknownKeysWarn) {
  auto r = read(R"({models: {providers: {local: {baseUrl: "http://h", models: [{id: "m"}], colour: "red"}}}})");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, HasSubstr("models.providers.local.models[0].name: required"));
  auto ok = read(R"({models: {providers: {local: {baseUrl: "http://h", models: [{id: "m", name: "M"}],
                    colour: "red", timeoutSeconds: 30}}}})");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->warnings, std::vector<std::string>{"/cfg/openclaw.json: models.providers.local.colour: unknown key, ignored"});
}

TEST(ModelProviders, ACustomProviderWithoutBaseUrlIsNamedAtResolution) {
  auto e = resolve(R"({models: {providers: {local: {api: "openai-completions", models: [{id: "m", name: "M"}]}}}})",
                   "local/m");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().message, "exec reviewer model local/m: no baseUrl: set models.providers.local.baseUrl");
}

TEST(ModelProviders, AnthropicFallsBackToAnthropicBaseUrl) {
  auto e = resolve("{}", "anthropic/claude-x", {{"ANTHROPIC_API_KEY", "k"}, {"ANTHROPIC_BASE_URL", "http://proxy:9"}});
  ASSERT_TRUE(e.ok()) << e.error().message;
  EXPECT_EQ(e->base_url, "http://proxy:9");
  EXPECT_EQ(e->api, ModelApi::kAnthropicMessages);
}

TEST(ModelProviders, ProviderIdsAreCaseInsensitive) {
  auto e = resolve(R"({models: {providers: {Local: {baseUrl: "http://h/v1", api: "openai-responses",
                       models: [{id: "m", name: "M"}]}}}})",
                   "LOCAL/m");
  ASSERT_TRUE(e.ok()) << e.error().message;
  EXPECT_EQ(e->provider, "local");
  EXPECT_EQ(e->api_key, "");  // a custom provider without a key sends none
}

TEST(ModelProviders, ARefNeedsProviderAndModel) {
  EXPECT_FALSE(split_model_ref("gpt-x").ok());
  EXPECT_FALSE(split_model_ref("openai/").ok());
  auto s = split_model_ref(" OpenRouter/meta/llama-3 ");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->first, "openrouter");
  EXPECT_EQ(s->second, "meta/llama-3");
}

}  // namespace
}  // namespace clawexec::config
