// Serialises the channel context the way the reference's JSON.stringify does: compact, ids as
// JSON strings (quotes, backslashes and control characters escaped).

#include "env/channel_context.h"

#include <cstdio>

#include "base/utf.h"

namespace clawexec::env {
namespace {

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

}  // namespace

std::optional<std::string> channel_context_json(std::string_view sender_id, std::string_view chat_id) {
  std::string_view sender = js_trim(sender_id);
  std::string_view chat = js_trim(chat_id);
  if (sender.empty() && chat.empty()) return std::nullopt;
  std::string out = "{";
  if (!sender.empty()) {
    out += "\"sender\":{\"id\":";
    append_json_string(out, sender);
    out += '}';
  }
  if (!chat.empty()) {
    if (!sender.empty()) out += ',';
    out += "\"chat\":{\"id\":";
    append_json_string(out, chat);
    out += '}';
  }
  out += '}';
  return out;
}

}  // namespace clawexec::env
