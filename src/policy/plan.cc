// The authorization planner (reference spec §3.3–3.6).
//
// Problem: decide, from an explanation, whether a command line is simple enough to authorize
// command by command, and which commands those are. Anything the analysis cannot see through
// (substitutions, redirects, control flow, expansions in arguments) must make the plan fail,
// so the line is never auto-allowed. A lone `sh -c '...'` is planned through its payload when
// that payload is itself plain, and otherwise kept as one exact command.
//
// Approach: the reference's order of checks, applied to the explanation's steps and risks.
// Risks are attributed to steps by span containment, as the reference does, so a risk inside
// a wrapper's payload counts as inside the wrapper step.

#include "policy/plan.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <utility>

#include "base/utf.h"
#include "policy/shell_wrapper_policy.h"
#include "shell/dispatch_wrappers.h"
#include "shell/executable.h"

namespace clawexec::policy {
namespace {

constexpr std::array<std::string_view, 10> kUnanalyzableRisks = {
    "command-substitution", "dynamic-executable", "line-continuation",   "heredoc",
    "here-string",          "process-substitution", "redirect",          "syntax-error",
    "function-definition",  "standalone-assignment"};
constexpr std::array<std::string_view, 7> kUnsupportedShapes = {"background", "if",       "for",  "while",
                                                                "case",       "subshell", "group"};
constexpr std::array<std::string_view, 5> kPromptOnlyRisks = {"eval", "source", "alias",
                                                              "shell-wrapper-through-carrier", "command-carrier"};
constexpr std::array<std::string_view, 7> kPosixShellNames = {"ash", "bash", "dash", "fish", "ksh", "sh", "zsh"};

template <size_t N>
bool in(const std::array<std::string_view, N>& set, std::string_view v) {
  return std::find(set.begin(), set.end(), v) != set.end();
}

bool inside(const ByteSpan& inner, const ByteSpan& outer) {
  return inner.begin >= outer.begin && inner.end <= outer.end;
}

bool is_path_scoped(std::string_view token) {
  token = js_trim(token);
  return token.find('/') != std::string_view::npos || token.find('\\') != std::string_view::npos;
}

std::vector<std::string> unique(std::vector<std::string> v) {
  std::vector<std::string> out;
  for (std::string& s : v) {
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(std::move(s));
  }
  return out;
}

std::vector<std::string> prompt_reasons(const ExplainStep& step, const std::vector<Risk>& risks) {
  std::vector<std::string> out;
  for (const Risk& r : risks) {
    if (in(kPromptOnlyRisks, r.kind) && inside(r.span, step.span)) out.push_back(r.kind);
  }
  return unique(std::move(out));
}

std::vector<std::string> non_reusable_reasons(const ExplainStep& step, const std::vector<Risk>& risks) {
  std::vector<std::string> out;
  for (const Risk& r : risks) {
    if (r.kind == "inline-eval" && inside(r.span, step.span)) out.push_back(r.kind);
  }
  return unique(std::move(out));
}

std::vector<std::string> prelude_reasons(const ExplainStep& step, const std::vector<Risk>& risks) {
  if (!step.has_env_prelude) return {};
  std::vector<std::string> out;
  for (const Risk& r : risks) {
    if (in(kUnanalyzableRisks, r.kind) && inside(r.span, step.span) && r.span.end <= step.executable_span.begin) {
      out.push_back(r.kind);
    }
  }
  out = unique(std::move(out));
  if (out.empty()) out.emplace_back("shell-env-assignment");
  return out;
}

const Risk* shell_wrapper_risk(const ExplainStep& step, const std::vector<Risk>& risks) {
  for (const Risk& r : risks) {
    if (r.kind == "shell-wrapper" && inside(r.span, step.span)) return &r;
  }
  return nullptr;
}

bool is_posix_shell(const Argv& argv) {
  return !argv.empty() && in(kPosixShellNames, shell::normalize_executable_token(argv[0]));
}

// The wrapper may be planned through its payload: a plain POSIX shell name, no login or
// interactive startup before the inline command.
bool can_use_wrapper_invocation(const Argv& argv) {
  if (argv.empty() || is_path_scoped(argv[0]) || !is_posix_shell(argv)) return false;
  return !has_posix_login_startup_before_inline_command(argv) && !has_posix_interactive_startup_before_inline_command(argv);
}

struct PlannedStep {
  const ExplainStep* step = nullptr;
  Argv argv;
  bool synthetic = false;
};

Candidate make_candidate(const PlannedStep& p, bool pipeline, bool wrapper_transport, const Risk* wrapper_risk,
                         const ExplainStep* wrapper, const std::vector<Risk>& risks) {
  const ExplainStep& step = *p.step;
  Candidate c;
  c.argv = p.argv;
  c.step_id = step.id;
  c.synthetic = p.synthetic;
  c.raw_text = p.synthetic ? std::string() : step.text;
  c.span = p.synthetic ? ByteSpan{step.span.end, step.span.end} : step.span;
  c.executable_span = p.synthetic ? c.span : step.executable_span;
  if (!p.synthetic) c.argument_spans = step.argument_spans;
  c.shell_wrapper_transport = wrapper_transport;
  if (wrapper_transport && wrapper) {
    c.wrapper_step_id = wrapper->id;
    c.inline_command = wrapper_risk ? wrapper_risk->payload : std::string();
  }
  std::vector<std::string> step_prompt = p.synthetic ? std::vector<std::string>{} : prompt_reasons(step, risks);
  std::vector<std::string> non_reusable = p.synthetic ? std::vector<std::string>{} : non_reusable_reasons(step, risks);
  std::vector<std::string> prelude = p.synthetic ? std::vector<std::string>{} : prelude_reasons(step, risks);
  std::vector<std::string> reasons = step_prompt;
  reasons.insert(reasons.end(), non_reusable.begin(), non_reusable.end());
  reasons.insert(reasons.end(), prelude.begin(), prelude.end());
  c.reasons = unique(std::move(reasons));
  bool direct_wrapper = !wrapper_transport && is_bindable_shell_wrapper(c.argv);
  // A wrapper the policy refuses to look through (sudo, env -S, env VAR=x, ...) can only be
  // prompted for, whatever it carries.
  bool blocked = resolve_exec_wrapper_trust_plan(c.argv).policy_blocked;
  c.trust_mode = blocked || !prelude.empty() ? TrustMode::kPromptOnly
                 : direct_wrapper        ? TrustMode::kExactCommand
                 : !step_prompt.empty()  ? TrustMode::kPromptOnly
                                         : TrustMode::kExecutable;
  c.inline_eval = !non_reusable.empty();
  c.allow_always = non_reusable.empty() && c.trust_mode == TrustMode::kExecutable && !blocked &&
                   !(pipeline && is_posix_shell(c.argv));
  return c;
}

std::string topology_operator(std::string_view kind) {
  if (kind == "and") return "&&";
  if (kind == "or") return "||";
  if (kind == "pipe" || kind == "stderr-pipe") return "pipe";
  if (kind == "sequence" || kind == "newline-sequence") return ";";
  if (kind == "background") return "&";
  return std::string(kind);
}

std::vector<ChainGroup> group_steps(std::vector<PlannedStep> steps, const std::vector<ExplainOperator>& operators,
                                    std::optional<size_t> parent, bool wrapper_transport, const Risk* wrapper_risk,
                                    const ExplainStep* wrapper, const std::vector<Risk>& risks) {
  std::stable_sort(steps.begin(), steps.end(),
                   [](const PlannedStep& a, const PlannedStep& b) { return a.step->span.begin < b.step->span.begin; });
  std::unordered_map<size_t, std::string> ops;  // from step id -> topology operator (the first one)
  for (const ExplainOperator& op : operators) {
    if (op.parent_id == parent) ops.emplace(op.from_step, topology_operator(op.kind));
  }
  auto op_from = [&](size_t id) -> std::optional<std::string> {
    auto it = ops.find(id);
    if (it == ops.end()) return std::nullopt;
    return it->second;
  };
  std::vector<ChainGroup> groups;
  auto finalize = [&](const std::vector<PlannedStep>& members, std::string op_to_next) {
    ChainGroup g;
    g.op_to_next = std::move(op_to_next);
    bool pipeline = members.size() > 1;
    for (const PlannedStep& m : members) {
      g.candidates.push_back(make_candidate(m, pipeline, wrapper_transport, wrapper_risk, wrapper, risks));
    }
    groups.push_back(std::move(g));
  };
  if (steps.size() > 1 && ops.empty()) {
    finalize(steps, "");
    return groups;
  }
  std::vector<PlannedStep> current;
  for (const PlannedStep& s : steps) {
    if (current.empty()) {
      current.push_back(s);
      continue;
    }
    std::optional<std::string> op = op_from(current.back().step->id);
    if (op == "pipe") {
      current.push_back(s);
      continue;
    }
    std::string next = op && (*op == "&&" || *op == "||" || *op == ";" || *op == "&") ? *op : ";";
    finalize(current, next);
    current = {s};
  }
  if (!current.empty()) finalize(current, "");
  return groups;
}

std::optional<std::string> blocking_reason(const ShellExplanation& e, const std::vector<const ExplainStep*>& all) {
  for (const Risk& r : e.risks) {
    if (in(kUnanalyzableRisks, r.kind)) return r.kind;
  }
  for (std::string_view shape : kUnsupportedShapes) {
    if (e.has_shape(shape)) return std::string(shape);
  }
  for (const Risk& r : e.risks) {
    if (r.kind != "dynamic-argument" || !(r.expansion || is_shell_expansion_argument(r.text))) continue;
    bool in_prompt_only = std::any_of(all.begin(), all.end(), [&](const ExplainStep* s) {
      return inside(r.span, s->span) && !prompt_reasons(*s, e.risks).empty();
    });
    if (!in_prompt_only) return r.kind;
  }
  return std::nullopt;
}

// §3.6: a lone plain `sh -c '...'` is planned through its payload.
std::optional<std::vector<ChainGroup>> wrapper_payload_plan(const ShellExplanation& e, const ExplainStep& wrapper,
                                                            bool allow_nested) {
  const Risk* risk = shell_wrapper_risk(wrapper, e.risks);
  if (!risk || wrapper.has_env_prelude || !can_use_wrapper_invocation(wrapper.argv) || !allow_nested) {
    return std::nullopt;
  }
  InlineCommandMatch inline_match = resolve_posix_inline_command_match(wrapper.argv, CombinedFlags::kAllowCombinedC);
  if (inline_match.value_token_index && inline_match.command &&
      is_direct_shell_positional_carrier_command(*inline_match.command)) {
    Argv carried;
    for (size_t i = *inline_match.value_token_index + 1; i < wrapper.argv.size(); ++i) {
      if (!js_trim(wrapper.argv[i]).empty()) carried.push_back(wrapper.argv[i]);
    }
    if (carried.empty()) return std::nullopt;
    std::string name = shell::normalize_executable_token(carried[0]);
    if (shell::unwrap_dispatch_wrapper(carried).kind != shell::DispatchKind::kNotWrapper || name == "env" ||
        name == "find" || name == "xargs" || in(kPosixShellNames, name) ||
        (name.size() >= 8 && name.compare(name.size() - 8, 8, "-wrapper") == 0)) {
      return std::nullopt;
    }
    return group_steps({PlannedStep{&wrapper, carried, true}}, {}, wrapper.id, true, risk, &wrapper, e.risks);
  }
  std::vector<PlannedStep> payload;
  for (const ExplainStep& s : e.steps) {
    if (s.context == StepContext::kWrapperPayload && s.parent_id == wrapper.id) payload.push_back({&s, s.argv, false});
  }
  if (payload.empty() || js_trim(payload.front().argv[0]).empty()) return std::nullopt;
  for (const PlannedStep& p : payload) {
    std::string name = shell::normalize_executable_token(p.argv[0]);
    if (is_path_scoped(p.argv[0]) || (name.size() >= 8 && name.compare(name.size() - 8, 8, "-wrapper") == 0)) {
      return std::nullopt;
    }
  }
  return group_steps(std::move(payload), e.operators, wrapper.id, true, risk, &wrapper, e.risks);
}

}  // namespace

std::string_view to_string(TrustMode mode) {
  switch (mode) {
    case TrustMode::kPromptOnly: return "prompt-only";
    case TrustMode::kExactCommand: return "exact-command";
    case TrustMode::kExecutable: return "executable";
  }
  return "prompt-only";
}

bool is_unanalyzable_risk(std::string_view kind) { return in(kUnanalyzableRisks, kind); }

size_t AuthorizationPlan::candidate_count() const {
  size_t n = 0;
  for (const ChainGroup& g : groups) n += g.candidates.size();
  return n;
}

std::vector<const Candidate*> AuthorizationPlan::candidates() const {
  std::vector<const Candidate*> out;
  for (const ChainGroup& g : groups) {
    for (const Candidate& c : g.candidates) out.push_back(&c);
  }
  return out;
}

bool is_bindable_shell_wrapper(const Argv& argv) {
  return extract_bindable_shell_wrapper_inline_command(argv).has_value();
}

AuthorizationPlan plan_shell_authorization(std::string_view command, shell::ShellDialect dialect) {
  AuthorizationPlan plan;
  plan.explanation = explain_shell_command(command, dialect);
  const ShellExplanation& e = plan.explanation;
  if (e.error) {
    plan.reason = *e.error;
    return plan;
  }
  std::vector<const ExplainStep*> top;
  std::vector<const ExplainStep*> all;
  for (const ExplainStep& s : e.steps) {
    all.push_back(&s);
    if (s.context == StepContext::kTopLevel) top.push_back(&s);
  }
  std::optional<std::string> blocking = blocking_reason(e, all);
  // The exact-wrapper fallback (§3.3): a lone `sh -c '...'` whose problems all sit inside it is
  // kept as one exact command. The reference checks only the first unanalyzable risk; we check
  // every one, and refuse unsupported shapes of the line itself (`sh -c '$(id)' > f`, `sh -c x &`),
  // so a redirect or background operator outside the wrapper can never ride along.
  bool exact_fallback =
      top.size() == 1 && shell_wrapper_risk(*top[0], e.risks) &&
      std::all_of(e.risks.begin(), e.risks.end(),
                  [&](const Risk& r) { return !is_unanalyzable_risk(r.kind) || inside(r.span, top[0]->span); }) &&
      std::none_of(kUnsupportedShapes.begin(), kUnsupportedShapes.end(), [&](std::string_view shape) {
        return std::find(e.top_level_shapes.begin(), e.top_level_shapes.end(), shape) != e.top_level_shapes.end();
      });
  if (!e.ok || (blocking && !exact_fallback)) {
    plan.reason = blocking.value_or("unable to parse command");
    return plan;
  }
  bool allow_nested = !blocking && std::none_of(kUnsupportedShapes.begin(), kUnsupportedShapes.end(),
                                                [&](std::string_view s) { return e.has_shape(s); });
  std::optional<std::vector<ChainGroup>> groups;
  if (top.size() == 1) groups = wrapper_payload_plan(e, *top[0], allow_nested);
  if (!groups || groups->empty()) {
    std::vector<PlannedStep> steps;
    for (const ExplainStep* s : top) steps.push_back({s, s->argv, false});
    groups = group_steps(std::move(steps), e.operators, std::nullopt, false, nullptr, nullptr, e.risks);
  }
  if (groups->empty()) {
    plan.reason = "no commands to authorize";
    return plan;
  }
  plan.groups = std::move(*groups);
  plan.ok = true;
  return plan;
}

}  // namespace clawexec::policy
