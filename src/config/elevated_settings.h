#pragma once
// OpenClaw's elevated gate (reference §4.3, resolveElevatedPermissions): whether a call may
// leave the sandbox (or, unsandboxed, take the elevated path) for the gateway host.
// `tools.elevated.enabled` and `agents.entries.<id>.tools.elevated.enabled` must both be
// unset or true, and the sender must be approved by `tools.elevated.allowFrom.<provider>` and,
// when the agent sets one, by the agent's `allowFrom.<provider>`.
//
// The provider is the chat channel the call came from. clawexec's clients name it in the
// call's channel context (MCP `_meta["openclaw/channelContext"].provider`); a client that names
// none is provider "mcp" (an MCP client) or "cli" (`clawexec exec`), so an operator allows a
// local client with `allowFrom.mcp: ["*"]`.

#include <boost/json/object.hpp>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace clawexec::config {

struct ElevatedSettings {
  bool global_enabled = true;  // tools.elevated.enabled !== false
  bool agent_enabled = true;   // agents.entries.<id>.tools.elevated.enabled !== false
  /// The agent's default level (off | on | ask | full): agents.entries.<id>.elevatedDefault, else
  /// agents.defaults.elevatedDefault, else tools.elevated.defaultLevel (clawexec's older key).
  /// Unset: "on", as OpenClaw resolves it for an approved sender.
  std::optional<std::string> default_level;
  /// default_level, or "on" when unset.
  std::string level() const { return default_level.value_or("on"); }
  std::map<std::string, std::vector<std::string>> global_allow_from;  // by provider
  std::optional<std::map<std::string, std::vector<std::string>>> agent_allow_from;
  bool enabled() const { return global_enabled && agent_enabled; }
};

/// Who a call acts for.
struct ElevatedSender {
  std::string provider;   // "telegram", "mcp", ...
  std::string sender_id;  // "" = unknown (only "*" approves it)
};

struct ElevatedPermission {
  bool enabled = false;
  bool allowed = false;
  /// The gates that failed, as the reference names them: {"enabled", "tools.elevated.enabled"},
  /// {"provider", "ctx.Provider"}, {"allowFrom", "tools.elevated.allowFrom.telegram"}, ...
  std::vector<std::pair<std::string, std::string>> failures;
};

/// Reads tools.elevated and the agent's override. Errors name the key:
/// "tools.elevated.allowFrom.telegram: expected an array of strings, got \"123\"".
Result<ElevatedSettings> read_elevated_settings(const boost::json::object& document, std::string_view agent_id);

/// Whether `allow` (one provider's allowFrom list) approves `sender_id`: "*" approves anyone;
/// an entry matches the id itself, the id without a channel prefix ("telegram:123" -> "123"),
/// or as "id:<value>"; case does not matter.
bool sender_approved(const std::vector<std::string>& allow, std::string_view sender_id);

/// The gates in the reference's order: enabled, then the global allowFrom, then the agent's.
ElevatedPermission elevated_permission(const ElevatedSettings& settings, const ElevatedSender& sender);

}  // namespace clawexec::config
