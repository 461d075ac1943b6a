// Resolving the approvals document for one agent (§1.5) and the typed allowlist view.
//
// Precedence per policy field: the agent's own value, else the wildcard agent "*", else the
// file defaults, else the caller's fallback. "Has a value" is judged on the raw document, so
// an agent that states an invalid value (say ask:"Always") does not inherit the wildcard but
// drops straight to the defaults — a typo never silently grants the wildcard's policy.

#include <cmath>

#include "approvals/document.h"
#include "base/utf.h"
#include "json/json.h"

namespace clawexec::approvals {
namespace {

namespace bj = boost::json;
using policy::ExecAsk;
using policy::ExecSecurity;

const bj::object& empty_object() {
  static const bj::object kEmpty;
  return kEmpty;
}

const bj::object& member_object(const bj::object& parent, std::string_view key) {
  const bj::value* v = json::find(parent, key);
  return (v != nullptr && v->is_object()) ? v->get_object() : empty_object();
}

const bj::object& as_object(const bj::value& v) { return v.is_object() ? v.get_object() : empty_object(); }

const bj::object& agent_object(const bj::object& file, std::string_view agent_id) {
  return member_object(member_object(file, "agents"), agent_id);
}

bool present(const bj::object& obj, std::string_view key) {
  const bj::value* v = json::find(obj, key);
  return v != nullptr && !v->is_null();
}

template <typename T>
std::optional<T> literal(const bj::object& obj, std::string_view key, std::optional<T> (*parse)(std::string_view)) {
  const bj::value* v = json::find(obj, key);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return parse(std::string_view(v->get_string()));
}

// JavaScript truthiness of a present JSON value (only booleans occur in validated files).
std::optional<bool> truthy(const bj::object& obj, std::string_view key) {
  const bj::value* v = json::find(obj, key);
  if (v == nullptr || v->is_null()) return std::nullopt;
  if (v->is_bool()) return v->get_bool();
  if (v->is_string()) return !v->get_string().empty();
  if (const auto n = json::as_number(*v)) return *n != 0 && !std::isnan(*n);
  return true;
}

// Applies the precedence of one field; writes value text + source into the out-params.
template <typename T>
void resolve_field(std::string_view key, std::optional<T> (*parse)(std::string_view), const bj::object& defaults,
                   const bj::object& agent, const bj::object& raw_agent, const bj::object& wildcard,
                   const bj::object& raw_wildcard, std::string_view agent_id, std::optional<T>& value,
                   std::optional<std::string>& source) {
  const auto from_defaults = [&] {
    value = literal<T>(defaults, key, parse);
    if (value) source = "defaults." + std::string(key);
  };
  if (present(raw_agent, key)) {
    if ((value = literal<T>(agent, key, parse))) {
      source = "agents." + std::string(agent_id) + "." + std::string(key);
    } else {
      from_defaults();
    }
  } else if (present(raw_wildcard, key)) {
    if ((value = literal<T>(wildcard, key, parse))) {
      source = "agents.*." + std::string(key);
    } else {
      from_defaults();
    }
  } else {
    from_defaults();
  }
}

void append_entries(const bj::object& agent, std::vector<policy::AllowlistEntry>& out) {
  const bj::value* list = json::find(agent, "allowlist");
  if (list == nullptr || !list->is_array()) return;
  for (const auto& item : list->get_array()) {
    if (auto entry = allowlist_entry_from_json(item)) out.push_back(std::move(*entry));
  }
}

std::optional<std::string> string_member(const bj::object& obj, std::string_view key) {
  const bj::value* v = json::find(obj, key);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return std::string(v->get_string());
}

}  // namespace

std::optional<policy::AllowlistEntry> allowlist_entry_from_json(const bj::value& item) {
  if (!item.is_object()) return std::nullopt;
  const bj::object& obj = item.get_object();
  auto pattern = string_member(obj, "pattern");
  if (!pattern) return std::nullopt;
  policy::AllowlistEntry entry;
  entry.pattern = std::move(*pattern);
  entry.id = string_member(obj, "id");
  entry.source = string_member(obj, "source");
  entry.arg_pattern = string_member(obj, "argPattern");
  if (const bj::value* v = json::find(obj, "lastUsedAt")) {
    // Only values an int64 can hold (a hand-edited 1e300 is not a time and must not be cast).
    constexpr double kLimit = 9.2e18;
    if (const auto n = json::as_number(*v); n && std::isfinite(*n) && *n > -kLimit && *n < kLimit) {
      entry.last_used_at = static_cast<int64_t>(*n);
    }
  }
  entry.last_used_command = string_member(obj, "lastUsedCommand");
  entry.last_resolved_path = string_member(obj, "lastResolvedPath");
  return entry;
}

bj::object allowlist_entry_to_json(const policy::AllowlistEntry& e) {
  bj::object out;
  if (e.id) out["id"] = *e.id;
  out["pattern"] = e.pattern;
  if (e.source) out["source"] = *e.source;
  if (e.arg_pattern) out["argPattern"] = *e.arg_pattern;
  if (e.last_used_at) out["lastUsedAt"] = *e.last_used_at;
  if (e.last_used_command) out["lastUsedCommand"] = *e.last_used_command;
  if (e.last_resolved_path) out["lastResolvedPath"] = *e.last_resolved_path;
  return out;
}

std::vector<policy::AllowlistEntry> allowlist_entries(const Document& doc, std::string_view agent_key) {
  std::vector<policy::AllowlistEntry> out;
  append_entries(agent_object(doc, agent_key), out);
  return out;
}

policy::HostPolicyView host_policy_view(const bj::value& raw, const Document& normalized, std::string_view agent_id) {
  const bj::object& defaults = member_object(normalized, "defaults");
  const bj::object& agent = agent_object(normalized, agent_id);
  const bj::object& wildcard = agent_object(normalized, kWildcardAgentId);
  const bj::object& raw_agent = agent_object(as_object(raw), agent_id);
  const bj::object& raw_wildcard = agent_object(as_object(raw), kWildcardAgentId);

  policy::HostPolicyView view;
  resolve_field<ExecSecurity>("security", &policy::exec_security_from_literal, defaults, agent, raw_agent, wildcard,
                              raw_wildcard, agent_id, view.security, view.security_source);
  resolve_field<ExecAsk>("ask", &policy::exec_ask_from_literal, defaults, agent, raw_agent, wildcard, raw_wildcard,
                         agent_id, view.ask, view.ask_source);
  resolve_field<ExecSecurity>("askFallback", &policy::exec_security_from_literal, defaults, agent, raw_agent,
                              wildcard, raw_wildcard, agent_id, view.ask_fallback, view.ask_fallback_source);
  view.auto_allow_skills = truthy(agent, "autoAllowSkills");
  if (!view.auto_allow_skills) view.auto_allow_skills = truthy(wildcard, "autoAllowSkills");
  if (!view.auto_allow_skills) view.auto_allow_skills = truthy(defaults, "autoAllowSkills");
  return view;
}

ResolvedApprovals resolve_from_file(const bj::value& raw, std::string_view agent_id,
                                    const policy::ApprovalsOverrides& overrides, const ResolveContext& context,
                                    const UuidGenerator& new_id) {
  ResolvedApprovals out;
  out.file = normalize_document(raw, new_id);
  const bj::object& defaults = member_object(out.file, "defaults");

  out.defaults.security = literal<ExecSecurity>(defaults, "security", &policy::exec_security_from_literal)
                              .value_or(overrides.security.value_or(ExecSecurity::kFull));
  out.defaults.ask = literal<ExecAsk>(defaults, "ask", &policy::exec_ask_from_literal)
                         .value_or(overrides.ask.value_or(ExecAsk::kOff));
  out.defaults.ask_fallback = literal<ExecSecurity>(defaults, "askFallback", &policy::exec_security_from_literal)
                                  .value_or(overrides.ask_fallback.value_or(ExecSecurity::kDeny));
  out.defaults.auto_allow_skills =
      truthy(defaults, "autoAllowSkills").value_or(overrides.auto_allow_skills.value_or(false));

  out.agent_sources = host_policy_view(raw, out.file, agent_id);
  out.agent = policy::apply_approvals_fallbacks(out.agent_sources, overrides);
  append_entries(agent_object(out.file, kWildcardAgentId), out.allowlist);
  append_entries(agent_object(out.file, agent_id), out.allowlist);

  const bj::object& socket = member_object(out.file, "socket");
  out.path = context.display_path;
  out.socket_path = expand_home_prefix(string_member(socket, "path").value_or(context.default_socket_path), context.home);
  out.token = string_member(socket, "token").value_or("");
  return out;
}

std::string expand_home_prefix(std::string_view path, std::string_view home) {
  if (path.empty() || path[0] != '~') return std::string(path);
  if (path.size() == 1 || path[1] == '/' || path[1] == '\\') return std::string(home) + std::string(path.substr(1));
  return std::string(path);
}

}  // namespace clawexec::approvals
