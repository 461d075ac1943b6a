#pragma once
// What goes over the wire to a language model and what comes back, without the network: the
// request for each API (OpenAI chat completions, OpenAI responses, Anthropic messages), the
// parsing of a whole JSON answer or of an SSE stream fed in arbitrary pieces, and the stop
// reason normalised the way OpenClaw's model layer (@openclaw/ai) does:
//   "stop" | "length" | "toolUse" | "error" | "aborted".
// model_client.h moves these bytes; keeping them pure lets them be tested without a server.
//
// Facts from @openclaw/ai (OpenClaw 2026.9.6):
// * URLs: completions POST {baseUrl}/chat/completions, responses POST {baseUrl}/responses,
//   Anthropic POST {baseUrl}/messages when baseUrl ends in /v1, else {baseUrl}/v1/messages
//   (trailing slashes dropped first).
// * Completions body: {model, messages: [system, user], stream, temperature,
//   max_completion_tokens | max_tokens (compat.maxTokensField)}, plus stream_options
//   {include_usage} when streaming. Responses body: {model, input: [system|developer message,
//   user message] with input_text parts, stream, store: false, max_output_tokens (>= 16),
//   temperature unless the model does not take one}. Anthropic body: {model, messages, system
//   (text blocks), max_tokens, stream, temperature}; headers x-api-key, anthropic-version
//   2023-06-01.
// * finish_reason stop/end/null -> stop, length -> length, tool_calls/function_call -> toolUse,
//   anything else -> error "Provider finish_reason: <reason>". Responses status completed ->
//   stop (toolUse with a function call), incomplete -> length (content_filter -> error),
//   failed/cancelled -> error. Anthropic end_turn/pause_turn/stop_sequence -> stop, max_tokens
//   -> length, tool_use -> toolUse, refusal -> error "Anthropic refusal...".

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"
#include "config/model_providers.h"

namespace clawexec::net {

struct CompletionRequest {
  std::string system;
  std::string user;
  int64_t max_tokens = 360;
  double temperature = 0;
  /// Bounds the whole call: resolve, connect, TLS, request and the complete response.
  std::chrono::milliseconds timeout{30000};
  /// Ask for server-sent events and assemble the text from them.
  bool stream = false;
};

struct Completion {
  std::string text;         // the text parts joined, as the model sent them
  std::string stop_reason;  // stop | length | toolUse | error | aborted
  std::string error_message;  // set with stop_reason "error": what the provider said
  std::optional<int> http_status;  // the response's status, when one arrived
};

struct BaseUrl {
  bool tls = false;
  std::string host;  // without brackets for IPv6
  uint16_t port = 0;
  std::string path;  // the path prefix, no trailing slash ("" or "/v1")
};

/// Parses an http:// or https:// base URL. Errors name the URL (it carries no secret: keys
/// never go in URLs here).
Result<BaseUrl> parse_base_url(std::string_view url);

struct WireRequest {
  std::string target;  // path to POST to
  std::vector<std::pair<std::string, std::string>> headers;  // includes the credential
  std::string body;
};

/// The HTTP request for `endpoint`'s API. Endpoint headers come last and win.
WireRequest build_wire_request(const config::ModelEndpoint& endpoint, const BaseUrl& base,
                               const CompletionRequest& request);

/// Interprets a whole (non-streamed) response. A non-2xx status is a Completion with stop
/// reason "error" and "HTTP <status>: <excerpt>", where the excerpt is the provider's error
/// message (or the body), sanitised, bounded and with `secret` masked.
Completion parse_completion(config::ModelApi api, int status, std::string_view body, std::string_view secret);

/// The provider's error text for a failed response: error.message from a JSON body, else the
/// body; control characters become spaces, runs of white space collapse, invalid UTF-8 is
/// replaced, `secret` (when non-empty) becomes "***", and it is cut to `max` bytes with "…".
std::string error_excerpt(std::string_view body, std::string_view secret, size_t max = 300);

/// Assembles a streamed (SSE) answer from pieces of the body as they arrive.
class StreamDecoder {
 public:
  explicit StreamDecoder(config::ModelApi api) : api_(api) {}
  /// Feeds more body bytes; complete events are applied at once.
  void feed(std::string_view bytes);
  /// True once the terminal event arrived ([DONE], response.completed, message_stop, error).
  bool done() const { return done_; }
  /// The answer so far; call after the body ended. A stream that ended without any terminal
  /// event is an error ("stream ended before the model finished").
  Completion finish(int status);

 private:
  void on_event(std::string_view event, std::string_view data);
  void on_completions(std::string_view data);
  void on_responses(std::string_view event, std::string_view data);
  void on_anthropic(std::string_view event, std::string_view data);

  config::ModelApi api_;
  std::string buffer_;
  Completion out_;
  bool saw_finish_ = false;  // a stop reason arrived
  bool done_ = false;
};

}  // namespace clawexec::net
