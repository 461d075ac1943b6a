#pragma once
// `clawexec security audit`: the exec findings of the reference's security audit (spec §10.1)
// that can apply to clawexec, computed purely from the parsed config document, the normalised
// approvals document and facts the caller gathered (permission bits). The check ids, titles,
// details and remediations are the reference's, verbatim, so tooling written for OpenClaw's
// audit output keeps working.
//
// Emitted: tools.exec.host_sandbox_no_sandbox_defaults, tools.exec.host_sandbox_no_sandbox_agents,
// tools.exec.security_full_configured, tools.exec.auto_allow_skills_enabled,
// tools.exec.allowlist_interpreter_without_strict_inline_eval,
// tools.exec.safe_bins_interpreter_unprofiled, tools.exec.safe_bins_broad_behavior,
// tools.exec.safe_bin_trusted_dirs_risky, and one clawexec addition,
// tools.exec.safe_bin_trusted_dirs_writable (the runtime warning of spec §5.2 as a finding).
// Not emitted (no counterpart in clawexec): security.exposure.open_channels_with_exec (chat
// channels), agents.claude_cli.permission_mode_overridden_by_yolo (Claude CLI backend),
// tools.exec.fs_tools_disabled_but_exec_enabled (OpenClaw's own write/edit tool policy),
// tools.exec.agent_skill_mcp_boundary_drift and tools.exec.mcporter_registry_inspection_incomplete
// (skills and MCP registries). Without channels, security_full_configured is always "warn".

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace clawexec::policy {

enum class AuditSeverity { kInfo, kWarn, kCritical };

/// "info", "warn", "critical".
std::string_view to_string(AuditSeverity severity);

struct AuditFinding {
  std::string check_id;
  AuditSeverity severity = AuditSeverity::kWarn;
  std::string title;
  std::string detail;
  std::string remediation;
};

/// What the audit may not find out by itself (it does no I/O).
struct AuditFacts {
  /// Permission bits (st_mode & 0777) of explicitly configured safeBinTrustedDirs, keyed by the
  /// directory as configured (trimmed). Directories missing here are not checked.
  std::map<std::string, unsigned, std::less<>> trusted_dir_modes;
};

/// The findings, in the reference's order. `config` is the parsed config document (an empty
/// object without a file); `approvals` the normalised approvals document (fail-closed or empty
/// document when the file is invalid or missing).
std::vector<AuditFinding> collect_exec_audit_findings(const boost::json::value& config,
                                                      const boost::json::value& approvals,
                                                      const AuditFacts& facts = {});

/// Every safeBinTrustedDirs entry of the document (global, then each agent), trimmed, unique:
/// the directories whose permission bits AuditFacts wants.
std::vector<std::string> audit_trusted_dirs_to_inspect(const boost::json::value& config);

/// {checkId, severity, title, detail, remediation}.
boost::json::object to_json(const AuditFinding& finding);

}  // namespace clawexec::policy
