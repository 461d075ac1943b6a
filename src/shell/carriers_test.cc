#include "shell/carriers.h"

#include <gtest/gtest.h>

#include "shell/payload_candidates.h"
#include "shell/shell_wrappers.h"

namespace clawexec::shell {
namespace {

std::optional<Argv> carried(Argv argv) { return resolve_carrier_argv(argv, ExecCarrier::kInclude); }

TEST(ResolveCarrierArgv, EnvSkipsAssignmentsAndKnownOptions) {
  EXPECT_EQ(carried({"env", "-i", "FOO=1", "cmd", "a"}), (Argv{"cmd", "a"}));
  EXPECT_EQ(carried({"env", "-u", "X", "cmd"}), (Argv{"cmd"}));
  EXPECT_EQ(carried({"env", "-uX", "cmd"}), (Argv{"cmd"}));
  EXPECT_EQ(carried({"env", "--unset=X", "cmd"}), (Argv{"cmd"}));
  EXPECT_EQ(carried({"/usr/bin/ENV", "--", "cmd"}), (Argv{"cmd"}));
}

TEST(ResolveCarrierArgv, EnvSplitStringIsSplitAndParsedAgain) {
  EXPECT_EQ(carried({"env", "-S", "FOO=1 cmd a", "b"}), (Argv{"cmd", "a", "b"}));
  EXPECT_EQ(carried({"env", "-Scmd a"}), (Argv{"cmd", "a"}));
}

TEST(ResolveCarrierArgv, StopsAtWhatItDoesNotUnderstand) {
  EXPECT_EQ(carried({"env", "-x", "cmd"}), std::nullopt);
  EXPECT_EQ(carried({"env"}), std::nullopt);
  EXPECT_EQ(carried({"env", "FOO=1"}), std::nullopt);
  EXPECT_EQ(carried({"sudo", "-x", "cmd"}), std::nullopt);
}

TEST(ResolveCarrierArgv, CommandAndBuiltinRunOnlyWithoutQueryOptions) {
  EXPECT_EQ(carried({"command", "-p", "cmd"}), (Argv{"cmd"}));
  EXPECT_EQ(carried({"builtin", "cmd"}), (Argv{"cmd"}));
  EXPECT_EQ(carried({"command", "-v", "cmd"}), std::nullopt);
  EXPECT_EQ(carried({"command", "--"}), Argv{});
}

TEST(ResolveCarrierArgv, SudoAndDoasSkipOptionsAndSudoAssignments) {
  EXPECT_EQ(carried({"sudo", "-u", "root", "-E", "FOO=1", "cmd"}), (Argv{"cmd"}));
  EXPECT_EQ(carried({"sudo", "-uroot", "cmd"}), (Argv{"cmd"}));
  EXPECT_EQ(carried({"sudo", "--user=root", "cmd"}), (Argv{"cmd"}));
  EXPECT_EQ(carried({"sudo", "-l", "cmd"}), std::nullopt);
  EXPECT_EQ(carried({"doas", "-u", "x", "cmd"}), (Argv{"cmd"}));
}

TEST(ResolveCarrierArgv, ExecIsACarrierOnlyWhenAsked) {
  EXPECT_EQ(carried({"exec", "-a", "name", "cmd"}), (Argv{"cmd"}));
  EXPECT_EQ(carried({"exec", "-cl", "cmd"}), (Argv{"cmd"}));
  EXPECT_EQ(resolve_carrier_argv({"exec", "cmd"}), std::nullopt);
}

std::optional<std::string> payload(Argv argv) {
  auto wrapper = find_shell_wrapper(argv);
  if (!wrapper) return std::nullopt;
  return wrapper->payload;
}

TEST(FindShellWrapper, FindsPosixInlineCommands) {
  EXPECT_EQ(payload({"bash", "-c", "echo hi"}), "echo hi");
  EXPECT_EQ(payload({"sh", "-lc", "x"}), "x");
  EXPECT_EQ(payload({"bash", "-ec", "x"}), "x");
  EXPECT_EQ(payload({"bash", "-o", "pipefail", "-c", "x"}), "x");
  EXPECT_EQ(payload({"bash", "-oc", "pipefail", "x"}), "x");
  EXPECT_EQ(payload({"bash", "--rcfile", "f", "-c", "x"}), "x");
  EXPECT_EQ(payload({"bash", "-c'echo hi'"}), "'echo hi'");
  EXPECT_EQ(payload({"bash", "script.sh", "-c", "x"}), std::nullopt);
  EXPECT_EQ(payload({"bash", "-c", "  "}), std::nullopt);
  EXPECT_EQ(payload({"csh", "-c", "x"}), std::nullopt);  // startup files run first
}

TEST(FindShellWrapper, LooksThroughDispatchWrappersButNotBlockedOnes) {
  EXPECT_EQ(payload({"timeout", "-s", "KILL", "5", "sh", "-c", "x"}), "x");
  EXPECT_EQ(payload({"nice", "-n", "5", "sh", "-c", "x"}), "x");
  EXPECT_EQ(payload({"nohup", "sh", "-c", "x"}), "x");
  EXPECT_EQ(payload({"flock", "/tmp/l", "sh", "-c", "x"}), "x");
  EXPECT_EQ(payload({"time", "-p", "bash", "-c", "x"}), "x");
  EXPECT_EQ(payload({"env", "-i", "sh", "-c", "x"}), "x");
  EXPECT_EQ(payload({"busybox", "sh", "-c", "x"}), "x");
  EXPECT_EQ(payload({"busybox", "ls", "-c", "x"}), std::nullopt);
  EXPECT_EQ(payload({"sudo", "sh", "-c", "x"}), std::nullopt);
  EXPECT_EQ(payload({"stdbuf", "-oL", "sh", "-c", "x"}), std::nullopt);
}

TEST(FindShellWrapper, KnowsCmdPowerShellAndNushell) {
  EXPECT_EQ(payload({"cmd", "/c", "echo", "hi"}), "echo hi");
  EXPECT_EQ(payload({"pwsh", "-Command", "Get-Item", "x"}), "Get-Item x");
  EXPECT_EQ(payload({"powershell", "-NoProfile", "-c", "x"}), "x");
  EXPECT_EQ(payload({"pwsh", "-ExecutionPolicy", "Bypass", "-Command", "x"}), "x");
  EXPECT_EQ(payload({"pwsh", "-EncodedCommand", "abc"}), "abc");
  EXPECT_EQ(payload({"nu", "--commands=x y"}), "x y");
  EXPECT_EQ(payload({"nu", "--config", "c.nu", "-c", "x"}), std::nullopt);
}

TEST(IsParseableShellWrapper, NeedsAPosixShellAndACFlag) {
  auto parseable = [](Argv argv) {
    auto wrapper = find_shell_wrapper(argv);
    return wrapper && is_parseable_shell_wrapper(argv, *wrapper);
  };
  EXPECT_TRUE(parseable({"bash", "-c", "x"}));
  EXPECT_TRUE(parseable({"timeout", "5", "sh", "-ec", "x"}));
  EXPECT_FALSE(parseable({"bash", "--cmdline", "x"}));
  EXPECT_FALSE(parseable({"cmd", "/c", "x"}));
  EXPECT_FALSE(parseable({"nu", "-c", "x"}));
}

TEST(CommandPayloadCandidates, SeeThroughCarriersAndWrappersRecursively) {
  EXPECT_EQ(command_payload_argv_candidates(
                {"FOO=1", "sudo", "-u", "x", "env", "-i", "bash", "-c", "cmd a"}),
            (std::vector<Argv>{
                {"env", "-i", "bash", "-c", "cmd a"}, {"bash", "-c", "cmd a"}, {"cmd", "a"}}));
  EXPECT_EQ(command_payload_candidates({"env", "-S", "bash -c 'x y'"}),
            (std::vector<std::string>{"bash -c x y", "x y"}));
}

TEST(CommandPayloadCandidates, KeepsAnUnsplittablePayloadWhole) {
  EXPECT_EQ(command_payload_argv_candidates({"bash", "-c", "echo 'open"}),
            (std::vector<Argv>{{"bash", "-c", "echo 'open"}, {"echo 'open"}}));
  EXPECT_TRUE(command_payload_argv_candidates({"A=1"}).empty());
}

}  // namespace
}  // namespace clawexec::shell
