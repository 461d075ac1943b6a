#pragma once
// The MCP server: JSON-RPC methods initialize, ping, tools/list, tools/call, logging/setLevel
// and the notifications initialized and cancelled, for one client over any line transport
// (stdio today). Message framing and the matching of our requests (elicitation) to their
// responses are rpc::Peer's; the tools are src/tools/'s; this class is the MCP protocol and the
// client's state (its exec::ClientSession). Tool calls run concurrently: each is answered when
// its tool completes, so a poll waiting 30 s does not hold up an exec. Background completions go
// out as notifications/message.

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "exec/service.h"
#include "json/json.h"
#include "rpc/peer.h"
#include "tools/tool_catalog.h"
#include "tools/tool_result.h"

namespace clawexec::mcp {

/// Protocol versions we speak, newest first. An unknown requested version gets the newest.
/// The tools/call `_meta` key that carries the chat identity of a call (sender and chat ids),
/// exposed to commands as OPENCLAW_CHANNEL_CONTEXT.
inline constexpr std::string_view kChannelContextMetaKey = "openclaw/channelContext";
/// The experimental client capability (`capabilities.experimental["clawexec/structuredContent"]`,
/// any object) that asks for `structuredContent` = details in tool results.
inline constexpr std::string_view kStructuredContentCapability = "clawexec/structuredContent";
/// The tool result `_meta` key that carries details (without output copies) otherwise.
inline constexpr std::string_view kDetailsMetaKey = "clawexec/details";
/// The tools/call `_meta` key under which Codex CLI sends its turn metadata, an object (or its
/// JSON text) whose "model" is the model the call acts for (tools.exec.applyPatch.allowModels).
inline constexpr std::string_view kCodexTurnMetadataMetaKey = "x-codex-turn-metadata";
inline constexpr std::string_view kProtocolVersions[] = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};

struct ServerOptions {
  std::string name = "clawexec";
  std::string version;
  /// Sessions started through this connection are visible only to it.
  std::string scope_key;
  /// An operator channel serves pending approvals: clients without elicitation get the
  /// approval-pending result instead of an immediate askFallback decision.
  bool pending_approvals = false;
  /// The model this server works for (tools.exec.applyPatch.allowModels is checked against
  /// it); a client may also name it in initialize (params.model or params._meta.model) or per
  /// call (kCodexTurnMetadataMetaKey), which wins.
  std::string model_id;
  /// Every client gets `structuredContent` = details, whether or not it declared
  /// kStructuredContentCapability (clawexec.mcp.structuredContent, CLAWEXEC_MCP_STRUCTURED_CONTENT).
  bool structured_content = false;
  /// Approvals are asked through elicitation when the client declares it (false:
  /// clawexec.mcp.elicitation = "off", every approval takes the pending-approval path).
  bool elicitation = true;
  /// The session the client's calls act for (sandbox mode and scope); "" = the agent's main.
  std::string session_key;
  /// The client's exec defaults (serve --host/--node/--security/--ask).
  exec::ExecDefaults exec_defaults;
};

/// Where a tool result carries its details: `structuredContent` (which clients show the model
/// instead of the text) or `_meta[kDetailsMetaKey]` without the output copies.
enum class DetailsPlacement { kStructuredContent, kMeta };

class Server {
 public:
  using Send = std::function<void(std::string line)>;

  /// `send` carries every line of a transport with one output stream (stdio).
  Server(exec::ExecService& service, Send send, ServerOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  /// Handles one line of input (a JSON-RPC message), answering on the server's output.
  void handle_line(std::string_view line);
  /// The same for a transport that answers each message on its own stream (streamable HTTP:
  /// the POST that carried it): the response goes to `reply`; what the server sends on its own
  /// (notifications, elicitation) still goes to the server's output.
  void handle_line(std::string_view line, const rpc::Channel& reply);
  /// The protocol version negotiated in initialize.
  const std::string& protocol_version() const { return protocol_version_; }
  /// A line longer than the transport's limit was skipped.
  void handle_oversized(size_t bytes);
  /// Sends a background completion text as notifications/message (if the level allows it);
  /// params._meta.sessionId names the session unambiguously (the text has only 8 characters).
  void send_exec_event(const std::string& session_id, const std::string& text);

  /// The client declared the `elicitation` capability in initialize (whether it is still asked
  /// is client().elicit: an instant automatic cancel stops it).
  bool client_supports_elicitation() const { return client_elicitation_; }
  /// This client's state in the exec service (its `/exec` defaults, its sessions' scope).
  exec::ClientSession& client() { return *client_; }

 private:
  void handle_request(const json::Value& id, const std::string& method, const json::Value& params,
                      const rpc::Channel& reply);
  void handle_notification(const std::string& method, const json::Value& params);
  void initialize(const json::Value& id, const json::Value& params, const rpc::Channel& reply);
  void call_tool(const json::Value& id, const json::Value& params, const rpc::Channel& reply);
  void set_level(const json::Value& id, const json::Value& params, const rpc::Channel& reply);
  /// The model the client works for (initialize), else the server's.
  std::string model() const;
  /// Who the catalog answers: the model and whether this client's session is sandboxed.
  tools::Audience audience() const;
  DetailsPlacement details_placement() const;

  exec::ExecService& service_;
  rpc::Channel send_;
  ServerOptions options_;
  rpc::Peer peer_;
  std::shared_ptr<exec::ClientSession> client_;
  int min_level_ = 0;  // index into the syslog-style levels; 0 = debug (everything)
  std::map<std::string, std::shared_ptr<exec::CancelSignal>> in_flight_;  // by serialized id
  bool client_elicitation_ = false;
  bool client_structured_content_ = false;  // declared kStructuredContentCapability
  std::string client_model_;  // from initialize, if the client named its model
  std::string protocol_version_{kProtocolVersions[0]};  // negotiated in initialize
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace clawexec::mcp
