// Canonical rendering: from the pinned argv of each segment to one shell command line.
//
// Problem: the text that runs must mean, to bash, dash, zsh or ksh alike, exactly the argv the
// policy approved and the sequence the parser read - the original text cannot be trusted for
// that (the analyzer and a shell may disagree about it), and neither can splicing real paths
// into it.
//
// Approach: every segment is written as its pinned argv (pinned_argv.h), each word in single
// quotes; the separators come from the parser's reading of the line (&&, ||, ;, newline, |,
// |& as "2>&1 |"), cross-checked against the plan's grouping. Refused: a line with commands
// that are not candidates, background jobs, a negation inside a pipeline, wrapper payloads.

#include "policy/render.h"


#include "shell/word.h"

namespace clawexec::policy {
namespace {

using shell::Separator;

// The separator text between two rendered segments, or nullopt when the parser's separator
// does not say what the plan's grouping says.
std::optional<std::string_view> separator_text(Separator next, bool pipe_in_group, std::string_view op_to_next) {
  if (pipe_in_group) {
    if (next == Separator::kPipe) return " | ";
    if (next == Separator::kPipeStderr) return " 2>&1 | ";
    return std::nullopt;
  }
  if (op_to_next == "&&" && next == Separator::kAnd) return " && ";
  if (op_to_next == "||" && next == Separator::kOr) return " || ";
  if (op_to_next == ";" && (next == Separator::kSequence || next == Separator::kNewline)) return "; ";
  return std::nullopt;
}

}  // namespace

RenderedCommand render_authorized_command(const AllowlistEvaluation& evaluation) {
  RenderedCommand out;
  const AuthorizationPlan& plan = evaluation.plan;
  if (!plan.ok) {
    out.reason = plan.reason;
    return out;
  }
  std::vector<const Candidate*> candidates = plan.candidates();
  if (candidates.size() != evaluation.segments.size()) {
    out.reason = "segment metadata mismatch";
    return out;
  }
  for (const Candidate* c : candidates) {
    if (c->synthetic || c->shell_wrapper_transport) {
      out.reason = "shell quoting required in wrapper payload";
      return out;
    }
  }
  if (plan.explanation.top_level_commands != candidates.size()) {
    out.reason = "the line runs commands that are not authorized segments";
    return out;
  }
  std::string text;
  size_t index = 0;
  bool after_pipe = false;
  for (size_t g = 0; g < plan.groups.size(); ++g) {
    const ChainGroup& group = plan.groups[g];
    for (size_t k = 0; k < group.candidates.size(); ++k, ++index) {
      const SegmentEvaluation& seg = evaluation.segments[index];
      const ExplainStep* step = plan.explanation.step(candidates[index]->step_id);
      if (!step || step->context != StepContext::kTopLevel) {
        out.reason = "shell quoting required in wrapper payload";
        return out;
      }
      if (!seg.pinned_argv) {
        out.reason = seg.pin_failure.empty() ? "segment execution plan unavailable" : seg.pin_failure;
        return out;
      }
      if (step->negated) {
        if (after_pipe) {
          out.reason = "negation inside a pipeline";
          return out;
        }
        text += "! ";
      }
      for (size_t w = 0; w < seg.pinned_argv->size(); ++w) {
        if (w) text += ' ';
        text += shell::single_quote((*seg.pinned_argv)[w]);
      }
      bool last_in_group = k + 1 == group.candidates.size();
      if (last_in_group && g + 1 == plan.groups.size()) {
        if (step->next == Separator::kBackground) {
          out.reason = "background";
          return out;
        }
        break;
      }
      std::optional<std::string_view> sep = separator_text(step->next, !last_in_group, group.op_to_next);
      if (!sep) {
        out.reason = "operator mismatch between the plan and the parser";
        return out;
      }
      text += *sep;
      after_pipe = !last_in_group;
    }
  }
  out.command = std::move(text);
  return out;
}

}  // namespace clawexec::policy
