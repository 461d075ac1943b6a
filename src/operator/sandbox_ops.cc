// The sandbox operations (see sandbox_ops.h). Each agent's sandbox settings are read as the
// server reads them (config::read_sandbox_settings), so a root, a scope key and a scope
// directory here are the ones a server uses.

#include "operator/sandbox_ops.h"

#include <algorithm>
#include <boost/json/array.hpp>

#include "base/strings.h"
#include "base/time.h"
#include "config/elevated_settings.h"
#include "config/exec_settings.h"
#include "config/paths.h"
#include "config/tool_policy.h"
#include "operator/config_document.h"
#include "sandbox/sandbox_host.h"
#include "sandbox/cgroup.h"
#include "sys/file_system.h"
#include "sys/sys.h"

namespace clawexec::operator_ops {
namespace {

namespace json = boost::json;

struct AgentSandbox {
  std::string agent_id;
  config::SandboxSettings settings;
  std::string root;
};

}  // namespace

std::vector<std::string> configured_agent_ids(const json::value& document) {
  std::vector<std::string> ids{"main"};
  const json::object* doc = document.if_object();
  const json::value* agents = doc ? doc->if_contains("agents") : nullptr;
  const json::value* entries = agents && agents->is_object() ? agents->get_object().if_contains("entries") : nullptr;
  if (entries && entries->is_object()) {
    for (const auto& entry : entries->get_object()) {
      std::string id = config::normalize_agent_id(entry.key());
      if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
    }
  }
  return ids;
}

namespace {

Result<AgentSandbox> agent_sandbox(const OperatorEnv& env, const json::value& document, const std::string& agent_id) {
  AgentSandbox out;
  out.agent_id = agent_id;
  static const json::object kEmpty;
  const json::object& doc = document.is_object() ? document.get_object() : kEmpty;
  out.settings = TRY(config::read_sandbox_settings(doc, agent_id, config::resolve_home_dir(env.paths),
                                                   [](const std::string& p) { return sys::canonicalize_existing_prefix(p); }));
  out.root = config::sandbox_root(out.settings, config::resolve_state_dir(env.paths));
  return out;
}

Result<std::vector<AgentSandbox>> all_agent_sandboxes(const OperatorEnv& env) {
  ConfigDocument config = TRY(read_config_document(env.config_path));
  std::vector<AgentSandbox> out;
  for (const std::string& id : configured_agent_ids(config.document)) {
    Result<AgentSandbox> a = agent_sandbox(env, config.document, id);
    if (!a.ok()) return Error::invalid(env.config_path + ": " + a.error().message);
    out.push_back(std::move(a).value());
  }
  return out;
}

// Scope "agent:<id>" (scope agent) or "agent:<id>:..." (a session of that agent).
bool belongs_to_agent(const std::string& scope, const std::string& agent_id) {
  std::string prefix = "agent:" + config::normalize_agent_id(agent_id);
  return scope == prefix || scope.rfind(prefix + ":", 0) == 0;
}

bool selected(const SandboxSelector& which, const std::string& scope) {
  if (which.all) return true;
  if (!which.scope.empty() && scope == which.scope) return true;
  return !which.agent.empty() && belongs_to_agent(scope, which.agent);
}

// Every record under the agents' roots, each root read once.
SandboxListing records_of(const std::vector<AgentSandbox>& agents) {
  SandboxListing out;
  for (const AgentSandbox& a : agents) {
    if (std::find(out.roots.begin(), out.roots.end(), a.root) != out.roots.end()) continue;
    out.roots.push_back(a.root);
    for (sandbox::SandboxRecord& r : sandbox::read_records(a.root)) out.sandboxes.push_back(std::move(r));
  }
  return out;
}

}  // namespace

Result<SandboxListing> list_sandboxes(const OperatorEnv& env) { return records_of(TRY(all_agent_sandboxes(env))); }

Result<std::vector<std::string>> recreate_sandboxes(const OperatorEnv& env, const SandboxSelector& which) {
  if (!which.all && which.scope.empty() && which.agent.empty()) {
    return Error::invalid("sandbox recreate: name what to recreate: --all, --session <key> or --agent <id>");
  }
  std::vector<std::string> stopped;
  for (const sandbox::SandboxRecord& r : TRY(list_sandboxes(env)).sandboxes) {
    if (r.running && selected(which, r.scope) && sandbox::stop_sandbox(r)) stopped.push_back(r.scope);
  }
  return stopped;
}

Result<PruneReport> prune_sandboxes(const OperatorEnv& env, int64_t now_ms) {
  PruneReport report;
  std::vector<AgentSandbox> agents = TRY(all_agent_sandboxes(env));
  // The limits of the agent a scope belongs to, else main's (the first).
  auto settings_for = [&agents](const std::string& scope) -> const config::SandboxSettings& {
    for (const AgentSandbox& a : agents) {
      if (belongs_to_agent(scope, a.agent_id)) return a.settings;
    }
    return agents.front().settings;
  };
  for (const sandbox::SandboxRecord& r : records_of(agents).sandboxes) {
    if (!r.running) {
      sandbox::remove_record(r);
      report.removed.push_back(r.scope);
      continue;
    }
    // Only the maximum age: whether a command still runs inside is known to its server alone,
    // which applies idleHours itself.
    const config::SandboxSettings& s = settings_for(r.scope);
    bool old = s.prune_max_age_ms > 0 && now_ms - r.created_ms > s.prune_max_age_ms;
    if (old && sandbox::stop_sandbox(r)) report.stopped.push_back(r.scope);
  }
  return report;
}

Result<SandboxExplanation> explain_sandbox(const OperatorEnv& env, const std::string& agent_id,
                                           const std::string& session_key) {
  ConfigDocument config = TRY(read_config_document(env.config_path));
  SandboxExplanation e;
  e.agent_id = config::normalize_agent_id(agent_id.empty() ? std::string("main") : agent_id);
  e.session_key = session_key.empty() ? "agent:" + e.agent_id + ":main" : session_key;
  Result<AgentSandbox> a = agent_sandbox(env, config.document, e.agent_id);
  if (!a.ok()) return Error::invalid(env.config_path + ": " + a.error().message);
  e.settings = a->settings;
  e.root = a->root;
  e.warnings = e.settings.warnings;
  e.main_session = config::is_main_session(e.session_key, e.agent_id);
  e.sandboxed = config::sandbox_active(e.settings, e.session_key, e.agent_id);
  static const json::object kEmpty;
  const json::object& doc = config.document.is_object() ? config.document.get_object() : kEmpty;
  Result<config::ToolPolicy> tools = config::read_tool_policy(doc, e.agent_id);
  if (!tools.ok()) return Error::invalid(env.config_path + ": " + tools.error().message);
  for (std::string_view tool : {"exec", "process", "apply_patch"}) {
    if (std::optional<std::string> key = tools->denied_by(tool, e.sandboxed)) {
      e.denied_tools.push_back(std::string(tool) + " (" + *key + ")");
    } else {
      e.tools.emplace_back(tool);
    }
  }
  Result<config::ElevatedSettings> elevated = config::read_elevated_settings(doc, e.agent_id);
  if (!elevated.ok()) return Error::invalid(env.config_path + ": " + elevated.error().message);
  if (!elevated->enabled()) {
    e.elevated = "off (tools.elevated.enabled / agents.entries.*.tools.elevated.enabled is false)";
  } else if (config::elevated_permission(*elevated, {.provider = "mcp", .sender_id = ""}).allowed) {
    const std::string level = elevated->level();
    e.elevated = "allowed for local MCP clients (tools.elevated.allowFrom.mcp); elevated: true runs on the host" +
                 std::string(level == "off" ? "" : ", and so does every call by default (elevatedDefault \"" + level + "\")");
  } else {
    e.elevated = "refused unless tools.elevated.allowFrom.<provider> approves the caller (local MCP clients are "
                 "provider \"mcp\")";
  }
  if (e.sandboxed) {
    e.scope = config::sandbox_scope_key(e.settings, e.session_key, e.agent_id);
    e.state_dir = e.root + "/" + sandbox::scope_directory_name(e.scope);
    e.probe = sandbox::probe_sandbox_support();
    e.unavailable = sandbox::unavailable_reason(e.probe);
    for (sandbox::SandboxRecord& r : sandbox::read_records(e.root)) {
      if (r.scope == e.scope && r.running) e.running = std::move(r);
    }
  }
  return e;
}

std::vector<policy::AuditFinding> collect_sandbox_audit_findings(const OperatorEnv& env, const json::value& document) {
  std::vector<policy::AuditFinding> findings;
  std::vector<std::string> seen_errors;
  std::vector<std::string> mode_off_docker;
  bool any_sandbox = false;
  static const json::object kEmpty;
  const json::object& doc = document.is_object() ? document.get_object() : kEmpty;
  for (const std::string& id : configured_agent_ids(document)) {
    Result<AgentSandbox> a = agent_sandbox(env, document, id);
    if (!a.ok()) {
      // One finding per distinct problem (the defaults' problems repeat for every agent).
      for (std::string_view line : split(a.error().message, '\n')) {
        std::string text(line);
        if (std::find(seen_errors.begin(), seen_errors.end(), text) != seen_errors.end()) continue;
        seen_errors.push_back(text);
        policy::AuditFinding f;
        f.severity = policy::AuditSeverity::kCritical;
        if (text.find(".binds") != std::string::npos) {
          f.check_id = "sandbox.dangerous_bind_mount";
          f.title = "Dangerous bind mount in sandbox config";
          f.remediation = "Remove the bind, or bind a project-specific directory instead.";
        } else if (text.find(".network") != std::string::npos) {
          f.check_id = "sandbox.dangerous_network_mode";
          f.title = "Dangerous network mode in sandbox config";
          f.remediation = "Set the network to \"none\" or \"bridge\".";
        } else {
          f.check_id = "sandbox.invalid_config";
          f.title = "Invalid sandbox setting";
          f.remediation = "Fix the setting; clawexec refuses to start with it.";
        }
        f.detail = text + "\nclawexec refuses to start with this configuration.";
        findings.push_back(std::move(f));
      }
      continue;
    }
    const config::SandboxSettings& s = a->settings;
    const std::string where = id == "main" ? "agents.defaults.sandbox" : "agents.entries." + id + ".sandbox";
    if (s.mode == config::SandboxMode::kOff) {
      if (!s.binds.empty() || !s.env.empty() || s.pids_limit || s.memory_bytes) mode_off_docker.push_back(where + ".docker");
      continue;
    }
    any_sandbox = true;
    if (s.workspace_access == config::WorkspaceAccess::kRw) {
      findings.push_back({"sandbox.workspace_rw", policy::AuditSeverity::kInfo,
                          "Sandboxed commands can change the agent workspace",
                          "Agent \"" + id + "\" has workspaceAccess \"rw\": the workspace is mounted writable (its .git " +
                              "hooks, .git/config and shell rc files stay read-only" +
                              (s.protect_git ? "" : " only with docker.protectWorkspaceMetadata") + ").",
                          "Use workspaceAccess \"ro\" or \"none\" when the agent need not write the project."});
    }
    if (Result<config::ElevatedSettings> e = config::read_elevated_settings(doc, id); e.ok() && e->enabled()) {
      // A provider is open when its gates approve a caller with no sender id, which only "*"
      // does (the agent's allowFrom, when set, has to agree).
      std::vector<std::string> providers;
      for (const auto& [provider, list] : e->global_allow_from) {
        if (config::elevated_permission(*e, {.provider = provider, .sender_id = ""}).allowed) providers.push_back(provider);
      }
      if (!providers.empty()) {
        findings.push_back({"sandbox.elevated_allow_all", policy::AuditSeverity::kWarn,
                            "Any caller may leave the sandbox through elevated",
                            "Agent \"" + id + "\" is sandboxed, but tools.elevated.allowFrom lets every sender of " +
                                join(providers, ", ") + " run commands on the gateway host" +
                                (e->level() == "off"
                                     ? std::string(" with elevated: true.")
                                     : std::string(", and their calls are elevated by default (elevatedDefault \"") +
                                           e->level() + "\"): the sandbox does not apply to them."),
                            "List the sender ids that may use elevated instead of \"*\", or set tools.elevated.enabled "
                            "to false."});
      }
    }
  }
  if (!mode_off_docker.empty() && !any_sandbox) {
    std::string detail = "These docker settings will not take effect until sandbox mode is enabled:";
    for (const std::string& p : mode_off_docker) detail += "\n- " + p;
    findings.push_back({"sandbox.docker_config_mode_off", policy::AuditSeverity::kWarn,
                        "Sandbox docker settings configured while sandbox mode is off", detail,
                        "Enable sandbox mode (`agents.defaults.sandbox.mode=\"non-main\"` or `\"all\"`) where needed, or "
                        "remove unused docker settings."});
  }
  return findings;
}

std::vector<std::string> sandbox_doctor_lines(const OperatorEnv& env, const json::value& document) {
  std::vector<std::string> sandboxed;
  std::vector<std::string> limits;
  for (const std::string& id : configured_agent_ids(document)) {
    Result<AgentSandbox> a = agent_sandbox(env, document, id);
    if (!a.ok()) return {"sandbox settings are invalid (see clawexec security audit): " + a.error().message};
    if (a->settings.mode == config::SandboxMode::kOff) continue;
    sandboxed.push_back(id);
    const config::SandboxSettings& s = a->settings;
    if (s.pids_limit || s.memory_bytes || s.cpus) limits.push_back(id);
  }
  if (sandboxed.empty()) return {};
  std::vector<std::string> lines{"sandboxed agents: " + join(sandboxed, ", ")};
  sandbox::SandboxProbe probe = sandbox::probe_sandbox_support();
  for (std::string& line : sandbox::describe_probe(probe)) lines.push_back(std::move(line));
  std::string why = sandbox::unavailable_reason(probe);
  lines.push_back(why.empty() ? "sandbox: can be built on this machine"
                              : "sandbox: CANNOT be built here; sandboxed calls fail closed: " + why);
  if (!limits.empty()) {
    // The real test: make (and at once remove) a cgroup the way a sandbox does.
    Result<std::unique_ptr<sandbox::SandboxCgroup>> trial = sandbox::SandboxCgroup::create(
        "clawexec-doctor-" + std::to_string(sys::current_pid()), {.pids = 4096});
    lines.push_back("resource limits (" + join(limits, ", ") + "): " +
                    (trial.ok() ? "a cgroup of each sandbox's own enforces them (" + trial.value()->summary() + ")"
                                : "no cgroup can be made here (" + trial.error().message +
                                      "): as root a sandbox with limits is refused, otherwise only the nearest "
                                      "rlimits apply"));
  }
  return lines;
}

json::object to_json(const sandbox::SandboxRecord& r, int64_t now_ms) {
  return json::object{{"scope", r.scope},
                      {"running", r.running},
                      {"serverPid", static_cast<int64_t>(r.server_pid)},
                      {"holderPid", static_cast<int64_t>(r.holder_pid)},
                      {"workspace", r.workspace},
                      {"workdir", r.workdir},
                      {"network", r.network},
                      {"limits", r.limits},
                      {"stateDir", r.state_dir},
                      {"createdAtMs", r.created_ms},
                      {"lastUsedAtMs", r.last_used_ms},
                      {"ageMs", now_ms - r.created_ms},
                      {"idleMs", now_ms - r.last_used_ms}};
}

json::object to_json(const SandboxExplanation& e) {
  auto strings = [](const std::vector<std::string>& list) { return json::array(list.begin(), list.end()); };
  const char* mode = e.settings.mode == config::SandboxMode::kOff   ? "off"
                     : e.settings.mode == config::SandboxMode::kAll ? "all"
                                                                    : "non-main";
  const char* access = e.settings.workspace_access == config::WorkspaceAccess::kNone ? "none"
                       : e.settings.workspace_access == config::WorkspaceAccess::kRo ? "ro"
                                                                                      : "rw";
  json::object o{{"agentId", e.agent_id},
                 {"sessionKey", e.session_key},
                 {"mainSession", e.main_session},
                 {"mode", mode},
                 {"sandboxed", e.sandboxed},
                 {"scope", e.scope},
                 {"stateDir", e.state_dir},
                 {"workspaceRoot", e.root},
                 {"workspaceAccess", access},
                 {"workdir", e.settings.workdir},
                 {"network", e.settings.network == config::SandboxNetwork::kNone ? "none" : "bridge"},
                 {"tools", strings(e.tools)},
                 {"deniedTools", strings(e.denied_tools)},
                 {"elevated", e.elevated},
                 {"unavailable", e.unavailable},
                 {"warnings", strings(e.warnings)}};
  if (e.sandboxed) o["machine"] = strings(sandbox::describe_probe(e.probe));
  if (e.running) o["running"] = to_json(*e.running, epoch_ms());
  return o;
}

}  // namespace clawexec::operator_ops
