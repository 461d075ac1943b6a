// JSON-RPC 2.0 framing rules: a request has a string or integer id and a string method; a
// notification has a method and no id; a response has an id and result or error. Anything
// else gets -32600 (or -32700 when the line is not JSON at all). Batches (JSON arrays) were
// removed from MCP in 2025-06-18 and are answered with -32600.

#include "rpc/jsonrpc.h"

namespace clawexec::rpc {
namespace {

Incoming invalid(json::Value id, int code, std::string message) {
  Incoming in;
  in.kind = Incoming::Kind::kInvalid;
  in.id = std::move(id);
  in.error_code = code;
  in.error_message = std::move(message);
  return in;
}

bool valid_id(const json::Value& id) { return id.is_string() || id.is_int64() || id.is_uint64(); }

}  // namespace

Incoming parse_message(std::string_view line) {
  std::optional<json::Value> parsed = json::parse(line);
  if (!parsed) return invalid(nullptr, kParseError, "Parse error: the message is not valid JSON");
  if (parsed->is_array()) return invalid(nullptr, kInvalidRequest, "Invalid Request: JSON-RPC batches are not supported");
  if (!parsed->is_object()) return invalid(nullptr, kInvalidRequest, "Invalid Request: a message must be a JSON object");
  json::Object& obj = parsed->get_object();
  const json::Value* id = json::find(obj, "id");
  json::Value id_value = id && valid_id(*id) ? *id : json::Value(nullptr);
  const json::Value* version = json::find(obj, "jsonrpc");
  if (!version || !version->is_string() || version->get_string() != "2.0") {
    return invalid(id_value, kInvalidRequest, "Invalid Request: \"jsonrpc\" must be \"2.0\"");
  }
  if (id && !id->is_null() && !valid_id(*id)) {
    return invalid(nullptr, kInvalidRequest, "Invalid Request: \"id\" must be a string or an integer");
  }
  const json::Value* method = json::find(obj, "method");
  if (!method) {
    if (id && (obj.contains("result") || obj.contains("error"))) {
      Incoming in;
      in.kind = Incoming::Kind::kResponse;
      in.id = *id;
      if (const json::Value* result = json::find(obj, "result")) in.result = *result;
      if (const json::Value* error = json::find(obj, "error")) in.error = *error;
      return in;
    }
    return invalid(id_value, kInvalidRequest, "Invalid Request: \"method\" is missing");
  }
  if (!method->is_string()) return invalid(id_value, kInvalidRequest, "Invalid Request: \"method\" must be a string");
  Incoming in;
  in.method = std::string(method->get_string());
  if (const json::Value* params = json::find(obj, "params")) {
    if (!params->is_object() && !params->is_array()) {
      return invalid(id_value, kInvalidRequest, "Invalid Request: \"params\" must be an object or an array");
    }
    in.params = *params;
  }
  if (id && !id->is_null()) {
    in.kind = Incoming::Kind::kRequest;
    in.id = *id;
  } else {
    in.kind = Incoming::Kind::kNotification;
  }
  return in;
}

std::string make_result(const json::Value& id, json::Value result) {
  json::Object msg;
  msg["jsonrpc"] = "2.0";
  msg["id"] = id;
  msg["result"] = std::move(result);
  return json::serialize(msg);
}

std::string make_error(const json::Value& id, int code, std::string_view message, std::optional<json::Value> data) {
  json::Object err;
  err["code"] = code;
  err["message"] = message;
  if (data) err["data"] = std::move(*data);
  json::Object msg;
  msg["jsonrpc"] = "2.0";
  msg["id"] = id;
  msg["error"] = std::move(err);
  return json::serialize(msg);
}

std::string make_notification(std::string_view method, json::Value params) {
  json::Object msg;
  msg["jsonrpc"] = "2.0";
  msg["method"] = method;
  msg["params"] = std::move(params);
  return json::serialize(msg);
}

std::string make_request(const json::Value& id, std::string_view method, json::Value params) {
  json::Object msg;
  msg["jsonrpc"] = "2.0";
  msg["id"] = id;
  msg["method"] = method;
  msg["params"] = std::move(params);
  return json::serialize(msg);
}

}  // namespace clawexec::rpc
