#pragma once
// `clawexec sandbox list|recreate|prune|explain` as operations (OpenClaw has `sandbox list`,
// `recreate` and `explain`). Sandboxes live inside the servers that made them; these read the
// records the servers keep (sandbox/sandbox_record.h) under every configured workspaceRoot,
// end a sandbox by killing its holder (its server makes a new one on the next command, from
// the configuration as it is now), and explain what a session would get.

#include <boost/json/object.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "config/sandbox_settings.h"
#include "operator/operator_env.h"
#include "policy/audit.h"
#include "sandbox/probe.h"
#include "sandbox/sandbox_record.h"

namespace clawexec::operator_ops {

struct SandboxListing {
  std::vector<std::string> roots;  // the workspaceRoots looked at
  std::vector<sandbox::SandboxRecord> sandboxes;
};

/// Every sandbox record under the configured roots, running or left by a server that died.
Result<SandboxListing> list_sandboxes(const OperatorEnv& env);

/// Which sandboxes `recreate` ends: all, one scope key ("agent:main", a session key,
/// "shared"), or an agent's (scope "agent:<id>" and its sessions' "agent:<id>:...").
struct SandboxSelector {
  bool all = false;
  std::string scope;
  std::string agent;
};

/// Ends the running sandboxes `which` selects; returns their scopes. An empty selector is an
/// error.
Result<std::vector<std::string>> recreate_sandboxes(const OperatorEnv& env, const SandboxSelector& which);

struct PruneReport {
  std::vector<std::string> stopped;  // running, but older than its agent's prune.maxAgeDays
  std::vector<std::string> removed;  // records of sandboxes that were no longer running
};

/// Stops the running sandboxes older than their agent's prune.maxAgeDays and removes the records
/// of stopped ones. Idle time is left to each server, which alone knows whether a command still
/// runs in its sandbox. `now_ms`: epoch.
Result<PruneReport> prune_sandboxes(const OperatorEnv& env, int64_t now_ms);

struct SandboxExplanation {
  std::string agent_id;
  std::string session_key;
  bool main_session = false;
  config::SandboxSettings settings;
  bool sandboxed = false;       // mode against the session
  std::string scope;            // the sandbox it joins ("" when not sandboxed)
  std::string state_dir;        // that scope's directory
  std::string root;             // workspaceRoot
  std::vector<std::string> tools;         // of exec, process, apply_patch: those it is offered
  std::vector<std::string> denied_tools;  // "process (tools.sandbox.tools.deny)"
  std::string elevated;         // how the elevated gates stand for a local MCP client
  sandbox::SandboxProbe probe;
  std::string unavailable;      // sandbox::unavailable_reason(probe)
  std::optional<sandbox::SandboxRecord> running;  // its sandbox's record, when there is one
  std::vector<std::string> warnings;  // the settings' warnings (engine-only keys)
};

/// What `agent_id` ("" = main) and `session_key` ("" = the agent's main session) get.
Result<SandboxExplanation> explain_sandbox(const OperatorEnv& env, const std::string& agent_id,
                                           const std::string& session_key);

/// "main" and every agents.entries key (normalised), in that order, without repeats.
std::vector<std::string> configured_agent_ids(const boost::json::value& document);

/// The sandbox findings of `security audit` for `document`: binds and network modes the
/// server refuses (sandbox.dangerous_bind_mount, sandbox.dangerous_network_mode, critical),
/// other invalid sandbox settings (sandbox.invalid_config, critical), docker settings with the
/// sandbox off (sandbox.docker_config_mode_off, warn), a sandbox any caller may leave through
/// elevated (sandbox.elevated_allow_all, warn) and a writable agent workspace
/// (sandbox.workspace_rw, info).
std::vector<policy::AuditFinding> collect_sandbox_audit_findings(const OperatorEnv& env,
                                                                 const boost::json::value& document);

/// `doctor`'s sandbox lines (DoctorReport::sandbox): empty when no agent is sandboxed, else
/// which agents are, the machine probe and whether the sandbox can be built here.
std::vector<std::string> sandbox_doctor_lines(const OperatorEnv& env, const boost::json::value& document);

boost::json::object to_json(const sandbox::SandboxRecord& record, int64_t now_ms);
boost::json::object to_json(const SandboxExplanation& explanation);

}  // namespace clawexec::operator_ops
