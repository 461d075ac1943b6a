// Reading a model's answer (see model_wire.h): a whole JSON body, or SSE events fed in pieces
// as they arrive. Events are split on blank lines (LF or CRLF), `data:` lines joined; each API
// has its own event vocabulary, but all end in the same Completion with the stop reason mapped
// as OpenClaw's transports map it. Provider error text is bounded and sanitised before it goes
// into a message, and the caller's key is masked in it.

#include <boost/json.hpp>

#include "base/strings.h"
#include "base/utf.h"
#include "net/model_wire.h"

namespace clawexec::net {
namespace {

namespace json = boost::json;
using config::ModelApi;

const json::value* at(const json::value* v, std::string_view key) {
  if (v == nullptr || !v->is_object()) return nullptr;
  return v->get_object().if_contains(key);
}
std::string str(const json::value* v) { return v && v->is_string() ? std::string(v->get_string()) : std::string(); }

std::optional<json::value> parse_json(std::string_view text) {
  boost::system::error_code ec;
  json::value v = json::parse(text, ec);
  if (ec) return std::nullopt;
  return v;
}

// mapOpenAIStopReason.
void map_finish_reason(const json::value* reason, Completion& out) {
  std::string r = str(reason);
  if (reason == nullptr || reason->is_null() || r == "stop" || r == "end") {
    out.stop_reason = "stop";
  } else if (r == "length") {
    out.stop_reason = "length";
  } else if (r == "tool_calls" || r == "function_call") {
    out.stop_reason = "toolUse";
  } else {
    out.stop_reason = "error";
    out.error_message = "Provider finish_reason: " + r;
  }
}

// mapResponsesTerminalStopReason + resolveResponsesTerminalStopReason.
void map_responses_status(const json::value& response, bool tool_call, Completion& out) {
  std::string status = str(at(&response, "status"));
  std::string incomplete = str(at(at(&response, "incomplete_details"), "reason"));
  if (status == "incomplete" && incomplete == "content_filter") {
    out.stop_reason = "error";
    out.error_message = "Provider incomplete_reason: content_filter";
  } else if (status.empty() || status == "completed" || status == "in_progress" || status == "queued") {
    out.stop_reason = tool_call ? "toolUse" : "stop";
  } else if (status == "incomplete") {
    out.stop_reason = "length";
  } else {
    out.stop_reason = "error";
    std::string message = str(at(at(&response, "error"), "message"));
    out.error_message = message.empty() ? "response " + status : message;
  }
}

// mapAnthropicStopReason, with refusals as applyAnthropicRefusal words them.
void map_anthropic_stop(std::string_view reason, const json::value* details, Completion& out) {
  if (reason == "end_turn" || reason == "pause_turn" || reason == "stop_sequence" || reason == "compaction") {
    out.stop_reason = "stop";
  } else if (reason == "max_tokens" || reason == "model_context_window_exceeded") {
    out.stop_reason = "length";
  } else if (reason == "tool_use") {
    out.stop_reason = "toolUse";
  } else if (reason == "refusal") {
    std::string category = str(at(details, "category"));
    std::string explanation = str(at(details, "explanation"));
    out.stop_reason = "error";
    out.error_message = "Anthropic refusal" + (category.empty() ? "" : " (category: " + category + ")") +
                        (explanation.empty() ? "." : ": " + explanation);
  } else {
    out.stop_reason = "error";
    out.error_message = "Unhandled stop reason: " + std::string(reason);
  }
}

void append_text_parts(const json::value* parts, std::string_view type, Completion& out) {
  if (parts == nullptr || !parts->is_array()) return;
  for (const auto& part : parts->get_array()) {
    if (str(at(&part, "type")) == type) out.text += str(at(&part, "text"));
  }
}

// A whole Responses `response` object: its message texts and whether it called a function.
void read_responses_output(const json::value& response, Completion& out) {
  bool tool_call = false;
  if (const json::value* output = at(&response, "output"); output && output->is_array()) {
    for (const auto& item : output->get_array()) {
      std::string type = str(at(&item, "type"));
      if (type == "message") append_text_parts(at(&item, "content"), "output_text", out);
      if (type == "function_call") tool_call = true;
    }
  }
  map_responses_status(response, tool_call, out);
}

Completion provider_error(const json::value& event, std::string_view fallback) {
  Completion c;
  c.stop_reason = "error";
  const json::value* error = at(&event, "error");
  std::string message = error && error->is_string() ? str(error) : str(at(error, "message"));
  if (message.empty()) message = str(at(&event, "message"));
  c.error_message = error_excerpt(message.empty() ? fallback : message, "");
  return c;
}

}  // namespace

std::string error_excerpt(std::string_view body, std::string_view secret, size_t max) {
  std::string text(body);
  if (auto v = parse_json(body)) {
    const json::value* error = at(&*v, "error");
    std::string message = error && error->is_string() ? str(error) : str(at(error, "message"));
    if (message.empty()) message = str(at(&*v, "message"));
    if (!message.empty()) text = message;
  }
  if (!secret.empty()) {
    for (size_t pos = text.find(secret); pos != std::string::npos; pos = text.find(secret, pos + 3)) {
      text.replace(pos, secret.size(), "***");
    }
  }
  text = to_valid_utf8(text);
  std::string out;
  bool space = false;
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == 0x1b && i + 1 < text.size() && text[i + 1] == '[') {  // an ANSI CSI sequence: dropped whole
      for (i += 2; i < text.size() && !(text[i] >= 0x40 && text[i] <= 0x7e); ++i) {
      }
      continue;
    }
    if (c < 0x20 || c == 0x7f || c == ' ') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += static_cast<char>(c);
  }
  if (out.size() > max) {
    size_t cut = max;
    while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;  // whole code points
    out = out.substr(0, cut) + "\u2026";
  }
  return out.empty() ? "(no body)" : out;
}

