#pragma once
// Allowlist evaluation of a shell command (reference spec §4.3): every candidate of the
// authorization plan is resolved to its executable and checked against the allowlist, the
// safe bins, the safe shell builtins and (when enabled) skill binaries. The command is
// "allowlist-satisfied" only when every candidate of every chain group is.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "policy/allowlist_match.h"
#include "policy/exec_resolution.h"
#include "policy/inline_eval.h"
#include "policy/plan.h"
#include "policy/safe_bins.h"

namespace clawexec::policy {

enum class SatisfiedBy { kNone, kAllowlist, kSafeBins, kSafeBuiltins, kSkills };
std::string_view to_string(SatisfiedBy by);

struct SkillBin {
  std::string name;
  std::string resolved_path;
};

struct EvaluationContext {
  const std::vector<AllowlistEntry>* allowlist = nullptr;
  /// The same allowlist prepared for repeated lookups (built by evaluate_shell_allowlist when
  /// unset; callers deciding many commands against one allowlist can share one).
  const PreparedAllowlist* prepared = nullptr;
  const SafeBinPolicy* safe_bins = nullptr;
  const TrustedSafeBinDirs* trusted_dirs = nullptr;
  ResolveContext resolve;  // cwd, PATH, home, file system
  shell::ShellDialect dialect = shell::ShellDialect::kBash;  // the shell that would run the text
  bool allow_shell_builtins = true;
  bool auto_allow_skills = false;
  std::vector<SkillBin> skill_bins;
};

struct SegmentEvaluation {
  size_t candidate_index = 0;  // position in plan.candidates()
  Argv argv;
  Argv effective_argv;
  std::optional<CommandResolution> resolution;
  std::optional<std::string> resolved_path;  // execution target trust path (realpath)
  std::optional<size_t> entry_index;         // the matching allowlist entry
  SatisfiedBy satisfied_by = SatisfiedBy::kNone;
  TrustMode trust_mode = TrustMode::kExecutable;  // plan trust, prompt-only when policy-blocked
  bool allow_always = false;
  std::optional<InlineEvalHit> inline_eval;
  std::vector<std::string> wrappers;  // dispatch wrappers looked through
  /// What this segment runs when it is auto-approved (see pinned_argv.h), or why it cannot.
  std::optional<Argv> pinned_argv;
  std::string pin_failure;
};

struct AllowlistEvaluation {
  AuthorizationPlan plan;
  bool analysis_ok = false;
  bool allowlist_satisfied = false;
  std::vector<SegmentEvaluation> segments;
  /// When analysis failed: the explainer's steps (resolved) for display and inline-eval checks.
  std::vector<SegmentEvaluation> unplanned_segments;
};

/// Evaluates a shell command line against the context. Pure (file system through the context).
AllowlistEvaluation evaluate_shell_allowlist(std::string_view command, const EvaluationContext& context);

/// Evaluates one argv as a direct (non-shell) command, as node-host requests are (no safe
/// builtins). Used for argv-level conformance checks.
/// `raw` is the segment's source text (a `[ ... ]` test lists no closing bracket in argv).
SegmentEvaluation evaluate_argv_segment(const Argv& argv, const EvaluationContext& context,
                                        bool allow_shell_builtins = false, std::string_view raw = {});

/// §4.6 pattern derivation for one segment's argv: the trust paths an allow-always grant
/// would store for it (package-manager layers and exec wrappers looked through; a shell
/// wrapper yields its positional-carrier target or script path, never the shell itself).
std::vector<std::string> allow_always_patterns_for_segment(const Argv& argv, const EvaluationContext& context,
                                                           bool strict_inline_eval);

/// The reference's safe builtins: `:`, cd, false, pwd, test, true, and `[ ... ]`.
bool is_safe_builtin_segment(const Argv& argv, std::string_view raw);

}  // namespace clawexec::policy
