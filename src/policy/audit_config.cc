// Raw config reading for the audit and the doctor. The reference reads the document loosely:
// a wrongly typed value is treated as absent rather than reported (validation is the config
// loader's job), so every accessor here answers nullptr/empty for anything unexpected.
// The roster follows the reference's two shapes: `agents.entries` (keyed by id) wins when the
// key is present; otherwise `agents.list` (array of objects with an `id`).

#include "policy/audit_config.h"

#include <algorithm>

#include "base/strings.h"
#include "base/utf.h"
#include "config/exec_settings.h"

namespace clawexec::policy {

namespace json = boost::json;

const json::object* object_member(const json::object* object, std::string_view key) {
  if (object == nullptr) return nullptr;
  auto it = object->find(key);
  if (it == object->end() || !it->value().is_object()) return nullptr;
  return &it->value().as_object();
}

const json::object* object_member(const json::value* value, std::string_view key) {
  if (value == nullptr || !value->is_object()) return nullptr;
  return object_member(&value->as_object(), key);
}

const json::object* global_exec_section(const json::value& config) {
  return object_member(object_member(&config, "tools"), "exec");
}

const json::object* agent_exec_section(const ConfiguredAgent& agent) {
  return object_member(object_member(agent.entry, "tools"), "exec");
}

namespace {

// The roster property: `entries` when present and not null, else `list` when present and not null.
const json::value* roster_property(const json::value& config, bool& is_entries) {
  if (!config.is_object()) return nullptr;
  const json::object* agents = object_member(&config, "agents");
  if (agents == nullptr) return nullptr;
  if (auto it = agents->find("entries"); it != agents->end() && !it->value().is_null()) {
    is_entries = true;
    return &it->value();
  }
  if (auto it = agents->find("list"); it != agents->end() && !it->value().is_null()) {
    is_entries = false;
    return &it->value();
  }
  return nullptr;
}

}  // namespace

bool has_agent_roster(const json::value& config) {
  bool is_entries = false;
  return roster_property(config, is_entries) != nullptr;
}

std::vector<ConfiguredAgent> list_configured_agents(const json::value& config) {
  std::vector<ConfiguredAgent> out;
  bool is_entries = false;
  const json::value* roster = roster_property(config, is_entries);
  if (roster == nullptr) return out;
  if (is_entries) {
    if (!roster->is_object()) return out;
    for (const auto& member : roster->as_object()) {
      if (!member.value().is_object()) continue;
      std::string key(member.key());
      out.push_back({key, true, &member.value().as_object(), "agents.entries." + key + ".tools.exec"});
    }
    return out;
  }
  if (!roster->is_array()) return out;
  size_t index = 0;
  for (const json::value& item : roster->as_array()) {
    if (item.is_object()) {
      const json::object& entry = item.as_object();
      ConfiguredAgent agent{"", false, &entry, "agents.list." + std::to_string(index) + ".tools.exec"};
      if (auto it = entry.find("id"); it != entry.end() && it->value().is_string()) {
        agent.id = std::string(it->value().as_string());
        agent.has_string_id = true;
      }
      out.push_back(std::move(agent));
    }
    ++index;
  }
  return out;
}

std::optional<std::string> try_resolve_default_agent_id(const json::value& config) {
  std::vector<ConfiguredAgent> agents = list_configured_agents(config);
  const json::object* agents_section = object_member(&config, "agents");
  bool explicit_ownership = false;
  if (agents_section != nullptr) {
    auto it = agents_section->find("ownership");
    explicit_ownership = it != agents_section->end() && it->value().is_string() && it->value().as_string() == "explicit";
  }
  if (!explicit_ownership) {
    const ConfiguredAgent* marked = nullptr;
    int count = 0;
    for (const ConfiguredAgent& agent : agents) {
      auto it = agent.entry->find("default");
      if (it != agent.entry->end() && it->value().is_bool() && it->value().as_bool()) {
        marked = &agent;
        ++count;
      }
    }
    if (count == 1) return config::normalize_agent_id(marked->id);
  }
  if (agents.empty()) {
    if (!has_agent_roster(config)) return std::string("main");
    return std::nullopt;
  }
  if (agents.size() == 1) return config::normalize_agent_id(agents.front().id);
  return std::nullopt;
}

std::vector<std::string> normalize_configured_safe_bins(const json::value* entries) {
  std::vector<std::string> out;
  if (entries == nullptr || !entries->is_array()) return out;
  for (const json::value& entry : entries->as_array()) {
    if (!entry.is_string()) continue;
    std::string name = lower_trimmed(std::string_view(entry.as_string()));
    if (!name.empty()) out.push_back(std::move(name));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<std::string> normalize_configured_trusted_dirs(const json::value* entries) {
  std::vector<std::string> out;
  if (entries == nullptr || !entries->is_array()) return out;
  for (const json::value& entry : entries->as_array()) {
    if (!entry.is_string()) continue;
    std::string dir(js_trim(std::string_view(entry.as_string())));
    if (dir.empty() || std::find(out.begin(), out.end(), dir) != out.end()) continue;
    out.push_back(std::move(dir));
  }
  return out;
}

std::set<std::string, std::less<>> merged_profile_names(const json::object* global, const json::object* local) {
  std::set<std::string, std::less<>> names;
  for (const json::object* scope : {global, local}) {
    const json::object* profiles = object_member(scope, "safeBinProfiles");
    if (profiles == nullptr) continue;
    for (const auto& member : *profiles) {
      std::string name = lower_trimmed(std::string_view(member.key()));
      if (!name.empty()) names.insert(std::move(name));
    }
  }
  return names;
}

std::string sanitize_for_log(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == 0x1b && i + 1 < text.size() && text[i + 1] == '[') {
      // CSI: parameters and intermediates, then one final byte in @..~.
      size_t j = i + 2;
      while (j < text.size() && !(text[j] >= 0x40 && text[j] <= 0x7e)) ++j;
      i = j;
      continue;
    }
    if (c == 0x1b && i + 1 < text.size() && text[i + 1] == ']') {
      // OSC: up to BEL or ESC '\'.
      size_t j = i + 2;
      while (j < text.size() && text[j] != '\x07' && !(text[j] == 0x1b && j + 1 < text.size() && text[j + 1] == '\\')) ++j;
      i = (j < text.size() && text[j] == 0x1b) ? j + 1 : j;
      continue;
    }
    if (c < 0x20 || c == 0x7f) continue;
    // C1 controls U+0080-U+009F are encoded as C2 80..C2 9F.
    if (c == 0xc2 && i + 1 < text.size()) {
      unsigned char next = static_cast<unsigned char>(text[i + 1]);
      if (next >= 0x80 && next <= 0x9f) {
        ++i;
        continue;
      }
    }
    out.push_back(static_cast<char>(c));
  }
  return out;
}

}  // namespace clawexec::policy
