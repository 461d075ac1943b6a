// read_elevated_settings and the allowFrom match (see elevated_settings.h). The reference's
// per-channel formatters (phone numbers, @handles) belong to its chat plugins; clawexec has
// none, so ids compare trimmed and case-insensitively, with the channel prefixes the reference
// strips ("telegram:", "user:", ...) removed on both sides.

#include "config/elevated_settings.h"

#include <boost/json/array.hpp>

#include "base/strings.h"
#include "config/exec_layer.h"
#include "config/exec_settings.h"

namespace clawexec::config {
namespace {

namespace json = boost::json;
using detail::child_object;
using detail::child_path;
using detail::describe_value;
using detail::Diagnostics;

// normalizeElevatedLevel's values (its aliases are for chat directives; the config takes these).
std::optional<std::string> normalize_level(std::string_view raw) {
  std::string level = lower_trimmed(raw);
  if (level == "off" || level == "on" || level == "ask" || level == "full") return level;
  return std::nullopt;
}

struct Scope {
  std::optional<bool> enabled;
  std::optional<std::string> default_level;
  std::optional<std::map<std::string, std::vector<std::string>>> allow_from;
};

std::optional<std::string> read_level(const json::value& v, const std::string& key, Diagnostics& d) {
  std::optional<std::string> level = v.is_string() ? normalize_level(v.get_string()) : std::nullopt;
  if (!level) d.errors.push_back(key + ": expected one of \"off\", \"on\", \"ask\", \"full\", got " + describe_value(v));
  return level;
}

Scope read_scope(const json::object& elevated, const std::string& path, Diagnostics& d) {
  Scope scope;
  if (const json::value* v = elevated.if_contains("enabled")) {
    if (v->is_bool()) {
      scope.enabled = v->get_bool();
    } else {
      d.errors.push_back(child_path(path, "enabled") + ": expected a boolean, got " + describe_value(*v));
    }
  }
  if (const json::value* v = elevated.if_contains("defaultLevel")) {
    scope.default_level = read_level(*v, child_path(path, "defaultLevel"), d);
  }
  const std::string allow_path = child_path(path, "allowFrom");
  if (const json::object* allow = child_object(elevated, "allowFrom", allow_path, d)) {
    std::map<std::string, std::vector<std::string>> lists;
    for (const auto& [provider, value] : *allow) {
      std::string key = child_path(allow_path, provider);
      if (!value.is_array()) {
        d.errors.push_back(key + ": expected an array of strings, got " + describe_value(value));
        continue;
      }
      std::vector<std::string>& list = lists[lower_trimmed(provider)];
      const json::array& items = value.get_array();
      for (size_t i = 0; i < items.size(); ++i) {
        if (items[i].is_string()) {
          list.emplace_back(items[i].get_string());
        } else if (items[i].is_number()) {
          list.push_back(describe_value(items[i]));  // numeric chat ids, as the reference reads them
        } else {
          d.errors.push_back(key + "[" + std::to_string(i) + "]: expected a string, got " + describe_value(items[i]));
        }
      }
    }
    scope.allow_from = std::move(lists);
  }
  return scope;
}

// The channel prefixes the reference strips before comparing ids (SENDER_PREFIXES).
std::string_view strip_sender_prefix(std::string_view id) {
  static constexpr std::string_view kPrefixes[] = {
      "telegram", "whatsapp", "discord", "irc", "googlechat", "slack", "signal", "imessage", "line",
      "webchat",  "user",     "group",   "channel"};
  size_t colon = id.find(':');
  if (colon == std::string_view::npos) return id;
  std::string head = lower_trimmed(id.substr(0, colon));
  for (std::string_view p : kPrefixes) {
    if (head == p) return trim_ascii(id.substr(colon + 1));
  }
  return id;
}

}  // namespace

Result<ElevatedSettings> read_elevated_settings(const json::object& document, std::string_view agent_id) {
  Diagnostics d;
  ElevatedSettings out;
  Scope global;
  if (const json::object* tools = child_object(document, "tools", "tools", d)) {
    if (const json::object* e = child_object(*tools, "elevated", "tools.elevated", d)) {
      global = read_scope(*e, "tools.elevated", d);
    }
  }
  Scope agent;
  const std::string wanted = normalize_agent_id(agent_id.empty() ? std::string_view("main") : agent_id);
  bool found = false;
  std::optional<std::string> defaults_level, agent_level;
  const json::object* agents = child_object(document, "agents", "agents", d);
  if (const json::object* defaults = agents ? child_object(*agents, "defaults", "agents.defaults", d) : nullptr) {
    if (const json::value* v = defaults->if_contains("elevatedDefault")) {
      defaults_level = read_level(*v, "agents.defaults.elevatedDefault", d);
    }
  }
  const json::object* entries = agents ? child_object(*agents, "entries", "agents.entries", d) : nullptr;
  if (entries != nullptr) {
    for (const auto& entry : *entries) {
      if (!entry.value().is_object()) continue;  // reported by the exec settings
      std::string entry_path = child_path("agents.entries", entry.key());
      const bool serving = !found && normalize_agent_id(entry.key()) == wanted;
      if (const json::value* v = entry.value().get_object().if_contains("elevatedDefault")) {
        std::optional<std::string> level = read_level(*v, entry_path + ".elevatedDefault", d);
        if (serving) agent_level = level;
      }
      const json::object* tools = child_object(entry.value().get_object(), "tools", entry_path + ".tools", d);
      const json::object* e = tools ? child_object(*tools, "elevated", entry_path + ".tools.elevated", d) : nullptr;
      if (serving) found = true;
      if (e == nullptr) continue;
      Scope scope = read_scope(*e, entry_path + ".tools.elevated", d);
      if (serving) agent = std::move(scope);
    }
  }
  if (!d.errors.empty()) return Error::invalid(join(d.errors, "\n"));
  out.global_enabled = global.enabled.value_or(true);
  out.agent_enabled = agent.enabled.value_or(true);
  out.default_level = agent_level ? agent_level : defaults_level ? defaults_level
                                                 : agent.default_level ? agent.default_level : global.default_level;
  if (global.allow_from) out.global_allow_from = std::move(*global.allow_from);
  out.agent_allow_from = std::move(agent.allow_from);
  return out;
}

bool sender_approved(const std::vector<std::string>& allow, std::string_view sender_id) {
  const std::string id = lower_trimmed(sender_id);
  const std::string stripped = lower_trimmed(strip_sender_prefix(trim_ascii(sender_id)));
  for (const std::string& raw : allow) {
    std::string entry = lower_trimmed(raw);
    if (entry.empty()) continue;
    if (entry == "*") return true;
    if (id.empty()) continue;
    if (entry.rfind("id:", 0) == 0) entry = lower_trimmed(std::string_view(entry).substr(3));
    std::string entry_stripped = lower_trimmed(strip_sender_prefix(entry));
    if (entry == id || entry == stripped || entry_stripped == id || entry_stripped == stripped) return true;
  }
  return false;
}

ElevatedPermission elevated_permission(const ElevatedSettings& settings, const ElevatedSender& sender) {
  ElevatedPermission p;
  p.enabled = settings.enabled();
  if (!settings.global_enabled) p.failures.emplace_back("enabled", "tools.elevated.enabled");
  if (!settings.agent_enabled) p.failures.emplace_back("enabled", "agents.entries.*.tools.elevated.enabled");
  if (!p.enabled) return p;
  if (sender.provider.empty()) {
    p.failures.emplace_back("provider", "ctx.Provider");
    return p;
  }
  const std::string provider = lower_trimmed(sender.provider);
  auto list_of = [&provider](const std::map<std::string, std::vector<std::string>>& lists) {
    auto it = lists.find(provider);
    return it == lists.end() ? std::vector<std::string>() : it->second;
  };
  if (!sender_approved(list_of(settings.global_allow_from), sender.sender_id)) {
    p.failures.emplace_back("allowFrom", "tools.elevated.allowFrom." + provider);
    return p;
  }
  if (settings.agent_allow_from && !sender_approved(list_of(*settings.agent_allow_from), sender.sender_id)) {
    p.failures.emplace_back("allowFrom", "agents.entries.*.tools.elevated.allowFrom." + provider);
    return p;
  }
  p.allowed = true;
  return p;
}

}  // namespace clawexec::config
