// The exec part of the security audit (spec §10.1) as a pure function of two JSON documents
// and injected facts. Each check is a small function appending at most one finding; the order
// of the checks, the scope labels in the detail lines and the texts follow the reference
// (`collectExecRuntimeFindings`), which reports agents as `agents.entries.<id>` whichever
// roster shape the config uses. Values are read loosely (wrong types count as unset), as the
// reference does: the audit reports on what is configured, the loader validates it.

#include "policy/audit.h"

#include <algorithm>

#include "base/strings.h"
#include "base/utf.h"
#include "policy/audit_config.h"
#include "policy/inline_eval.h"
#include "policy/modes.h"
#include "policy/safe_bins.h"
#include "shell/lexical_path.h"

namespace clawexec::policy {

namespace json = boost::json;

std::string_view to_string(AuditSeverity severity) {
  switch (severity) {
    case AuditSeverity::kInfo:
      return "info";
    case AuditSeverity::kWarn:
      return "warn";
    case AuditSeverity::kCritical:
      return "critical";
  }
  return "warn";
}

json::object to_json(const AuditFinding& finding) {
  json::object out;
  out["checkId"] = finding.check_id;
  out["severity"] = to_string(finding.severity);
  out["title"] = finding.title;
  out["detail"] = finding.detail;
  out["remediation"] = finding.remediation;
  return out;
}

namespace {

// A member that is present and neither null nor undefined (JS `??` semantics).
const json::value* present(const json::object* object, std::string_view key) {
  if (object == nullptr) return nullptr;
  auto it = object->find(key);
  if (it == object->end() || it->value().is_null()) return nullptr;
  return &it->value();
}

bool is_string_equal(const json::value* value, std::string_view text) {
  return value != nullptr && value->is_string() && value->as_string() == text;
}

// JavaScript truthiness of a present JSON value.
bool js_truthy(const json::value& value) {
  if (value.is_bool()) return value.as_bool();
  if (value.is_string()) return !value.as_string().empty();
  if (value.is_int64()) return value.as_int64() != 0;
  if (value.is_uint64()) return value.as_uint64() != 0;
  if (value.is_double()) return value.as_double() != 0 && value.as_double() == value.as_double();
  return !value.is_null();
}

std::string lines(const std::vector<std::string>& items) { return join(items, "\n"); }

// resolveSandboxConfigForAgent(cfg, agent).mode is "off": the agent's sandbox.mode, else
// agents.defaults.sandbox.mode, else "off".
bool sandbox_mode_off(const json::value& config, const json::object* agent_entry) {
  const json::value* mode = present(object_member(agent_entry, "sandbox"), "mode");
  if (mode == nullptr) {
    const json::object* defaults = object_member(object_member(&config, "agents"), "defaults");
    mode = present(object_member(defaults, "sandbox"), "mode");
  }
  return mode == nullptr || is_string_equal(mode, "off");
}

void check_sandbox_host(const json::value& config, std::vector<AuditFinding>& out) {
  const json::object* global = global_exec_section(config);
  if (is_string_equal(present(global, "host"), "sandbox") && sandbox_mode_off(config, nullptr)) {
    out.push_back({"tools.exec.host_sandbox_no_sandbox_defaults", AuditSeverity::kWarn,
                   "Exec host is sandbox but sandbox mode is off",
                   "tools.exec.host is explicitly set to sandbox while agents.defaults.sandbox.mode=off. In this "
                   "mode, exec fails closed because no sandbox runtime is available.",
                   "Enable sandbox mode (`agents.defaults.sandbox.mode=\"non-main\"` or `\"all\"`) or set "
                   "tools.exec.host to \"gateway\" with approvals."});
  }
  std::vector<std::string> risky;
  for (const ConfiguredAgent& agent : list_configured_agents(config)) {
    if (!agent.has_string_id || risky.size() == 5) continue;
    if (is_string_equal(present(agent_exec_section(agent), "host"), "sandbox") && sandbox_mode_off(config, agent.entry)) {
      risky.push_back(agent.id);
    }
  }
  if (!risky.empty()) {
    out.push_back({"tools.exec.host_sandbox_no_sandbox_agents", AuditSeverity::kWarn,
                   "Agent exec host uses sandbox while sandbox mode is off",
                   "agents.entries.*.tools.exec.host is set to sandbox for: " + join(risky, ", ") +
                       ". With sandbox mode off, exec fails closed for those agents.",
                   "Enable sandbox mode for these agents (`agents.entries.*.sandbox.mode`) or set their "
                   "tools.exec.host to \"gateway\"."});
  }
}

// resolveExecModePolicy({mode, security, ask}).security with the audit's simplified default:
// a valid mode decides; otherwise the configured security string as written.
std::string audit_security(const json::value* mode, std::string security) {
  if (mode != nullptr) {
    if (auto parsed = normalize_exec_mode(*mode)) {
      return std::string(config::to_string(resolve_exec_policy_for_mode(*parsed).security));
    }
  }
  return security;
}

std::string string_or(const json::value* value, std::string fallback) {
  if (value != nullptr && value->is_string()) return std::string(value->as_string());
  return fallback;
}

void check_security_full(const json::value& config, std::vector<AuditFinding>& out) {
  const json::object* global = global_exec_section(config);
  std::string global_security =
      audit_security(present(global, "mode"), string_or(present(global, "security"), "deny"));
  // Scopes keyed by id: a later scope with the same id replaces the value but keeps the place.
  std::vector<std::pair<std::string, std::string>> scopes;
  auto put = [&scopes](const std::string& id, std::string security) {
    for (auto& scope : scopes) {
      if (scope.first == id) {
        scope.second = std::move(security);
        return;
      }
    }
    scopes.emplace_back(id, std::move(security));
  };
  put(try_resolve_default_agent_id(config).value_or("global"), global_security);
  for (const ConfiguredAgent& agent : list_configured_agents(config)) {
    if (!agent.has_string_id) continue;
    const json::object* exec = agent_exec_section(agent);
    put(agent.id, audit_security(present(exec, "mode"), string_or(present(exec, "security"), global_security)));
  }
  std::vector<std::string> full_ids;
  for (const auto& scope : scopes) {
    if (scope.second == "full") full_ids.push_back(scope.first);
  }
  if (full_ids.empty()) return;
  out.push_back({"tools.exec.security_full_configured", AuditSeverity::kWarn, "Exec security=full is configured",
                 "Full exec trust is enabled for: " + join(full_ids, ", ") + ".",
                 "Prefer tools.exec.mode=\"ask\" or \"allowlist\", and reserve \"full\" for tightly scoped "
                 "break-glass agents only."});
}

void check_auto_allow_skills(const json::value& approvals, std::vector<AuditFinding>& out) {
  std::vector<std::string> hits;
  if (const json::value* v = present(object_member(&approvals, "defaults"), "autoAllowSkills");
      v != nullptr && v->is_bool() && v->as_bool()) {
    hits.push_back("- defaults.autoAllowSkills");
  }
  if (const json::object* agents = object_member(&approvals, "agents")) {
    for (const auto& member : *agents) {
      const json::value* v = member.value().is_object() ? present(&member.value().as_object(), "autoAllowSkills") : nullptr;
      if (v != nullptr && v->is_bool() && v->as_bool()) {
        hits.push_back("- agents." + std::string(member.key()) + ".autoAllowSkills");
      }
    }
  }
  if (hits.empty()) return;
  out.push_back({"tools.exec.auto_allow_skills_enabled", AuditSeverity::kWarn,
                 "autoAllowSkills is enabled for exec approvals",
                 "Implicit skill-bin allowlisting is enabled at:\n" + lines(hits) +
                     "\nThis widens host exec trust beyond explicit manual allowlist entries.",
                 "Disable autoAllowSkills in exec approvals and keep manual allowlists tight when you need "
                 "explicit host-exec trust."});
}

// strictInlineEval for an approvals agent key: the global value for "*" (and no id); otherwise
// the first configured agent with that id, its own value when set, else the global one.
bool strict_inline_eval_for(const json::value& config, const std::string& agent_id) {
  const json::value* global_value = present(global_exec_section(config), "strictInlineEval");
  bool global = global_value != nullptr && global_value->is_bool() && global_value->as_bool();
  if (agent_id.empty() || agent_id == "*") return global;
  for (const ConfiguredAgent& agent : list_configured_agents(config)) {
    if (!agent.has_string_id || agent.id != agent_id) continue;
    const json::value* own = present(agent_exec_section(agent), "strictInlineEval");
    return own != nullptr ? js_truthy(*own) : global;
  }
  return global;
}

void check_interpreter_allowlist(const json::value& config, const json::value& approvals,
                                 std::vector<AuditFinding>& out) {
  std::vector<std::string> hits;
  if (const json::object* agents = object_member(&approvals, "agents")) {
    for (const auto& member : *agents) {
      if (!member.value().is_object()) continue;
      std::string agent_id(member.key());
      if (strict_inline_eval_for(config, agent_id)) continue;
      const json::value* allowlist = present(&member.value().as_object(), "allowlist");
      if (allowlist == nullptr || !allowlist->is_array()) continue;
      for (const json::value& entry : allowlist->as_array()) {
        const json::value* pattern = entry.is_object() ? present(&entry.as_object(), "pattern") : nullptr;
        if (pattern == nullptr || !pattern->is_string()) continue;
        std::string text(pattern->as_string());
        if (is_interpreter_like_allowlist_pattern(text)) hits.push_back("- agents." + agent_id + ".allowlist: " + text);
      }
    }
  }
  if (hits.empty()) return;
  out.push_back({"tools.exec.allowlist_interpreter_without_strict_inline_eval", AuditSeverity::kWarn,
                 "Interpreter allowlist entries are missing strictInlineEval hardening",
                 "Interpreter/runtime allowlist entries were found without strictInlineEval enabled:\n" + lines(hits),
                 "Set tools.exec.strictInlineEval=true (or per-agent tools.exec.strictInlineEval=true) when "
                 "allowlisting interpreters like python, node, ruby, perl, php, lua, or osascript."});
}

// A model ref as config writes one: "provider/model", or {primary} ("" when neither).
std::string model_ref(const json::value* value) {
  if (value == nullptr) return {};
  if (value->is_string()) return std::string(js_trim(value->as_string()));
  if (const json::value* primary = present(value->is_object() ? &value->as_object() : nullptr, "primary");
      primary != nullptr && primary->is_string()) {
    return std::string(js_trim(primary->as_string()));
  }
  return {};
}

// mode "auto" with no model for the reviewer (tools.exec.reviewer.model, else the agent's
// primary model): the default reviewer defers every command, so "auto" only adds a delay.
void check_auto_review_model(const json::value& config, std::vector<AuditFinding>& out) {
  const json::object* global = global_exec_section(config);
  const json::object* defaults = object_member(object_member(&config, "agents"), "defaults");
  const std::string default_model = model_ref(present(defaults, "model"));
  auto reviewer_model = [](const json::object* exec) { return model_ref(present(object_member(exec, "reviewer"), "model")); };
  std::vector<std::string> hits;
  auto is_auto = [](const json::value* mode) { return is_string_equal(mode, "auto"); };
  if (is_auto(present(global, "mode")) && reviewer_model(global).empty() && default_model.empty()) {
    hits.push_back("- tools.exec (mode auto)");
  }
  for (const ConfiguredAgent& agent : list_configured_agents(config)) {
    if (!agent.has_string_id) continue;
    const json::object* exec = agent_exec_section(agent);
    const json::value* mode = present(exec, "mode") != nullptr ? present(exec, "mode") : present(global, "mode");
    if (!is_auto(mode)) continue;
    // An agent's reviewer object replaces the global one as a whole.
    std::string model = present(exec, "reviewer") != nullptr ? reviewer_model(exec) : reviewer_model(global);
    if (model.empty()) model = model_ref(present(agent.entry, "model"));
    if (model.empty()) model = default_model;
    if (model.empty()) hits.push_back("- " + agent.doctor_scope_path + " (mode auto)");
  }
  if (hits.empty()) return;
  out.push_back({"tools.exec.auto_review_no_model", AuditSeverity::kWarn,
                 "Exec mode auto has no reviewer model",
                 "tools.exec.mode=\"auto\" asks a model-backed reviewer before a human, but no model is configured "
                 "for:\n" + lines(hits) + "\nThe default reviewer defers every command to a human.",
                 "Set tools.exec.reviewer.model to a \"provider/model\" listed under models.providers (a local "
                 "OpenAI-compatible server works), or use tools.exec.mode=\"ask\"."});
}

}  // namespace

// Defined in audit_safe_bins.cc.
void check_exec_audit_safe_bins(const json::value& config, const AuditFacts& facts, std::vector<AuditFinding>& out);

std::vector<AuditFinding> collect_exec_audit_findings(const json::value& config, const json::value& approvals,
                                                      const AuditFacts& facts) {
  std::vector<AuditFinding> out;
  check_sandbox_host(config, out);
  check_security_full(config, out);
  check_auto_allow_skills(approvals, out);
  check_interpreter_allowlist(config, approvals, out);
  check_exec_audit_safe_bins(config, facts, out);
  check_auto_review_model(config, out);
  return out;
}

}  // namespace clawexec::policy
