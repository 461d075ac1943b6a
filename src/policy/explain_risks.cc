// Command-level risks of one explained step (reference spec §3.2): what a single argv does
// that needs a human even when every word is literal - it evaluates code (eval, source,
// alias, an interpreter's inline program), runs a shell on a string (directly or behind a
// dispatch wrapper or carrier), or carries another command (find -exec, xargs, env -S).

#include "policy/explain_risks.h"

#include "shell/carriers.h"
#include "shell/executable.h"
#include "shell/shell_wrappers.h"

namespace clawexec::policy {
namespace {

Risk risk(std::string kind) {
  Risk r;
  r.kind = std::move(kind);
  return r;
}

// argv[0], or what a carrier (env, command, builtin, exec, sudo, doas) runs, looked through
// repeatedly.
std::string carried_name(const Argv& argv) {
  Argv current = argv;
  for (int depth = 0; depth < 8 && !current.empty(); ++depth) {
    std::optional<Argv> carried = shell::resolve_carrier_argv(current, shell::ExecCarrier::kInclude);
    if (!carried || carried->empty()) break;
    current = std::move(*carried);
  }
  return current.empty() ? std::string() : shell::normalize_executable_token(current[0]);
}

bool reaches_shell_wrapper(const Argv& argv) {
  if (shell::find_shell_wrapper(argv)) return true;
  std::optional<Argv> carried = shell::resolve_carrier_argv(argv, shell::ExecCarrier::kInclude);
  return carried && !carried->empty() && shell::find_shell_wrapper(*carried).has_value();
}

}  // namespace

std::vector<Risk> risks_for_argv(const Argv& argv) {
  std::vector<Risk> out;
  if (argv.empty()) return out;
  std::string name = shell::normalize_executable_token(argv[0]);
  std::string carried = carried_name(argv);
  if (carried == "eval") out.push_back(risk("eval"));
  if (carried == "." || carried == "source") out.push_back(risk("source"));
  if (name == "alias") out.push_back(risk("alias"));

  // INTEGRATION PENDING (this session): inline-eval risks from policy/inline_eval.h.
  if (shell::is_shell_wrapper_executable(argv[0])) {
    if (std::optional<shell::ShellWrapper> wrapper = shell::find_shell_wrapper(argv)) {
      Risk r = risk("shell-wrapper");
      r.executable = name;
      r.flag = shell::shell_command_flag(argv).value_or("-c");
      r.payload = wrapper->payload;
      out.push_back(std::move(r));
    }
  } else if (reaches_shell_wrapper(argv)) {
    Risk r = risk("shell-wrapper-through-carrier");
    r.command = name;
    out.push_back(std::move(r));
  }
  // INTEGRATION PENDING (this session): command-carrier risks from policy/command_risks.h.
  return out;
}

}  // namespace clawexec::policy
