#include "policy/shell_wrapper_policy.h"

#include <gtest/gtest.h>

namespace clawexec::policy {
namespace {

std::optional<std::string> bindable(const Argv& argv, std::optional<std::string_view> raw = std::nullopt) {
  return extract_bindable_shell_wrapper_inline_command(argv, raw);
}

TEST(ShellWrapperPolicy, LoginAndInteractiveShellsAreNotBindable) {
  EXPECT_EQ(bindable({"bash", "-c", "echo hi"}), "echo hi");
  EXPECT_EQ(bindable({"bash", "-lc", "echo hi"}), std::nullopt);
  EXPECT_EQ(bindable({"bash", "--login", "-c", "echo hi"}), std::nullopt);
  EXPECT_EQ(bindable({"bash", "-i", "-c", "echo hi"}), std::nullopt);
  EXPECT_EQ(bindable({"zsh", "-il", "-c", "echo hi"}), std::nullopt);
  EXPECT_EQ(bindable({"bash", "-c", "echo hi", "-l"}), "echo hi");  // after the flag: no effect
  EXPECT_TRUE(extract_shell_wrapper_command({"bash", "-lc", "echo hi"}).is_wrapper);
}

TEST(ShellWrapperPolicy, LegacyShLoginFormBindsOnlyToMatchingRawText) {
  EXPECT_EQ(bindable({"sh", "-lc", "echo hi"}), std::nullopt);
  EXPECT_EQ(bindable({"sh", "-lc", "echo hi"}, "echo hi"), "echo hi");
  EXPECT_EQ(bindable({"sh", "-lc", "echo hi"}, "sh -lc \"echo hi\""), "echo hi");
  EXPECT_EQ(bindable({"sh", "-lc", "echo hi"}, "something else"), std::nullopt);
  EXPECT_EQ(bindable({"bash", "-lc", "echo hi"}, "echo hi"), std::nullopt);
}

TEST(ShellWrapperPolicy, FishStartupCommandsAreNotBindable) {
  EXPECT_EQ(bindable({"fish", "-c", "echo hi"}), "echo hi");
  EXPECT_EQ(bindable({"fish", "-C", "evil", "-c", "echo hi"}), std::nullopt);
  EXPECT_EQ(bindable({"fish", "-cecho hi"}), std::nullopt);
  EXPECT_EQ(extract_shell_wrapper_inline_command({"fish", "-cecho hi"}), "echo hi");
}

TEST(ShellWrapperPolicy, OptionValuesAreSkippedWhenLookingForTheCommand) {
  EXPECT_EQ(extract_shell_wrapper_inline_command({"bash", "-o", "posix", "-c", "id"}), "id");
  EXPECT_EQ(extract_shell_wrapper_inline_command({"bash", "--rcfile", "-c", "script"}), std::nullopt);
  EXPECT_EQ(extract_shell_wrapper_inline_command({"bash", "-oc", "posix", "id"}), "id");
  EXPECT_EQ(extract_shell_wrapper_inline_command({"bash", "script.sh", "-c", "id"}), std::nullopt);
  EXPECT_EQ(extract_shell_wrapper_inline_command({"bash", "--", "-c", "id"}), std::nullopt);
  InlineCommandMatch attached = resolve_posix_inline_command_match({"sh", "-cecho hi"}, CombinedFlags::kAllowCombinedC);
  EXPECT_EQ(attached.command, "echo hi");
  EXPECT_EQ(attached.value_token_index, 1u);
  EXPECT_EQ(resolve_posix_inline_command_match({"sh", "-xc", "id"}, CombinedFlags::kExactOnly).command,
            std::nullopt);
}

TEST(ShellWrapperPolicy, CmdAndPowerShellPayloads) {
  EXPECT_EQ(extract_shell_wrapper_inline_command({"cmd.exe", "/d", "/s", "/c", "echo", "hi"}), "echo hi");
  EXPECT_EQ(extract_shell_wrapper_inline_command({"pwsh", "-NoProfile", "-c", "Get-Date", "-x"}),
            "Get-Date -x");
  EXPECT_EQ(extract_shell_wrapper_inline_command({"powershell", "-ExecutionPolicy", "Bypass", "-File", "a.ps1"}),
            "a.ps1");
  EXPECT_EQ(resolve_powershell_inline_command_match({"pwsh", "--command", "x"}).command, "x");
  EXPECT_EQ(resolve_powershell_inline_command_match({"pwsh", "/COMMANDWITHARGS", "x", "y"}).command, "x y");
}

TEST(ShellWrapperPolicy, OpaqueStartupShellsHaveNoPayload) {
  EXPECT_EQ(extract_shell_wrapper_inline_command({"tcsh", "-c", "id"}), std::nullopt);
  EXPECT_TRUE(is_shell_wrapper_invocation({"tcsh", "-c", "id"}));
  EXPECT_EQ(extract_shell_wrapper_inline_command({"nu", "--commands=ls"}), "ls");
  EXPECT_EQ(extract_shell_wrapper_inline_command({"nu", "--config", "c.nu", "-c", "ls"}), std::nullopt);
  EXPECT_EQ(bindable({"nu", "-l", "-c", "ls"}), std::nullopt);
}

TEST(ShellWrapperPolicy, PositionalCarrierPayloads) {
  for (const char* ok : {"$0 \"$@\"", "$0", "exec $0 \"$1\" $2", "exec -- \"${0}\" ${@}", "  $0  \"$@\"  "})
    EXPECT_TRUE(is_direct_shell_positional_carrier_command(ok)) << ok;
  for (const char* bad : {"", "$0 \"$*\"", "$1 $0", "echo $0", "$0;id", "exec$0", "$0 \"$@", "${0 $@",
                          "$0\n\"$@\"", "$0 $10"})
    EXPECT_FALSE(is_direct_shell_positional_carrier_command(bad)) << bad;
}

TEST(ShellWrapperPolicy, DispatchTrustPlanBlocksSemanticAndUnknownUses) {
  DispatchWrapperTrustPlan env = resolve_dispatch_wrapper_trust_plan({"env", "FOO=bar", "bash", "-c", "x"});
  EXPECT_TRUE(env.policy_blocked);
  EXPECT_EQ(env.blocked_wrapper, "env");
  EXPECT_EQ(env.argv, (Argv{"env", "FOO=bar", "bash", "-c", "x"}));
  DispatchWrapperTrustPlan plain = resolve_dispatch_wrapper_trust_plan({"env", "rg", "x"});
  EXPECT_FALSE(plain.policy_blocked);
  EXPECT_EQ(plain.argv, (Argv{"rg", "x"}));
  for (const char* w : {"sudo", "doas", "chrt", "taskset", "unshare", "arch", "xcrun", "script"}) {
    DispatchWrapperTrustPlan p = resolve_dispatch_wrapper_trust_plan({w, "rg"});
    EXPECT_TRUE(p.policy_blocked) << w;
    EXPECT_EQ(p.blocked_wrapper, w);
  }
  EXPECT_TRUE(resolve_dispatch_wrapper_trust_plan({"nice", "--bogus", "rg"}).policy_blocked);
  EXPECT_TRUE(resolve_dispatch_wrapper_trust_plan({"nohup"}).policy_blocked);
  DispatchWrapperTrustPlan deep =
      resolve_dispatch_wrapper_trust_plan({"nohup", "nohup", "nohup", "nohup", "nohup", "rg"});
  EXPECT_TRUE(deep.policy_blocked);
  EXPECT_EQ(deep.wrappers.size(), 4u);
}

TEST(ShellWrapperPolicy, ExecTrustPlanCarriersAndMultiplexers) {
  ExecWrapperTrustPlan cmd = resolve_exec_wrapper_trust_plan({"command", "rg", "-n"});
  EXPECT_FALSE(cmd.policy_blocked);
  EXPECT_EQ(cmd.argv, (Argv{"rg", "-n"}));
  EXPECT_EQ(cmd.wrapper_chain, std::vector<std::string>{"command"});
  ExecWrapperTrustPlan cmd_p = resolve_exec_wrapper_trust_plan({"command", "-p", "rg"});
  EXPECT_TRUE(cmd_p.policy_blocked);
  EXPECT_EQ(cmd_p.blocked_wrapper, "command");
  EXPECT_TRUE(resolve_exec_wrapper_trust_plan({"command", "-v", "rg"}).policy_blocked);
  ExecWrapperTrustPlan mux = resolve_exec_wrapper_trust_plan({"busybox", "sh", "-c", "id"});
  EXPECT_EQ(mux.policy_argv, (Argv{"busybox", "sh", "-c", "id"}));
  EXPECT_EQ(mux.argv, (Argv{"sh", "-c", "id"}));
  EXPECT_EQ(mux.shell_inline_command, "id");
  ExecWrapperTrustPlan login = resolve_exec_wrapper_trust_plan({"bash", "-lc", "id"});
  EXPECT_TRUE(login.shell_wrapper_executable);
  EXPECT_EQ(login.shell_inline_command, std::nullopt);
}

TEST(ShellWrapperPolicy, EnvManipulationAndAssignmentKeys) {
  EXPECT_TRUE(has_env_manipulation_before_shell_wrapper({"nice", "env", "-i", "sh", "-c", "id"}));
  EXPECT_FALSE(has_env_manipulation_before_shell_wrapper({"env", "FOO=1", "rg"}));  // not a shell
  EXPECT_EQ(extract_env_assignment_keys_from_dispatch_wrappers({"env", "B=1", "A=2", "B=3", "rg"}),
            (std::vector<std::string>{"A", "B"}));
  EXPECT_EQ(resolve_shell_wrapper_transport_argv({"timeout", "5", "bash", "-c", "id"}),
            (Argv{"bash", "-c", "id"}));
  EXPECT_EQ(resolve_shell_wrapper_transport_argv({"bash", "script.sh"}), std::nullopt);
  EXPECT_TRUE(has_posix_shell_startup_before_inline_command({"nohup", "bash", "-lc", "id"}));
  EXPECT_FALSE(has_posix_shell_startup_before_inline_command({"nohup", "bash", "-c", "id"}));
}

}  // namespace
}  // namespace clawexec::policy
