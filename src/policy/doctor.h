#pragma once
// `clawexec doctor`: the safe-bin checks and repair of the reference's `openclaw doctor`
// (spec §10.2). Pure: the config document comes in parsed, PATH lookups and file answers come
// through ResolveContext/FsView, and the repair returns a new document for the caller to write.
//
// Scopes: `tools.exec` and every agent's `tools.exec` with a non-empty `safeBins`, labelled
// "agents.entries.<id>.tools.exec" or "agents.list.<index>.tools.exec" after the roster shape.
// "Profiles" here means user-configured `safeBinProfiles` only (global merged with agent).

#include <boost/json/value.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "policy/exec_resolution.h"

namespace clawexec::policy {

enum class SafeBinCoverageKind { kMissingProfile, kRiskySemantics };

struct SafeBinCoverageHit {
  std::string scope_path;
  std::string bin;
  SafeBinCoverageKind kind = SafeBinCoverageKind::kMissingProfile;
  bool is_interpreter = false;  // kMissingProfile only
  std::string warning;          // kRiskySemantics only
};

/// scanExecSafeBinCoverage: per scope, each bin without a user profile that is not risky
/// (missingProfile), then each risky bin by normalised name (riskySemantics).
std::vector<SafeBinCoverageHit> scan_exec_safe_bin_coverage(const boost::json::value& config);

/// collectExecSafeBinCoverageWarnings: at most five lines per group, overflow counts, and the
/// hint to run `doctor_fix_command` when custom bins lack profiles.
std::vector<std::string> collect_exec_safe_bin_coverage_warnings(const std::vector<SafeBinCoverageHit>& hits,
                                                                 std::string_view doctor_fix_command);

struct SafeBinTrustedDirHint {
  std::string scope_path;
  std::string bin;
  std::string resolved_path;
};

/// scanExecSafeBinTrustedDirHints: bins that resolve (through `resolve`: PATH, cwd, home, fs)
/// to a file outside the scope's trusted dirs (/bin, /usr/bin and the configured
/// safeBinTrustedDirs, global + agent).
std::vector<SafeBinTrustedDirHint> scan_exec_safe_bin_trusted_dir_hints(const boost::json::value& config,
                                                                        const ResolveContext& resolve);

/// collectExecSafeBinTrustedDirHintWarnings: up to five lines, an overflow count, then the hint.
std::vector<std::string> collect_exec_safe_bin_trusted_dir_hint_warnings(const std::vector<SafeBinTrustedDirHint>& hits);

struct SafeBinProfileRepair {
  boost::json::value config;  // the input when nothing changed
  std::vector<std::string> changes;
  std::vector<std::string> warnings;
  /// True when `config` differs from the input (scaffolds added, or an empty safeBinProfiles
  /// object created for a scope whose only missing bins are interpreters).
  bool config_changed = false;
};

/// maybeRepairExecSafeBinProfiles: scaffolds `safeBinProfiles.<bin> = {}` for missing custom
/// bins, warns about risky and interpreter bins (never scaffolded).
SafeBinProfileRepair maybe_repair_exec_safe_bin_profiles(const boost::json::value& config);

}  // namespace clawexec::policy
