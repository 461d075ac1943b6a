// Per-step command risks from an argv: what the explainer flags about one command before any
// allowlist decision (programs that run other programs, eval/source, shells behind sudo).
//
// Problem: these risks decide whether a command may ever be allowed "always", so they must
// see through carriers the same way the reference does (env -iS 'sh -c id' is a carrier with
// flag -S; builtin eval and command source are eval/source), but never further than the
// carriers' option grammar allows.
//
// Approach: thin argv-level detectors over the shell module's carrier and dispatch-wrapper
// parsers, plus one function that assembles them in the reference's order so the explainer
// only adds what depends on its own shell-wrapper extraction.

#include "policy/command_risks.h"

#include "base/utf.h"
#include "shell/carriers.h"
#include "shell/dispatch_wrappers.h"
#include "shell/executable.h"
#include "shell/shell_wrappers.h"

namespace clawexec::policy {
namespace {

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool is_carrier_name(std::string_view name) {
  return name == "sudo" || name == "doas" || name == "env" || name == "command" ||
         name == "builtin" || name == "exec";
}

std::optional<Argv> carried_argv(const Argv& argv) {
  if (argv.empty() || !is_carrier_name(shell::normalize_executable_token(argv[0]))) {
    return std::nullopt;
  }
  return shell::resolve_carrier_argv(argv, shell::ExecCarrier::kInclude);
}

bool is_source_name(std::string_view name) { return name == "." || name == "source"; }

}  // namespace

std::optional<std::string> detect_env_split_string_flag(const Argv& argv) {
  if (argv.empty() || shell::normalize_executable_token(argv[0]) != "env") return std::nullopt;
  std::optional<shell::EnvPrelude> prelude = shell::parse_env_prelude(argv);
  if (!prelude || !prelude->split_argv) return std::nullopt;
  for (size_t i = 1; i < prelude->command_index && i < argv.size(); ++i) {
    std::string_view token = js_trim(argv[i]);
    if (token == "-S" || token == "-s") return std::string(token);
    if (token == "--split-string") return std::string(token);
    if (starts_with(token, "--split-string=")) return std::string("--split-string");
    if (starts_with(token, "-S") && token.size() > 2) {
      return std::string(starts_with(token, "--") ? "--split-string" : "-S");
    }
    if (starts_with(token, "-") && !starts_with(token, "--")) {
      for (char option : token.substr(1)) {
        if (option == 'S') return std::string("-S");
        if (option == 's') return std::string("-s");
      }
    }
  }
  return std::nullopt;
}

std::vector<CommandCarrierHit> detect_command_carrier_argv(const Argv& argv) {
  std::vector<CommandCarrierHit> hits;
  if (argv.empty() || argv[0].empty()) return hits;
  std::string name = shell::normalize_executable_token(argv[0]);
  if (name == "find") {
    for (const std::string& arg : argv) {
      if (arg == "-exec" || arg == "-execdir" || arg == "-ok" || arg == "-okdir") {
        hits.push_back({argv[0], arg});
        break;
      }
    }
  }
  if (name == "xargs") hits.push_back({name, std::nullopt});
  if (shell::unwrap_dispatch_wrapper(argv).kind == shell::DispatchKind::kBlocked) {
    hits.push_back({name, std::nullopt});
  }
  if (std::optional<std::string> flag = detect_env_split_string_flag(argv)) {
    hits.push_back({name, std::move(flag)});
  }
  return hits;
}

std::optional<CarriedShellBuiltin> detect_carried_shell_builtin_argv(const Argv& argv) {
  std::optional<Argv> carried = carried_argv(argv);
  if (!carried) return std::nullopt;
  if (auto nested = detect_carried_shell_builtin_argv(*carried)) return nested;
  if (carried->empty() || (*carried)[0].empty()) return std::nullopt;
  std::string name = shell::normalize_executable_token((*carried)[0]);
  if (name == "eval") return CarriedShellBuiltin{CarriedBuiltinKind::kEval, {}};
  if (is_source_name(name)) return CarriedShellBuiltin{CarriedBuiltinKind::kSource, name};
  return std::nullopt;
}

std::optional<ShellCommandFlag> shell_command_flag(const Argv& argv, size_t start_index) {
  std::string_view shell_token;
  if (start_index >= 1 && start_index - 1 < argv.size()) {
    shell_token = argv[start_index - 1];
  } else if (!argv.empty()) {
    shell_token = argv[0];
  }
  std::string shell = shell::normalize_executable_token(shell_token);
  bool powershell = shell == "powershell" || shell == "pwsh";
  for (size_t i = start_index; i < argv.size(); ++i) {
    std::string_view token = js_trim(argv[i]);
    if (token.empty()) continue;
    if (token == "--") break;
    std::string lower = shell::lower_for_match(token);
    bool hit = false;
    if (shell == "cmd") {
      hit = lower == "/c" || lower == "/k";
    } else if (powershell) {
      for (std::string_view flag : {"-c", "-command", "--command", "-encodedcommand", "-enc", "-e",
                                    "-f", "-file"}) {
        hit = hit || lower == flag;
      }
    } else {
      hit = lower == "-c" || lower == "--command" ||
            (starts_with(token, "-") && !starts_with(token, "--") &&
             lower.find('c', 1) != std::string::npos);
    }
    if (hit) return ShellCommandFlag{std::string(token), i};
  }
  return std::nullopt;
}

std::optional<std::string> detect_shell_wrapper_through_carrier_argv(const Argv& argv) {
  std::optional<Argv> carried = carried_argv(argv);
  if (!carried) return std::nullopt;
  std::string name = shell::normalize_executable_token(argv[0]);
  bool shell_with_flag = !carried->empty() && shell::is_shell_wrapper_executable((*carried)[0]) &&
                         shell_command_flag(*carried, 1).has_value();
  if (shell_with_flag || detect_shell_wrapper_through_carrier_argv(*carried)) return name;
  return std::nullopt;
}

std::vector<CommandRisk> collect_command_risks(const Argv& argv, StepShellWrapper step_wrapper,
                                               const std::optional<CommandRisk>& wrapper_risk) {
  std::vector<CommandRisk> risks;
  if (argv.empty() || argv[0].empty()) return risks;
  std::string name = shell::normalize_executable_token(argv[0]);
  std::optional<InlineEvalHit> inline_eval = detect_inline_eval_argv(argv);
  if (!inline_eval) inline_eval = detect_carrier_inline_eval_argv(argv);
  if (inline_eval) {
    risks.push_back({CommandRiskKind::kInlineEval, inline_eval->normalized_executable,
                     inline_eval->flag, {}, {}});
  }
  if (wrapper_risk) risks.push_back(*wrapper_risk);
  for (CommandCarrierHit& carrier : detect_command_carrier_argv(argv)) {
    risks.push_back({CommandRiskKind::kCommandCarrier, std::move(carrier.command),
                     std::move(carrier.flag), {}, {}});
  }
  if (name == "eval") risks.push_back({CommandRiskKind::kEval, {}, std::nullopt, {}, {}});
  if (is_source_name(name)) risks.push_back({CommandRiskKind::kSource, name, std::nullopt, {}, {}});
  if (name == "alias") risks.push_back({CommandRiskKind::kAlias, {}, std::nullopt, {}, {}});
  if (step_wrapper == StepShellWrapper::kNo) {
    if (std::optional<std::string> carrier = detect_shell_wrapper_through_carrier_argv(argv)) {
      risks.push_back(
          {CommandRiskKind::kShellWrapperThroughCarrier, std::move(*carrier), std::nullopt, {}, {}});
    }
  }
  if (std::optional<CarriedShellBuiltin> builtin = detect_carried_shell_builtin_argv(argv)) {
    if (builtin->kind == CarriedBuiltinKind::kEval) {
      risks.push_back({CommandRiskKind::kEval, {}, std::nullopt, {}, {}});
    } else {
      risks.push_back({CommandRiskKind::kSource, builtin->command, std::nullopt, {}, {}});
    }
  }
  return risks;
}

}  // namespace clawexec::policy
