#include "config/exec_modes.h"

#include <gtest/gtest.h>

namespace clawexec::config {
namespace {

TEST(ExecModeTable, EachModeNamesItsSecurityAskAndReview) {
  EXPECT_EQ(resolve_exec_policy_for_mode(ExecMode::kDeny), (ModePolicy{ExecSecurity::kDeny, ExecAsk::kOff, false}));
  EXPECT_EQ(resolve_exec_policy_for_mode(ExecMode::kAllowlist),
            (ModePolicy{ExecSecurity::kAllowlist, ExecAsk::kOff, false}));
  EXPECT_EQ(resolve_exec_policy_for_mode(ExecMode::kAsk),
            (ModePolicy{ExecSecurity::kAllowlist, ExecAsk::kOnMiss, false}));
  EXPECT_EQ(resolve_exec_policy_for_mode(ExecMode::kAuto),
            (ModePolicy{ExecSecurity::kAllowlist, ExecAsk::kOnMiss, true}));
  EXPECT_EQ(resolve_exec_policy_for_mode(ExecMode::kFull), (ModePolicy{ExecSecurity::kFull, ExecAsk::kOff, false}));
}

TEST(ExecPolicyLayering, AModeLayerReplacesEverythingFromTheTable) {
  LayeredExecPolicy base{std::nullopt, ExecSecurity::kFull, ExecAsk::kAlways, false};
  LayeredExecPolicy out = apply_exec_policy_layer(base, {ExecMode::kAuto, ExecSecurity::kDeny, std::nullopt});
  EXPECT_EQ(out.mode, ExecMode::kAuto);
  EXPECT_EQ(out.security, ExecSecurity::kAllowlist);  // the mode wins over a security beside it
  EXPECT_EQ(out.ask, ExecAsk::kOnMiss);
  EXPECT_TRUE(out.auto_review);
}

TEST(ExecPolicyLayering, AFieldLayerDropsTheModeAndKeepsWhatItDoesNotName) {
  LayeredExecPolicy base = apply_exec_policy_layer({}, {ExecMode::kAuto, std::nullopt, std::nullopt});
  LayeredExecPolicy out = apply_exec_policy_layer(base, {std::nullopt, std::nullopt, ExecAsk::kAlways});
  EXPECT_EQ(out.mode, std::nullopt);
  EXPECT_EQ(out.security, ExecSecurity::kAllowlist);
  EXPECT_EQ(out.ask, ExecAsk::kAlways);
  EXPECT_TRUE(out.auto_review);
}

TEST(ExecPolicyLayering, AnEmptyLayerChangesNothingAndUnsetStaysUnset) {
  LayeredExecPolicy out = apply_exec_policy_layer({}, {});
  EXPECT_EQ(out.mode, std::nullopt);
  EXPECT_EQ(out.security, std::nullopt);
  EXPECT_EQ(out.ask, std::nullopt);
  out = apply_exec_policy_layer(out, {std::nullopt, ExecSecurity::kDeny, std::nullopt});
  EXPECT_EQ(out.security, ExecSecurity::kDeny);
  EXPECT_EQ(out.ask, std::nullopt);
}

}  // namespace
}  // namespace clawexec::config
