#include "policy/approval_text.h"

#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "policy/decide.h"

namespace clawexec::policy {
namespace {

const std::vector<ApprovalDecision> kAll = {ApprovalDecision::kAllowOnce, ApprovalDecision::kAllowAlways,
                                            ApprovalDecision::kDeny};
const std::vector<ApprovalDecision> kNoAlways = {ApprovalDecision::kAllowOnce, ApprovalDecision::kDeny};

ApprovalPendingInputs gateway_inputs() {
  ApprovalPendingInputs in;
  in.approval_id = "3f2a9c1e-7b4d-4e8a-9c0f-112233445566";
  in.approval_slug = "3f2a9c1e";
  in.expires_at_ms = 1'700'001'800'000;
  in.allowed_decisions = kAll;
  in.host = ExecHost::kGateway;
  in.command = "rm -rf build";
  in.cwd = "/work/project";
  return in;
}

TEST(FencedCodeBlock, FenceIsOneLongerThanTheLongestBacktickRunAndAtLeastThree) {
  EXPECT_EQ(fenced_code_block("ls", "sh"), "```sh\nls\n```");
  EXPECT_EQ(fenced_code_block("echo `date`", "sh"), "```sh\necho `date`\n```");
  EXPECT_EQ(fenced_code_block("a ``` b", "sh"), "````sh\na ``` b\n````");
  EXPECT_EQ(fenced_code_block("x ````` y `` z", ""), "``````\nx ````` y `` z\n``````");
}

TEST(ApprovalPendingText, GatewayWithAllDecisions) {
  EXPECT_EQ(approval_pending_text(gateway_inputs()),
            "Approval required (id 3f2a9c1e, full 3f2a9c1e-7b4d-4e8a-9c0f-112233445566).\n"
            "Host: gateway\n"
            "CWD: /work/project\n"
            "Command:\n"
            "```sh\n"
            "rm -rf build\n"
            "```\n"
            "Mode: foreground (interactive approvals available).\n"
            "Background mode requires pre-approved policy (allow-always or ask=off).\n"
            "Reply with: /approve 3f2a9c1e allow-once|allow-always|deny\n"
            "If the short code is ambiguous, use the full id in /approve.");
}

TEST(ApprovalPendingText, NodeWithoutAllowAlwaysAndWithWarnings) {
  ApprovalPendingInputs in = gateway_inputs();
  in.host = ExecHost::kNode;
  in.node_id = "mac-mini";
  in.cwd = std::nullopt;
  in.allowed_decisions = kNoAlways;
  in.warnings = {"Warning: one", "Warning: two"};
  EXPECT_EQ(approval_pending_text(in),
            "Warning: one\nWarning: two\n"
            "\n"
            "Approval required (id 3f2a9c1e, full 3f2a9c1e-7b4d-4e8a-9c0f-112233445566).\n"
            "Host: node\n"
            "Node: mac-mini\n"
            "CWD: (node default)\n"
            "Command:\n"
            "```sh\n"
            "rm -rf build\n"
            "```\n"
            "Mode: foreground (interactive approvals available).\n"
            "Background mode requires an effective policy that allows pre-approval (for example ask=off).\n"
            "Reply with: /approve 3f2a9c1e allow-once|deny\n"
            "Allow Always is unavailable for this command.\n"
            "If the short code is ambiguous, use the full id in /approve.");
}

TEST(ApprovalPendingText, NoBackgroundLineWithoutContinuation) {
  ApprovalPendingInputs in = gateway_inputs();
  in.continuation = ProcessContinuation::kUnavailable;
  std::string text = approval_pending_text(in);
  EXPECT_EQ(text.find("Background mode"), std::string::npos);
  EXPECT_NE(text.find("Mode: foreground (interactive approvals available).\nReply with: /approve 3f2a9c1e "),
            std::string::npos);
}

TEST(ApprovalPendingText, BlankWarningsAddNoWarningBlockButCommandFenceAdapts) {
  ApprovalPendingInputs in = gateway_inputs();
  in.warnings = {"  ", ""};
  in.command = "echo ```` done";
  std::string text = approval_pending_text(in);
  EXPECT_EQ(text.rfind("Approval required (id ", 0), 0u);
  EXPECT_NE(text.find("Command:\n`````sh\necho ```` done\n`````\nMode:"), std::string::npos);
}

TEST(ApprovalPendingDetails, CarriesTheRequestFields) {
  ApprovalPendingInputs in = gateway_inputs();
  in.warnings = {"Warning: w"};
  boost::json::object d = approval_pending_details(in);
  boost::json::object expected = {
      {"status", "approval-pending"},
      {"approvalId", "3f2a9c1e-7b4d-4e8a-9c0f-112233445566"},
      {"approvalSlug", "3f2a9c1e"},
      {"expiresAtMs", 1'700'001'800'000},
      {"allowedDecisions", boost::json::array{"allow-once", "allow-always", "deny"}},
      {"host", "gateway"},
      {"command", "rm -rf build"},
      {"cwd", "/work/project"},
      {"warningText", "Warning: w\n\n"},
  };
  EXPECT_EQ(d, expected) << boost::json::serialize(d);
}

TEST(ApprovalPendingDetails, NodeIdPresentCwdAbsentAndEmptyWarningText) {
  ApprovalPendingInputs in = gateway_inputs();
  in.host = ExecHost::kNode;
  in.node_id = "n1";
  in.cwd = std::nullopt;
  in.allowed_decisions = kNoAlways;
  ApprovalToolResult r = approval_pending_result(in);
  EXPECT_EQ(r.details.at("nodeId"), "n1");
  EXPECT_EQ(r.details.at("host"), "node");
  EXPECT_FALSE(r.details.contains("cwd"));
  EXPECT_EQ(r.details.at("warningText"), "");
  EXPECT_EQ(r.details.at("allowedDecisions"), (boost::json::array{"allow-once", "deny"}));
  EXPECT_EQ(r.text, approval_pending_text(in));
}

TEST(ExecDeniedText, WithAndWithoutApprovalId) {
  EXPECT_EQ(exec_denied_text(std::string("abc-123"), "user-denied", "rm -rf /"),
            "Exec denied (gateway id=abc-123, user-denied): rm -rf /");
  EXPECT_EQ(exec_denied_text(std::nullopt, "approval_required", "ls"), "Exec denied (approval_required): ls");
  EXPECT_EQ(exec_denied_text(std::string(""), "allowlist-miss", "ls"), "Exec denied (allowlist-miss): ls");
}

TEST(NodeExecTexts, NameTheNodeAndTheApproval) {
  EXPECT_EQ(node_exec_denied_text("n1", "a1", "user-denied", "/bin/sh -lc \"id\""),
            "Exec denied (node=n1 id=a1, user-denied): /bin/sh -lc \"id\"");
  EXPECT_EQ(node_exec_finished_text("n1", "a1", RunTimedOut::kNo, 3, "  out\n\n err \n"), "Exec finished (node=n1 id=a1, code 3)\nout err");
  EXPECT_EQ(node_exec_finished_text("n1", "a1", RunTimedOut::kYes, 124, ""), "Exec finished (node=n1 id=a1, timeout)");
}

TEST(ExecDeniedResult, DetailsAreAFailedZeroDurationResult) {
  ApprovalToolResult r = exec_denied_result(std::string("id1"), "approval-timeout: allowlist-miss", "make", "/w");
  EXPECT_EQ(r.text, "Exec denied (gateway id=id1, approval-timeout: allowlist-miss): make");
  boost::json::object expected = {
      {"status", "failed"}, {"exitCode", nullptr}, {"durationMs", 0}, {"aggregated", r.text},
      {"timedOut", true},   {"cwd", "/w"},
  };
  EXPECT_EQ(r.details, expected) << boost::json::serialize(r.details);
  ApprovalToolResult denied = exec_denied_result(std::string("id1"), "user-denied", "make", std::nullopt);
  EXPECT_EQ(denied.details.at("timedOut"), false);
  // A dismissed prompt (elicitation `cancel`) is no answer, but nothing timed out.
  ApprovalToolResult cancelled = exec_denied_result(std::string("id1"), "approval-cancelled: allowlist-miss", "make", std::nullopt);
  EXPECT_EQ(cancelled.text, "Exec denied (gateway id=id1, approval-cancelled: allowlist-miss): make");
  EXPECT_EQ(cancelled.details.at("timedOut"), false);
  EXPECT_FALSE(denied.details.contains("cwd"));
}

TEST(CompactOutputTail, TakesTheTailThenCollapsesAndTrims) {
  EXPECT_EQ(compact_output_tail("  hello \n\n world\t\t!  \n"), "hello world !");
  EXPECT_EQ(compact_output_tail(" \n\t "), "");
  EXPECT_EQ(compact_output_tail(""), "");
  // The 400-unit window is taken before collapsing: 500 spaces of padding fall outside it.
  std::string out = "start" + std::string(500, ' ') + std::string(390, 'x') + "\n\n\n\n\nend";
  std::string expected = std::string(390, 'x') + " end";
  EXPECT_EQ(compact_output_tail(out), expected);
  // Non-breaking space and U+2028 count as JavaScript white space.
  EXPECT_EQ(compact_output_tail("a\u00a0\u00a0b\u2028c"), "a b c");
}

TEST(CompactOutputTail, CountsUtf16Units) {
  // 200 emoji are 400 UTF-16 units: a leading "A" falls outside the window.
  std::string emoji;
  for (int i = 0; i < 200; ++i) emoji += "\U0001F600";
  EXPECT_EQ(compact_output_tail("A" + emoji), emoji);
  EXPECT_EQ(compact_output_tail("AB" + emoji, 401), "B" + emoji);
}

TEST(ExecFinishedText, LabelAndOutput) {
  EXPECT_EQ(exec_finished_text("id1", "warm-river", RunTimedOut::kNo, 0, "done\n"),
            "Exec finished (gateway id=id1, session=warm-river, code 0)\ndone");
  EXPECT_EQ(exec_finished_text("id1", "s", RunTimedOut::kNo, 2, ""), "Exec finished (gateway id=id1, session=s, code 2)");
  EXPECT_EQ(exec_finished_text("id1", "s", RunTimedOut::kNo, std::nullopt, "  \n "),
            "Exec finished (gateway id=id1, session=s, code ?)");
  EXPECT_EQ(exec_finished_text("id1", "s", RunTimedOut::kYes, 137, "partial"),
            "Exec finished (gateway id=id1, session=s, timeout)\npartial");
  EXPECT_EQ(exec_exit_label(false, -1), "code -1");
}

TEST(ExecRunningText, Format) {
  EXPECT_EQ(exec_running_text("id1", "calm-bay", 10, "sleep 60"),
            "Exec running (gateway id=id1, session=calm-bay, >10s): sleep 60");
}

TEST(ApprovalRunningNoticeSeconds, RoundsHalfUpWithAFloorOfOne) {
  EXPECT_EQ(approval_running_notice_seconds(10'000), 10);
  EXPECT_EQ(approval_running_notice_seconds(1'499), 1);
  EXPECT_EQ(approval_running_notice_seconds(1'500), 2);
  EXPECT_EQ(approval_running_notice_seconds(2'499), 2);
  EXPECT_EQ(approval_running_notice_seconds(200), 1);
  EXPECT_EQ(approval_running_notice_seconds(0), 1);
}

TEST(DenialSummary, MatchesMetadataBySubstringInPriorityOrder) {
  EXPECT_EQ(denial_summary("gateway id=abc, approval-timeout"), "Command did not run: approval timed out.");
  EXPECT_EQ(denial_summary("gateway id=abc, approval-timeout: allowlist-miss"),
            "Command did not run: approval timed out.");
  EXPECT_EQ(denial_summary("gateway id=abc, approval-cancelled: allowlist-miss"),
            "Command did not run: the approval prompt was dismissed without an answer.");
  EXPECT_EQ(denial_summary("gateway id=abc, USER-DENIED"), "Command did not run: approval was denied.");
  EXPECT_EQ(denial_summary("gateway id=abc, allowlist-miss"), "Command did not run: approval is required.");
  EXPECT_EQ(denial_summary("node=n1 id=x, approval-request-failed"), "Command did not run: approval request failed.");
  EXPECT_EQ(denial_summary("gateway id=abc, spawn-failed"), "Command did not run.");
  EXPECT_EQ(denial_summary(""), "Command did not run.");
}

TEST(AskFallback, ACancelledPromptIsNoAnswerWithItsOwnReason) {
  Decision d;  // an allowlist miss: nothing analysed, no rendering
  DecisionInputs in;
  in.command = "make";
  in.security = ExecSecurity::kAllowlist;
  in.ask = ExecAsk::kOnMiss;
  in.ask_fallback = ExecSecurity::kDeny;
  EXPECT_EQ(resolve_ask_fallback(d, in).reason, "approval-timeout");
  EXPECT_EQ(resolve_ask_fallback(d, in, NoAnswer::kTimedOut).reason, "approval-timeout");
  EXPECT_EQ(resolve_ask_fallback(d, in, NoAnswer::kCancelled).reason, "approval-cancelled");
  in.ask_fallback = ExecSecurity::kAllowlist;
  EXPECT_EQ(resolve_ask_fallback(d, in, NoAnswer::kCancelled).reason, "approval-cancelled: allowlist-miss");
  EXPECT_FALSE(resolve_ask_fallback(d, in, NoAnswer::kCancelled).approved);
  in.security = ExecSecurity::kFull;
  in.ask_fallback = ExecSecurity::kFull;
  FallbackOutcome full = resolve_ask_fallback(d, in, NoAnswer::kCancelled);
  EXPECT_TRUE(full.approved);  // askFallback=full still runs a cancelled one
  EXPECT_EQ(full.command_to_run, "make");
}

}  // namespace
}  // namespace clawexec::policy