Completion parse_completion(ModelApi api, int status, std::string_view body, std::string_view secret) {
  Completion out;
  out.http_status = status;
  if (status < 200 || status > 299) {
    out.stop_reason = "error";
    out.error_message = "HTTP " + std::to_string(status) + ": " + error_excerpt(body, secret);
    return out;
  }
  std::optional<json::value> v = parse_json(body);
  if (!v || !v->is_object()) {
    out.stop_reason = "error";
    out.error_message = "the response is not a JSON object: " + error_excerpt(body, secret, 120);
    return out;
  }
  if (const json::value* error = at(&*v, "error"); error && !error->is_null()) {
    Completion c = provider_error(*v, "the provider reported an error");
    c.http_status = status;
    return c;
  }
  switch (api) {
    case ModelApi::kOpenAiCompletions: {
      const json::value* choices = at(&*v, "choices");
      if (!choices || !choices->is_array() || choices->get_array().empty()) {
        out.stop_reason = "error";
        out.error_message = "the response has no choices";
        return out;
      }
      const json::value& choice = choices->get_array()[0];
      out.text = str(at(at(&choice, "message"), "content"));
      map_finish_reason(at(&choice, "finish_reason"), out);
      break;
    }
    case ModelApi::kOpenAiResponses:
      read_responses_output(*v, out);
      break;
    case ModelApi::kAnthropicMessages:
      append_text_parts(at(&*v, "content"), "text", out);
      map_anthropic_stop(str(at(&*v, "stop_reason")), at(&*v, "stop_details"), out);
      break;
  }
  return out;
}

void StreamDecoder::feed(std::string_view bytes) {
  buffer_.append(bytes);
  for (;;) {
    size_t lf = buffer_.find("\n\n");
    size_t crlf = buffer_.find("\r\n\r\n");
    size_t end = std::min(lf, crlf);
    if (end == std::string::npos) return;
    std::string block = buffer_.substr(0, end);
    buffer_.erase(0, end + (end == crlf ? 4 : 2));
    std::string event;
    std::string data;
    bool has_data = false;
    for (std::string_view line : split(block, '\n')) {
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      auto value = [&](size_t n) {
        std::string_view v = line.substr(n);
        return v.starts_with(" ") ? v.substr(1) : v;
      };
      if (line.starts_with("event:")) event = std::string(value(6));
      if (line.starts_with("data:")) {
        data += (has_data ? "\n" : "") + std::string(value(5));
        has_data = true;
      }
    }
    if (has_data && !done_) on_event(event, data);
  }
}

