#pragma once
// `security audit` and `doctor [--fix]` as operations: they gather what the pure policy
// checks may not fetch themselves (the config document, the approvals file as the runtime
// would load it, directory permission bits, PATH and the file system for resolution), run
// policy::collect_exec_audit_findings and the policy/doctor.h scans, and for a fix write the
// repaired config atomically.

#include <boost/json/object.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"
#include "operator/operator_env.h"
#include "policy/audit.h"
#include "policy/doctor.h"
#include "policy/types.h"

namespace clawexec::operator_ops {

struct SecurityAudit {
  std::string config_path;
  std::string approvals_path;
  std::vector<policy::AuditFinding> findings;
  int64_t critical = 0;
  int64_t warn = 0;
  int64_t info = 0;
};

/// {configPath, approvalsPath, summary: {critical, warn, info}, findings}.
boost::json::object to_json(const SecurityAudit& audit);

/// The findings for the config and the approvals as enforced (fail-closed when the file is
/// invalid). Error: the config cannot be read (the message names its path).
Result<SecurityAudit> security_audit(const OperatorEnv& env);

enum class DoctorMode { kCheck, kFix };

struct DoctorReport {
  std::string config_path;
  std::vector<policy::SafeBinCoverageHit> coverage;
  std::vector<std::string> coverage_warnings;
  std::vector<policy::SafeBinTrustedDirHint> trusted_dir_hints;
  std::vector<std::string> trusted_dir_warnings;
  DoctorMode mode = DoctorMode::kCheck;
  policy::SafeBinProfileRepair repair;  // kFix only
  bool config_written = false;          // kFix: the repaired config was written
  /// When some agent is sandboxed: what this machine offers (bubblewrap, namespaces, Landlock,
  /// seccomp, networking helpers, cgroups: whether pidsLimit/memory/cpus get a cgroup or only
  /// rlimits) and whether the configured sandbox can be built. Empty when sandboxing is off.
  std::vector<std::string> sandbox;
};

/// {configPath, sandbox: [lines], safeBinCoverage: {hits, warnings}, trustedDirHints: {hits, warnings},
/// fix?: {changes, warnings, configWritten}}.
boost::json::object to_json(const DoctorReport& report);

/// The safeBins coverage and trusted-dir scans (executables resolved with env's PATH, cwd and
/// home against `fs`); kFix also scaffolds missing safeBinProfiles and writes the config when
/// that changed it. Errors: the config cannot be read or written (the message names its path).
Result<DoctorReport> run_doctor(const OperatorEnv& env, DoctorMode mode, const policy::FsView& fs);

}  // namespace clawexec::operator_ops
