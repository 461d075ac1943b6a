// read_tool_policy: validate the policy keys of every scope (`tools` and each
// `agents.entries.<id>.tools`), then build the serving agent's chain of layers the way the
// reference does (resolveEffectiveToolPolicy, pickSandboxToolPolicy, mergeAlsoAllowPolicy,
// createToolPolicyMatcher in OpenClaw 2026.9.6's dist bundles), plus the sandbox layer
// (resolveSandboxToolPolicyForAgent) that applies only to sandboxed sessions:
//
//   1. profile:  agent `profile` ?? global `profile`, its allowlist widened by agent
//                `alsoAllow` ?? global `alsoAllow` (the agent's list replaces the global one);
//   2. global:   `tools.allow` (plus `alsoAllow`, which alone means "*" plus those) and
//                `tools.deny`;
//   3. agent:    the same keys of `agents.entries.<id>.tools`.
//
// The docs' rule for combining them (docs/tools/multi-agent-sandbox-tools.md, "Precedence
// rules"): "Each level can further restrict tools, but cannot grant back denied tools from
// earlier levels." and "If `agents.entries.*.tools.profile` is set, it overrides
// `tools.profile` for that agent."; and further down: "Every restrictive layer intersects with
// the earlier layers, and deny always wins." So a tool is allowed only when every layer lets it
// through. Within one layer: deny patterns first, then an empty allowlist lets everything
// through, then the allowlist, then "`allow: ["write"]` also enables `apply_patch`"
// (docs/gateway/config-tools/tool-policy.md, `tools.allow` / `tools.deny`).

#include "config/tool_policy.h"

#include <algorithm>
#include <array>
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

// The groups that contain one of our tools, as docs/gateway/config-tools/tool-policy.md lists
// them ("Tool groups"). No other group holds exec, process or apply_patch, so other `group:*`
// entries stay literal names that match none of ours.
struct Group {
  std::string_view name;
  std::vector<std::string_view> tools;
};
const std::array<Group, 2>& groups() {
  static const std::array<Group, 2> kGroups{{
      {"group:runtime", {"exec", "process", "code_execution"}},
      {"group:fs", {"read", "write", "edit", "apply_patch"}},
  }};
  return kGroups;
}

// The built-in profiles (docs/gateway/config-tools/tool-policy.md, "Tool profiles"; the
// lists are the catalog's, see tool-catalog-*.mjs). For our tools: `coding` and `full` have
// all three, `minimal` and `messaging` none.
struct Profile {
  std::string_view name;
  std::vector<std::string_view> allow;
};
const std::array<Profile, 4>& profiles() {
  static const std::array<Profile, 4> kProfiles{{
      {"minimal", {"session_status", "gateway"}},
      {"coding",
       {"group:fs", "group:runtime", "group:web", "group:sessions", "group:memory", "cron", "gateway", "get_goal",
        "create_goal", "update_goal", "progress_card", "ask_user", "skill_workshop", "view_image", "image_generate",
        "music_generate", "video_generate", "theme", "bundle-mcp"}},
      {"messaging",
       {"group:messaging", "sessions", "sessions_list", "sessions_history", "sessions_search", "conversations_list",
        "conversations_send", "conversations_turn", "sessions_send", "sessions_spawn", "sessions_yield", "subagents",
        "session_status", "gateway", "ask_user", "theme", "bundle-mcp"}},
      {"full", {"*"}},
  }};
  return kProfiles;
}

