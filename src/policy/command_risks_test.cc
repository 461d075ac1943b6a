// Per-step command risks (reference §3.2): carriers, carried eval/source, shell wrappers
// behind carriers, and the order collect_command_risks reports them in.

#include "policy/command_risks.h"

#include <gtest/gtest.h>

namespace clawexec::policy {
namespace {

std::string carriers(const Argv& argv) {
  std::string out;
  for (const CommandCarrierHit& hit : detect_command_carrier_argv(argv)) {
    out += "[" + hit.command + (hit.flag ? " " + *hit.flag : "") + "]";
  }
  return out;
}

TEST(CommandCarrier, FindKeepsTheExecutableAsWritten) {
  EXPECT_EQ(carriers({"/usr/bin/find", ".", "-execdir", "x"}), "[/usr/bin/find -execdir]");
  EXPECT_EQ(carriers({"find", ".", "-name", "x"}), "");
}

TEST(CommandCarrier, XargsBlockedWrappersAndEnvSplitStrings) {
  EXPECT_EQ(carriers({"xargs"}), "[xargs]");
  EXPECT_EQ(carriers({"sudo", "ls"}), "[sudo]");
  EXPECT_EQ(carriers({"chroot", "/", "ls"}), "[chroot]");
  EXPECT_EQ(carriers({"env", "-Q", "ls"}), "[env]");  // unknown option: env cannot be looked through
  EXPECT_EQ(carriers({"env", "ls"}), "");
  EXPECT_EQ(carriers({"timeout", "5", "ls"}), "");
  EXPECT_EQ(carriers({"env", "-u", "X", "-S", "sh -c id"}), "[env -S]");
  EXPECT_EQ(carriers({"env", "-iS", "sh -c id"}), "[env -S]");
  EXPECT_EQ(carriers({"env", "--split-string=sh -c id"}), "[env --split-string]");
  EXPECT_EQ(carriers({""}), "");
}

TEST(CarriedShellBuiltin, FindsEvalAndSourceBehindCarriers) {
  auto kind = [](const Argv& argv) -> std::string {
    std::optional<CarriedShellBuiltin> hit = detect_carried_shell_builtin_argv(argv);
    if (!hit) return "";
    return hit->kind == CarriedBuiltinKind::kEval ? "eval" : "source " + hit->command;
  };
  EXPECT_EQ(kind({"sudo", "env", "eval", "x"}), "eval");
  EXPECT_EQ(kind({"command", "."}), "source .");
  EXPECT_EQ(kind({"exec", "-a", "x", "source", "f"}), "source source");
  EXPECT_EQ(kind({"builtin", "echo"}), "");
  EXPECT_EQ(kind({"command", "-v", "eval"}), "");
  EXPECT_EQ(kind({"eval", "x"}), "");  // not carried: the explainer's own eval risk
}

TEST(ShellCommandFlag, PerShellFamily) {
  EXPECT_EQ(shell_command_flag({"bash", "-x", "-lc", "id"}, 1)->flag, "-lc");
  EXPECT_EQ(shell_command_flag({"bash", "-x", "-lc", "id"}, 1)->index, 2u);
  EXPECT_EQ(shell_command_flag({"sh", "--COMMAND", "id"}, 1)->flag, "--COMMAND");
  EXPECT_FALSE(shell_command_flag({"sh", "--", "-c", "id"}, 1).has_value());
  EXPECT_EQ(shell_command_flag({"cmd", "/C", "dir"}, 1)->flag, "/C");
  EXPECT_FALSE(shell_command_flag({"cmd", "-c", "dir"}, 1).has_value());
  EXPECT_EQ(shell_command_flag({"pwsh", "-NoProfile", "-Command", "x"}, 1)->flag, "-Command");
}

TEST(ShellWrapperThroughCarrier, NamesTheOutermostCarrier) {
  EXPECT_EQ(detect_shell_wrapper_through_carrier_argv({"sudo", "sh", "-c", "id"}), "sudo");
  EXPECT_EQ(detect_shell_wrapper_through_carrier_argv({"command", "bash", "-lc", "id"}), "command");
  EXPECT_EQ(detect_shell_wrapper_through_carrier_argv({"exec", "env", "zsh", "-xc", "id"}), "exec");
  EXPECT_FALSE(detect_shell_wrapper_through_carrier_argv({"sudo", "sh", "script.sh"}).has_value());
  EXPECT_FALSE(detect_shell_wrapper_through_carrier_argv({"sh", "-c", "id"}).has_value());
  EXPECT_FALSE(detect_shell_wrapper_through_carrier_argv({"nice", "sh", "-c", "id"}).has_value());
}

std::string kinds(const std::vector<CommandRisk>& risks) {
  std::string out;
  for (const CommandRisk& risk : risks) {
    switch (risk.kind) {
      case CommandRiskKind::kInlineEval: out += "inline-eval(" + risk.command + " " + *risk.flag + ")"; break;
      case CommandRiskKind::kShellWrapper: out += "shell-wrapper"; break;
      case CommandRiskKind::kShellWrapperThroughCarrier: out += "through-carrier(" + risk.command + ")"; break;
      case CommandRiskKind::kCommandCarrier: out += "carrier(" + risk.command + ")"; break;
      case CommandRiskKind::kEval: out += "eval"; break;
      case CommandRiskKind::kSource: out += "source(" + risk.command + ")"; break;
      case CommandRiskKind::kAlias: out += "alias"; break;
    }
    out += ";";
  }
  return out;
}

TEST(CollectCommandRisks, ReportsInTheReferenceOrder) {
  EXPECT_EQ(kinds(collect_command_risks({"sudo", "python3", "-c", "1"}, StepShellWrapper::kNo, std::nullopt)),
            "inline-eval(python3 -c);carrier(sudo);");
  EXPECT_EQ(kinds(collect_command_risks({"sudo", "sh", "-c", "id"}, StepShellWrapper::kNo, std::nullopt)),
            "carrier(sudo);through-carrier(sudo);");
  // A wrapper step: the caller's wrapper risk comes second and the carrier check is skipped.
  CommandRisk wrapper{CommandRiskKind::kShellWrapper, {}, "-c", "sh", "id"};
  EXPECT_EQ(kinds(collect_command_risks({"sudo", "sh", "-c", "id"}, StepShellWrapper::kYes, wrapper)),
            "shell-wrapper;carrier(sudo);");
  EXPECT_EQ(kinds(collect_command_risks({"builtin", "eval", "x"}, StepShellWrapper::kNo, std::nullopt)), "eval;");
  EXPECT_EQ(kinds(collect_command_risks({"source", "f"}, StepShellWrapper::kNo, std::nullopt)), "source(source);");
  EXPECT_EQ(kinds(collect_command_risks({"alias", "x=y"}, StepShellWrapper::kNo, std::nullopt)), "alias;");
  EXPECT_EQ(kinds(collect_command_risks({"find", ".", "-exec", "id", ";"}, StepShellWrapper::kNo, std::nullopt)),
            "inline-eval(find -exec);carrier(find);");
  EXPECT_EQ(kinds(collect_command_risks({"ls", "-l"}, StepShellWrapper::kNo, std::nullopt)), "");
}

}  // namespace
}  // namespace clawexec::policy
