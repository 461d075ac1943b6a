// Display summary of a command's analysis (approval prompts).
//
// Problem: an approval prompt should say, in a line or two, what the command does that
// deserves attention. Which view of the command is authoritative depends on the host: the
// gateway runs the shell text, a node runs the argv it was sent.
//
// Approach: for shell text, reuse the explainer's steps and risks and give each risk a short
// label (the command and flag involved); for argv, look through transparent wrappers and ask
// only the two argv-level detectors (inline eval, command carriers).

#include "policy/analysis_summary.h"

#include <algorithm>

#include "policy/command_risks.h"
#include "policy/explain.h"
#include "policy/inline_eval.h"
#include "policy/shell_wrapper_policy.h"

namespace clawexec::policy {
namespace {

void add_unique(std::vector<std::string>& list, std::string value) {
  if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(std::move(value));
}

// The detail a risk is shown with; the kind itself when it has none.
std::string risk_label(const Risk& risk) {
  if (risk.kind == "inline-eval") return risk.command + " " + risk.flag;
  if (risk.kind == "shell-wrapper") return risk.executable + " " + risk.flag;
  if (risk.kind == "command-carrier") return risk.flag.empty() ? risk.command : risk.command + " " + risk.flag;
  if (risk.kind == "dynamic-argument") return risk.command + " dynamic argument";
  if (risk.kind == "source") return risk.command;
  if (risk.kind == "function-definition") return risk.name;
  return risk.kind;
}

std::string warning_line(std::string_view kind, std::string_view label) {
  std::string line = "Contains " + std::string(kind);
  if (label != kind) line += ": " + std::string(label);
  return line;
}

CommandAnalysisSummary summarize_text(const ShellExplanation& explanation) {
  CommandAnalysisSummary out;
  for (const ExplainStep& step : explanation.steps) {
    if (step.context == StepContext::kTopLevel) ++out.command_count;
    else ++out.nested_command_count;
  }
  for (const Risk& risk : explanation.risks) {
    add_unique(out.risk_kinds, risk.kind);
    add_unique(out.warning_lines, warning_line(risk.kind, risk_label(risk)));
  }
  return out;
}

CommandAnalysisSummary summarize_argv(const Argv& argv) {
  CommandAnalysisSummary out;
  out.command_count = 1;
  ExecWrapperTrustPlan plan = resolve_exec_wrapper_trust_plan(argv);
  const Argv& effective = plan.argv.empty() ? argv : plan.argv;
  std::optional<InlineEvalHit> hit = detect_inline_eval_argv(effective);
  if (!hit) hit = detect_inline_eval_argv(argv);
  if (hit) {
    add_unique(out.risk_kinds, "inline-eval");
    add_unique(out.warning_lines, "Contains inline-eval: " + hit->normalized_executable + " " + hit->flag);
  }
  for (const CommandCarrierHit& carrier : detect_command_carrier_argv(effective)) {
    add_unique(out.risk_kinds, "command-carrier");
    std::string label = carrier.flag ? carrier.command + " " + *carrier.flag : carrier.command;
    add_unique(out.warning_lines, "Contains command-carrier: " + label);
  }
  return out;
}

}  // namespace

std::optional<CommandAnalysisSummary> resolve_command_analysis_summary(SummaryHost host,
                                                                       std::string_view command_text,
                                                                       const Argv& command_argv) {
  if (host == SummaryHost::kNode) {
    if (command_argv.empty()) return std::nullopt;
    return summarize_argv(command_argv);
  }
  ShellExplanation explanation = explain_shell_command(command_text);
  if (!explanation.ok) return std::nullopt;
  return summarize_text(explanation);
}

}  // namespace clawexec::policy
