// Every reference conformance case must be claimed: its fn is run by a conformance test
// (named here, and the test's source must mention the fn) or listed as inapplicable with a
// reason. A new fn in the case file, or a test that stops naming its fn, fails this test.

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "policy/conformance_cases.h"

namespace clawexec::policy {
namespace {

// fn -> the test source files that run its cases (a fn may be split between two: resolution
// and evaluation halves).
const std::multimap<std::string, std::string>& owning_tests() {
  static const std::multimap<std::string, std::string> table = {
      {"analyzeArgvCommand+resolveAllowAlwaysPatterns", "src/policy/evaluate_conformance_allow_always_test.cc"},
      {"applyExecPolicyLayer", "src/policy/modes_conformance_test.cc"},
      {"buildAuthorizedShellCommandFromPlan", "src/policy/evaluate_conformance_test.cc"},
      {"buildCommandPayloadCandidates", "src/policy/inline_eval_conformance_test.cc"},
      {"bypass", "src/policy/evaluate_conformance_allow_always_test.cc"},
      {"collectSecurityAuditFindings", "src/policy/audit_conformance_test.cc"},
      {"createExecTool().execute", "src/policy/evaluate_conformance_gateway_test.cc"},
      {"detectCarriedShellBuiltinArgv", "src/policy/inline_eval_conformance_test.cc"},
      {"detectCommandCarrierArgv", "src/policy/inline_eval_conformance_test.cc"},
      {"detectInlineEvalArgv", "src/policy/inline_eval_conformance_test.cc"},
      {"detectInterpreterInlineEvalArgv", "src/policy/inline_eval_conformance_test.cc"},
      {"detectInterpreterInlineEvalArgv+describeInterpreterInlineEval", "src/policy/inline_eval_conformance_test.cc"},
      {"ensureExecApprovals", "src/approvals/approvals_conformance_test.cc"},
      {"evaluateExecAllowlist", "src/policy/evaluate_conformance_test.cc"},
      {"evaluateShellAllowlistWithAuthorization", "src/policy/evaluate_conformance_test.cc"},
      {"evaluateShellAllowlistWithAuthorization+resolveAllowAlwaysPersistenceDecision", "src/policy/evaluate_conformance_allow_always_test.cc"},
      {"explainShellCommand", "src/policy/explain_conformance_test.cc"},
      {"explainShellCommand+formatCommandSpans", "src/policy/explain_conformance_test.cc"},
      {"extractEnvAssignmentKeysFromDispatchWrappers", "src/policy/resolution_conformance_test.cc"},
      {"extractShellWrapperInlineCommand/extractShellWrapperCommand", "src/policy/resolution_conformance_test.cc"},
      {"getTrustedSafeBinDirs", "src/policy/safe_bins_conformance_test.cc"},
      {"handleApproveCommand", "src/policy/approve_command_conformance_test.cc"},
      {"hasDurableExecApproval", "src/policy/modes_conformance_test.cc"},
      {"hasEnvManipulationBeforeShellWrapper", "src/policy/resolution_conformance_test.cc"},
      {"isDispatchWrapperExecutable/isShellWrapperExecutable", "src/policy/resolution_conformance_test.cc"},
      {"isInterpreterLikeAllowlistPattern", "src/policy/inline_eval_conformance_test.cc"},
      {"isInterpreterLikeSafeBin", "src/policy/safe_bins_conformance_test.cc"},
      {"isSafeBinUsage", "src/policy/safe_bins_conformance_test.cc"},
      {"isSafeBuiltinSegment", "src/policy/evaluate_conformance_test.cc"},
      {"isSafeExecutableValue", "src/policy/resolution_conformance_test.cc"},
      {"isShellWrapperInvocation", "src/policy/resolution_conformance_test.cc"},
      {"isTrustedSafeBinPath", "src/policy/safe_bins_conformance_test.cc"},
      {"loadExecApprovals", "src/approvals/approvals_conformance_test.cc"},
      {"longFlagPrefixMap", "src/policy/safe_bins_conformance_test.cc"},
      {"matchAllowlist", "src/policy/allowlist_conformance_test.cc"},
      {"matchesExecAllowlistPattern", "src/policy/allowlist_conformance_test.cc"},
      {"maybeRepairExecSafeBinProfiles", "src/policy/audit_conformance_test.cc"},
      {"minSecurity", "src/policy/modes_conformance_test.cc"},
      {"normalizeExecApprovalUnavailableDecisions", "src/policy/modes_conformance_test.cc"},
      {"normalizeExecApprovals", "src/approvals/approvals_conformance_test.cc"},
      {"normalizeExecAsk", "src/policy/modes_conformance_test.cc"},
      {"normalizeExecHost", "src/policy/modes_conformance_test.cc"},
      {"normalizeExecMode", "src/policy/modes_conformance_test.cc"},
      {"normalizeExecTarget", "src/policy/modes_conformance_test.cc"},
      {"normalizeExecutableToken", "src/policy/resolution_conformance_test.cc"},
      {"parseExecArgvToken", "src/policy/safe_bins_conformance_test.cc"},
      {"planShellAuthorization", "src/policy/explain_conformance_test.cc"},
      {"processGatewayAllowlist", "src/policy/evaluate_conformance_gateway_test.cc"},
      {"readExecApprovalsSnapshot", "src/approvals/approvals_conformance_test.cc"},
      {"requireValidExecTarget", "src/policy/modes_conformance_test.cc"},
      {"requiresExecApproval", "src/policy/modes_conformance_test.cc"},
      {"resolveAllowAlwaysPatterns", "src/policy/evaluate_conformance_allow_always_test.cc"},
      {"resolveAllowAlwaysPersistenceDecision(patterns)", "src/policy/evaluate_conformance_allow_always_test.cc"},
      {"resolveCommandAnalysisSummaryForDisplay", "src/policy/evaluate_conformance_test.cc"},
      {"resolveCommandResolution", "src/policy/resolution_conformance_test.cc"},
      {"resolveCommandResolutionFromArgv", "src/policy/resolution_conformance_test.cc"},
      {"resolveCommandResolutionFromArgv+evaluateExecAllowlist", "src/policy/evaluate_conformance_test.cc"},
      {"resolveCommandResolutionFromArgv+evaluateExecAllowlist", "src/policy/resolution_conformance_test.cc"},
      {"resolveDispatchWrapperTrustPlan", "src/policy/resolution_conformance_test.cc"},
      {"resolveExecApprovalRequestAllowedDecisions", "src/policy/modes_conformance_test.cc"},
      {"resolveExecApprovalUnavailableDecisions", "src/policy/modes_conformance_test.cc"},
      {"resolveExecApprovalsFromFile", "src/approvals/approvals_conformance_test.cc"},
      {"resolveExecApprovalsPath/SocketPath/DisplayPath", "src/approvals/approvals_conformance_test.cc"},
      {"resolveExecDefaults", "src/approvals/approvals_conformance_test.cc"},
      {"resolveExecModeFromPolicy", "src/policy/modes_conformance_test.cc"},
      {"resolveExecPolicyForMode", "src/policy/modes_conformance_test.cc"},
      {"resolveExecPolicyScopeSnapshot", "src/approvals/approvals_conformance_test.cc"},
      {"resolveExecSafeBinRuntimePolicy", "src/policy/safe_bins_conformance_test.cc"},
      {"resolveExecWrapperTrustPlan", "src/policy/resolution_conformance_test.cc"},
      {"resolveExecutionTargetCandidatePath", "src/policy/resolution_conformance_test.cc"},
      {"resolveInlineCommandMatch(POSIX_INLINE_COMMAND_FLAGS)", "src/policy/resolution_conformance_test.cc"},
      {"resolveNodeExecEligibility", "src/approvals/approvals_conformance_test.cc"},
      {"resolvePowerShellInlineCommandMatch", "src/policy/resolution_conformance_test.cc"},
      {"resolveShellWrapperTransportArgv", "src/policy/resolution_conformance_test.cc"},
      {"scanExecSafeBinCoverage", "src/policy/audit_conformance_test.cc"},
      {"scanExecSafeBinTrustedDirHints+collectExecSafeBinTrustedDirHintWarnings", "src/policy/audit_conformance_test.cc"},
      {"unwrapEnvInvocation", "src/policy/resolution_conformance_test.cc"},
      {"unwrapKnownDispatchWrapperInvocation", "src/policy/resolution_conformance_test.cc"},
      {"unwrapKnownShellMultiplexerInvocation", "src/policy/resolution_conformance_test.cc"},
      {"validateSafeBinArgv", "src/policy/safe_bins_conformance_test.cc"},
  };
  return table;
}

// fn -> why none of its cases can apply to us.
const std::map<std::string, std::string>& inapplicable_fns() {
  static const std::map<std::string, std::string> table = {
      {"createModelExecAutoReviewer", "auto review (spec section 8) is outside issue 3"},
      {"createModelExecAutoReviewer(parse model text)", "auto review (spec section 8) is outside issue 3"},
      {"createModelExecAutoReviewer(pre-screen)", "auto review (spec section 8) is outside issue 3"},
      {"defaultExecAutoReviewer", "auto review (spec section 8) is outside issue 3"},
  };
  return table;
}

std::string read_source(const std::string& relative) {
  std::ifstream in(std::string(CLAWEXEC_SOURCE_DIR) + "/" + relative);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(ConformanceCoverage, EveryCaseFnIsOwnedOrInapplicable) {
  std::vector<boost::json::object> cases = testing::load_all_cases();
  ASSERT_EQ(cases.size(), 487u);
  std::set<std::string> fns;
  for (const boost::json::object& c : cases) {
    std::string fn(c.at("fn").as_string());
    fns.insert(fn);
    bool owned = owning_tests().count(fn) > 0;
    bool excused = inapplicable_fns().count(fn) > 0;
    EXPECT_TRUE(owned != excused) << testing::case_id(c) << ": fn " << fn
                                  << (owned ? " is both owned and inapplicable" : " is not claimed by any test");
  }
  // The table names nothing the case file lacks.
  for (const auto& [fn, file] : owning_tests()) EXPECT_TRUE(fns.count(fn)) << "stale entry " << fn;
  for (const auto& [fn, reason] : inapplicable_fns()) EXPECT_TRUE(fns.count(fn)) << "stale entry " << fn;
}

TEST(ConformanceCoverage, OwningTestsNameTheirFn) {
  std::map<std::string, std::string> sources;
  for (const auto& [fn, file] : owning_tests()) {
    if (!sources.count(file)) sources[file] = read_source(file);
    ASSERT_FALSE(sources[file].empty()) << "missing test source " << file;
    EXPECT_NE(sources[file].find("\"" + fn + "\""), std::string::npos) << file << " does not run " << fn;
  }
}

}  // namespace
}  // namespace clawexec::policy
