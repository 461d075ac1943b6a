// Building a model request (see model_wire.h): the base URL split into host, port and path
// prefix, the endpoint path per API, and the JSON body each API expects, shaped like the one
// OpenClaw's transports send for a single system + user turn.

#include <boost/json.hpp>

#include "base/strings.h"
#include "net/model_wire.h"

namespace clawexec::net {
namespace {

namespace json = boost::json;
using config::ModelApi;

std::string_view strip_trailing_slashes(std::string_view s) {
  while (!s.empty() && s.back() == '/') s.remove_suffix(1);
  return s;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// OpenAI's Responses API takes no temperature on gpt-5.6 and gpt-6 models unless the model's
// compat says otherwise (supportsOpenAITemperature).
bool responses_takes_temperature(const config::ModelEndpoint& e) {
  if (e.supports_temperature) return *e.supports_temperature;
  std::string id = ascii_lower(e.model);
  if (size_t slash = id.rfind('/'); slash != std::string::npos) id = id.substr(slash + 1);
  bool gpt56 = id.starts_with("gpt-5.6") && (id.size() == 7 || id[7] == '-');
  return !gpt56 && !id.starts_with("gpt-6");
}

json::object text_message(std::string_view role, std::string_view text, std::string_view part_type) {
  json::array content;
  content.push_back(json::object{{"type", part_type}, {"text", text}});
  return json::object{{"type", "message"}, {"role", role}, {"content", std::move(content)}};
}

}  // namespace

Result<BaseUrl> parse_base_url(std::string_view url) {
  auto bad = [&](std::string_view why) {
    return Error::invalid("model base URL \"" + std::string(url) + "\": " + std::string(why));
  };
  BaseUrl out;
  std::string_view rest = trim_ascii(url);
  if (rest.starts_with("https://")) {
    out.tls = true;
    rest.remove_prefix(8);
  } else if (rest.starts_with("http://")) {
    rest.remove_prefix(7);
  } else {
    return bad("expected http:// or https://");
  }
  size_t slash = rest.find_first_of("/?#");
  std::string_view authority = rest.substr(0, slash);
  std::string_view path = slash == std::string_view::npos ? "" : rest.substr(slash);
  if (path.find_first_of("?#") != std::string_view::npos) return bad("a query or fragment is not supported");
  if (authority.find('@') != std::string_view::npos) return bad("credentials in the URL are not supported");
  std::string_view port_text;
  if (authority.starts_with("[")) {
    size_t close = authority.find(']');
    if (close == std::string_view::npos) return bad("unterminated IPv6 address");
    out.host = std::string(authority.substr(1, close - 1));
    std::string_view after = authority.substr(close + 1);
    if (!after.empty() && after[0] != ':') return bad("unexpected text after the IPv6 address");
    if (!after.empty()) port_text = after.substr(1);
  } else {
    size_t colon = authority.rfind(':');
    out.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) port_text = authority.substr(colon + 1);
  }
  if (out.host.empty()) return bad("no host");
  out.port = out.tls ? 443 : 80;
  if (!port_text.empty()) {
    int port = 0;
    for (char c : port_text) {
      if (c < '0' || c > '9' || port > 65535) return bad("invalid port");
      port = port * 10 + (c - '0');
    }
    if (port < 1 || port > 65535) return bad("invalid port");
    out.port = static_cast<uint16_t>(port);
  }
  out.path = std::string(strip_trailing_slashes(path));
  return out;
}

WireRequest build_wire_request(const config::ModelEndpoint& e, const BaseUrl& base, const CompletionRequest& r) {
  WireRequest out;
  out.headers.emplace_back("content-type", "application/json");
  out.headers.emplace_back("accept", r.stream ? "text/event-stream" : "application/json");
  json::object body{{"model", e.model}};
  switch (e.api) {
    case ModelApi::kOpenAiCompletions: {
      out.target = base.path + "/chat/completions";
      if (!e.api_key.empty()) out.headers.emplace_back("authorization", "Bearer " + e.api_key);
      json::array messages;
      if (!r.system.empty()) messages.push_back(json::object{{"role", "system"}, {"content", r.system}});
      messages.push_back(json::object{{"role", "user"}, {"content", r.user}});
      body["messages"] = std::move(messages);
      body["stream"] = r.stream;
      if (r.stream) body["stream_options"] = json::object{{"include_usage", true}};
      body["temperature"] = r.temperature;
      body[e.uses_max_tokens_field ? "max_tokens" : "max_completion_tokens"] = r.max_tokens;
      break;
    }
    case ModelApi::kOpenAiResponses: {
      out.target = base.path + "/responses";
      if (!e.api_key.empty()) out.headers.emplace_back("authorization", "Bearer " + e.api_key);
      json::array input;
      if (!r.system.empty()) input.push_back(text_message(e.reasoning ? "developer" : "system", r.system, "input_text"));
      input.push_back(text_message("user", r.user, "input_text"));
      body["input"] = std::move(input);
      body["stream"] = r.stream;
      body["store"] = false;
      body["max_output_tokens"] = std::max<int64_t>(r.max_tokens, 16);
      if (responses_takes_temperature(e)) body["temperature"] = r.temperature;
      break;
    }
    case ModelApi::kAnthropicMessages: {
      std::string_view prefix = strip_trailing_slashes(base.path);
      out.target = std::string(prefix) + (ends_with(prefix, "/v1") ? "/messages" : "/v1/messages");
      if (!e.api_key.empty()) out.headers.emplace_back("x-api-key", e.api_key);
      out.headers.emplace_back("anthropic-version", "2023-06-01");
      json::array messages;
      messages.push_back(json::object{{"role", "user"}, {"content", r.user}});
      body["messages"] = std::move(messages);
      if (!r.system.empty()) {
        json::array system;
        system.push_back(json::object{{"type", "text"}, {"text", r.system}});
        body["system"] = std::move(system);
      }
      body["max_tokens"] = r.max_tokens;
      body["stream"] = r.stream;
      body["temperature"] = r.temperature;
      break;
    }
  }
  if (out.target.empty() || out.target[0] != '/') out.target = "/" + out.target;
  for (const auto& [name, value] : e.headers) {
    std::erase_if(out.headers, [&](const auto& h) { return iequals(h.first, name); });
    out.headers.emplace_back(name, value);
  }
  out.body = json::serialize(body);
  return out;
}

}  // namespace clawexec::net