const Profile* find_profile(std::string_view name) {
  for (const Profile& p : profiles()) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

using Pattern = ToolPolicy::Pattern;

// The reference's expandToolGroups + compileGlobPatterns: normalise, drop blanks, replace a
// group by its members, classify `*` / exact / glob.
std::vector<Pattern> compile(const std::vector<std::string>& entries) {
  std::vector<std::string> expanded;
  auto add = [&expanded](std::string name) {
    if (std::find(expanded.begin(), expanded.end(), name) == expanded.end()) expanded.push_back(std::move(name));
  };
  for (const std::string& entry : entries) {
    std::string name = normalize_tool_name(entry);
    if (name.empty()) continue;
    auto group = std::find_if(groups().begin(), groups().end(), [&](const Group& g) { return g.name == name; });
    if (group == groups().end()) {
      add(std::move(name));
      continue;
    }
    for (std::string_view member : group->tools) add(std::string(member));
  }
  std::vector<Pattern> out;
  for (std::string& name : expanded) {
    Pattern::Kind kind = name == "*"                           ? Pattern::Kind::kAll
                         : name.find('*') != std::string::npos ? Pattern::Kind::kGlob
                                                               : Pattern::Kind::kExact;
    out.push_back({kind, std::move(name)});
  }
  return out;
}

// `*` matches any run of characters (the reference turns the pattern into ^...$ with `.*`);
// every other character is literal. Leftmost placement of each middle piece is enough.
bool glob_matches(std::string_view pattern, std::string_view name) {
  std::vector<std::string_view> pieces = split(pattern, '*');
  std::string_view first = pieces.front();
  std::string_view last = pieces.back();
  if (name.size() < first.size() + last.size()) return false;
  if (name.substr(0, first.size()) != first || name.substr(name.size() - last.size()) != last) return false;
  size_t pos = first.size();
  const size_t end = name.size() - last.size();
  for (size_t i = 1; i + 1 < pieces.size(); ++i) {
    size_t found = name.substr(0, end).find(pieces[i], pos);
    if (found == std::string_view::npos) return false;
    pos = found + pieces[i].size();
  }
  return true;
}

bool matches_any(std::string_view name, const std::vector<Pattern>& patterns) {
  for (const Pattern& p : patterns) {
    switch (p.kind) {
      case Pattern::Kind::kAll:
        return true;
      case Pattern::Kind::kExact:
        if (p.text == name) return true;
        break;
      case Pattern::Kind::kGlob:
        if (glob_matches(p.text, name)) return true;
        break;
    }
  }
  return false;
}

enum class Verdict { kAllowed, kDenied, kNotAllowed };

// createToolPolicyMatcher(policy, writeAllowsApplyPatch = true) for one normalised name.
Verdict judge(const ToolPolicy::Layer& layer, std::string_view name) {
  if (matches_any(name, layer.deny)) return Verdict::kDenied;
  if (layer.allow.empty() || matches_any(name, layer.allow)) return Verdict::kAllowed;
  if (name == "apply_patch" && matches_any("write", layer.allow)) return Verdict::kAllowed;
  return Verdict::kNotAllowed;
}

// ---- reading one scope ----

// The policy keys of one scope as written, validated.
struct Scope {
  std::string path;  // "tools" or "agents.entries.work.tools"
  std::optional<std::string> profile;
  std::optional<std::vector<std::string>> allow;
  std::optional<std::vector<std::string>> also_allow;
  std::optional<std::vector<std::string>> deny;
  bool has_exec_section = false;
  // <path>.sandbox.tools: the extra filter for sandboxed sessions.
  std::optional<std::vector<std::string>> sandbox_allow;
  std::optional<std::vector<std::string>> sandbox_also_allow;
  std::optional<std::vector<std::string>> sandbox_deny;
};

std::optional<std::vector<std::string>> read_list(const json::object& tools, std::string_view key,
                                                  const std::string& path, Diagnostics& diagnostics) {
  const json::value* v = tools.if_contains(key);
  if (v == nullptr) return std::nullopt;
  std::string key_path = child_path(path, key);
  if (!v->is_array()) {
    diagnostics.errors.push_back(key_path + ": expected an array of strings, got " + describe_value(*v));
    return std::nullopt;
  }
  std::vector<std::string> out;
  bool ok = true;
  const json::array& items = v->get_array();
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].is_string()) {
      out.emplace_back(items[i].get_string());
    } else {
      diagnostics.errors.push_back(key_path + "[" + std::to_string(i) + "]: expected a string, got " +
                                   describe_value(items[i]));
      ok = false;
    }
  }
  if (!ok) return std::nullopt;
  return out;
}

