// Serialises the channel context the way the reference's JSON.stringify does (compact, members
// in insertion order), through our JavaScript-exact stringify.

#include "env/channel_context.h"

#include "base/utf.h"
#include "json/json.h"

namespace clawexec::env {

std::optional<std::string> channel_context_json(std::string_view sender_id, std::string_view chat_id) {
  std::string_view sender = js_trim(sender_id);
  std::string_view chat = js_trim(chat_id);
  if (sender.empty() && chat.empty()) return std::nullopt;
  json::Object context;
  if (!sender.empty()) context["sender"] = json::Object{{"id", sender}};
  if (!chat.empty()) context["chat"] = json::Object{{"id", chat}};
  return json::serialize(context);
}

}  // namespace clawexec::env
