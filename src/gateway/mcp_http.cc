// Streamable HTTP sessions: see mcp_http.h.

#include "gateway/mcp_http.h"

#include <algorithm>
#include <deque>

#include "approvals/random.h"
#include "base/strings.h"
#include "base/time.h"
#include "config/env_lookup.h"
#include "rpc/jsonrpc.h"

namespace clawexec::gateway {
namespace {

constexpr std::string_view kSessionHeader = "mcp-session-id";

net::Headers json_headers() { return {{"Content-Type", "application/json"}, {"Cache-Control", "no-store"}}; }

// A JSON-RPC error as an HTTP answer (the SDK client reads the body of a failed POST).
void reject(const std::shared_ptr<net::ResponseWriter>& response, int status, int code, const std::string& message) {
  response->respond(status, json_headers(), rpc::make_error(nullptr, code, message));
}

bool accepts(const net::HttpRequest& request, std::string_view type) {
  std::optional<std::string_view> accept = request.header("accept");
  if (!accept) return false;
  std::string lower = ascii_lower(*accept);
  return lower.find(type) != std::string::npos;
}

bool accepts_any(const net::HttpRequest& request) {
  std::optional<std::string_view> accept = request.header("accept");
  return !accept || accept->find("*/*") != std::string_view::npos;
}

std::string sse_event(uint64_t id, std::string_view data) {
  std::string out;
  if (id) out = "id: " + std::to_string(id) + "\n";
  out += "event: message\ndata: ";
  out.append(data);
  out += "\n\n";
  return out;
}

// OpenClaw's agent id shape: lower-case letters, digits, '-' and '_', at most 64.
bool valid_agent_id(std::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
  });
}

}  // namespace

struct McpHttpEndpoint::Session {
  std::string id;
  std::string scope;  // the exec scope of its commands, "mcp-http:<id>"
  std::string agent;
  std::string session_key;
  exec::ExecService* service = nullptr;
  std::unique_ptr<mcp::Server> server;
  std::shared_ptr<net::ResponseWriter> stream;  // the GET stream, if open
  struct Event {
    uint64_t id;
    std::string text;
  };
  std::deque<Event> backlog;  // server-initiated messages, for replay
  size_t backlog_bytes = 0;
  uint64_t next_event_id = 1;
  uint64_t delivered = 0;  // last event id written to an open stream
  std::vector<std::weak_ptr<net::ResponseWriter>> posts;  // POST streams still open
  int64_t created_ms = 0;
  int64_t last_used_ms = 0;
  size_t max_events = 0, max_bytes = 0;

  // A message the server sends on its own: numbered, kept, written to the stream if open.
  void push(std::string line) {
    uint64_t n = next_event_id++;
    backlog_bytes += line.size();
    backlog.push_back({n, std::move(line)});
    while (backlog.size() > max_events || (backlog_bytes > max_bytes && backlog.size() > 1)) {
      backlog_bytes -= backlog.front().text.size();
      backlog.pop_front();
    }
    if (stream && !stream->closed()) {
      stream->write(sse_event(n, backlog.back().text));
      delivered = n;
    }
  }

  bool busy() const {
    if (stream && !stream->closed()) return true;
    return std::any_of(posts.begin(), posts.end(), [](const auto& w) {
      auto p = w.lock();
      return p && !p->closed();
    });
  }
};

McpHttpEndpoint::McpHttpEndpoint(boost::asio::io_context& io, McpEndpointOptions options)
    : io_(io), options_(std::move(options)), timer_(io) {
  schedule_tick();
}

McpHttpEndpoint::~McpHttpEndpoint() {
  *alive_ = false;
  timer_.cancel();
  close_all();
}

void McpHttpEndpoint::handle(const net::HttpRequest& request, std::shared_ptr<net::ResponseWriter> response) {
  if (request.method == "POST") return post(request, response);
  if (request.method == "GET") return get(request, response);
  if (request.method == "DELETE") return remove(request, response);
  response->respond(405, {{"Allow", "GET, POST, DELETE"}, {"Content-Type", "text/plain; charset=utf-8"}},
                    "Method not allowed: /mcp takes GET, POST and DELETE\n");
}

std::shared_ptr<McpHttpEndpoint::Session> McpHttpEndpoint::session_of(const net::HttpRequest& request,
                                                                      const std::shared_ptr<net::ResponseWriter>& response) {
  std::optional<std::string_view> id = request.header(kSessionHeader);
  if (!id || trim_ascii(*id).empty()) {
    reject(response, 400, rpc::kInvalidRequest, "Bad Request: the Mcp-Session-Id header is required (initialize first)");
    return nullptr;
  }
  auto it = sessions_.find(std::string(trim_ascii(*id)));
  if (it == sessions_.end()) {
    reject(response, 404, -32001, "Session not found: it ended or never existed; initialize a new one");
    return nullptr;
  }
  if (std::optional<std::string_view> v = request.header("mcp-protocol-version")) {
    if (std::find(std::begin(mcp::kProtocolVersions), std::end(mcp::kProtocolVersions), trim_ascii(*v)) ==
        std::end(mcp::kProtocolVersions)) {
      reject(response, 400, rpc::kInvalidRequest,
             "Bad Request: unsupported MCP-Protocol-Version \"" + std::string(*v) + "\" (supported: 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05)");
      return nullptr;
    }
  }
  it->second->last_used_ms = steady_ms();
  return it->second;
}

