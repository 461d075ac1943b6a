#pragma once
// Per-step command risks the explainer records from a step's argv (reference §3.2 "Per-step
// command risks"): inline eval, command carriers (find -exec, xargs, env -S, blocked dispatch
// wrappers), eval, source and alias (also when carried: builtin eval, command source), and
// shell wrappers reached through a carrier (sudo sh -c ...).

#include <optional>
#include <string>
#include <vector>

#include "policy/inline_eval.h"
#include "policy/types.h"

namespace clawexec::policy {

/// A `command-carrier` hit: find with -exec/-execdir/-ok/-okdir ({argv[0] as written, flag}),
/// xargs, a dispatch wrapper that cannot be looked through (sudo, chroot, ...), or env with a
/// split string ({"env", "-S" | "-s" | "--split-string"}).
struct CommandCarrierHit {
  std::string command;
  std::optional<std::string> flag;
};

/// detectCommandCarrierArgv.
std::vector<CommandCarrierHit> detect_command_carrier_argv(const Argv& argv);

/// The split-string flag of an env invocation that carries a command through it, if any.
std::optional<std::string> detect_env_split_string_flag(const Argv& argv);

enum class CarriedBuiltinKind { kEval, kSource };

struct CarriedShellBuiltin {
  CarriedBuiltinKind kind = CarriedBuiltinKind::kEval;
  std::string command;  // for kSource: "." or "source"
};

/// detectCarriedShellBuiltinArgv: eval / . / source run through carriers (builtin eval,
/// command source, exec eval, sudo env eval, ...), the innermost carrier's payload first.
std::optional<CarriedShellBuiltin> detect_carried_shell_builtin_argv(const Argv& argv);

/// The explainer's shellCommandFlag: the first token from `start_index` that is the shell's
/// command flag (cmd: /c or /k; PowerShell: -c -command --command -encodedcommand -enc -e -f
/// -file; others: -c, --command, or a single-dash cluster containing c), with its index.
/// The shell is normalised argv[start_index - 1]. Scanning stops at "--".
struct ShellCommandFlag {
  std::string flag;
  size_t index = 0;
};
std::optional<ShellCommandFlag> shell_command_flag(const Argv& argv, size_t start_index);

/// detectShellWrapperThroughCarrierArgv: the outermost carrier's normalised name when a
/// carrier chain (env, sudo, doas, command, builtin, exec) ends in a shell wrapper with a
/// command flag ("sudo sh -c id" -> "sudo").
std::optional<std::string> detect_shell_wrapper_through_carrier_argv(const Argv& argv);

enum class CommandRiskKind {
  kInlineEval,                  // command = interpreter (normalised), flag
  kShellWrapper,                // supplied by the caller
  kShellWrapperThroughCarrier,  // command
  kCommandCarrier,              // command, flag?
  kEval,
  kSource,  // command
  kAlias,
};

struct CommandRisk {
  CommandRiskKind kind = CommandRiskKind::kEval;
  std::string command;
  std::optional<std::string> flag;
  std::string executable;  // kShellWrapper only
  std::string payload;     // kShellWrapper only
};

/// Whether the step's argv is itself a shell wrapper (extractShellWrapperCommand's isWrapper,
/// computed by the caller, which owns shell-wrapper extraction).
enum class StepShellWrapper { kNo, kYes };

/// recordCommandRisks without the dynamic-argument part, in the reference's order:
/// inline-eval; `wrapper_risk` (the shell-wrapper risk, or the shell-wrapper-through-carrier
/// risk of a wrapper reached through a dispatch wrapper, both decided by the caller); the
/// command carriers; eval, source, alias for argv[0]; a shell wrapper reached through a
/// carrier (only when `step_wrapper` is kNo); carried eval/source.
std::vector<CommandRisk> collect_command_risks(const Argv& argv, StepShellWrapper step_wrapper,
                                               const std::optional<CommandRisk>& wrapper_risk);

}  // namespace clawexec::policy
