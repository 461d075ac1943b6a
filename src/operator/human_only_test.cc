// The humans-only refusal as an answer.

#include "operator/human_only.h"

#include <gtest/gtest.h>

namespace clawexec::operator_ops {
namespace {

TEST(HumanOnlyRefusal, NoSupervisionMeansNoRefusal) { EXPECT_FALSE(human_only_refusal(std::nullopt).has_value()); }

TEST(HumanOnlyRefusal, TheRefusalSaysWhyAndWhatToDo) {
  auto refusal = human_only_refusal("this process runs under a clawexec command (supervisor pid 42, /x/clawexec-shim)");
  ASSERT_TRUE(refusal.has_value());
  EXPECT_EQ(*refusal,
            "refusing to run: this process runs under a clawexec command (supervisor pid 42, /x/clawexec-shim); "
            "approvals and policy changes must come from a human. Show this command to the user so they can run it "
            "in their own terminal.");
}

}  // namespace
}  // namespace clawexec::operator_ops
