#pragma once
// ClientSession: what belongs to one client of the exec service rather than to the process
// (one stdio MCP connection today; each agent connection of the gateway tomorrow). Two clients
// of one service have separate `/exec` defaults, see only their own sessions in `process`, and
// get only their own completion notifications.
//
// Owned by the client's front end (mcp::Server, the CLI) through a shared_ptr; the service keeps
// only a weak reference, so a notification for a client that is gone is dropped.

#include <functional>
#include <optional>
#include <string>

#include "base/result.h"
#include "config/exec_settings.h"
#include "exec/elicit_form.h"
#include "json/json.h"

namespace clawexec::exec {

/// Asks the client's user through MCP elicitation (elicitation/create): the form (message and
/// the one field to answer); `done` receives the client's result object
/// ({action: accept|decline|cancel, content?}) or an error (no answer, transport closed).
using Elicit = std::function<void(ElicitForm form, std::function<void(Result<json::Object>)> done)>;

/// A client's exec defaults: serve --host/--node/--security/--ask and an operator's `/exec`.
/// Host and node replace the configured ones; security and ask only tighten what the
/// configuration says. `next_*` apply to the client's next run only (`/exec security=…`).
struct ExecDefaults {
  std::optional<config::ExecHost> host;
  std::optional<std::string> node;
  std::optional<config::ExecSecurity> security;
  std::optional<config::ExecAsk> ask;
  std::optional<config::ExecSecurity> next_security;
  std::optional<config::ExecAsk> next_ask;
};

struct ClientSession {
  /// Sessions started by this client are visible only to calls with the same key.
  std::string scope_key;
  /// Whose policy applies (agents.entries.<id>, approvals agents.<id>); empty = the service's.
  std::string agent_id;
  /// OpenClaw's session key: decides whether agents.*.sandbox.mode "non-main" sandboxes this
  /// client (its agent's main key is `agent:<id>:main`) and names its sandbox with scope
  /// "session". Empty = the agent's main session (`clawexec serve` without --session-key).
  std::string session_key;
  ExecDefaults defaults;
  /// False when the client has no `process` tool (the one-shot CLI, a tool policy that denies
  /// it): exec then always runs in the foreground and yieldMs/background are ignored.
  bool continuation_available = true;
  /// Set when the client can be asked by elicitation: approvals are asked inline. Cleared when
  /// the client answered one with an instant automatic `cancel` (nobody was asked): its later
  /// approvals take the pending-approval path.
  Elicit elicit;
  /// The provider its calls come from when a call names none (tools.elevated.allowFrom):
  /// "mcp" for MCP clients, "cli" for `clawexec exec`.
  std::string message_provider = "mcp";
  /// The session's `/elevated` level (off | on | ask | full); unset: the agent's elevatedDefault.
  std::optional<std::string> elevated_level;
  /// Approvals may wait for an operator (the approval-pending result, operator channel).
  bool pending_approvals = false;
  /// Receives this client's background texts ("Exec completed (...)"), with the full session id
  /// (empty for texts about no session, such as a denial).
  std::function<void(const std::string& session_id, const std::string& text)> notify;
};

}  // namespace clawexec::exec
