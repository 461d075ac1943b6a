// Resolving `provider/model` to a ModelEndpoint (see model_providers.h): pick the configured
// entry or the built-in one, the model's own overrides over the provider's, the API key in
// OpenClaw's order, and `${VAR}` references substituted only now, when the endpoint is wanted.
// Every error starts with the subject and the model ref so the reviewer's "model unavailable"
// text says which model and what to fix; none contains a key or a header value.

#include <algorithm>

#include "base/strings.h"
#include "config/exec_layer.h"
#include "config/model_providers.h"

namespace clawexec::config {
namespace {

struct BuiltIn {
  std::string_view id;
  std::string_view base_url;
  ModelApi api;
  std::string_view key_env;
};

// From the bundled openai and anthropic plugin manifests (modelCatalog.providers and
// setup.providers[].envVars). Anthropic also lists ANTHROPIC_OAUTH_TOKEN, an OAuth credential
// with its own request shape, which clawexec does not speak.
constexpr BuiltIn kBuiltIns[] = {
    {"openai", "https://api.openai.com/v1", ModelApi::kOpenAiResponses, "OPENAI_API_KEY"},
    {"anthropic", "https://api.anthropic.com", ModelApi::kAnthropicMessages, "ANTHROPIC_API_KEY"},
};

const BuiltIn* find_built_in(std::string_view id) {
  for (const auto& b : kBuiltIns) {
    if (b.id == id) return &b;
  }
  return nullptr;
}

std::optional<ModelApi> supported_api(std::string_view name) {
  if (name == "openai-completions") return ModelApi::kOpenAiCompletions;
  if (name == "openai-responses") return ModelApi::kOpenAiResponses;
  if (name == "anthropic-messages") return ModelApi::kAnthropicMessages;
  return std::nullopt;
}

bool is_env_name_start(char c) { return (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_env_name_char(char c) { return is_env_name_start(c) || (c >= '0' && c <= '9'); }

// The `${NAME}` token whose '{' is at `open`: NAME's end (the '}') or npos.
size_t env_token_end(std::string_view text, size_t open) {
  size_t close = text.find('}', open + 1);
  if (close == std::string_view::npos || close == open + 1 || !is_env_name_start(text[open + 1])) {
    return std::string_view::npos;
  }
  for (size_t i = open + 1; i < close; ++i) {
    if (!is_env_name_char(text[i])) return std::string_view::npos;
  }
  return close;
}

Result<std::string> resolve_secret(const SecretInput& secret, const EnvLookup& env, const std::string& path) {
  if (secret.env_id) {
    std::optional<std::string> value = env ? env(*secret.env_id) : std::nullopt;
    std::string trimmed(trim_ascii(value.value_or("")));
    if (trimmed.empty()) {
      return Error::invalid(path + ": the env secret " + *secret.env_id + " is not set or empty");
    }
    return trimmed;
  }
  std::string value = TRY(substitute_env_vars(secret.literal.value_or(""), env, path));
  return std::string(trim_ascii(value));
}

// OpenClaw tries the provider's env variable before a configured key unless the provider says
// `auth: "api-key"`. A custom provider without any key sends none (a local server).
Result<std::string> resolve_api_key(const ModelProvider* configured, const BuiltIn* built_in, const EnvLookup& env,
                                    std::string_view provider_id) {
  std::string path = detail::child_path("models.providers", configured ? configured->name : provider_id) + ".apiKey";
  auto from_env = [&]() -> std::string {
    if (built_in == nullptr || !env) return {};
    return std::string(trim_ascii(env(built_in->key_env).value_or("")));
  };
  auto from_config = [&]() -> Result<std::string> {
    if (configured == nullptr || !configured->api_key) return std::string();
    return resolve_secret(*configured->api_key, env, path);
  };
  bool config_first = configured != nullptr && configured->auth == "api-key";
  std::string key = config_first ? TRY(from_config()) : from_env();
  if (key.empty()) key = config_first ? from_env() : TRY(from_config());
  if (key.empty() && built_in != nullptr) {
    return Error::invalid("no API key for provider " + std::string(provider_id) + ": set " +
                          std::string(built_in->key_env) + " or " + path);
  }
  return key;
}

void set_header(std::vector<std::pair<std::string, std::string>>& headers, std::string name, std::string value) {
  for (auto& h : headers) {
    if (iequals(h.first, name)) {
      h.second = std::move(value);
      return;
    }
  }
  headers.emplace_back(std::move(name), std::move(value));
}

// Prefixes a failure with the model it was resolving for.
Result<std::string> about(const std::string& who, Result<std::string> r) {
  if (!r.ok()) return Error::invalid(who + ": " + r.error().message);
  return r;
}

std::string listed_ids(const std::vector<ModelDefinition>& models) {
  std::string out;
  for (const auto& m : models) out += (out.empty() ? "" : ", ") + m.id;
  return out.empty() ? "none" : out;
}

}  // namespace

Result<std::pair<std::string, std::string>> split_model_ref(std::string_view ref) {
  std::string_view trimmed = trim_ascii(ref);
  size_t slash = trimmed.find('/');
  std::string provider = slash == std::string_view::npos ? "" : lower_trimmed(trimmed.substr(0, slash));
  std::string model = slash == std::string_view::npos ? "" : std::string(trim_ascii(trimmed.substr(slash + 1)));
  if (provider.empty() || model.empty()) {
    return Error::invalid("model \"" + std::string(trimmed) + "\": expected \"provider/model\" (e.g. \"openai/gpt-5.4-mini\")");
  }
  return std::pair{std::move(provider), std::move(model)};
}

Result<std::string> substitute_env_vars(std::string_view text, const EnvLookup& env, std::string_view path) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c != '$') {
      out += c;
      continue;
    }
    if (i + 2 < text.size() && text[i + 1] == '$' && text[i + 2] == '{') {
      size_t end = env_token_end(text, i + 2);
      if (end != std::string_view::npos) {  // $${NAME}: the literal ${NAME}
        out += text.substr(i + 1, end - i);
        i = end;
        continue;
      }
    }
    if (i + 1 < text.size() && text[i + 1] == '{') {
      size_t end = env_token_end(text, i + 1);
      if (end != std::string_view::npos) {
        std::string name(text.substr(i + 2, end - i - 2));
        std::optional<std::string> value = env ? env(name) : std::nullopt;
        if (!value || value->empty()) {
          return Error::invalid("Missing env var \"" + name + "\" referenced at config path: " + std::string(path));
        }
        out += *value;
        i = end;
        continue;
      }
    }
    out += c;
  }
  return out;
}

