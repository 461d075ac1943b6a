#pragma once
// Where a language model lives and how to talk to it: OpenClaw's `models.providers.<name>`
// section, read so that the exec auto-reviewer (tools.exec.reviewer) can call a model the way
// OpenClaw would, and `provider/model` resolved to one endpoint (URL, wire API, key, headers).
//
// Approach: read_model_providers validates the section into typed provider entries without
// touching the environment; resolve_model_endpoint does the lookups that need it (API keys,
// `${VAR}` references) when a model is actually wanted, so a broken key for a provider nobody
// uses never stops a start. Facts taken from OpenClaw 2026.9.6 (zod-schema.core, model-auth):
// * A provider has baseUrl, apiKey (a string or a secret ref), api, headers (string or
//   secret ref values), models [{id, name, api?, baseUrl?, headers?, maxTokens?, reasoning?,
//   compat?, ...}] and more keys we accept and ignore. Unknown keys warn (OpenClaw's schema is
//   strict and rejects them; we keep the repo's "unknown keys are ignored with a warning").
// * `${VAR}` (upper-case names only; `$${VAR}` is a literal) in a string is substituted from
//   the environment; a missing or empty variable is an error naming the variable and the path.
// * `openai` and `anthropic` are built in (https://api.openai.com/v1 with openai-responses,
//   https://api.anthropic.com with anthropic-messages) and accept any model id; an entry under
//   models.providers overlays them. Their key comes from OPENAI_API_KEY / ANTHROPIC_API_KEY
//   first and the configured apiKey second, unless the entry sets `auth: "api-key"` (then the
//   configured key wins), as OpenClaw orders env auth before a config key.
// * Only the APIs clawexec speaks are accepted at resolution: openai-completions,
//   openai-responses, anthropic-messages. Another API OpenClaw knows is an error only when that
//   provider is resolved; an API OpenClaw does not know is a config error.
//
// API keys and secret-bearing header values are secrets: no message here ever contains one.

#include <boost/json/value.hpp>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"
#include "config/env_lookup.h"

namespace clawexec::config {

/// The wire APIs clawexec's model client speaks (OpenClaw's `api` values).
enum class ModelApi { kOpenAiCompletions, kOpenAiResponses, kAnthropicMessages };
std::string_view to_string(ModelApi api);

/// A config value that may hold a secret: a literal string (may contain `${VAR}`) or
/// `{source: "env", provider, id}`. Other secret sources (file, exec, store) are rejected when
/// read ("not supported by clawexec").
struct SecretInput {
  std::optional<std::string> literal;  // as written, `${VAR}` not yet substituted
  std::optional<std::string> env_id;   // the variable of an env secret ref
};

struct ModelDefinition {
  std::string id;
  std::string name;
  std::optional<std::string> api;       // as written (validated against OpenClaw's list)
  std::optional<std::string> base_url;  // as written
  std::vector<std::pair<std::string, std::string>> headers;
  std::optional<int64_t> max_tokens;
  bool reasoning = false;
  /// compat.maxTokensField == "max_tokens" (openai-completions sends max_tokens instead of
  /// max_completion_tokens).
  bool uses_max_tokens_field = false;
  /// compat.supportsTemperature, when set.
  std::optional<bool> supports_temperature;
};

struct ModelProvider {
  std::string name;  // the key under models.providers, as written
  std::optional<std::string> base_url;
  std::optional<std::string> api;
  std::optional<SecretInput> api_key;
  std::optional<std::string> auth;  // "api-key" | "aws-sdk" | "oauth" | "token"
  std::vector<std::pair<std::string, SecretInput>> headers;
  std::optional<int64_t> max_tokens;
  std::optional<std::vector<ModelDefinition>> models;
};

struct ModelProviders {
  /// Keyed by the lower-cased, trimmed provider name (OpenClaw normalises provider ids).
  std::map<std::string, ModelProvider, std::less<>> providers;
  std::vector<std::string> warnings;
};

/// Reads `models.providers` from `document` (the whole config file; nothing else is read).
/// Errors name their key path, prefixed by `origin` when set ("<file>: models.providers.local.
/// api: expected one of ..., got \"grpc\""); all of them, one per line.
Result<ModelProviders> read_model_providers(const boost::json::value& document, const std::string& origin);

/// One model, ready to call. `api_key` and secret header values must never be shown.
struct ModelEndpoint {
  std::string provider;  // normalised provider id
  std::string model;     // the provider-facing model id
  std::string base_url;  // `${VAR}` substituted, trailing slashes kept as written
  ModelApi api = ModelApi::kOpenAiCompletions;
  std::string api_key;  // empty: send no credential (a local server)
  std::vector<std::pair<std::string, std::string>> headers;  // provider's, then the model's
  std::optional<int64_t> max_tokens;  // the model's (else the provider's) output cap
  bool reasoning = false;
  bool uses_max_tokens_field = false;
  std::optional<bool> supports_temperature;
};

/// Splits "provider/model" at the first slash (both parts trimmed, the provider lower-cased).
/// A ref without a slash, or with an empty side, is an error naming it.
Result<std::pair<std::string, std::string>> split_model_ref(std::string_view ref);

/// Resolves `provider`/`model` against the configured providers and the built-in ones.
/// Errors name the model ref and what is missing ("exec reviewer model openai/gpt-x: ..." when
/// `subject` is "exec reviewer model"): an unconfigured provider, a model not listed under a
/// custom provider, no baseUrl, an unsupported api, a missing key or `${VAR}`.
Result<ModelEndpoint> resolve_model_endpoint(const ModelProviders& providers, std::string_view provider,
                                             std::string_view model, const EnvLookup& env,
                                             std::string_view subject = "model");

/// OpenClaw's config env substitution for one string: `${NAME}` (NAME = [A-Z_][A-Z0-9_]*)
/// becomes the variable's value, `$${NAME}` becomes a literal `${NAME}`, anything else is kept.
/// A missing or empty variable is an error: `Missing env var "NAME" referenced at config path:
/// <path>` (OpenClaw's wording).
Result<std::string> substitute_env_vars(std::string_view text, const EnvLookup& env, std::string_view path);

}  // namespace clawexec::config