void warn_unapplied(const json::object& tools, const std::string& path, Diagnostics& diagnostics) {
  auto present = [](const json::value* v) { return v != nullptr && !v->is_null(); };
  if (present(tools.if_contains("byProvider")))
    diagnostics.warnings.push_back(child_path(path, "byProvider") +
                                   ": per-provider tool policy is not applied by clawexec; use " + path + ".allow / " +
                                   path + ".deny");
  if (present(tools.if_contains("toolsBySender")))
    diagnostics.warnings.push_back(child_path(path, "toolsBySender") +
                                   ": per-sender tool policy is not applied by clawexec; use " + path + ".allow / " +
                                   path + ".deny");
}

Scope read_scope(const json::object& tools, std::string path, Diagnostics& diagnostics) {
  Scope scope;
  scope.path = std::move(path);
  if (const json::value* v = tools.if_contains("profile")) {
    if (v->is_string() && find_profile(v->get_string()) != nullptr) {
      scope.profile = std::string(v->get_string());
    } else {
      std::string what;
      for (const Profile& p : profiles()) what += (what.empty() ? "\"" : ", \"") + std::string(p.name) + "\"";
      diagnostics.errors.push_back(child_path(scope.path, "profile") + ": expected one of " + what + ", got " +
                                   describe_value(*v));
    }
  }
  scope.allow = read_list(tools, "allow", scope.path, diagnostics);
  scope.also_allow = read_list(tools, "alsoAllow", scope.path, diagnostics);
  scope.deny = read_list(tools, "deny", scope.path, diagnostics);
  // The reference's addAllowAlsoAllowConflictIssue: both lists non-empty.
  if (scope.allow && !scope.allow->empty() && scope.also_allow && !scope.also_allow->empty()) {
    diagnostics.errors.push_back(scope.path +
                                 ": cannot set both allow and alsoAllow in the same scope (merge alsoAllow into "
                                 "allow, or remove allow and use profile + alsoAllow)");
  }
  const json::value* exec = tools.if_contains("exec");
  scope.has_exec_section = exec != nullptr && !exec->is_null();
  const std::string sandbox_path = child_path(scope.path, "sandbox");
  if (const json::object* sandbox = child_object(tools, "sandbox", sandbox_path, diagnostics)) {
    const std::string tools_path = sandbox_path + ".tools";
    if (const json::object* policy = child_object(*sandbox, "tools", tools_path, diagnostics)) {
      scope.sandbox_allow = read_list(*policy, "allow", tools_path, diagnostics);
      scope.sandbox_also_allow = read_list(*policy, "alsoAllow", tools_path, diagnostics);
      scope.sandbox_deny = read_list(*policy, "deny", tools_path, diagnostics);
    }
  }
  warn_unapplied(tools, scope.path, diagnostics);
  return scope;
}

// Returns the object at `parent[key]`: nullptr if absent, an error if present but no object.

// ---- building the chain ----

// pickSandboxToolPolicy: a scope's allow/deny layer, or nullopt when it sets neither.
std::optional<ToolPolicy::Layer> scope_layer(const Scope& scope) {
  const bool also = scope.also_allow && !scope.also_allow->empty();
  if (!scope.allow && !also && !scope.deny) return std::nullopt;
  std::vector<std::string> allow;
  if (scope.allow) allow = *scope.allow;
  if (also) {
    // unionAllow: alsoAllow on top of no (or an empty) allowlist means "everything, plus".
    if (allow.empty()) allow.emplace_back("*");
    allow.insert(allow.end(), scope.also_allow->begin(), scope.also_allow->end());
  }
  ToolPolicy::Layer layer;
  layer.allow_key = scope.path + (scope.allow ? ".allow" : ".alsoAllow");
  layer.deny_key = scope.path + ".deny";
  layer.allow = compile(allow);
  if (scope.deny) layer.deny = compile(*scope.deny);
  return layer;
}

// The profile layer: resolveToolProfilePolicy + mergeAlsoAllowPolicy.
std::optional<ToolPolicy::Layer> profile_layer(const Scope& global, const Scope* agent) {
  const Scope* owner = agent && agent->profile ? agent : global.profile ? &global : nullptr;
  if (owner == nullptr) return std::nullopt;
  const Profile* profile = find_profile(*owner->profile);
  std::vector<std::string> allow(profile->allow.begin(), profile->allow.end());
  const std::optional<std::vector<std::string>>& also =
      agent && agent->also_allow ? agent->also_allow : global.also_allow;
  if (also) allow.insert(allow.end(), also->begin(), also->end());
  ToolPolicy::Layer layer;
  layer.allow_key = child_path(owner->path, "profile") + " \"" + *owner->profile + "\"";
  layer.allow = compile(allow);
  return layer;
}