Result<std::shared_ptr<McpHttpEndpoint::Session>> McpHttpEndpoint::create(const net::HttpRequest& request) {
  if (sessions_.size() >= options_.max_sessions) {
    return Error{ErrorCode::kRejected, 0, "too many MCP sessions (" + std::to_string(options_.max_sessions) + "); end one first"};
  }
  std::string agent = options_.default_agent;
  for (std::string_view name : kAgentHeaders) {
    if (std::optional<std::string_view> v = request.header(name); v && !trim_ascii(*v).empty()) {
      agent = ascii_lower(trim_ascii(*v));
      break;
    }
  }
  if (!valid_agent_id(agent)) return Error::invalid("agent id \"" + agent + "\": expected lower-case letters, digits, '-' or '_'");
  exec::ExecService* service = TRY(options_.service_for(agent));
  auto s = std::make_shared<Session>();
  s->id = TRY(approvals::generate_socket_token());
  s->agent = agent;
  s->service = service;
  if (std::optional<std::string_view> key = request.header(kSessionKeyHeader)) s->session_key = std::string(trim_ascii(*key));
  s->created_ms = s->last_used_ms = steady_ms();
  s->max_events = options_.backlog_events;
  s->max_bytes = options_.backlog_bytes;
  mcp::ServerOptions server_options = options_.server;
  s->scope = "mcp-http:" + s->id;
  server_options.scope_key = s->scope;
  server_options.session_key = s->session_key;
  std::weak_ptr<Session> weak = s;
  s->server = std::make_unique<mcp::Server>(
      *service,
      [weak](std::string line) {
        if (auto live = weak.lock()) live->push(std::move(line));
      },
      server_options);
  sessions_[s->id] = s;
  return s;
}

void McpHttpEndpoint::post(const net::HttpRequest& request, const std::shared_ptr<net::ResponseWriter>& response) {
  std::optional<std::string_view> type = request.header("content-type");
  if (!type || ascii_lower(*type).rfind("application/json", 0) != 0) {
    return reject(response, 415, rpc::kInvalidRequest, "Unsupported Media Type: POST /mcp takes Content-Type: application/json");
  }
  bool sse = accepts(request, "text/event-stream");
  if (!sse && !accepts(request, "application/json") && !accepts_any(request)) {
    return reject(response, 406, rpc::kInvalidRequest,
                  "Not Acceptable: the client must accept application/json or text/event-stream");
  }
  std::optional<json::Value> message = json::parse(request.body);
  if (!message) return reject(response, 400, rpc::kParseError, "Parse error: the request body is not valid JSON");
  if (message->is_array()) {
    return reject(response, 400, rpc::kInvalidRequest, "Invalid Request: JSON-RPC batches are not supported; send one message per POST");
  }
  if (!message->is_object()) return reject(response, 400, rpc::kInvalidRequest, "Invalid Request: expected a JSON-RPC object");
  const json::Object& object = message->get_object();
  const json::Value* method = json::find(object, "method");
  const json::Value* id = json::find(object, "id");
  bool is_request = method && method->is_string() && id && !id->is_null();
  bool is_initialize = is_request && method->get_string() == "initialize";

  std::shared_ptr<Session> session;
  if (is_initialize) {
    if (request.header(kSessionHeader)) {
      return reject(response, 400, rpc::kInvalidRequest,
                    "Bad Request: initialize starts a new session and must not carry Mcp-Session-Id");
    }
    Result<std::shared_ptr<Session>> made = create(request);
    if (!made.ok()) {
      int status = made.error().code == ErrorCode::kRejected ? 503 : 400;
      return reject(response, status, rpc::kInvalidRequest, made.error().message);
    }
    session = *made;
  } else {
    session = session_of(request, response);
    if (!session) return;
  }
  if (!is_request) {
    session->server->handle_line(request.body, [](std::string) {});
    return response->respond(202, {}, "");
  }
  net::Headers headers = sse ? net::Headers{{"Content-Type", "text/event-stream"}, {"Cache-Control", "no-cache"}}
                             : json_headers();
  headers.emplace_back("Mcp-Session-Id", session->id);
  if (sse) {
    response->start_stream(200, headers);
    session->posts.push_back(response);
  }
  std::weak_ptr<Session> weak = session;
  auto answered = std::make_shared<bool>(false);
  rpc::Channel reply = [weak, response, sse, headers, answered](std::string line) {
    if (*answered) {  // not ours to send (the server never answers twice); keep it anyway
      if (auto s = weak.lock()) s->push(std::move(line));
      return;
    }
    *answered = true;
    if (response->closed()) {
      // The client dropped this POST: the answer waits on the session's stream instead.
      if (auto s = weak.lock()) s->push(std::move(line));
      return;
    }
    if (sse) {
      response->write(sse_event(0, line));
      response->end();
    } else {
      response->respond(200, headers, std::move(line));
    }
  };
  session->server->handle_line(request.body, reply);
}

