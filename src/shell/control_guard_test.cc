#include "shell/control_guard.h"

#include <gtest/gtest.h>

#include <string>

namespace clawexec::shell {
namespace {

// The reference's messages, verbatim (spec §3.9).
constexpr std::string_view kApproveMessage =
    "exec cannot run /approve commands. Show the /approve command to the user as chat text, or "
    "route it through the approval command handler instead of shell execution.";
constexpr std::string_view kChannelLoginMessage =
    "exec cannot run interactive OpenClaw channel login commands. Run `openclaw channels login` in "
    "a "
    "terminal on the gateway host, or use the channel-specific login agent tool when available "
    "(for "
    "WhatsApp: `whatsapp_login`).";
constexpr std::string_view kWorkLimitMessage =
    "exec cannot run a shell command that exceeds the command explanation work limit. Simplify the "
    "command so its complete syntax can be inspected before execution.";

constexpr std::string_view kOperatorCliMessage =
    "exec cannot run operator commands that answer approvals or change exec policy (clawexec approvals, "
    "clawexec exec-policy, clawexec config set, clawexec doctor --fix). Show the command to the user so "
    "they can run it in their own terminal; approvals and policy changes must come from a human.";

void expect_rejected(std::string_view command, std::string_view message) {
  Result<void> result = check_control_commands(command);
  ASSERT_FALSE(result.ok()) << command;
  EXPECT_EQ(result.error().code, ErrorCode::kRejected) << command;
  EXPECT_EQ(result.error().message, message) << command;
}

UnsafeShellCommand kind(std::string_view command) { return detect_unsafe_shell_command(command); }

TEST(CheckControlCommands, Conformance29ApproveVariantsAreRejected) {
  for (std::string_view command :
       {"echo ok && /approve abc123 allow-once", "echo ok | /approve abc123 deny",
        "FOO=1 /approve abc123 allow-once", "env -i /approve abc123 deny",
        "env -S '/approve abc123 deny'", "command -p /approve abc123 deny",
        "exec -a openclaw /approve abc123 deny"}) {
    expect_rejected(command, kApproveMessage);
  }
}

TEST(CheckControlCommands, Conformance30ChannelLoginIsRejected) {
  expect_rejected("openclaw channels login", kChannelLoginMessage);
  expect_rejected("npx openclaw channels login --channel whatsapp", kChannelLoginMessage);
}

// bash reads one $'...' argument where dash reads "$", a quoted backslash and more commands.
TEST(CheckControlCommands, CommandsOnlyDashWouldRunAreCheckedToo) {
  expect_rejected("echo $'\\' ; /approve 1234 allow-once ; \\'x'", kApproveMessage);
  expect_rejected("true $'\\' ; clawexec approvals resolve abcd allow-once ; \\'x'", kOperatorCliMessage);
  expect_rejected("true \"$'\" ; /approve 1234 deny", kApproveMessage);
  EXPECT_TRUE(check_control_commands("echo $'a\\'b'").ok());
}

TEST(CheckControlCommands, ShellWrapperPayloadsAreCheckedRecursively) {
  expect_rejected("bash -c '/approve abc deny'", kApproveMessage);
  expect_rejected("sh -lc \"echo hi; /approve abc always\"", kApproveMessage);
  expect_rejected("timeout 5 bash -c 'bash -c \"/approve abc deny\"'", kApproveMessage);
  expect_rejected("env -S 'FOO=1 /approve abc deny'", kApproveMessage);
  expect_rejected("bash -c 'pnpm exec openclaw channel login'", kChannelLoginMessage);
}

TEST(CheckControlCommands, CommandsAnywhereInTheLineAreChecked) {
  for (std::string_view command :
       {"if true; then /approve abc deny; fi", "echo $(/approve abc deny)",
        "echo `/approve abc deny`", "f() { /approve abc deny; }", "(/approve abc deny)",
        "sudo -u root /approve abc deny", "builtin /approve abc deny",
        "command -- /approve abc deny", "  /approve abc deny"}) {
    expect_rejected(command, kApproveMessage);
  }
}

TEST(CheckControlCommands, ApprovePatternDetails) {
  for (std::string_view command : {"/APPROVE abc ALLOW-ALWAYS", "/approve@mybot abc deny",
                                   "/approve abc deny-all", "/approve a.b:c_d-1 allow-once",
                                   "/approve abc\xC2\xA0"
                                   "deny"}) {
    EXPECT_EQ(kind(command), UnsafeShellCommand::kApprove) << command;
  }
  for (std::string_view command :
       {"/approve abc allow-oncex", "/approve abc maybe", "/approve $ID deny", "/approve -abc deny",
        "/approve@ abc deny", "/approveabc deny", "/approve abc"}) {
    EXPECT_EQ(kind(command), UnsafeShellCommand::kNone) << command;
  }
}

TEST(CheckControlCommands, ChannelLoginRunnerForms) {
  for (std::string_view command :
       {"pnpm openclaw channels login", "pnpm exec openclaw channel login",
        "yarn dlx openclaw channels login", "npm run openclaw channels login",
        "bunx -p openclaw openclaw channels login", "npx --yes -- openclaw channels login",
        "OPENCLAW.EXE channels login", "/usr/local/bin/openclaw.cmd channel login",
        "echo start\nopenclaw channels login"}) {
    EXPECT_EQ(kind(command), UnsafeShellCommand::kChannelLogin) << command;
  }
  for (std::string_view command :
       {"openclaw channels list", "openclaw channels Login", "openclaw login channels",
        "openclaw channels", "npx openclaw@latest channels login", "node openclaw channels login",
        R"('C:\tools\openclaw.exe' channels login)"}) {
    EXPECT_EQ(kind(command), UnsafeShellCommand::kNone) << command;
  }
}

TEST(CheckControlCommands, MentionsThatDoNotRunAreAllowed) {
  for (std::string_view command :
       {R"(echo "/approve abc allow-once")", "ls /approve", "cat /approve abc deny",
        "echo '/approve abc deny' | cat", "git commit -m '/approve abc deny'",
        "# /approve abc deny", "cat <<EOF\n/approve abc deny\nEOF", "command -v /approve abc deny",
        "sudo -l /approve abc deny", "$CMD /approve abc deny", "nohup /approve abc deny",
        "xargs /approve abc deny", "echo 'openclaw channels login'"}) {
    EXPECT_TRUE(check_control_commands(command).ok()) << command;
  }
}

TEST(CheckControlCommands, DynamicWrapperPayloadsAreNotParsed) {
  // As in the reference: a payload containing expansions is only split into words, so a
  // second command in it is not found.
  EXPECT_TRUE(check_control_commands(R"(bash -c "echo $x; /approve abc deny")").ok());
}

TEST(CheckControlCommands, UnparseableLinesAreCheckedLineByLine) {
  expect_rejected("/approve abc deny 'unterminated", kApproveMessage);
  expect_rejected("echo 'open\n/approve abc deny", kApproveMessage);
  EXPECT_TRUE(check_control_commands("echo 'open' && echo x 'y\n").ok());
}

TEST(CheckControlCommands, BashSyntaxTreeSitterRejectsIsStillCheckedWhole) {
  // The reference falls back to line starts here and misses the second command; bash runs it.
  EXPECT_EQ(kind("cat <<EOF; /approve abc deny\nbody\nEOF"), UnsafeShellCommand::kApprove);
}

TEST(CheckControlCommands, TheFirstMatchingCandidateDecidesTheMessage) {
  expect_rejected("openclaw channels login; /approve abc deny", kChannelLoginMessage);
  expect_rejected("/approve abc deny; openclaw channels login", kApproveMessage);
  // Top-level commands are considered before nested ones.
  expect_rejected("echo $(/approve abc deny); openclaw channels login", kChannelLoginMessage);
}

TEST(CheckControlCommands, RejectsCommandsBeyondTheWorkLimit) {
  std::string line = "echo";
  for (int i = 0; i < 50000; ++i) line += " a";
  expect_rejected(line, kWorkLimitMessage);
  std::string ok_line = "echo";
  for (int i = 0; i < 49990; ++i) ok_line += " a";
  EXPECT_TRUE(check_control_commands(ok_line).ok());
}

TEST(CheckControlCommands, RejectsNestingBeyondWhatTheParserFollows) {
  std::string deep;
  for (int i = 0; i < 300; ++i) deep += "echo $(";
  for (int i = 0; i < 300; ++i) deep += ")";
  expect_rejected(deep, kWorkLimitMessage);
}

TEST(CheckControlCommands, TheOperatorCliIsRefused) {
  for (std::string_view command :
       {"clawexec approvals resolve ab12cd34 allow-once", "clawexec approvals say '/approve ab12cd34 allow-once'",
        "clawexec approvals allowlist add /usr/bin/rm", "clawexec approvals set --stdin < doc.json",
        "clawexec approvals pending", "clawexec exec-policy preset yolo", "clawexec exec-policy set --security full",
        "clawexec config set tools.exec.security full", "clawexec doctor --fix", "clawexec --verbose approvals get",
        "openclaw approvals allowlist add '*'", "openclaw config unset tools.exec.ask",
        "npx openclaw exec-policy preset yolo", "CLAWEXEC.EXE approvals resolve x deny"}) {
    expect_rejected(command, kOperatorCliMessage);
  }
}

TEST(CheckControlCommands, TheOperatorCliIsRefusedBehindWrappersPathsAndQuotes) {
  for (std::string_view command :
       {"/opt/clawexec/bin/clawexec approvals resolve ab12 allow-once", "./clawexec approvals resolve ab12 deny",
        "sh -c 'clawexec approvals resolve ab12 allow-once'", "bash -lc \"echo; clawexec approvals say x\"",
        "env clawexec approvals resolve ab12 allow-once", "env -i PATH=/usr/bin clawexec approvals pending",
        "command clawexec approvals resolve ab12 deny", "exec clawexec exec-policy preset yolo",
        "sudo -u me clawexec approvals resolve ab12 deny", "FOO=1 clawexec approvals resolve ab12 deny",
        "'clawexec' appro\"vals\" resolve ab12 allow-once", "c\\lawexec approvals resolve ab12 allow-once",
        "echo ok && clawexec approvals resolve ab12 allow-once", "true | clawexec approvals resolve ab12 deny",
        "echo $(clawexec approvals resolve ab12 allow-once)", "timeout 5 sh -c 'clawexec approvals pending'",
        "env -S 'clawexec approvals resolve ab12 deny'"}) {
    expect_rejected(command, kOperatorCliMessage);
  }
}

TEST(CheckControlCommands, OtherClawexecAndOpenclawCommandsPass) {
  for (std::string_view command :
       {"clawexec --version", "clawexec policy explain -- ls", "clawexec security audit", "clawexec doctor",
        "clawexec doctor --json", "openclaw config get tools.exec", "clawexec serve", "echo clawexec approvals resolve",
        "grep approvals clawexec.log", "clawexec exec -- ls"}) {
    EXPECT_TRUE(check_control_commands(command).ok()) << command;
  }
}

TEST(CheckControlCommands, OrdinaryCommandsPass) {
  for (std::string_view command :
       {"git status", "npm install && npm test -- --watch=false",
        "find . -name '*.py' | xargs grep -l 'import os'",
        "cat > /tmp/c.json <<'EOF'\n{\"a\": 1}\nEOF", "for f in *.log; do gzip \"$f\"; done",
        "sqlite3 ~/.openclaw/state.db .tables", ""}) {
    EXPECT_TRUE(check_control_commands(command).ok()) << command;
  }
}

TEST(DetectUnsafeShellCommand, SurvivesArbitraryInput) {
  // Deterministic pseudo-random lines built from shell syntax; every one must get a verdict.
  const std::string alphabet = "ab $(){}[]<>|&;'\"`\\\n\t#=!*?~-/.:%";
  const char* pieces[] = {"if ",
                          "then ",
                          "fi",
                          "done",
                          "case ",
                          "esac",
                          "<<EOF\n",
                          "EOF",
                          "$((",
                          "))",
                          "${",
                          "bash -c '",
                          "/approve x deny",
                          "sqlite3 ~/.openclaw/x",
                          "\xff"};
  StateDbContext ctx{"/home/u/.openclaw", "/home/u", "/wd", nullptr};
  uint32_t state = 12345;
  auto next = [&state] { return state = state * 1103515245u + 12345u; };
  for (int i = 0; i < 3000; ++i) {
    std::string line;
    for (uint32_t n = next() % 60; n > 0; --n) {
      line += (next() >> 8) % 4 == 0 ? std::string(pieces[(next() >> 8) % std::size(pieces)])
                                     : std::string(1, alphabet[(next() >> 8) % alphabet.size()]);
    }
    UnsafeShellCommand verdict = detect_unsafe_shell_command(line, &ctx);
    EXPECT_LE(static_cast<int>(verdict), static_cast<int>(UnsafeShellCommand::kIncompleteAnalysis));
  }
}

// The exec pipeline analyses a line once for both guards: the verdicts must be the ones the
// separate checks give, for every kind of line.
TEST(CommandGuards, OneAnalysisGivesTheSeparateChecksVerdicts) {
  StateDbContext ctx{"/home/u/.openclaw", "/home/u", "/wd", nullptr};
  const std::string deep = std::string(3000, '(') + "true" + std::string(3000, ')');
  for (std::string_view command : std::vector<std::string_view>{"true", "echo hi | wc -c", "/approve abc allow-once", "bash -c '/approve abc deny'",
        "openclaw channels login", "clawexec approvals set x", "sqlite3 ~/.openclaw/state.db .dump",
        "sqlite3 /tmp/other.db", "env FOO=1 sqlite3 $OPENCLAW_STATE_DIR/x.db", "echo 'unterminated",
        "if then fi\n/approve a deny", deep}) {
    CommandGuards guards(command);
    Result<void> control = guards.check_control_commands();
    Result<void> separate_control = check_control_commands(command);
    ASSERT_EQ(control.ok(), separate_control.ok()) << command;
    if (!control.ok()) {
      EXPECT_EQ(control.error().message, separate_control.error().message) << command;
    }
    Result<void> db = guards.check_state_db_access(ctx);
    Result<void> separate_db = check_state_db_access(command, ctx);
    ASSERT_EQ(db.ok(), separate_db.ok()) << command;
    if (!db.ok()) {
      EXPECT_EQ(db.error().message, separate_db.error().message) << command;
    }
  }
  EXPECT_FALSE(CommandGuards("sqlite3 ~/.openclaw/state.db").check_state_db_access(ctx).ok());
  EXPECT_FALSE(CommandGuards("/approve abc allow-once").check_control_commands().ok());
}

}  // namespace
}  // namespace clawexec::shell
