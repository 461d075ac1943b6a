#pragma once
// OPENCLAW_CHANNEL_CONTEXT (spec §3.4): who sent the message a command runs for, as compact
// JSON, for commands that want to know the chat and sender they act on behalf of. clawexec
// learns the ids from the MCP request's `_meta` (docs/tools.md "Channel context").

#include <optional>
#include <string>
#include <string_view>

namespace clawexec::env {

inline constexpr std::string_view kChannelContextKey = "OPENCLAW_CHANNEL_CONTEXT";

/// `{"sender":{"id":"<sender>"},"chat":{"id":"<chat>"}}` with a member omitted when its id is
/// blank (ids are trimmed); nullopt when both are blank.
std::optional<std::string> channel_context_json(std::string_view sender_id, std::string_view chat_id);

}  // namespace clawexec::env