// The sandbox's default allowlist (DEFAULT_TOOL_ALLOW in OpenClaw's sandbox constants). Its
// default denylist names none of our tools.
const std::vector<std::string>& default_sandbox_allow() {
  static const std::vector<std::string> kAllow{
      "exec",          "process",          "read",          "ls",           "write",          "edit",
      "apply_patch",   "view_image",       "sessions_list", "sessions_history", "sessions_search",
      "sessions_send", "sessions_spawn",   "sessions_yield", "subagents",   "session_status"};
  return kAllow;
}

// resolveSandboxToolPolicyForAgent: each of allow, alsoAllow and deny is the agent's list when
// it sets one, else the global one; allow (or the default list) is widened by alsoAllow, and
// an allow of [] lets everything through. Named by the key that supplied it.
ToolPolicy::Layer sandbox_layer(const Scope& global, const Scope* agent) {
  using List = std::optional<std::vector<std::string>>;
  struct Picked {
    const List* list;
    std::string key;
    bool from_agent;
  };
  auto pick = [&](List Scope::*field, std::string_view name) -> Picked {
    if (agent && (agent->*field)) return {&(agent->*field), agent->path + ".sandbox.tools." + std::string(name), true};
    if (global.*field) return {&(global.*field), global.path + ".sandbox.tools." + std::string(name), false};
    return {nullptr, global.path + ".sandbox.tools." + std::string(name), false};
  };
  Picked allow = pick(&Scope::sandbox_allow, "allow");
  Picked also = pick(&Scope::sandbox_also_allow, "alsoAllow");
  Picked deny = pick(&Scope::sandbox_deny, "deny");
  const bool also_set = also.list && !(*also.list)->empty();
  std::vector<std::string> merged;
  if (allow.list) {
    merged = **allow.list;
    if (!merged.empty() && also_set) merged.insert(merged.end(), (*also.list)->begin(), (*also.list)->end());
  } else {
    merged = default_sandbox_allow();
    if (also_set) merged.insert(merged.end(), (*also.list)->begin(), (*also.list)->end());
  }
  ToolPolicy::Layer layer;
  // pickAllowSource: an agent's list before a global one, allow before alsoAllow.
  if (allow.list && allow.from_agent) {
    layer.allow_key = allow.key;
  } else if (also.list && also.from_agent) {
    layer.allow_key = also.key;
  } else if (allow.list) {
    layer.allow_key = allow.key;
  } else if (also.list) {
    layer.allow_key = also.key;
  } else {
    layer.allow_key = allow.key;
  }
  layer.deny_key = deny.key;
  layer.allow = compile(merged);
  if (deny.list) layer.deny = compile(**deny.list);
  return layer;
}

// detectImplicitProfileGrants (#47487): a `tools.exec` section used to widen a restrictive
// profile with exec and process; the reference now only warns. We warn the same way.
void warn_implicit_grants(const Scope& global, const Scope* agent, std::string_view agent_id,
                          const std::vector<ToolPolicy::Layer>& layers, Diagnostics& diagnostics) {
  const Scope* owner = agent && agent->profile ? agent : global.profile ? &global : nullptr;
  if (owner == nullptr) return;
  const bool section = (agent && agent->has_exec_section) || (owner == &global && global.has_exec_section);
  if (!section) return;
  std::vector<std::string> uncovered;
  for (std::string_view tool : {"exec", "process"}) {
    // layers[0] is the profile layer; the rest are the restrictions the grant must pass.
    bool in_profile = judge(layers[0], tool) == Verdict::kAllowed;
    bool restricted = std::any_of(layers.begin() + 1, layers.end(),
                                  [&](const ToolPolicy::Layer& l) { return judge(l, tool) != Verdict::kAllowed; });
    if (!in_profile && !restricted) uncovered.push_back("\"" + std::string(tool) + "\"");
  }
  if (uncovered.empty()) return;
  std::string message = "tools policy: profile \"" + *owner->profile + "\"";
  if (!agent_id.empty()) message += " (agent \"" + std::string(agent_id) + "\")";
  message +=
      " has configured tool sections (tools.exec) that no longer implicitly widen the profile. Add alsoAllow: [" +
      join(uncovered, ", ") + "] explicitly if these tools should be available. See #47487.";
  diagnostics.warnings.push_back(std::move(message));
}

}  // namespace

