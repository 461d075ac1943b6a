// Loading the approvals document: strict validation, then normalisation (§1.3, §1.4).
//
// Validation is deliberately unforgiving — any value of the wrong type or an unknown policy
// literal rejects the whole file, and the caller then falls back to a deny-everything policy.
// Normalisation is forgiving (it also runs on documents handed in by the CLI): it repairs
// what it can (trims, drops, generates ids) and edits objects in place so that keys this
// version does not know, and the order of all keys, survive a rewrite exactly as in the
// reference, whose spread-based rewrites keep existing keys where they were.

#include "approvals/document.h"

#include <cmath>
#include <set>

#include "base/strings.h"
#include "base/utf.h"
#include "hash/sha256.h"
#include "json/json.h"

namespace clawexec::approvals {
namespace {

namespace bj = boost::json;
using policy::exec_ask_from_literal;
using policy::exec_security_from_literal;

std::string_view view(const bj::string& s) { return std::string_view(s.data(), s.size()); }

bool is_blank_string(const bj::value& v) { return !v.is_string() || js_trim(view(v.get_string())).empty(); }

Error invalid_at(const std::string& location, std::string_view reason) {
  return Error::invalid((location.empty() ? std::string("document") : location) + ": " + std::string(reason));
}

std::string join_path(const std::string& parent, std::string_view key) {
  return parent.empty() ? std::string(key) : parent + "." + std::string(key);
}

Result<void> check_optional_string(const bj::object& obj, std::string_view key, const std::string& at) {
  const bj::value* v = json::find(obj, key);
  if (v != nullptr && !v->is_string()) return invalid_at(join_path(at, key), "expected a string");
  return {};
}

Result<void> validate_policy(const bj::value& value, const std::string& at) {
  if (!value.is_object()) return invalid_at(at, "expected an object");
  const bj::object& obj = value.get_object();
  for (std::string_view key : {"security", "askFallback"}) {
    const bj::value* v = json::find(obj, key);
    if (v == nullptr) continue;
    if (!v->is_string()) return invalid_at(join_path(at, key), "expected a string");
    if (!exec_security_from_literal(view(v->get_string()))) {
      return invalid_at(join_path(at, key), "expected a supported value");
    }
  }
  if (const bj::value* v = json::find(obj, "ask")) {
    if (!v->is_string()) return invalid_at(join_path(at, "ask"), "expected a string");
    if (!exec_ask_from_literal(view(v->get_string()))) return invalid_at(join_path(at, "ask"), "expected a supported value");
  }
  if (const bj::value* v = json::find(obj, "autoAllowSkills"); v != nullptr && !v->is_bool()) {
    return invalid_at(join_path(at, "autoAllowSkills"), "expected a boolean");
  }
  return {};
}

Result<void> validate_entry(const bj::value& item, const std::string& at) {
  if (item.is_string()) {
    if (js_trim(view(item.get_string())).empty()) return invalid_at(at, "expected a non-empty string");
    return {};
  }
  if (!item.is_object()) return invalid_at(at, "expected a non-empty string or an object with a non-empty pattern");
  const bj::object& entry = item.get_object();
  const bj::value* pattern = json::find(entry, "pattern");
  if (pattern == nullptr || is_blank_string(*pattern)) return invalid_at(join_path(at, "pattern"), "expected a non-empty string");
  for (std::string_view key : {"id", "source", "commandText", "argPattern", "lastUsedCommand", "lastResolvedPath"}) {
    TRY(check_optional_string(entry, key, at));
  }
  if (const bj::value* v = json::find(entry, "lastUsedAt")) {
    const auto n = json::as_number(*v);
    if (!n || !std::isfinite(*n)) return invalid_at(join_path(at, "lastUsedAt"), "expected a finite number");
  }
  return {};
}

Result<void> validate_agent(const bj::value& value, const std::string& at) {
  TRY(validate_policy(value, at));
  const bj::value* allowlist = json::find(value.get_object(), "allowlist");
  if (allowlist == nullptr) return {};
  const std::string list_at = join_path(at, "allowlist");
  if (!allowlist->is_array()) return invalid_at(list_at, "expected an array");
  size_t index = 0;
  for (const auto& item : allowlist->get_array()) {
    TRY(validate_entry(item, list_at + "[" + std::to_string(index++) + "]"));
  }
  return {};
}

// ---- normalisation helpers ----

std::optional<std::string> sanitized_literal(const bj::object& policy, std::string_view key, bool is_ask) {
  const bj::value* v = json::find(policy, key);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  const std::string_view trimmed = js_trim(view(v->get_string()));
  const bool valid = is_ask ? exec_ask_from_literal(trimmed).has_value() : exec_security_from_literal(trimmed).has_value();
  if (!valid) return std::nullopt;
  return std::string(trimmed);
}

void set_or_erase(bj::object& obj, std::string_view key, std::optional<bj::value> value) {
  if (value) {
    obj[key] = std::move(*value);
  } else {
    obj.stable_erase(key);
  }
}

// Bare strings become {pattern}, unusable items are dropped; nullopt means "no allowlist".
std::optional<bj::array> coerce_allowlist(const bj::value* raw) {
  if (raw == nullptr || !raw->is_array()) return std::nullopt;
  const bj::array& items = raw->get_array();
  if (items.empty()) return items;
  bool changed = false;
  bj::array out;
  for (const auto& item : items) {
    if (item.is_string()) {
      const std::string_view trimmed = js_trim(view(item.get_string()));
      if (!trimmed.empty()) out.push_back(bj::object{{"pattern", trimmed}});
      changed = true;
    } else if (const bj::value* pattern = item.is_object() ? json::find(item.get_object(), "pattern") : nullptr;
               pattern != nullptr && !is_blank_string(*pattern)) {
      out.push_back(item);
    } else {
      changed = true;
    }
  }
  if (changed && out.empty()) return std::nullopt;
  return out;
}

void finish_entries(bj::array& entries, const UuidGenerator& new_id) {
  for (auto& item : entries) {
    bj::object& entry = item.as_object();
    const bj::value* id = json::find(entry, "id");
    // The reference keeps any truthy id; an absent, empty, null, false or 0 id is replaced.
    const bool truthy = id != nullptr && !id->is_null() &&
                        !(id->is_string() && id->get_string().empty()) && !(id->is_bool() && !id->get_bool()) &&
                        !(id->is_number() && json::as_number(*id).value_or(0) == 0);
    if (!truthy) entry["id"] = new_id();
    if (const bj::value* text = json::find(entry, "commandText"); text != nullptr && text->is_string()) {
      entry.stable_erase("commandText");
    }
  }
}

std::string allowlist_dedupe_key(const bj::object& entry) {
  const bj::value* pattern = json::find(entry, "pattern");
  const bj::value* arg = json::find(entry, "argPattern");
  std::string key = pattern && pattern->is_string() ? lower_trimmed(view(pattern->get_string())) : "";
  key.push_back('\0');
  if (arg && arg->is_string()) key += std::string(js_trim(view(arg->get_string())));
  return key;
}

// agents.default merged into agents.main: main's fields win, allowlists concatenated main
// first with duplicates (case-insensitive pattern, trimmed argPattern) dropped.
bj::object merge_legacy_agent(const bj::object& current, const bj::object& legacy) {
  bj::array allowlist;
  std::set<std::string> seen;
  for (const bj::object* source : {&current, &legacy}) {
    const bj::value* list = json::find(*source, "allowlist");
    if (list == nullptr || !list->is_array()) continue;
    for (const auto& item : list->get_array()) {
      if (!item.is_object()) continue;
      const bj::value* pattern = json::find(item.get_object(), "pattern");
      if (pattern == nullptr || is_blank_string(*pattern)) continue;
      if (!seen.insert(allowlist_dedupe_key(item.get_object())).second) continue;
      allowlist.push_back(item);
    }
  }
  bj::object merged = legacy;
  for (const auto& kv : current) merged[kv.key()] = kv.value();
  for (std::string_view key : {"security", "ask", "askFallback", "autoAllowSkills"}) {
    const bj::value* mine = json::find(current, key);
    const bj::value* theirs = json::find(legacy, key);
    const bj::value* pick = (mine != nullptr && !mine->is_null()) ? mine : theirs;
    set_or_erase(merged, key, pick ? std::optional<bj::value>(*pick) : std::nullopt);
  }
  set_or_erase(merged, "allowlist", allowlist.empty() ? std::nullopt : std::optional<bj::value>(std::move(allowlist)));
  return merged;
}

void normalize_agent(bj::object& agent, const UuidGenerator& new_id) {
  std::optional<bj::array> allowlist = coerce_allowlist(json::find(agent, "allowlist"));
  if (allowlist) finish_entries(*allowlist, new_id);
  const auto security = sanitized_literal(agent, "security", false);
  const auto ask = sanitized_literal(agent, "ask", true);
  const auto ask_fallback = sanitized_literal(agent, "askFallback", false);
  set_or_erase(agent, "allowlist", allowlist ? std::optional<bj::value>(std::move(*allowlist)) : std::nullopt);
  set_or_erase(agent, "security", security ? std::optional<bj::value>(*security) : std::nullopt);
  set_or_erase(agent, "ask", ask ? std::optional<bj::value>(*ask) : std::nullopt);
  set_or_erase(agent, "askFallback", ask_fallback ? std::optional<bj::value>(*ask_fallback) : std::nullopt);
}

bj::object sanitized_defaults(const bj::value* raw) {
  bj::object out;
  if (raw == nullptr || !raw->is_object()) return out;
  const bj::object& policy = raw->get_object();
  if (auto v = sanitized_literal(policy, "security", false)) out["security"] = *v;
  if (auto v = sanitized_literal(policy, "ask", true)) out["ask"] = *v;
  if (auto v = sanitized_literal(policy, "askFallback", false)) out["askFallback"] = *v;
  if (const bj::value* v = json::find(policy, "autoAllowSkills")) out["autoAllowSkills"] = *v;
  return out;
}

bj::object normalized_socket(const bj::value* raw) {
  bj::object out;
  if (raw == nullptr || !raw->is_object()) return out;
  for (std::string_view key : {"path", "token"}) {
    const bj::value* v = json::find(raw->get_object(), key);
    if (v == nullptr || !v->is_string()) continue;
    const std::string_view trimmed = js_trim(view(v->get_string()));
    if (!trimmed.empty()) out[key] = trimmed;
  }
  return out;
}

}  // namespace

std::string format_uuid_v4(const unsigned char (&bytes)[16]) {
  unsigned char b[16];
  for (int i = 0; i < 16; ++i) b[i] = bytes[i];
  b[6] = static_cast<unsigned char>((b[6] & 0x0f) | 0x40);
  b[8] = static_cast<unsigned char>((b[8] & 0x3f) | 0x80);
  std::string out;
  out.reserve(36);
  // 8-4-4-4-12 hex digits.
  hash::append_lower_hex(out, b, 4);
  for (int group : {4, 6, 8, 10}) {
    out.push_back('-');
    hash::append_lower_hex(out, b + group, group == 10 ? 6u : 2u);
  }
  return out;
}

Result<void> validate_document(const bj::value& parsed) {
  if (!parsed.is_object()) return invalid_at("", "expected an object");
  const bj::object& doc = parsed.get_object();
  const bj::value* version = json::find(doc, "version");
  if (version == nullptr || json::as_number(*version) != std::optional<double>(1.0)) {
    return invalid_at("version", "expected a supported value");
  }
  if (const bj::value* socket = json::find(doc, "socket")) {
    if (!socket->is_object()) return invalid_at("socket", "expected an object");
    TRY(check_optional_string(socket->get_object(), "path", "socket"));
    TRY(check_optional_string(socket->get_object(), "token", "socket"));
  }
  if (const bj::value* defaults = json::find(doc, "defaults")) TRY(validate_policy(*defaults, "defaults"));
  if (const bj::value* agents = json::find(doc, "agents")) {
    if (!agents->is_object()) return invalid_at("agents", "expected an object");
    for (const auto& kv : agents->get_object()) {
      TRY(validate_agent(kv.value(), "agents." + std::string(view(kv.key()))));
    }
  }
  return {};
}

Result<Document> parse_document(std::string_view raw, const UuidGenerator& new_id) {
  if (js_trim(raw).empty()) return Error::invalid("empty file");
  std::optional<bj::value> parsed = json::parse(raw);
  if (!parsed) return Error::invalid("invalid JSON syntax");
  TRY(validate_document(*parsed));
  return normalize_document(*parsed, new_id);
}

Document normalize_document(const bj::value& raw, const UuidGenerator& new_id) {
  static const bj::object kEmpty;
  const bj::object& in = raw.is_object() ? raw.get_object() : kEmpty;
  bj::object agents;
  if (const bj::value* a = json::find(in, "agents"); a != nullptr && a->is_object()) agents = a->get_object();
  if (const bj::value* legacy = json::find(agents, kLegacyDefaultAgentId); legacy != nullptr && legacy->is_object()) {
    const bj::object legacy_agent = legacy->get_object();
    const bj::value* main = json::find(agents, kDefaultAgentId);
    bj::object merged = (main != nullptr && main->is_object()) ? merge_legacy_agent(main->get_object(), legacy_agent)
                                                               : legacy_agent;
    agents[kDefaultAgentId] = std::move(merged);
    agents.stable_erase(kLegacyDefaultAgentId);
  }
  for (auto& kv : agents) {
    if (kv.value().is_object()) normalize_agent(kv.value().get_object(), new_id);
  }
  Document doc;
  doc["version"] = 1;
  doc["socket"] = normalized_socket(json::find(in, "socket"));
  doc["defaults"] = sanitized_defaults(json::find(in, "defaults"));
  doc["agents"] = std::move(agents);
  return doc;
}

Document empty_document() {
  return normalize_document(bj::object{{"version", 1}, {"agents", bj::object{}}}, [] { return std::string(); });
}

Document fail_closed_document() {
  const bj::object raw{{"version", 1},
                       {"defaults", {{"security", "deny"}, {"ask", "off"}, {"askFallback", "deny"}, {"autoAllowSkills", false}}},
                       {"agents", bj::object{}}};
  return normalize_document(raw, [] { return std::string(); });
}

std::string serialize_document(const Document& doc) { return json::stringify(doc, 2) + "\n"; }

std::string document_hash(const std::optional<std::string>& raw) {
  if (!raw) return "missing:" + hash::sha256_hex("");
  return hash::sha256_hex(*raw);
}

}  // namespace clawexec::approvals
