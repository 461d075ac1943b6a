// Reading `models.providers` (see model_providers.h): each provider and each model entry is
// checked key by key against OpenClaw's ModelProviderSchema / ModelDefinitionSchema. Keys whose
// meaning clawexec uses are typed; the schema's other keys are accepted as written and not
// used; anything else warns. Problems are collected (every one, each naming its path) and
// returned together. Secret values are never rendered into a message: a wrong-typed secret is
// described by its JSON kind only, and a string is never wrong.

#include "config/model_providers.h"

#include <cmath>
#include <set>

#include "base/strings.h"
#include "config/exec_layer.h"

namespace clawexec::config {
namespace {

namespace json = boost::json;
using detail::child_path;
using detail::describe_value;
using detail::Diagnostics;

// OpenClaw's MODEL_APIS (model-data bundle), the values its schema accepts for `api`.
constexpr std::string_view kKnownApis[] = {"openai-completions",
                                           "openai-responses",
                                           "openai-chatgpt-responses",
                                           "anthropic-messages",
                                           "google-generative-ai",
                                           "google-vertex",
                                           "github-copilot",
                                           "bedrock-converse-stream",
                                           "ollama",
                                           "pi-messages",
                                           "azure-openai-responses"};
constexpr std::string_view kAuthModes[] = {"api-key", "aws-sdk", "oauth", "token"};

// Schema keys accepted without being used by clawexec.
const std::set<std::string_view> kIgnoredProviderKeys = {
    "timeoutSeconds", "region", "injectNumCtxForOpenAICompat", "params", "agentRuntime",
    "localService",   "authHeader", "request"};
const std::set<std::string_view> kIgnoredModelKeys = {"input",        "cost",      "contextWindow", "contextTokens",
                                                      "thinkingLevelMap", "params", "agentRuntime",  "mediaInput",
                                                      "metadataSource"};

// /^[a-z][a-z0-9_-]{0,63}$/ (a secret provider alias) and /^[A-Z][A-Z0-9_]{0,127}$/ (an env id).
bool is_provider_alias(std::string_view s) {
  if (s.empty() || s.size() > 64 || s[0] < 'a' || s[0] > 'z') return false;
  for (char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-')) return false;
  }
  return true;
}
bool is_env_id(std::string_view s) {
  if (s.empty() || s.size() > 128 || s[0] < 'A' || s[0] > 'Z') return false;
  for (char c : s) {
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

template <size_t N>
std::string one_of(const std::string_view (&names)[N]) {
  std::string out = "one of ";
  for (size_t i = 0; i < N; ++i) out += (i ? ", \"" : "\"") + std::string(names[i]) + "\"";
  return out;
}

class Reader {
 public:
  explicit Reader(Diagnostics& d) : d_(d) {}

  void expected(const std::string& path, std::string_view what, const json::value& got) {
    d_.errors.push_back(path + ": expected " + std::string(what) + ", got " + describe_value(got));
  }
  void error(const std::string& path, const std::string& message) { d_.errors.push_back(path + ": " + message); }
  void unknown(const std::string& path) { d_.warnings.push_back(path + ": unknown key, ignored"); }

  std::optional<std::string> string(const json::value& v, const std::string& path, bool non_empty = false) {
    if (v.is_string() && (!non_empty || !v.get_string().empty())) return std::string(v.get_string());
    expected(path, non_empty ? "a non-empty string" : "a string", v);
    return std::nullopt;
  }

  template <size_t N>
  std::optional<std::string> one_of_strings(const json::value& v, const std::string& path,
                                            const std::string_view (&names)[N]) {
    if (v.is_string()) {
      for (std::string_view n : names) {
        if (v.get_string() == n) return std::string(n);
      }
    }
    expected(path, one_of(names), v);
    return std::nullopt;
  }

  std::optional<int64_t> positive(const json::value& v, const std::string& path) {
    double d = v.is_int64() ? static_cast<double>(v.get_int64())
               : v.is_uint64() ? static_cast<double>(v.get_uint64())
               : v.is_double() ? v.get_double()
                               : -1;
    if (d > 0 && std::isfinite(d)) return static_cast<int64_t>(std::min(d, 9007199254740991.0));
    expected(path, "a positive number", v);
    return std::nullopt;
  }

  std::optional<bool> boolean(const json::value& v, const std::string& path) {
    if (v.is_bool()) return v.get_bool();
    expected(path, "true or false", v);
    return std::nullopt;
  }

  // A string (kept as written) or {source: "env", provider, id}.
  std::optional<SecretInput> secret(const json::value& v, const std::string& path) {
    if (v.is_string()) return SecretInput{std::string(v.get_string()), std::nullopt};
    if (!v.is_object()) {
      expected(path, "a string or a secret reference {source, provider, id}", v);
      return std::nullopt;
    }
    const json::object& ref = v.get_object();
    const json::value* source = ref.if_contains("source");
    if (source == nullptr || !source->is_string()) {
      error(path, "a secret reference needs source \"env\" (with provider and id)");
      return std::nullopt;
    }
    std::string_view kind = source->get_string();
    if (kind == "file" || kind == "exec" || kind == "store") {
      error(path + ".source", "secret source \"" + std::string(kind) +
                                  "\" is not supported by clawexec; use a string, \"${VAR}\" or {source: \"env\", "
                                  "provider: \"default\", id: \"VAR\"}");
      return std::nullopt;
    }
    if (kind != "env") {
      expected(path + ".source", "\"env\"", *source);
      return std::nullopt;
    }
    bool ok = true;
    std::optional<std::string> id;
    for (const auto& member : ref) {
      std::string member_path = child_path(path, member.key());
      if (member.key() == "source") continue;
      if (member.key() == "provider") {
        auto p = string(member.value(), member_path);
        if (p && !is_provider_alias(*p)) {
          error(member_path, "must match /^[a-z][a-z0-9_-]{0,63}$/ (example: \"default\")");
          ok = false;
        }
        ok = ok && p.has_value();
      } else if (member.key() == "id") {
        id = string(member.value(), member_path);
        if (id && !is_env_id(*id)) {
          error(member_path, "must match /^[A-Z][A-Z0-9_]{0,127}$/ (example: \"OPENAI_API_KEY\")");
          ok = false;
        }
        ok = ok && id.has_value();
      } else {
        error(member_path, "unknown key in a secret reference");
        ok = false;
      }
    }
    if (!ref.contains("provider") || !ref.contains("id")) {
      error(path, "an env secret reference needs provider and id");
      return std::nullopt;
    }
    if (!ok) return std::nullopt;
    return SecretInput{std::nullopt, id};
  }

  const json::object* object(const json::value& v, const std::string& path) {
    if (v.is_object()) return &v.get_object();
    expected(path, "an object", v);
    return nullptr;
  }

  std::optional<ModelDefinition> model(const json::value& v, const std::string& path);
  std::optional<ModelProvider> provider(const json::value& v, const std::string& path, std::string name);

 private:
  Diagnostics& d_;
};

std::optional<ModelDefinition> Reader::model(const json::value& v, const std::string& path) {
  const json::object* o = object(v, path);
  if (o == nullptr) return std::nullopt;
  ModelDefinition m;
  size_t errors_before = d_.errors.size();
  for (const auto& member : *o) {
    std::string p = child_path(path, member.key());
    std::string_view key = member.key();
    const json::value& value = member.value();
    if (key == "id") {
      m.id = string(value, p, true).value_or("");
    } else if (key == "name") {
      m.name = string(value, p, true).value_or("");
    } else if (key == "api") {
      m.api = one_of_strings(value, p, kKnownApis);
    } else if (key == "baseUrl") {
      m.base_url = string(value, p, true);
    } else if (key == "reasoning") {
      m.reasoning = boolean(value, p).value_or(false);
    } else if (key == "maxTokens") {
      m.max_tokens = positive(value, p);
    } else if (key == "headers") {
      if (const json::object* headers = object(value, p)) {
        for (const auto& h : *headers) {
          if (auto s = string(h.value(), child_path(p, h.key()))) m.headers.emplace_back(h.key(), *s);
        }
      }
    } else if (key == "compat") {
      if (const json::object* compat = object(value, p)) {
        if (const json::value* f = compat->if_contains("maxTokensField")) {
          constexpr std::string_view kFields[] = {"max_completion_tokens", "max_tokens"};
          m.uses_max_tokens_field = one_of_strings(*f, p + ".maxTokensField", kFields) == "max_tokens";
        }
        if (const json::value* t = compat->if_contains("supportsTemperature")) {
          m.supports_temperature = boolean(*t, p + ".supportsTemperature");
        }
      }
    } else if (!kIgnoredModelKeys.contains(key)) {
      unknown(p);
    }
  }
  if (!o->contains("id")) error(path + ".id", "required (the provider-facing model id)");
  if (!o->contains("name")) error(path + ".name", "required (a display name; OpenClaw's schema requires it)");
  if (d_.errors.size() != errors_before) return std::nullopt;
  return m;
}

std::optional<ModelProvider> Reader::provider(const json::value& v, const std::string& path, std::string name) {
  const json::object* o = object(v, path);
  if (o == nullptr) return std::nullopt;
  ModelProvider p;
  p.name = std::move(name);
  for (const auto& member : *o) {
    std::string mp = child_path(path, member.key());
    std::string_view key = member.key();
    const json::value& value = member.value();
    if (key == "baseUrl") {
      p.base_url = string(value, mp);
    } else if (key == "apiKey") {
      p.api_key = secret(value, mp);
    } else if (key == "auth") {
      p.auth = one_of_strings(value, mp, kAuthModes);
    } else if (key == "api") {
      p.api = one_of_strings(value, mp, kKnownApis);
    } else if (key == "maxTokens") {
      p.max_tokens = positive(value, mp);
    } else if (key == "headers") {
      if (const json::object* headers = object(value, mp)) {
        for (const auto& h : *headers) {
          if (auto s = secret(h.value(), child_path(mp, h.key()))) p.headers.emplace_back(h.key(), std::move(*s));
        }
      }
    } else if (key == "models") {
      if (!value.is_array()) {
        expected(mp, "an array", value);
        continue;
      }
      p.models.emplace();
      size_t index = 0;
      for (const auto& entry : value.get_array()) {
        auto m = model(entry, mp + "[" + std::to_string(index++) + "]");
        if (m) p.models->push_back(std::move(*m));
      }
    } else if (!kIgnoredProviderKeys.contains(key)) {
      unknown(mp);
    }
  }
  return p;
}

std::string with_origin(const std::string& origin, const std::string& message) {
  return origin.empty() ? message : origin + ": " + message;
}

}  // namespace

std::string_view to_string(ModelApi api) {
  switch (api) {
    case ModelApi::kOpenAiCompletions:
      return "openai-completions";
    case ModelApi::kOpenAiResponses:
      return "openai-responses";
    case ModelApi::kAnthropicMessages:
      return "anthropic-messages";
  }
  return "openai-completions";
}

Result<ModelProviders> read_model_providers(const boost::json::value& document, const std::string& origin) {
  ModelProviders out;
  Diagnostics d;
  Reader r(d);
  const json::object* models = nullptr;
  if (document.is_object()) models = detail::child_object(document.get_object(), "models", "models", d);
  const json::object* providers = models ? detail::child_object(*models, "providers", "models.providers", d) : nullptr;
  if (providers != nullptr) {
    for (const auto& entry : *providers) {
      std::string path = child_path("models.providers", entry.key());
      std::string id = lower_trimmed(entry.key());
      auto provider = r.provider(entry.value(), path, std::string(entry.key()));
      if (!provider) continue;
      if (out.providers.contains(id)) {
        d.errors.push_back(path + ": provider \"" + id + "\" is configured twice (ids are case-insensitive)");
        continue;
      }
      out.providers.emplace(std::move(id), std::move(*provider));
    }
  }
  if (!d.errors.empty()) {
    std::string message;
    for (const auto& e : d.errors) message += (message.empty() ? "" : "\n") + with_origin(origin, e);
    return Error::invalid(std::move(message));
  }
  for (auto& w : d.warnings) out.warnings.push_back(with_origin(origin, w));
  return out;
}

}  // namespace clawexec::config
