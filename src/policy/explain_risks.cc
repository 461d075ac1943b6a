// Command-level risks of one explained step (reference spec §3.2): what a single argv does
// that needs a human even when every word is literal - it evaluates code (eval, source,
// alias, an interpreter's inline program), runs a shell on a string (directly or behind a
// dispatch wrapper or carrier), or carries another command (find -exec, xargs, env -S).

#include "policy/explain_risks.h"

#include "policy/command_risks.h"
#include "shell/executable.h"
#include "shell/shell_wrappers.h"

namespace clawexec::policy {
namespace {

Risk to_risk(const CommandRisk& c) {
  Risk r;
  switch (c.kind) {
    case CommandRiskKind::kInlineEval: r.kind = "inline-eval"; break;
    case CommandRiskKind::kShellWrapper: r.kind = "shell-wrapper"; break;
    case CommandRiskKind::kShellWrapperThroughCarrier: r.kind = "shell-wrapper-through-carrier"; break;
    case CommandRiskKind::kCommandCarrier: r.kind = "command-carrier"; break;
    case CommandRiskKind::kEval: r.kind = "eval"; break;
    case CommandRiskKind::kSource: r.kind = "source"; break;
    case CommandRiskKind::kAlias: r.kind = "alias"; break;
  }
  r.command = c.command;
  r.flag = c.flag.value_or("");
  r.executable = c.executable;
  r.payload = c.payload;
  return r;
}

}  // namespace

std::vector<Risk> risks_for_argv(const Argv& argv) {
  std::vector<Risk> out;
  if (argv.empty()) return out;
  // The shell-wrapper risk (argv[0] is the shell) or, for a shell behind a dispatch wrapper
  // (timeout 5 bash -c ...), the through-carrier risk naming that wrapper.
  std::optional<CommandRisk> wrapper_risk;
  bool step_is_wrapper = shell::is_shell_wrapper_executable(argv[0]);
  if (std::optional<shell::ShellWrapper> wrapper = shell::find_shell_wrapper(argv)) {
    CommandRisk r;
    if (step_is_wrapper) {
      r.kind = CommandRiskKind::kShellWrapper;
      r.executable = shell::normalize_executable_token(argv[0]);
      r.flag = shell::shell_command_flag(argv).value_or("-c");
      r.payload = wrapper->payload;
    } else {
      r.kind = CommandRiskKind::kShellWrapperThroughCarrier;
      r.command = shell::normalize_executable_token(argv[0]);
    }
    wrapper_risk = r;
  }
  for (const CommandRisk& c : collect_command_risks(
           argv, step_is_wrapper ? StepShellWrapper::kYes : StepShellWrapper::kNo, wrapper_risk)) {
    out.push_back(to_risk(c));
  }
  return out;
}

}  // namespace clawexec::policy
