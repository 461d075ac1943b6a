// Allowlist edits on the JSON document. Entries are identified by (pattern, argPattern), the
// reference's match key, so an edit made from an older snapshot still finds its entry after
// other processes have rewritten the file. Edits keep every other key and the key order of
// the objects they touch, like the reference's spread-based updates.

#include "approvals/bookkeeping.h"

#include <set>

#include "base/utf.h"
#include "json/json.h"

namespace clawexec::approvals {
namespace {

namespace bj = boost::json;

std::optional<std::string> string_member(const bj::object& obj, std::string_view key) {
  const bj::value* v = json::find(obj, key);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return std::string(v->get_string());
}

std::string entry_key(const bj::object& entry) {
  const bj::value* pattern = json::find(entry, "pattern");
  const bj::value* arg = json::find(entry, "argPattern");
  bj::array key;
  key.push_back(pattern != nullptr ? *pattern : bj::value(nullptr));
  key.push_back(arg != nullptr ? *arg : bj::value(nullptr));
  return json::stringify(key);
}

bj::object& agents_of(Document& doc) {
  bj::value& agents = doc["agents"];
  if (!agents.is_object()) agents.emplace_object();
  return agents.get_object();
}

bool has_id(const bj::object& entry) {
  const bj::value* id = json::find(entry, "id");
  return id != nullptr && !id->is_null();
}

}  // namespace

std::string allowlist_match_key(std::string_view pattern, const std::optional<std::string>& arg_pattern) {
  bj::array key;
  key.emplace_back(pattern);
  if (arg_pattern) {
    key.emplace_back(*arg_pattern);
  } else {
    key.emplace_back(nullptr);
  }
  return json::stringify(key);
}

bool record_allowlist_use(Document& doc, std::string_view agent_id, const std::vector<policy::AllowlistEntry>& matches,
                          const RecordedUse& use, const UuidGenerator& new_id) {
  std::set<std::string> keys;
  for (const auto& m : matches) {
    if (!m.pattern.empty()) keys.insert(allowlist_match_key(m.pattern, m.arg_pattern));
  }
  if (keys.empty()) return false;
  bj::object& agents = agents_of(doc);
  std::vector<std::string_view> targets{kWildcardAgentId};
  if (agent_id != kWildcardAgentId) targets.push_back(agent_id);
  bool changed = false;
  for (std::string_view target : targets) {
    bj::value* agent = agents.if_contains(target);
    if (agent == nullptr || !agent->is_object()) continue;
    bj::value* list = agent->get_object().if_contains("allowlist");
    if (list == nullptr || !list->is_array()) continue;
    for (auto& item : list->get_array()) {
      if (!item.is_object() || !keys.count(entry_key(item.get_object()))) continue;
      bj::object& entry = item.get_object();
      if (!has_id(entry)) entry["id"] = new_id();
      entry["lastUsedAt"] = use.now_ms;
      entry["lastUsedCommand"] = use.command;
      if (use.resolved_path) {
        entry["lastResolvedPath"] = *use.resolved_path;
      } else {
        entry.stable_erase("lastResolvedPath");
      }
      changed = true;
    }
  }
  return changed;
}

bool add_allowlist_entry(Document& doc, std::string_view agent_id, const NewAllowlistEntry& request, int64_t now_ms,
                         const UuidGenerator& new_id) {
  const std::string pattern(js_trim(request.pattern));
  if (pattern.empty()) return false;
  const std::optional<std::string> arg_pattern =
      (request.arg_pattern && !request.arg_pattern->empty()) ? request.arg_pattern : std::nullopt;

  bj::object& agents = agents_of(doc);
  bj::value& agent_value = agents[agent_id];
  if (!agent_value.is_object()) agent_value.emplace_object();
  bj::object& agent = agent_value.get_object();
  bj::value& list_value = agent["allowlist"];
  if (!list_value.is_array()) list_value.emplace_array();
  bj::array& list = list_value.get_array();

  for (auto& item : list) {
    if (!item.is_object()) continue;
    bj::object& entry = item.get_object();
    if (string_member(entry, "pattern") != pattern || string_member(entry, "argPattern") != arg_pattern) continue;
    if (!request.source || string_member(entry, "source") == request.source) return false;
    if (arg_pattern) {
      entry["argPattern"] = *arg_pattern;
    } else {
      entry.stable_erase("argPattern");
    }
    entry["source"] = *request.source;
    entry["lastUsedAt"] = now_ms;
    return true;
  }
  bj::object entry;
  entry["id"] = new_id();
  entry["pattern"] = pattern;
  if (arg_pattern) entry["argPattern"] = *arg_pattern;
  if (request.source) entry["source"] = *request.source;
  entry["lastUsedAt"] = now_ms;
  list.push_back(std::move(entry));
  return true;
}

size_t remove_allowlist_entries(Document& doc, std::string_view agent_id, const AllowlistSelector& selector) {
  if (!selector.id && !selector.pattern) return 0;
  bj::object& agents = agents_of(doc);
  bj::value* agent = agents.if_contains(agent_id);
  if (agent == nullptr || !agent->is_object()) return 0;
  bj::value* list = agent->get_object().if_contains("allowlist");
  if (list == nullptr || !list->is_array()) return 0;
  const std::optional<std::string> pattern =
      selector.pattern ? std::optional<std::string>(std::string(js_trim(*selector.pattern))) : std::nullopt;
  const auto selected = [&](const bj::value& item) {
    if (!item.is_object()) return false;
    const bj::object& entry = item.get_object();
    if (selector.id) return string_member(entry, "id") == selector.id;
    return string_member(entry, "pattern") == pattern && string_member(entry, "argPattern") == selector.arg_pattern;
  };
  size_t removed = 0;
  for (const auto& item : list->get_array()) removed += selected(item) ? 1 : 0;
  if (removed == 0) return 0;
  bj::array kept;
  for (auto& item : list->get_array()) {
    if (!selected(item)) kept.push_back(std::move(item));
  }
  if (kept.empty()) {
    agent->get_object().stable_erase("allowlist");
    if (agent->get_object().empty()) agents.stable_erase(agent_id);
  } else {
    *list = std::move(kept);
  }
  return removed;
}

}  // namespace clawexec::approvals
