// Planner behaviour beyond the reference's cases: where we deliberately refuse more.

#include "policy/plan.h"

#include <gtest/gtest.h>

namespace clawexec::policy {
namespace {

// The reference keeps a lone wrapper as an exact command when its *first* unanalyzable risk
// lies inside it; a redirect or background operator outside the wrapper must not ride along.
TEST(Plan, ExactWrapperFallbackRefusesRisksOutsideTheWrapper) {
  AuthorizationPlan redirected = plan_shell_authorization("sh -c 'echo $(id)' >> /tmp/x");
  EXPECT_FALSE(redirected.ok);
  EXPECT_EQ(redirected.reason, "command-substitution");
  AuthorizationPlan background = plan_shell_authorization("sh -c 'echo $(id)' &");
  EXPECT_FALSE(background.ok);
  AuthorizationPlan plain_background = plan_shell_authorization("sh -c 'id' &");
  EXPECT_FALSE(plain_background.ok);
  EXPECT_EQ(plain_background.reason, "background");
}

TEST(Plan, ExactWrapperFallbackStillCoversRisksInsideThePayload) {
  AuthorizationPlan plan = plan_shell_authorization("sh -c 'echo $(id)'");
  ASSERT_TRUE(plan.ok) << plan.reason;
  ASSERT_EQ(plan.candidate_count(), 1u);
  const Candidate& c = *plan.candidates()[0];
  EXPECT_EQ(c.trust_mode, TrustMode::kExactCommand);
  EXPECT_FALSE(c.shell_wrapper_transport);
  EXPECT_FALSE(c.allow_always);
}

TEST(Plan, PipelinesAndListsAreGroupedByOperator) {
  AuthorizationPlan plan = plan_shell_authorization("git status | head -n 2 && npm test; pwd");
  ASSERT_TRUE(plan.ok) << plan.reason;
  ASSERT_EQ(plan.groups.size(), 3u);
  EXPECT_EQ(plan.groups[0].candidates.size(), 2u);
  EXPECT_EQ(plan.groups[0].op_to_next, "&&");
  EXPECT_EQ(plan.groups[1].op_to_next, ";");
  EXPECT_EQ(plan.groups[2].op_to_next, "");
}

TEST(Plan, EveryUnsupportedConstructFailsTheWholePlan) {
  for (const char* command : {"ls > out", "cat <<EOF\nx\nEOF", "if true; then ls; fi", "(ls)", "{ ls; }",
                              "for f in a; do ls; done", "f() { ls; }", "ls \\\n -la", "echo ${HOME}",
                              "diff <(ls a) <(ls b)", "$CMD --help", "ls &", "(( 1 + 1 ))"}) {
    EXPECT_FALSE(plan_shell_authorization(command).ok) << command;
  }
}

}  // namespace
}  // namespace clawexec::policy
