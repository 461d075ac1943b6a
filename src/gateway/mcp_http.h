#pragma once
// MCP over streamable HTTP (protocol 2025-03-26 to 2025-11-25) at the gateway's `/mcp`: each
// `Mcp-Session-Id` is one MCP client with its own mcp::Server and exec::ClientSession (its
// own `process` scope, `/exec` defaults and notifications), bound to one agent's exec service.
//
// A POST carries one JSON-RPC message. A request is answered on that POST's response, as an
// SSE stream (the headers go out at once, so a long tool call never trips a client's header
// timeout) or as JSON when the client does not accept SSE; notifications and responses get
// 202. What the server sends on its own (completion notifications, elicitation requests) goes
// to the session's GET stream. Every such message gets an event id and stays in a bounded
// backlog, so a client that reconnects with `Last-Event-ID` misses nothing, and one that was
// not listening gets what it missed when it opens the stream; a POST answer whose stream broke
// is queued there too. DELETE ends a session; so does idleness (no request and no open stream
// for the configured time) and the gateway's shutdown. An ended session's background commands
// are stopped and its pending approvals withdrawn.
//
// Authentication, Origin and Host checks happen before this class is asked (gateway.h).

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "exec/service.h"
#include "json/json.h"
#include "mcp/server.h"
#include "net/http_server.h"

namespace clawexec::gateway {

/// The headers that name the agent and the session key of an MCP session (OpenClaw's HTTP
/// API reads the same ones).
inline constexpr std::string_view kAgentHeaders[] = {"x-openclaw-agent-id", "x-openclaw-agent"};
inline constexpr std::string_view kSessionKeyHeader = "x-openclaw-session-key";

struct McpEndpointOptions {
  /// The exec service of an agent (made on first use), or why there is none.
  std::function<Result<exec::ExecService*>(const std::string& agent_id)> service_for;
  std::string default_agent = "main";
  /// What every session's server starts from (version, pending approvals, elicitation, ...).
  mcp::ServerOptions server;
  int64_t idle_ms = 30 * 60 * 1000;  // 0 = sessions never expire
  int64_t keepalive_ms = 15000;      // SSE comment lines on open streams
  size_t max_sessions = 1000;
  size_t backlog_events = 1000;
  size_t backlog_bytes = 8 * 1024 * 1024;
};

class McpHttpEndpoint {
 public:
  McpHttpEndpoint(boost::asio::io_context& io, McpEndpointOptions options);
  ~McpHttpEndpoint();
  McpHttpEndpoint(const McpHttpEndpoint&) = delete;
  McpHttpEndpoint& operator=(const McpHttpEndpoint&) = delete;

  /// One request to `/mcp` from an authenticated client.
  void handle(const net::HttpRequest& request, std::shared_ptr<net::ResponseWriter> response);
  /// Ends every session (gateway shutdown).
  void close_all();
  size_t session_count() const { return sessions_.size(); }
  /// id, agentId, sessionKey, createdAtMs, lastUsedAtMs, streamOpen, for operators.
  std::vector<json::Object> sessions_json() const;
  void set_idle_ms(int64_t ms) { options_.idle_ms = ms; }

 private:
  struct Session;
  void post(const net::HttpRequest& request, const std::shared_ptr<net::ResponseWriter>& response);
  void get(const net::HttpRequest& request, const std::shared_ptr<net::ResponseWriter>& response);
  void remove(const net::HttpRequest& request, const std::shared_ptr<net::ResponseWriter>& response);
  /// The session a request names, or answers the error itself and returns null.
  std::shared_ptr<Session> session_of(const net::HttpRequest& request, const std::shared_ptr<net::ResponseWriter>& response);
  Result<std::shared_ptr<Session>> create(const net::HttpRequest& request);
  void end(const std::string& id);
  void schedule_tick();
  void tick();

  boost::asio::io_context& io_;
  McpEndpointOptions options_;
  std::map<std::string, std::shared_ptr<Session>> sessions_;
  boost::asio::steady_timer timer_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace clawexec::gateway
