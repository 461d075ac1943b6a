#pragma once
// JSON-RPC 2.0 messages as MCP uses them over newline-delimited streams: classifying an
// incoming line (request, notification, response, or an error to answer) and building replies.

#include <optional>
#include <string>
#include <string_view>

#include "json/json.h"

namespace clawexec::rpc {

/// Standard JSON-RPC error codes.
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;

struct Incoming {
  enum class Kind { kRequest, kNotification, kResponse, kInvalid };
  Kind kind = Kind::kInvalid;
  json::Value id;  // null for notifications and unidentifiable messages
  std::string method;
  json::Value params;  // null when absent
  // For kResponse: the result, or the error object ({code, message, data?}).
  json::Value result;
  json::Value error;
  // For kInvalid: the error to send back (with `id` when it could be read).
  int error_code = 0;
  std::string error_message;
};

/// Classifies one line of input.
Incoming parse_message(std::string_view line);

std::string make_result(const json::Value& id, json::Value result);
std::string make_error(const json::Value& id, int code, std::string_view message,
                       std::optional<json::Value> data = std::nullopt);
std::string make_notification(std::string_view method, json::Value params);
std::string make_request(const json::Value& id, std::string_view method, json::Value params);

}  // namespace clawexec::rpc