std::string normalize_tool_name(std::string_view name) {
  std::string normalized = lower_trimmed(name);
  if (normalized == "bash") return "exec";
  if (normalized == "apply-patch") return "apply_patch";
  return normalized;
}

ToolPolicy::ToolPolicy(std::vector<Layer> layers, std::vector<std::string> warnings)
    : layers_(std::move(layers)), warnings_(std::move(warnings)) {}

ToolPolicy::ToolPolicy(std::vector<Layer> layers, std::optional<Layer> sandbox_layer, std::vector<std::string> warnings)
    : layers_(std::move(layers)), sandbox_layer_(std::move(sandbox_layer)), warnings_(std::move(warnings)) {}

std::optional<std::string> ToolPolicy::denied_by(std::string_view tool, bool sandboxed) const {
  if (layers_.empty() && !(sandboxed && sandbox_layer_)) return std::nullopt;
  std::string name = normalize_tool_name(tool);
  auto check = [&name](const Layer& layer) -> std::optional<std::string> {
    switch (judge(layer, name)) {
      case Verdict::kAllowed:
        return std::nullopt;
      case Verdict::kDenied:
        return layer.deny_key;
      case Verdict::kNotAllowed:
        return layer.allow_key;
    }
    return std::nullopt;
  };
  for (const Layer& layer : layers_) {
    if (std::optional<std::string> key = check(layer)) return key;
  }
  if (sandboxed && sandbox_layer_) return check(*sandbox_layer_);
  return std::nullopt;
}

Result<ToolPolicy> read_tool_policy(const json::object& document, std::string_view agent_id) {
  Diagnostics diagnostics;
  Scope global;
  global.path = "tools";
  if (const json::object* tools = child_object(document, "tools", "tools", diagnostics))
    global = read_scope(*tools, "tools", diagnostics);

  std::optional<Scope> agent;
  bool agent_found = false;
  const std::string wanted = agent_id.empty() ? std::string() : normalize_agent_id(agent_id);
  const json::object* agents = child_object(document, "agents", "agents", diagnostics);
  const json::object* entries = agents ? child_object(*agents, "entries", "agents.entries", diagnostics) : nullptr;
  if (entries != nullptr) {
    for (const auto& entry : *entries) {
      std::string entry_path = child_path("agents.entries", entry.key());
      if (!entry.value().is_object()) {
        diagnostics.errors.push_back(entry_path + ": expected an object, got " + describe_value(entry.value()));
        continue;
      }
      const json::object* tools = child_object(entry.value().get_object(), "tools", entry_path + ".tools", diagnostics);
      // The first entry whose normalised key matches is the agent's (resolveAgentEntry), even
      // when it has no tools section (then only the global scope applies).
      const bool serving = !wanted.empty() && !agent_found && normalize_agent_id(entry.key()) == wanted;
      agent_found = agent_found || serving;
      if (tools == nullptr) continue;
      Scope scope = read_scope(*tools, entry_path + ".tools", diagnostics);
      if (serving) agent = std::move(scope);
    }
  }
  if (!diagnostics.errors.empty()) return Error::invalid(join(diagnostics.errors, "\n"));

  std::vector<ToolPolicy::Layer> layers;
  const Scope* agent_scope = agent ? &*agent : nullptr;
  if (auto layer = profile_layer(global, agent_scope)) layers.push_back(std::move(*layer));
  const bool has_profile = !layers.empty();
  if (auto layer = scope_layer(global)) layers.push_back(std::move(*layer));
  if (agent_scope) {
    if (auto layer = scope_layer(*agent_scope)) layers.push_back(std::move(*layer));
  }
  if (has_profile) warn_implicit_grants(global, agent_scope, wanted, layers, diagnostics);
  return ToolPolicy(std::move(layers), sandbox_layer(global, agent_scope), std::move(diagnostics.warnings));
}

}  // namespace clawexec::config
