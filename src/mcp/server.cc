// MCP method dispatch. Protocol errors (malformed JSON, bad requests, unknown methods or tools)
// are JSON-RPC errors; everything a tool reports, including arguments that fail the tool
// schema and the errors the reference "throws", is a tool result with isError set, so the
// model reads it (MCP 2025-11-25: input validation errors are tool execution errors). A
// request the client cancelled gets no response (MCP: the receiver should not answer it).
//
// What the model sees: Claude Code and Codex hand the model `structuredContent` instead of
// the text when a result carries it, so by default a result is the text alone and `details`
// travel in `_meta["clawexec/details"]` without the output copies the text already holds.
// A client that declares the experimental capability "clawexec/structuredContent", or every
// client when the operator sets ServerOptions::structured_content, gets `structuredContent`
// = details (docs/tools.md "What the model sees").

#include "mcp/server.h"

#include <algorithm>
#include <boost/asio/post.hpp>

#include "base/strings.h"
#include "mcp/elicitation_schema.h"
#include "exec/sandbox_call.h"
#include "rpc/jsonrpc.h"
#include "tools/tool_catalog.h"
#include "tools/tool_schema.h"

namespace clawexec::mcp {
namespace {

constexpr std::string_view kLevels[] = {"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"};

int level_index(std::string_view level) {
  for (size_t i = 0; i < std::size(kLevels); ++i) {
    if (kLevels[i] == level) return static_cast<int>(i);
  }
  return -1;
}

json::Object tool_entry(const tools::ToolSpec& spec) {
  json::Object tool;
  tool["name"] = spec.name;
  tool["title"] = spec.title;
  tool["description"] = spec.description;
  tool["inputSchema"] = tools::input_schema(spec);
  return tool;
}

// Details members that copy output the text already shows: left out of `_meta` so nothing
// is sent twice (`aggregated` of exec and poll results, `output` of log results).
constexpr std::string_view kOutputCopies[] = {"aggregated", "output"};

json::Object call_result(const tools::ToolResult& r, DetailsPlacement placement) {
  json::Object text;
  text["type"] = "text";
  text["text"] = r.text;
  json::Object result;
  result["content"] = json::Array{std::move(text)};
  bool failed = r.is_error;
  if (r.details) {
    const json::Value* status = json::find(*r.details, "status");
    failed = failed || (status && status->is_string() && status->get_string() == "failed");
    if (placement == DetailsPlacement::kStructuredContent) {
      result["structuredContent"] = *r.details;
    } else {
      json::Object details = *r.details;
      for (std::string_view key : kOutputCopies) details.erase(key);
      result["_meta"] = json::Object{{kDetailsMetaKey, std::move(details)}};
    }
  }
  result["isError"] = failed;
  return result;
}

std::string string_member(const json::Value& object, std::string_view key) {
  const json::Value* v = object.is_object() ? json::find(object.get_object(), key) : nullptr;
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

// The model Codex names per call: `_meta["x-codex-turn-metadata"].model` (the metadata is an
// object; its JSON text is accepted too). Empty when the call names none.
std::string per_call_model(const json::Object& params) {
  const json::Value* meta = json::find(params, "_meta");
  const json::Value* turn = meta && meta->is_object() ? json::find(meta->get_object(), kCodexTurnMetadataMetaKey) : nullptr;
  if (!turn) return {};
  if (turn->is_object()) return string_member(*turn, "model");
  if (!turn->is_string()) return {};
  std::optional<json::Value> parsed = json::parse(std::string_view(turn->get_string()));
  return parsed ? string_member(*parsed, "model") : std::string();
}

}  // namespace

Server::Server(exec::ExecService& service, Send send, ServerOptions options)
    : service_(service),
      send_(std::move(send)),
      options_(std::move(options)),
      peer_("the client", "clawexec-",
            {[this](const json::Value& id, const std::string& method, const json::Value& params,
                    const rpc::Channel& reply) { handle_request(id, method, params, reply); },
             [this](const std::string& method, const json::Value& params) { handle_notification(method, params); }}),
      client_(std::make_shared<exec::ClientSession>()) {
  client_->scope_key = options_.scope_key;
  client_->session_key = options_.session_key;
  client_->pending_approvals = options_.pending_approvals;
  client_->defaults = options_.exec_defaults;
  client_->continuation_available = tools::continuation_available(service_.config(), audience().sandboxed);
  std::weak_ptr<bool> alive = alive_;
  client_->notify = [this, alive](const std::string& session_id, const std::string& text) {
    if (!alive.expired()) send_exec_event(session_id, text);
  };
}

Server::~Server() {
  *alive_ = false;
  peer_.close("the MCP connection closed before the client answered");
}

void Server::handle_line(std::string_view line) { peer_.receive(line, send_); }

void Server::handle_line(std::string_view line, const rpc::Channel& reply) { peer_.receive(line, reply); }

void Server::handle_oversized(size_t bytes) {
  send_(rpc::make_error(nullptr, rpc::kInvalidRequest,
                        "Invalid Request: message of " + std::to_string(bytes) +
                            " bytes exceeds the server's line limit and was discarded"));
}

void Server::handle_request(const json::Value& id, const std::string& method, const json::Value& params,
                            const rpc::Channel& reply) {
  if (!params.is_null() && !params.is_object()) {
    reply(rpc::make_error(id, rpc::kInvalidParams, "Invalid params: " + method + " takes an object"));
    return;
  }
  if (method == "initialize") return initialize(id, params, reply);
  if (method == "ping") return reply(rpc::make_result(id, json::Object()));
  if (method == "tools/list") {
    json::Array listed;
    for (const tools::ToolSpec* spec : tools::offered_tools(service_.config(), audience())) listed.emplace_back(tool_entry(*spec));
    return reply(rpc::make_result(id, json::Object{{"tools", std::move(listed)}}));
  }
  if (method == "tools/call") return call_tool(id, params, reply);
  if (method == "logging/setLevel") return set_level(id, params, reply);
  reply(rpc::make_error(id, rpc::kMethodNotFound, "Method not found: " + method));
}

void Server::handle_notification(const std::string& method, const json::Value& params) {
  if (method != "notifications/cancelled" || !params.is_object()) return;
  const json::Value* request_id = json::find(params.get_object(), "requestId");
  if (!request_id) return;
  auto it = in_flight_.find(json::serialize(*request_id));
  if (it == in_flight_.end()) return;
  std::shared_ptr<exec::CancelSignal> signal = it->second;
  in_flight_.erase(it);
  signal->cancel();
}

void Server::initialize(const json::Value& id, const json::Value& params, const rpc::Channel& reply) {
  std::string version(kProtocolVersions[0]);
  if (params.is_object()) {
    const json::Value* caps = json::find(params.get_object(), "capabilities");
    const json::Value* elicitation = caps && caps->is_object() ? json::find(caps->get_object(), "elicitation") : nullptr;
    client_elicitation_ = elicitation && elicitation->is_object();
    // clawexec.mcp.elicitation = "off": every approval takes the pending-approval path.
    if (client_elicitation_ && options_.elicitation) {
      std::weak_ptr<bool> alive = alive_;
      client_->elicit = [this, alive](exec::ElicitForm form, std::function<void(Result<json::Object>)> answer) {
        if (alive.expired()) return answer(Error{ErrorCode::kCancelled, 0, "the MCP connection is closed"});
        json::Object request{{"message", form.message}, {"requestedSchema", elicitation_schema(form, protocol_version_)}};
        peer_.request(send_, "elicitation/create", std::move(request), [answer = std::move(answer)](Result<json::Value> result) {
          if (!result.ok()) return answer(result.error());
          if (!result->is_object()) return answer(Error::rejected("elicitation/create: the client's result is not an object"));
          answer(result->get_object());
        });
      };
    }
    const json::Value* experimental = caps && caps->is_object() ? json::find(caps->get_object(), "experimental") : nullptr;
    const json::Value* structured = experimental && experimental->is_object()
                                        ? json::find(experimental->get_object(), kStructuredContentCapability)
                                        : nullptr;
    client_structured_content_ = structured && structured->is_object();
    client_model_ = string_member(params, "model");
    if (client_model_.empty()) {
      const json::Value* meta = json::find(params.get_object(), "_meta");
      if (meta) client_model_ = string_member(*meta, "model");
    }
    const json::Value* requested = json::find(params.get_object(), "protocolVersion");
    if (requested && requested->is_string() &&
        std::find(std::begin(kProtocolVersions), std::end(kProtocolVersions), requested->get_string()) !=
            std::end(kProtocolVersions)) {
      version = std::string(requested->get_string());
    }
  }
  protocol_version_ = version;
  json::Object result;
  result["protocolVersion"] = version;
  result["capabilities"] = json::Object{{"tools", json::Object{{"listChanged", false}}}, {"logging", json::Object()}};
  result["serverInfo"] = json::Object{{"name", options_.name}, {"title", "clawexec"}, {"version", options_.version}};
  result["instructions"] =
      "Run shell commands with exec (foreground, or background with yieldMs/background) and follow up on "
      "background sessions with process (list/poll/log/write/send-keys/submit/paste/kill/clear/remove).";
  reply(rpc::make_result(id, std::move(result)));
}

void Server::set_level(const json::Value& id, const json::Value& params, const rpc::Channel& reply) {
  const json::Value* level = params.is_object() ? json::find(params.get_object(), "level") : nullptr;
  int index = level && level->is_string() ? level_index(level->get_string()) : -1;
  if (index < 0) {
    reply(rpc::make_error(id, rpc::kInvalidParams,
                          "Invalid params: level must be one of debug, info, notice, warning, error, critical, "
                          "alert, emergency"));
    return;
  }
  min_level_ = index;
  reply(rpc::make_result(id, json::Object()));
}

namespace {

// `_meta["openclaw/channelContext"] = {"sender": {"id": "..."}, "chat": {"id": "..."}}`: the
// chat identity a gateway or bridge forwards with a call (docs/tools.md "Channel context").
// Anything else in that place is ignored, as are non-string ids.
void read_channel_context(const json::Object& params, exec::CallOptions& ctx) {
  const json::Value* meta = json::find(params, "_meta");
  if (!meta || !meta->is_object()) return;
  const json::Value* channel = json::find(meta->get_object(), kChannelContextMetaKey);
  if (!channel || !channel->is_object()) return;
  auto id_of = [&](std::string_view member) -> std::string {
    const json::Value* holder = json::find(channel->get_object(), member);
    if (!holder || !holder->is_object()) return {};
    const json::Value* id = json::find(holder->get_object(), "id");
    return id && id->is_string() ? std::string(id->get_string()) : std::string();
  };
  ctx.channel_sender_id = id_of("sender");
  ctx.channel_chat_id = id_of("chat");
  // The chat channel (tools.elevated.allowFrom.<provider>); without one the client's ("mcp").
  if (const json::Value* provider = json::find(channel->get_object(), "provider"); provider && provider->is_string()) {
    ctx.channel_provider = lower_trimmed(provider->get_string());
  }
}

}  // namespace

void Server::call_tool(const json::Value& id, const json::Value& params, const rpc::Channel& reply) {
  const json::Value* name = params.is_object() ? json::find(params.get_object(), "name") : nullptr;
  if (!name || !name->is_string()) {
    reply(rpc::make_error(id, rpc::kInvalidParams, "Invalid params: tools/call needs a string \"name\""));
    return;
  }
  const tools::ToolSpec* spec = tools::find_offered_tool(service_.config(), audience(), name->get_string());
  if (!spec) {
    reply(rpc::make_error(id, rpc::kInvalidParams, tools::unavailable_text(service_.config(), audience(), name->get_string())));
    return;
  }
  if (spec == &tools::apply_patch_tool_spec()) {
    std::string call_model = per_call_model(params.get_object());
    if (lower_trimmed(call_model).empty()) call_model = model();
    if (std::optional<std::string> refusal = tools::apply_patch_refusal(service_.config().exec.apply_patch, call_model)) {
      reply(rpc::make_result(id, call_result(tools::ToolResult::thrown(*refusal), details_placement())));
      return;
    }
  }
  const json::Value* raw_args = json::find(params.get_object(), "arguments");
  Result<json::Object> args = tools::validate_arguments(*spec, raw_args ? *raw_args : json::Value(nullptr));
  if (!args.ok()) {
    reply(rpc::make_result(id, call_result(tools::ToolResult::thrown(args.error().message), details_placement())));
    return;
  }
  std::string key = json::serialize(id);
  auto cancel = std::make_shared<exec::CancelSignal>();
  in_flight_[key] = cancel;
  exec::CallOptions call{cancel, {}, {}};
  read_channel_context(params.get_object(), call);
  tools::ToolDone done = [this, alive = std::weak_ptr<bool>(alive_), id, key, cancel, reply](tools::ToolResult result) {
    if (alive.expired()) return;  // the connection is gone: nobody reads the answer
    auto it = in_flight_.find(key);
    if (it != in_flight_.end() && it->second == cancel) in_flight_.erase(it);
    if (cancel->cancelled()) return;
    reply(rpc::make_result(id, call_result(result, details_placement())));
  };
  tools::call_tool(service_, *spec, *args, client_, std::move(call), std::move(done));
}

std::string Server::model() const { return client_model_.empty() ? options_.model_id : client_model_; }

tools::Audience Server::audience() const {
  return {model(), exec::session_sandboxed(service_.config(), client_->session_key)};
}

DetailsPlacement Server::details_placement() const {
  return client_structured_content_ || options_.structured_content ? DetailsPlacement::kStructuredContent
                                                                    : DetailsPlacement::kMeta;
}

void Server::send_exec_event(const std::string& session_id, const std::string& text) {
  bool failed = text.rfind("Exec failed", 0) == 0;
  int level = level_index(failed ? "warning" : "notice");
  if (level < min_level_) return;
  json::Object params;
  params["level"] = kLevels[level];
  params["logger"] = "exec";
  params["data"] = text;
  if (!session_id.empty()) params["_meta"] = json::Object{{"sessionId", session_id}};
  send_(rpc::make_notification("notifications/message", std::move(params)));
}

}  // namespace clawexec::mcp