void StreamDecoder::on_event(std::string_view event, std::string_view data) {
  switch (api_) {
    case ModelApi::kOpenAiCompletions:
      return on_completions(data);
    case ModelApi::kOpenAiResponses:
      return on_responses(event, data);
    case ModelApi::kAnthropicMessages:
      return on_anthropic(event, data);
  }
}

void StreamDecoder::on_completions(std::string_view data) {
  if (trim_ascii(data) == "[DONE]") {
    done_ = true;
    return;
  }
  std::optional<json::value> v = parse_json(data);
  if (!v) return;
  if (const json::value* error = at(&*v, "error"); error && !error->is_null()) {
    out_ = provider_error(*v, "the provider reported an error");
    saw_finish_ = done_ = true;
    return;
  }
  const json::value* choices = at(&*v, "choices");
  if (!choices || !choices->is_array() || choices->get_array().empty()) return;  // e.g. the usage chunk
  const json::value& choice = choices->get_array()[0];
  out_.text += str(at(at(&choice, "delta"), "content"));
  const json::value* finish = at(&choice, "finish_reason");
  if (finish && !finish->is_null()) {
    map_finish_reason(finish, out_);
    saw_finish_ = true;
  }
}

void StreamDecoder::on_responses(std::string_view event, std::string_view data) {
  std::optional<json::value> v = parse_json(data);
  if (!v) return;
  std::string type = str(at(&*v, "type"));
  if (type.empty()) type = std::string(event);
  if (type == "response.output_text.delta") {
    out_.text += str(at(&*v, "delta"));
  } else if (type == "response.completed" || type == "response.incomplete" || type == "response.failed") {
    const json::value* response = at(&*v, "response");
    std::string streamed = std::move(out_.text);
    out_ = Completion{};
    if (response) read_responses_output(*response, out_);
    if (out_.text.empty()) out_.text = std::move(streamed);  // some servers send no output in the final event
    if (type == "response.incomplete" && out_.stop_reason == "stop") out_.stop_reason = "length";
    if (type == "response.failed" && out_.stop_reason != "error") {
      out_.stop_reason = "error";
      out_.error_message = "response failed";
    }
    saw_finish_ = done_ = true;
  } else if (type == "error") {
    out_ = provider_error(*v, "the provider reported an error");
    saw_finish_ = done_ = true;
  }
}

void StreamDecoder::on_anthropic(std::string_view event, std::string_view data) {
  std::optional<json::value> v = parse_json(data);
  if (!v) return;
  std::string type = str(at(&*v, "type"));
  if (type.empty()) type = std::string(event);
  if (type == "content_block_delta") {
    const json::value* delta = at(&*v, "delta");
    if (str(at(delta, "type")) == "text_delta") out_.text += str(at(delta, "text"));
  } else if (type == "message_delta") {
    const json::value* delta = at(&*v, "delta");
    std::string reason = str(at(delta, "stop_reason"));
    if (!reason.empty()) {
      map_anthropic_stop(reason, at(delta, "stop_details"), out_);
      saw_finish_ = true;
    }
  } else if (type == "message_stop") {
    done_ = true;
  } else if (type == "error") {
    out_ = provider_error(*v, "the provider reported an error");
    saw_finish_ = done_ = true;
  }
}

Completion StreamDecoder::finish(int status) {
  if (!buffer_.empty() && !done_) feed("\n\n");  // a last event without its blank line
  Completion out = out_;
  out.http_status = status;
  if (!saw_finish_ && done_) {
    out.stop_reason = "stop";  // [DONE] or message_stop without a reason: a normal end
  } else if (!saw_finish_) {
    out.stop_reason = "error";
    out.error_message = "stream ended before the model finished";
  }
  return out;
}

}  // namespace clawexec::net
