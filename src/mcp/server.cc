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
#include "exec/tool_schema.h"
#include "mcp/apply_patch_options.h"
#include "mcp/elicitation_schema.h"
#include "patch/file_ops.h"
#include "rpc/jsonrpc.h"
#include "sys/sys.h"

namespace clawexec::mcp {
namespace {

constexpr std::string_view kLevels[] = {"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"};

int level_index(std::string_view level) {
  for (size_t i = 0; i < std::size(kLevels); ++i) {
    if (kLevels[i] == level) return static_cast<int>(i);
  }
  return -1;
}

json::Object tool_entry(const exec::ToolSpec& spec) {
  json::Object tool;
  tool["name"] = spec.name;
  tool["title"] = spec.title;
  tool["description"] = spec.description;
  tool["inputSchema"] = exec::input_schema(spec);
  return tool;
}

// Details members that copy output the text already shows: left out of `_meta` so nothing
// is sent twice (`aggregated` of exec and poll results, `output` of log results).
constexpr std::string_view kOutputCopies[] = {"aggregated", "output"};

json::Object call_result(const exec::ToolResult& r, DetailsPlacement placement) {
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

const exec::ToolSpec* find_tool(std::string_view name, bool with_apply_patch) {
  if (name == exec::exec_tool_spec().name) return &exec::exec_tool_spec();
  if (name == exec::process_tool_spec().name) return &exec::process_tool_spec();
  if (with_apply_patch && name == exec::apply_patch_tool_spec().name) return &exec::apply_patch_tool_spec();
  return nullptr;
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

bool model_allowed(const std::vector<std::string>& allow_models, const std::string& model) {
  std::string wanted = lower_trimmed(model);
  return std::any_of(allow_models.begin(), allow_models.end(),
                     [&](const std::string& entry) { return lower_trimmed(entry) == wanted; });
}

exec::ToolResult patch_result(Result<patch::PatchSummary> applied) {
  if (!applied.ok()) return exec::ToolResult::thrown(applied.error().message);
  auto strings = [](const std::vector<std::string>& v) {
    json::Array a;
    for (const std::string& s : v) a.emplace_back(s);
    return a;
  };
  const patch::PatchSummary& s = *applied;
  json::Object summary{{"added", strings(s.added)}, {"modified", strings(s.modified)}, {"deleted", strings(s.deleted)}};
  return exec::ToolResult{patch::summary_text(s), json::Object{{"summary", std::move(summary)}}, false};
}

}  // namespace

Server::Server(exec::ExecService& service, Send send, ServerOptions options)
    : service_(service), send_(std::move(send)), options_(std::move(options)) {}

void Server::handle_line(std::string_view line) {
  if (line.find_first_not_of(" \t\r") == std::string_view::npos) return;  // blank keep-alive lines
  rpc::Incoming in = rpc::parse_message(line);
  switch (in.kind) {
    case rpc::Incoming::Kind::kInvalid:
      send_(rpc::make_error(in.id, in.error_code, in.error_message));
      return;
    case rpc::Incoming::Kind::kResponse: {
      auto it = outgoing_.find(json::serialize(in.id));
      if (it == outgoing_.end()) return;  // not ours (or answered twice)
      auto done = std::move(it->second);
      outgoing_.erase(it);
      if (!in.error.is_null()) {
        const json::Value* message = in.error.is_object() ? json::find(in.error.get_object(), "message") : nullptr;
        std::string text = message && message->is_string() ? std::string(message->get_string()) : json::serialize(in.error);
        return done(Error::rejected("the client answered with an error: " + text));
      }
      return done(std::move(in.result));
    }
    case rpc::Incoming::Kind::kNotification:
      handle_notification(in.method, in.params);
      return;
    case rpc::Incoming::Kind::kRequest:
      handle_request(in.id, in.method, in.params);
      return;
  }
}

void Server::handle_oversized(size_t bytes) {
  send_(rpc::make_error(nullptr, rpc::kInvalidRequest,
                        "Invalid Request: message of " + std::to_string(bytes) +
                            " bytes exceeds the server's line limit and was discarded"));
}

void Server::handle_request(const json::Value& id, const std::string& method, const json::Value& params) {
  if (!params.is_null() && !params.is_object()) {
    send_(rpc::make_error(id, rpc::kInvalidParams, "Invalid params: " + method + " takes an object"));
    return;
  }
  if (method == "initialize") return initialize(id, params);
  if (method == "ping") return send_(rpc::make_result(id, json::Object()));
  if (method == "tools/list") {
    json::Array tools{tool_entry(exec::exec_tool_spec()), tool_entry(exec::process_tool_spec())};
    if (apply_patch_available()) tools.emplace_back(tool_entry(exec::apply_patch_tool_spec()));
    return send_(rpc::make_result(id, json::Object{{"tools", std::move(tools)}}));
  }
  if (method == "tools/call") return call_tool(id, params);
  if (method == "logging/setLevel") return set_level(id, params);
  send_(rpc::make_error(id, rpc::kMethodNotFound, "Method not found: " + method));
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

void Server::initialize(const json::Value& id, const json::Value& params) {
  std::string version(kProtocolVersions[0]);
  if (params.is_object()) {
    const json::Value* caps = json::find(params.get_object(), "capabilities");
    const json::Value* elicitation = caps && caps->is_object() ? json::find(caps->get_object(), "elicitation") : nullptr;
    client_elicitation_ = elicitation && elicitation->is_object();
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
  send_(rpc::make_result(id, std::move(result)));
}

void Server::set_level(const json::Value& id, const json::Value& params) {
  const json::Value* level = params.is_object() ? json::find(params.get_object(), "level") : nullptr;
  int index = level && level->is_string() ? level_index(level->get_string()) : -1;
  if (index < 0) {
    send_(rpc::make_error(id, rpc::kInvalidParams,
                          "Invalid params: level must be one of debug, info, notice, warning, error, critical, "
                          "alert, emergency"));
    return;
  }
  min_level_ = index;
  send_(rpc::make_result(id, json::Object()));
}

namespace {

// `_meta["openclaw/channelContext"] = {"sender": {"id": "..."}, "chat": {"id": "..."}}`: the
// chat identity a gateway or bridge forwards with a call (docs/tools.md "Channel context").
// Anything else in that place is ignored, as are non-string ids.
void read_channel_context(const json::Object& params, exec::CallContext& ctx) {
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
}

}  // namespace

void Server::call_tool(const json::Value& id, const json::Value& params) {
  const json::Value* name = params.is_object() ? json::find(params.get_object(), "name") : nullptr;
  if (!name || !name->is_string()) {
    send_(rpc::make_error(id, rpc::kInvalidParams, "Invalid params: tools/call needs a string \"name\""));
    return;
  }
  const exec::ToolSpec* spec = find_tool(name->get_string(), apply_patch_available());
  if (!spec) {
    send_(rpc::make_error(id, rpc::kInvalidParams, "Unknown tool: " + std::string(name->get_string())));
    return;
  }
  const json::Value* raw_args = json::find(params.get_object(), "arguments");
  Result<json::Object> args = exec::validate_arguments(*spec, raw_args ? *raw_args : json::Value(nullptr));
  if (!args.ok()) {
    send_(rpc::make_result(id, call_result(exec::ToolResult::thrown(args.error().message), details_placement())));
    return;
  }
  std::string key = json::serialize(id);
  auto cancel = std::make_shared<exec::CancelSignal>();
  in_flight_[key] = cancel;
  exec::CallContext ctx{options_.scope_key, cancel};
  ctx.pending_approvals = options_.pending_approvals;
  read_channel_context(params.get_object(), ctx);
  if (client_elicitation_ && options_.elicitation) {
    std::weak_ptr<bool> alive = alive_;
    ctx.stop_eliciting = [this, alive] {
      if (!alive.expired()) client_elicitation_ = false;
    };
    ctx.elicit = [this, alive](exec::ElicitForm form, std::function<void(Result<json::Object>)> answer) {
      if (alive.expired()) return answer(Error{ErrorCode::kCancelled, 0, "the MCP connection is closed"});
      json::Object request_params{{"message", form.message}, {"requestedSchema", elicitation_schema(form, protocol_version_)}};
      request("elicitation/create", std::move(request_params), [answer = std::move(answer)](Result<json::Value> result) {
        if (!result.ok()) return answer(result.error());
        if (!result->is_object()) return answer(Error::rejected("elicitation/create: the client's result is not an object"));
        answer(result->get_object());
      });
    };
  }
  exec::ToolDone done = [this, id, key, cancel](exec::ToolResult result) {
    auto it = in_flight_.find(key);
    if (it != in_flight_.end() && it->second == cancel) in_flight_.erase(it);
    if (cancel->cancelled()) return;
    send_(rpc::make_result(id, call_result(result, details_placement())));
  };
  if (spec == &exec::apply_patch_tool_spec()) {
    if (std::optional<std::string> refusal = apply_patch_refusal(params.get_object())) {
      return done(exec::ToolResult::thrown(*refusal));
    }
    apply_patch(*args, std::move(done));
  } else if (spec == &exec::exec_tool_spec()) {
    service_.exec(*args, std::move(ctx), std::move(done));
  } else {
    service_.process(*args, std::move(ctx), std::move(done));
  }
}

DetailsPlacement Server::details_placement() const {
  return client_structured_content_ || options_.structured_content ? DetailsPlacement::kStructuredContent
                                                                    : DetailsPlacement::kMeta;
}

bool Server::apply_patch_available() const {
  const config::ApplyPatchSettings& settings = service_.config().exec.apply_patch;
  if (!settings.enabled) return false;
  if (!settings.allow_models || settings.allow_models->empty()) return true;
  // With no model known yet the tool is listed: Codex names its model only per call, and
  // apply_patch_refusal checks every call (a call naming no model is refused there).
  std::string model = client_model_.empty() ? options_.model_id : client_model_;
  return lower_trimmed(model).empty() || model_allowed(*settings.allow_models, model);
}

std::optional<std::string> Server::apply_patch_refusal(const json::Object& call_params) const {
  const config::ApplyPatchSettings& settings = service_.config().exec.apply_patch;
  if (!settings.allow_models || settings.allow_models->empty()) return std::nullopt;
  std::string model = per_call_model(call_params);
  if (lower_trimmed(model).empty()) model = client_model_.empty() ? options_.model_id : client_model_;
  if (lower_trimmed(model).empty()) {
    // Like the reference, an allow-list matches no unknown model.
    return std::string(
        "apply_patch is not available: tools.exec.applyPatch.allowModels is set and this call names no model "
        "(initialize params.model or params._meta.model, tools/call _meta[\"x-codex-turn-metadata\"].model, "
        "or clawexec serve --model).");
  }
  if (!model_allowed(*settings.allow_models, model)) {
    return "apply_patch is not available to model \"" + model + "\": tools.exec.applyPatch.allowModels does not list it.";
  }
  return std::nullopt;
}

// The patch runs on the service's background thread (it reads and fsyncs files); its result
// comes back to the io thread, and is dropped if this connection is gone by then.
void Server::apply_patch(const json::Object& args, exec::ToolDone done) {
  std::string input = string_member(args, "input");
  if (input.find_first_not_of(" \t\r\n") == std::string::npos) {
    return done(exec::ToolResult::thrown("Provide a patch input."));
  }
  const exec::ServiceConfig& config = service_.config();
  patch::PatchOptions options = apply_patch_options(
      config, config.default_cwd.empty() ? sys::current_directory().value_or(std::string("/")) : config.default_cwd);
  std::weak_ptr<bool> alive = alive_;
  boost::asio::io_context& io = service_.io();
  service_.post_background([input = std::move(input), options, alive, &io, done = std::move(done)]() mutable {
    exec::ToolResult result = patch_result(patch::apply_patch_to_workspace(input, options));
    boost::asio::post(io, [alive, done = std::move(done), result = std::move(result)]() mutable {
      if (!alive.expired()) done(std::move(result));
    });
  });
}

Server::~Server() {
  *alive_ = false;
  auto pending = std::move(outgoing_);
  for (auto& [id, done] : pending) {
    done(Error{ErrorCode::kCancelled, 0, "the MCP connection closed before the client answered"});
  }
}

void Server::request(const std::string& method, json::Object params, std::function<void(Result<json::Value>)> done) {
  json::Value id(boost::json::string("clawexec-" + std::to_string(next_request_id_++)));
  outgoing_[json::serialize(id)] = std::move(done);
  send_(rpc::make_request(id, method, std::move(params)));
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