Result<ModelEndpoint> resolve_model_endpoint(const ModelProviders& providers, std::string_view provider,
                                             std::string_view model, const EnvLookup& env, std::string_view subject) {
  std::string id = lower_trimmed(provider);
  std::string model_id(trim_ascii(model));
  std::string who = std::string(subject) + " " + id + "/" + model_id;
  auto it = providers.providers.find(id);
  const ModelProvider* configured = it == providers.providers.end() ? nullptr : &it->second;
  const BuiltIn* built_in = find_built_in(id);
  if (configured == nullptr && built_in == nullptr) {
    return Error::invalid(who + ": provider " + id + " is not configured under models.providers");
  }
  std::string path = detail::child_path("models.providers", configured ? configured->name : id);

  const ModelDefinition* definition = nullptr;
  if (configured != nullptr && configured->models) {
    auto found = std::find_if(configured->models->begin(), configured->models->end(),
                              [&](const ModelDefinition& m) { return m.id == model_id; });
    if (found != configured->models->end()) definition = &*found;
  }
  if (definition == nullptr && built_in == nullptr) {
    if (!configured->models) {
      return Error::invalid(who + ": " + path + ".models is not set (a custom provider must list its models)");
    }
    return Error::invalid(who + ": model " + model_id + " is not listed in " + path + ".models (listed: " +
                          listed_ids(*configured->models) + ")");
  }

  ModelEndpoint out;
  out.provider = id;
  out.model = model_id;

  std::optional<std::string> api_name = definition ? definition->api : std::nullopt;
  if (!api_name && configured) api_name = configured->api;
  if (!api_name && built_in) api_name = std::string(to_string(built_in->api));
  if (!api_name) {
    return Error::invalid(who + ": no api: set " + path +
                          ".api to \"openai-completions\", \"openai-responses\" or \"anthropic-messages\"");
  }
  std::optional<ModelApi> api = supported_api(*api_name);
  if (!api) {
    return Error::invalid(who + ": provider " + id + " uses api \"" + *api_name +
                          "\", which clawexec does not support; supported: openai-completions, openai-responses, "
                          "anthropic-messages");
  }
  out.api = *api;

  std::optional<std::string> base = definition ? definition->base_url : std::nullopt;
  std::string base_path = path + (base ? ".models[].baseUrl" : ".baseUrl");
  if (!base && configured && configured->base_url && !trim_ascii(*configured->base_url).empty()) {
    base = configured->base_url;
  }
  if (!base && out.api == ModelApi::kAnthropicMessages && env) {
    // OpenClaw's transport falls back to ANTHROPIC_BASE_URL before the public endpoint.
    std::string from_env(trim_ascii(env("ANTHROPIC_BASE_URL").value_or("")));
    if (!from_env.empty()) base = from_env;
  }
  if (!base && built_in) base = std::string(built_in->base_url);
  if (!base) return Error::invalid(who + ": no baseUrl: set " + path + ".baseUrl");
  out.base_url = std::string(trim_ascii(TRY(about(who, substitute_env_vars(*base, env, base_path)))));

  out.api_key = TRY(about(who, resolve_api_key(configured, built_in, env, id)));

  if (configured) {
    for (const auto& [name, secret] : configured->headers) {
      set_header(out.headers, name, TRY(about(who, resolve_secret(secret, env, path + ".headers." + name))));
    }
  }
  if (definition) {
    for (const auto& [name, value] : definition->headers) {
      set_header(out.headers, name, TRY(about(who, substitute_env_vars(value, env, path + ".models[].headers." + name))));
    }
    out.max_tokens = definition->max_tokens;
    out.reasoning = definition->reasoning;
    out.uses_max_tokens_field = definition->uses_max_tokens_field;
    out.supports_temperature = definition->supports_temperature;
  }
  if (!out.max_tokens && configured) out.max_tokens = configured->max_tokens;
  return out;
}

}  // namespace clawexec::config
