// Allowlist evaluation (reference spec §4.3).
//
// Problem: for each candidate command of a plan, decide whether something the operator
// configured authorizes it: an allowlist entry for the program that will really run (after
// transparent wrappers; a shell run on a string needs an entry bound to its arguments), a
// positional carrier's target, a shell script's path, a safe bin used in a safe argv shape, a
// harmless builtin, or a skill binary.
//
// Approach: resolve each candidate once (exec_resolution), then try the sources in the
// reference's order. Prompt-only and policy-blocked candidates are never satisfied.

#include "policy/evaluate.h"
#include "policy/pinned_argv.h"

#include <algorithm>
#include <array>
#include <regex>

#include "base/utf.h"
#include "policy/glob.h"
#include "policy/package_manager.h"
#include "policy/shell_wrapper_policy.h"
#include "shell/executable.h"
#include "shell/lexical_path.h"

namespace clawexec::policy {
namespace {

constexpr std::array<std::string_view, 6> kSafeBuiltins = {":", "cd", "false", "pwd", "test", "true"};
constexpr std::array<std::string_view, 7> kPosixShells = {"ash", "bash", "dash", "fish", "ksh", "sh", "zsh"};
constexpr std::array<std::string_view, 9> kPlusOptionShells = {"ash", "bash", "dash", "ksh", "mksh", "osh", "sh", "yash", "zsh"};

template <size_t N>
bool in(const std::array<std::string_view, N>& set, std::string_view v) {
  return std::find(set.begin(), set.end(), v) != set.end();
}

bool same_target(const ExecutableResolution& a, const ExecutableResolution& b) {
  return a.raw_executable == b.raw_executable && a.resolved_path == b.resolved_path &&
         a.resolved_real_path == b.resolved_real_path && a.executable_name == b.executable_name;
}

std::optional<size_t> index_of(const std::vector<AllowlistEntry>& entries, const AllowlistEntry* e) {
  if (!e) return std::nullopt;
  return static_cast<size_t>(e - entries.data());
}

ExecutableResolution path_resolution(const std::string& path, const ResolveContext& ctx) {
  ExecutableResolution r;
  r.raw_executable = path;
  r.resolved_path = path;
  r.resolved_real_path = ctx.fs && ctx.fs->realpath ? ctx.fs->realpath(path) : std::nullopt;
  r.executable_name = std::string(posix_basename(path));
  return r;
}

std::string resolve_against_cwd(std::string_view token, const ResolveContext& ctx) {
  std::string expanded = token.starts_with("~") ? expand_home_prefix(token, ctx.home) : std::string(token);
  return shell::resolve_lexically(ctx.cwd, expanded);
}

// §4.3 step 6: the script a shell wrapper runs (bash scripts/x.sh), or nullopt.
std::optional<std::string> shell_script_path(const Argv& argv, const ResolveContext& ctx) {
  if (argv.size() < 2 || !is_shell_wrapper_invocation(argv)) return std::nullopt;
  std::string name = shell::normalize_executable_token(argv[0]);
  if (!in(kPosixShells, name) && name != "mksh" && name != "yash") return std::nullopt;
  if (name == "csh" || name == "tcsh" || name == "osh") return std::nullopt;
  bool plus = in(kPlusOptionShells, name);
  size_t i = 1;
  while (i < argv.size()) {
    std::string_view t = js_trim(argv[i]);
    if (t.empty()) { ++i; continue; }
    if (t == "--") { ++i; break; }
    if (t == "-c" || t == "--command" || t == "-lc") return std::nullopt;
    if (t.size() > 1 && t[0] == '-' && t[1] != '-' && t.find('-', 1) == std::string_view::npos) {
      std::string lower = shell::lower_for_match(t);
      if (lower.find('c') != std::string::npos || lower.find('s') != std::string::npos) return std::nullopt;
    }
    if (t == "-s") return std::nullopt;
    for (std::string_view opt : {"--rcfile", "--init-file", "--startup-file"}) {
      if (t == opt || (t.starts_with(opt) && t.size() > opt.size() && t[opt.size()] == '=')) return std::nullopt;
    }
    if (t == "-o" || t == "-O" || t == "+O" || t == "+o") { i += 2; continue; }
    if (t[0] == '-' || (plus && t[0] == '+')) {
      size_t skip = 1 + static_cast<size_t>(std::count_if(t.begin() + 1, t.end(), [](char c) { return c == 'o' || c == 'O'; }));
      i += (t.starts_with("--") ? 1 : skip);
      continue;
    }
    break;
  }
  if (i >= argv.size()) return std::nullopt;
  std::string_view script = js_trim(argv[i]);
  if (script.empty()) return std::nullopt;
  return resolve_against_cwd(script, ctx);
}

// `sh -c '$0 "$@"' tool args`: the carried program and the argv it would see.
struct PositionalCandidate {
  std::string path;
  Argv argv;
};

std::optional<PositionalCandidate> positional_candidate(const Argv& argv, const ResolveContext& ctx) {
  if (argv.size() < 4 || !in(kPosixShells, shell::normalize_executable_token(argv[0]))) return std::nullopt;
  InlineCommandMatch m = resolve_posix_inline_command_match(argv, CombinedFlags::kAllowCombinedC);
  if (!m.value_token_index || !m.command || !is_direct_shell_positional_carrier_command(*m.command)) return std::nullopt;
  size_t carried = *m.value_token_index + 1;
  while (carried < argv.size() && js_trim(argv[carried]).empty()) ++carried;
  if (carried >= argv.size()) return std::nullopt;
  std::string exe(js_trim(argv[carried]));
  std::string name = shell::normalize_executable_token(exe);
  if (is_dispatch_wrapper_executable(name) || is_shell_wrapper_executable(name)) return std::nullopt;
  std::optional<CommandResolution> res = resolve_command_resolution_from_argv(Argv{exe}, ctx);
  if (!res) return std::nullopt;
  std::optional<std::string> path = resolve_execution_target_candidate_path(*res, ctx);
  if (!path) return std::nullopt;
  PositionalCandidate out;
  out.path = *path;
  std::optional<std::string> real = ctx.fs && ctx.fs->realpath ? ctx.fs->realpath(*path) : std::nullopt;
  out.argv.push_back(real.value_or(*path));
  for (size_t i = carried + 1; i < argv.size(); ++i) out.argv.push_back(argv[i]);
  return out;
}

std::optional<size_t> segment_allowlist_match(const Argv& argv, const CommandResolution& resolution,
                                              const EvaluationContext& ctx, Argv& effective_out) {
  const std::vector<AllowlistEntry>& entries = *ctx.allowlist;
  const ResolveContext& rc = ctx.resolve;
  Argv effective = resolution.effective_argv.empty() ? argv : resolution.effective_argv;
  effective_out = effective;
  // Package-manager exec layers (§4.4): the inner command is what the allowlist judges.
  std::optional<Argv> match_argv = resolve_package_manager_allowlist_target(effective);
  if (!match_argv) return std::nullopt;
  if (match_argv->empty()) match_argv = effective;
  std::optional<CommandResolution> match_res =
      *match_argv == effective ? std::optional<CommandResolution>(resolution) : resolve_command_resolution_from_argv(*match_argv, rc);
  if (!match_res) return std::nullopt;
  ExecutableResolution candidate = match_res->policy;
  if (std::optional<std::string> path = resolve_policy_target_candidate_path(*match_res, rc)) {
    candidate.resolved_path = *path;
    candidate.resolved_real_path = resolve_policy_target_trust_path(*match_res, rc);
  }
  std::optional<std::string> inline_command = extract_bindable_shell_wrapper_inline_command(*match_argv);
  bool shell_invocation = is_shell_wrapper_invocation(*match_argv);
  bool positional = inline_command && is_direct_shell_positional_carrier_command(*inline_command);
  bool target_is_execution = same_target(match_res->policy, match_res->execution);
  if (!positional) {
    const AllowlistEntry* m = ctx.prepared ? ctx.prepared->match(&candidate, &*match_argv, rc.home)
                                           : match_allowlist(entries, &candidate, &*match_argv, rc.home);
    bool bound = m && m->arg_pattern && !js_trim(*m->arg_pattern).empty();
    bool wildcard = m && js_trim(m->pattern) == "*" && !bound;
    bool needs_binding = target_is_execution && (inline_command || (shell_invocation && match_argv->size() > 1));
    if (m && (!needs_binding || bound || wildcard)) return index_of(entries, m);
  }
  if (inline_command) {
    if (std::optional<PositionalCandidate> p = positional_candidate(*match_argv, rc)) {
      std::vector<AllowlistEntry> unbound;
      std::vector<size_t> map;
      for (size_t i = 0; i < entries.size(); ++i) {
        if (!entries[i].arg_pattern) {
          unbound.push_back(entries[i]);
          map.push_back(i);
        }
      }
      ExecutableResolution r = path_resolution(p->path, rc);
      if (const AllowlistEntry* m = match_allowlist(unbound, &r, &p->argv, rc.home)) {
        return map[static_cast<size_t>(m - unbound.data())];
      }
    }
    return std::nullopt;
  }
  if (std::optional<std::string> script = shell_script_path(*match_argv, rc)) {
    Argv script_argv{*script};
    std::string base = shell::lower_for_match(posix_basename(*script));
    size_t idx = match_argv->size();
    for (size_t i = 0; i < match_argv->size(); ++i) {
      if (resolve_against_cwd((*match_argv)[i], rc) == *script) { idx = i; break; }
    }
    if (idx == match_argv->size()) {
      for (size_t i = 0; i < match_argv->size(); ++i) {
        if (shell::lower_for_match(posix_basename((*match_argv)[i])) == base) { idx = i; break; }
      }
    }
    for (size_t i = idx + 1; i < match_argv->size(); ++i) script_argv.push_back((*match_argv)[i]);
    ExecutableResolution r = path_resolution(*script, rc);
    return index_of(entries, ctx.prepared ? ctx.prepared->match(&r, &script_argv, rc.home)
                                          : match_allowlist(entries, &r, &script_argv, rc.home));
  }
  return std::nullopt;
}

// `$0` (no carried arguments) or `$0 "$@"` (with them), optionally after `exec [--]`: the
// only positional carriers whose target may be persisted.
bool is_durable_positional_carrier(std::string_view command, bool has_tail) {
  static const std::regex kZero(R"re(^(?:exec[ \t\f\v]+(?:--[ \t\f\v]+)?)?(?:\$(?:0|\{0\})|"\$(?:0|\{0\})")$)re");
  static const std::regex kZeroAll(
      R"re(^(?:exec[ \t\f\v]+(?:--[ \t\f\v]+)?)?(?:\$(?:0|\{0\})|"\$(?:0|\{0\})")[ \t\f\v]+(?:\$(?:@|\{@\})|"\$(?:@|\{@\})")$)re");
  std::string trimmed(js_trim(command));
  return std::regex_match(trimmed, has_tail ? kZeroAll : kZero);
}

// POSIX shells whose payloads we cannot parse (csh, tcsh, osh, elvish, nu, xonsh).
bool is_opaque_posix_shell(std::string_view name) {
  return name == "csh" || name == "tcsh" || name == "osh" || name == "elvish" || name == "nu" || name == "xonsh";
}

bool skill_allowed(const CommandResolution& res, const EvaluationContext& ctx) {
  if (!ctx.auto_allow_skills || ctx.skill_bins.empty()) return false;
  const ExecutableResolution& e = res.execution;
  std::optional<std::string> trust = resolve_execution_target_trust_path(res, ctx.resolve);
  std::string_view raw = js_trim(e.raw_executable);
  if (!e.resolved_path || !trust || raw.empty() || raw.find('/') != std::string_view::npos) return false;
  std::string name = shell::trim_lower(e.executable_name);
  std::string path = shell::resolve_lexically("/", *trust);
  return std::any_of(ctx.skill_bins.begin(), ctx.skill_bins.end(), [&](const SkillBin& s) {
    return shell::trim_lower(s.name) == name && shell::resolve_lexically("/", s.resolved_path) == path;
  });
}

}  // namespace

std::string_view to_string(SatisfiedBy by) {
  switch (by) {
    case SatisfiedBy::kNone: return "none";
    case SatisfiedBy::kAllowlist: return "allowlist";
    case SatisfiedBy::kSafeBins: return "safeBins";
    case SatisfiedBy::kSafeBuiltins: return "safeBuiltins";
    case SatisfiedBy::kSkills: return "skills";
  }
  return "none";
}

std::vector<std::string> allow_always_patterns_for_segment(const Argv& argv, const EvaluationContext& ctx,
                                                           bool strict_inline_eval) {
  std::vector<std::string> out;
  const ResolveContext& rc = ctx.resolve;
  PackageManagerTarget pm = resolve_package_manager_trust_target(argv);
  if (pm.kind == PackageManagerTargetKind::kBlocked) return out;
  ExecWrapperTrustPlan plan = resolve_exec_wrapper_trust_plan(pm.argv.empty() ? argv : pm.argv);
  if (plan.policy_blocked || plan.argv.empty()) return out;
  std::optional<CommandResolution> res = resolve_command_resolution_from_argv(plan.argv, rc);
  std::optional<std::string> trust = res ? resolve_execution_target_trust_path(*res, rc) : std::nullopt;
  if (!trust) return out;
  if (is_interpreter_like_allowlist_pattern(*trust)) {
    const Argv& effective = res->effective_argv.empty() ? plan.argv : res->effective_argv;
    if (!strict_inline_eval || detect_strict_inline_eval_argv(effective)) return out;
  }
  auto trust_of = [&](const std::string& path) {
    std::optional<std::string> real = rc.fs && rc.fs->realpath ? rc.fs->realpath(path) : std::nullopt;
    return real.value_or(path);
  };
  if (!plan.shell_wrapper_executable) {
    out.push_back(*trust);
    return out;
  }
  const std::optional<std::string>& inline_command = plan.shell_inline_command;
  if (inline_command && is_opaque_posix_shell(shell::normalize_executable_token(plan.argv[0]))) return out;
  if (inline_command) {
    if (std::optional<PositionalCandidate> p = positional_candidate(plan.argv, rc)) {
      if (is_durable_positional_carrier(*inline_command, p->argv.size() > 1)) out.push_back(trust_of(p->path));
    }
    return out;  // a POSIX payload is persisted through the plan's own candidates
  }
  if (std::optional<std::string> script = shell_script_path(plan.argv, rc)) out.push_back(trust_of(*script));
  return out;
}

bool is_safe_builtin_segment(const Argv& argv, std::string_view raw) {
  if (argv.empty()) return false;
  std::string head = shell::trim_lower(argv[0]);
  if (head.empty()) return false;
  if (head == "[") return argv.back() == "]" || js_trim(raw).ends_with("]");
  return in(kSafeBuiltins, head);
}

SegmentEvaluation evaluate_argv_segment(const Argv& argv, const EvaluationContext& ctx, bool allow_shell_builtins,
                                        std::string_view raw) {
  SegmentEvaluation seg;
  seg.argv = argv;
  seg.effective_argv = argv;
  seg.resolution = resolve_command_resolution_from_argv(argv, ctx.resolve);
  seg.inline_eval = detect_strict_inline_eval_argv(argv);
  if (!seg.resolution) return seg;
  seg.resolved_path = resolve_execution_target_trust_path(*seg.resolution, ctx.resolve);
  seg.wrappers = seg.resolution->wrapper_chain;
  if (!seg.resolution->effective_argv.empty()) seg.effective_argv = seg.resolution->effective_argv;
  if (!seg.inline_eval) seg.inline_eval = detect_strict_inline_eval_argv(seg.effective_argv);
  if (seg.resolution->policy_blocked) {
    seg.trust_mode = TrustMode::kPromptOnly;
    return seg;
  }
  Argv effective;
  seg.entry_index = segment_allowlist_match(argv, *seg.resolution, ctx, effective);
  if (seg.entry_index) {
    seg.satisfied_by = SatisfiedBy::kAllowlist;
  } else if (ctx.safe_bins && ctx.trusted_dirs && ctx.resolve.fs &&
             is_safe_bin_usage(effective, seg.resolution->execution, *ctx.safe_bins, *ctx.trusted_dirs,
                               *ctx.resolve.fs, ctx.resolve.cwd)) {
    seg.satisfied_by = SatisfiedBy::kSafeBins;
  } else if (allow_shell_builtins && is_safe_builtin_segment(argv, raw)) {
    seg.satisfied_by = SatisfiedBy::kSafeBuiltins;
  } else if (skill_allowed(*seg.resolution, ctx)) {
    seg.satisfied_by = SatisfiedBy::kSkills;
  }
  return seg;
}

AllowlistEvaluation evaluate_shell_allowlist(std::string_view command, const EvaluationContext& given) {
  std::optional<PreparedAllowlist> local;
  EvaluationContext ctx = given;
  if (!ctx.prepared && ctx.allowlist) ctx.prepared = &local.emplace(*ctx.allowlist);
  AllowlistEvaluation out;
  out.plan = plan_shell_authorization(command, ctx.dialect);
  if (!out.plan.ok) {
    for (const ExplainStep& step : out.plan.explanation.steps) {
      SegmentEvaluation seg;
      seg.argv = step.argv;
      seg.effective_argv = step.argv;
      seg.resolution = resolve_command_resolution_from_argv(step.argv, ctx.resolve);
      if (seg.resolution) {
        seg.resolved_path = resolve_execution_target_trust_path(*seg.resolution, ctx.resolve);
        if (!seg.resolution->effective_argv.empty()) seg.effective_argv = seg.resolution->effective_argv;
        seg.wrappers = seg.resolution->wrapper_chain;
      }
      seg.inline_eval = detect_strict_inline_eval_argv(seg.effective_argv);
      if (!seg.inline_eval) seg.inline_eval = detect_strict_inline_eval_argv(step.argv);
      seg.trust_mode = TrustMode::kPromptOnly;
      out.unplanned_segments.push_back(std::move(seg));
    }
    return out;
  }
  out.analysis_ok = true;
  std::vector<const Candidate*> candidates = out.plan.candidates();
  bool all = !candidates.empty();
  bool wrapper_unresolved_path = false;
  for (const ExplainStep& step : out.plan.explanation.steps) {
    if (step.context != StepContext::kTopLevel || candidates.empty() || !candidates[0]->shell_wrapper_transport) continue;
    std::string_view exe = js_trim(step.argv[0]);
    if (step.id == candidates[0]->wrapper_step_id && exe.find('/') != std::string_view::npos) {
      std::optional<CommandResolution> r = resolve_command_resolution_from_argv(step.argv, ctx.resolve);
      wrapper_unresolved_path = !r || (!r->execution.resolved_path && !r->execution.resolved_real_path);
    }
  }
  for (size_t i = 0; i < candidates.size(); ++i) {
    const Candidate& c = *candidates[i];
    SegmentEvaluation seg;
    if (c.trust_mode == TrustMode::kPromptOnly) {
      seg.argv = c.argv;
      seg.effective_argv = c.argv;
      seg.resolution = resolve_command_resolution_from_argv(c.argv, ctx.resolve);
      if (seg.resolution) seg.resolved_path = resolve_execution_target_trust_path(*seg.resolution, ctx.resolve);
      seg.inline_eval = detect_strict_inline_eval_argv(c.argv);
    } else {
      seg = evaluate_argv_segment(c.argv, ctx, ctx.allow_shell_builtins, c.raw_text);
      if (seg.satisfied_by == SatisfiedBy::kSafeBuiltins && !is_safe_builtin_segment(c.argv, c.raw_text)) {
        seg.satisfied_by = SatisfiedBy::kNone;
      }
    }
    seg.candidate_index = i;
    bool blocked = seg.resolution && seg.resolution->policy_blocked;
    seg.trust_mode = blocked ? TrustMode::kPromptOnly : c.trust_mode;
    seg.allow_always = c.allow_always && !blocked && !wrapper_unresolved_path;
    if (seg.satisfied_by == SatisfiedBy::kNone) all = false;
    const ExplainStep* step = out.plan.explanation.step(c.step_id);
    if (!step || !ctx.resolve.fs) {
      seg.pin_failure = "segment metadata mismatch";
    } else {
      PinnedArgv pinned = pin_segment_argv(*step, c, seg, ctx.resolve, ctx.dialect);
      seg.pinned_argv = std::move(pinned.argv);
      seg.pin_failure = std::move(pinned.reason);
    }
    out.segments.push_back(std::move(seg));
  }
  out.allowlist_satisfied = all;
  return out;
}

}  // namespace clawexec::policy