void McpHttpEndpoint::get(const net::HttpRequest& request, const std::shared_ptr<net::ResponseWriter>& response) {
  if (!accepts(request, "text/event-stream")) {
    return reject(response, 406, rpc::kInvalidRequest, "Not Acceptable: GET /mcp opens an SSE stream; accept text/event-stream");
  }
  std::shared_ptr<Session> session = session_of(request, response);
  if (!session) return;
  if (session->stream && !session->stream->closed()) {
    return reject(response, 409, rpc::kInvalidRequest, "Conflict: this session already has an open GET stream");
  }
  uint64_t after = session->delivered;
  if (std::optional<std::string_view> last = request.header("last-event-id")) {
    std::optional<int64_t> n = config::parse_strict_integer(*last);
    if (n && *n >= 0) after = static_cast<uint64_t>(*n);
  }
  response->start_stream(200, {{"Content-Type", "text/event-stream"},
                               {"Cache-Control", "no-cache"},
                               {"Mcp-Session-Id", session->id}});
  // A comment first, so the client sees the stream open even when nothing is waiting.
  response->write(": stream open\n\n");
  for (const Session::Event& e : session->backlog) {
    if (e.id > after) {
      response->write(sse_event(e.id, e.text));
      session->delivered = e.id;
    }
  }
  session->stream = response;
}

void McpHttpEndpoint::remove(const net::HttpRequest& request, const std::shared_ptr<net::ResponseWriter>& response) {
  std::shared_ptr<Session> session = session_of(request, response);
  if (!session) return;
  end(session->id);
  response->respond(200, {}, "");
}

void McpHttpEndpoint::end(const std::string& id) {
  auto it = sessions_.find(id);
  if (it == sessions_.end()) return;
  std::shared_ptr<Session> s = it->second;
  sessions_.erase(it);
  if (s->stream) s->stream->end();
  for (auto& w : s->posts) {
    if (auto p = w.lock()) p->end();
  }
  s->service->end_scope(s->scope);
  s->server.reset();
}

void McpHttpEndpoint::close_all() {
  std::vector<std::string> ids;
  for (const auto& [id, s] : sessions_) ids.push_back(id);
  for (const std::string& id : ids) end(id);
}

std::vector<json::Object> McpHttpEndpoint::sessions_json() const {
  std::vector<json::Object> out;
  int64_t now_steady = steady_ms();
  int64_t now_epoch = epoch_ms();
  for (const auto& [id, s] : sessions_) {
    out.push_back(json::Object{{"id", id.substr(0, 8)},
                               {"agentId", s->agent},
                               {"sessionKey", s->session_key},
                               {"createdAtMs", now_epoch - (now_steady - s->created_ms)},
                               {"lastUsedAtMs", now_epoch - (now_steady - s->last_used_ms)},
                               {"streamOpen", s->stream && !s->stream->closed()}});
  }
  return out;
}

void McpHttpEndpoint::schedule_tick() {
  int64_t every = options_.keepalive_ms;
  if (options_.idle_ms > 0) every = std::min(every, std::max<int64_t>(options_.idle_ms / 4, 100));
  timer_.expires_after(std::chrono::milliseconds(std::max<int64_t>(every, 100)));
  std::weak_ptr<bool> alive = alive_;
  timer_.async_wait([this, alive](const boost::system::error_code& ec) {
    if (ec || alive.expired()) return;
    tick();
    schedule_tick();
  });
}

void McpHttpEndpoint::tick() {
  int64_t now = steady_ms();
  std::vector<std::string> idle;
  for (auto& [id, s] : sessions_) {
    std::erase_if(s->posts, [](const std::weak_ptr<net::ResponseWriter>& w) {
      auto p = w.lock();
      return !p || p->closed();
    });
    if (s->stream && !s->stream->closed()) s->stream->write(": keepalive\n\n");
    for (auto& w : s->posts) {
      if (auto p = w.lock()) p->write(": keepalive\n\n");
    }
    if (s->busy()) {
      s->last_used_ms = now;
    } else if (options_.idle_ms > 0 && now - s->last_used_ms >= options_.idle_ms) {
      idle.push_back(id);
    }
  }
  for (const std::string& id : idle) end(id);
}

}  // namespace clawexec::gateway
