#include "policy/approve_command.h"

#include <gtest/gtest.h>

namespace clawexec::policy {
namespace {

ApproveRequest request_of(std::string_view text) {
  ApproveParse p = parse_approve_command(text);
  EXPECT_EQ(p.kind, ApproveParseKind::kRequest) << text << " -> " << p.reply;
  return p.request;
}

std::string reply_of(std::string_view text) {
  ApproveParse p = parse_approve_command(text);
  EXPECT_EQ(p.kind, ApproveParseKind::kReply) << text;
  return p.reply;
}

TEST(ParseApproveCommand, IdThenDecision) {
  ApproveRequest r = request_of("/approve abc12345 allow-once");
  EXPECT_EQ(r.id, "abc12345");
  EXPECT_EQ(r.decision, ApprovalDecision::kAllowOnce);
}

TEST(ParseApproveCommand, SlashIsOptionalAndCaseIgnored) {
  EXPECT_EQ(request_of("approve abc deny").decision, ApprovalDecision::kDeny);
  EXPECT_EQ(request_of("  /APPROVE abc Always  ").decision, ApprovalDecision::kAllowAlways);
  EXPECT_EQ(request_of("/Approve\tabc\nallow").id, "abc");
}

TEST(ParseApproveCommand, DecisionFirstTakesTheRestAsTheId) {
  ApproveRequest r = request_of("/approve deny abc 123");
  EXPECT_EQ(r.decision, ApprovalDecision::kDeny);
  EXPECT_EQ(r.id, "abc 123");
  // A decision alias in first position wins even when the second token is one too.
  ApproveRequest both = request_of("/approve once always");
  EXPECT_EQ(both.decision, ApprovalDecision::kAllowOnce);
  EXPECT_EQ(both.id, "always");
}

TEST(ParseApproveCommand, EveryAlias) {
  struct Case {
    const char* alias;
    ApprovalDecision decision;
  };
  for (const Case& c : {Case{"allow", ApprovalDecision::kAllowOnce}, Case{"once", ApprovalDecision::kAllowOnce},
                        Case{"allow-once", ApprovalDecision::kAllowOnce}, Case{"allowonce", ApprovalDecision::kAllowOnce},
                        Case{"always", ApprovalDecision::kAllowAlways},
                        Case{"allow-always", ApprovalDecision::kAllowAlways},
                        Case{"allowalways", ApprovalDecision::kAllowAlways}, Case{"deny", ApprovalDecision::kDeny},
                        Case{"reject", ApprovalDecision::kDeny}, Case{"BLOCK", ApprovalDecision::kDeny}}) {
    EXPECT_EQ(request_of(std::string("/approve id1 ") + c.alias).decision, c.decision) << c.alias;
    EXPECT_EQ(approve_decision_alias(c.alias), c.decision) << c.alias;
  }
  EXPECT_FALSE(approve_decision_alias("yes"));
  EXPECT_FALSE(approve_decision_alias("allow_once"));
  // toLowerCase maps KELVIN SIGN to 'k'.
  EXPECT_EQ(approve_decision_alias("bloc\u212A"), ApprovalDecision::kDeny);
}

TEST(ParseApproveCommand, UsageForMissingOrUnreadableArguments) {
  for (const char* text : {"/approve", "/approve   ", "/approve abc", "/approve abc maybe", "approve x y z"}) {
    EXPECT_EQ(reply_of(text), kApproveUsageText) << text;
  }
  EXPECT_EQ(std::string(kApproveUsageText),
            "Usage: /approve <id> <decision> (see the pending approval message for available decisions)");
}

TEST(ParseApproveCommand, MentionOfAnotherBot) {
  EXPECT_EQ(reply_of("/approve@other_bot abc allow-once"), "❌ This /approve command targets a different Telegram bot.");
  EXPECT_EQ(reply_of("/APPROVE@x"), kApproveForeignBotText);
}

TEST(ParseApproveCommand, NotAnApproveCommand) {
  for (const char* text : {"", "hello", "/approved abc deny", "approveabc deny", "please /approve abc deny",
                           "//approve abc deny", "/approve@ abc deny"}) {
    EXPECT_EQ(parse_approve_command(text).kind, ApproveParseKind::kNotApprove) << text;
  }
}

TEST(ApproveReplies, ExactTexts) {
  EXPECT_EQ(approve_success_reply(ApprovalDecision::kAllowAlways, "abc12345"),
            "✅ Approval allow-always submitted for abc12345.");
  EXPECT_EQ(approve_failure_reply("allow-always is unavailable for this command"),
            "❌ Failed to submit approval: allow-always is unavailable for this command");
}

TEST(IsApprovalNotFoundError, ByCodeOrLegacyMessage) {
  EXPECT_TRUE(is_approval_not_found_error(Error{ErrorCode::kNotFound, 0, "whatever"}));
  EXPECT_TRUE(is_approval_not_found_error(Error::invalid("Unknown or expired approval id")));
  EXPECT_TRUE(is_approval_not_found_error(Error::internal("gateway: approval expired or not found.")));
  EXPECT_FALSE(is_approval_not_found_error(Error::invalid("ambiguous approval id prefix; use the full id")));
  EXPECT_FALSE(is_approval_not_found_error(Error::invalid("xunknown or expired approval id")));
}

struct FakeResolver {
  std::vector<ApproveRequest> calls;
  std::optional<Error> error;
  ApprovalResolver fn() {
    return [this](const ApproveRequest& r) -> Result<void> {
      calls.push_back(r);
      if (error) return *error;
      return {};
    };
  }
};

TEST(HandleApproveCommand, SuccessStopsAtTheFirstResolver) {
  FakeResolver exec, plugin;
  auto reply = handle_approve_command("/approve always abc12345", {exec.fn(), plugin.fn()});
  ASSERT_TRUE(reply);
  EXPECT_EQ(*reply, "✅ Approval allow-always submitted for abc12345.");
  ASSERT_EQ(exec.calls.size(), 1u);
  EXPECT_EQ(exec.calls[0].id, "abc12345");
  EXPECT_TRUE(plugin.calls.empty());
}

TEST(HandleApproveCommand, NotFoundFallsThroughToTheNextKind) {
  FakeResolver exec, plugin;
  exec.error = Error{ErrorCode::kNotFound, 0, "unknown or expired approval id"};
  auto reply = handle_approve_command("/approve abc deny", {exec.fn(), plugin.fn()});
  EXPECT_EQ(*reply, "✅ Approval deny submitted for abc.");
  EXPECT_EQ(exec.calls.size(), 1u);
  EXPECT_EQ(plugin.calls.size(), 1u);
}

TEST(HandleApproveCommand, OtherErrorsStopImmediately) {
  FakeResolver exec, plugin;
  exec.error = Error::rejected("allow-always is unavailable for this command");
  auto reply = handle_approve_command("/approve abc always", {exec.fn(), plugin.fn()});
  EXPECT_EQ(*reply, "❌ Failed to submit approval: allow-always is unavailable for this command");
  EXPECT_TRUE(plugin.calls.empty());
}

TEST(HandleApproveCommand, MalformedAndForeignTextsNeverReachResolvers) {
  FakeResolver exec;
  EXPECT_EQ(*handle_approve_command("/approve abc", {exec.fn()}), kApproveUsageText);
  EXPECT_FALSE(handle_approve_command("run the tests", {exec.fn()}));
  EXPECT_TRUE(exec.calls.empty());
  EXPECT_EQ(*handle_approve_command("/approve abc deny", {}), "❌ Failed to submit approval: unknown or expired approval id");
}

}  // namespace
}  // namespace clawexec::policy
