// Behaviour of the mode/effective-policy functions that the conformance cases do not cover.

#include "policy/modes.h"

#include <gtest/gtest.h>

#include "hash/sha256.h"

namespace clawexec::policy {
namespace {

namespace bj = boost::json;

TEST(ExecNormalize, TrimsAndLowercasesAndRejectsEverythingElse) {
  EXPECT_EQ(normalize_exec_host(" Gateway\t"), ExecHost::kGateway);
  EXPECT_EQ(normalize_exec_host("auto"), std::nullopt);
  EXPECT_EQ(normalize_exec_target("AUTO"), ExecHost::kAuto);
  EXPECT_EQ(normalize_exec_security(" FULL "), ExecSecurity::kFull);
  EXPECT_EQ(normalize_exec_mode("Auto"), ExecMode::kAuto);
  EXPECT_EQ(normalize_exec_ask(bj::value(3)), std::nullopt);
  EXPECT_EQ(exec_ask_from_literal("Always"), std::nullopt);  // file literals are case-sensitive
}

TEST(RequireValidExecTarget, ReportsTypeAndUnknownValuesWithTheReferenceMessages) {
  const bj::value number(5);
  auto r = require_valid_exec_target(&number);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "Invalid exec host value type number. Allowed values: auto, sandbox, gateway, node.");
  const bj::value unknown(" Cloud ");
  r = require_valid_exec_target(&unknown);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "Invalid exec host \" Cloud \". Allowed values: auto, sandbox, gateway, node.");
  const bj::value blank("  ");
  EXPECT_EQ(require_valid_exec_target(&blank).value(), std::nullopt);
  EXPECT_EQ(require_valid_exec_target(nullptr).value(), std::nullopt);
}

TEST(ExecLattice, MinSecurityAndMaxAskPickTheStricterSide) {
  EXPECT_EQ(min_security(ExecSecurity::kFull, ExecSecurity::kAllowlist), ExecSecurity::kAllowlist);
  EXPECT_EQ(min_security(ExecSecurity::kAllowlist, ExecSecurity::kDeny), ExecSecurity::kDeny);
  EXPECT_EQ(max_ask(ExecAsk::kOff, ExecAsk::kOnMiss), ExecAsk::kOnMiss);
  EXPECT_EQ(max_ask(ExecAsk::kAlways, ExecAsk::kOnMiss), ExecAsk::kAlways);
}

TEST(ExecModeFromPolicy, NeverReportsAutoAndTreatsFullAlwaysAsAsk) {
  EXPECT_EQ(resolve_exec_mode_from_policy(ExecSecurity::kAllowlist, ExecAsk::kOnMiss), ExecMode::kAsk);
  EXPECT_EQ(resolve_exec_mode_from_policy(ExecSecurity::kFull, ExecAsk::kAlways), ExecMode::kAsk);
  EXPECT_EQ(resolve_exec_mode_from_policy(ExecSecurity::kFull, ExecAsk::kOnMiss), ExecMode::kFull);
  EXPECT_EQ(resolve_exec_mode_from_policy(ExecSecurity::kDeny, ExecAsk::kAlways), ExecMode::kDeny);
  const auto derived = resolve_exec_mode_policy(std::nullopt, ExecSecurity::kAllowlist, ExecAsk::kOff);
  EXPECT_EQ(derived.mode, ExecMode::kAllowlist);
  EXPECT_FALSE(derived.auto_review);
}

TEST(ApplyExecPolicyLayer, ModeLayerReplacesAllThreeAndAskLayerKeepsSecurity) {
  ExecPolicyState base;
  base.security = ExecSecurity::kFull;
  ExecPolicyLayer mode_layer;
  mode_layer.mode = ExecMode::kAuto;
  auto s = apply_exec_policy_layer(base, mode_layer);
  EXPECT_EQ(s.mode, ExecMode::kAuto);
  EXPECT_EQ(s.security, ExecSecurity::kAllowlist);
  EXPECT_EQ(s.ask, ExecAsk::kOnMiss);
  EXPECT_TRUE(s.auto_review);
  ExecPolicyLayer ask_layer;
  ask_layer.ask = ExecAsk::kAlways;
  s = apply_exec_policy_layer(s, ask_layer);
  EXPECT_EQ(s.mode, std::nullopt);
  EXPECT_EQ(s.security, ExecSecurity::kAllowlist);
  EXPECT_EQ(s.ask, ExecAsk::kAlways);
}

TEST(ResolveExecTarget, RefusesOverridesWithTheReferenceHints) {
  auto r = resolve_exec_target(ExecHost::kAuto, ExecHost::kGateway, ElevatedRequest::kNo, true);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "exec host not allowed (requested gateway; configured host is auto; set tools.exec.host=gateway to "
            "allow this override).");
  r = resolve_exec_target(ExecHost::kSandbox, ExecHost::kGateway, ElevatedRequest::kNo, false);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("set tools.exec.host=gateway or auto to allow"), std::string::npos);
  r = resolve_exec_target(ExecHost::kGateway, ExecHost::kNode, ElevatedRequest::kNo, false);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("set tools.exec.host=node or auto to allow"), std::string::npos);
  auto ok = resolve_exec_target(ExecHost::kAuto, std::nullopt, ElevatedRequest::kYes, true);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->effective, ExecHost::kGateway);  // elevated leaves the sandbox
  ok = resolve_exec_target(ExecHost::kAuto, ExecHost::kAuto, ElevatedRequest::kNo, true);
  EXPECT_EQ(ok->effective, ExecHost::kSandbox);
}

ApprovalsAgentPolicy file_policy(ExecSecurity s, ExecAsk a) {
  ApprovalsAgentPolicy p;
  p.security = s;
  p.ask = a;
  return p;
}

TEST(ResolveExecDefaults, ApprovalsFileOnlyTightensAndRecomputesTheMode) {
  ExecDefaultsInputs in;
  in.global.mode = ExecMode::kAuto;
  in.resolve_approvals = [](const ApprovalsOverrides&) { return file_policy(ExecSecurity::kDeny, ExecAsk::kOff); };
  const ExecDefaults d = resolve_exec_defaults(in);
  EXPECT_EQ(d.mode, ExecMode::kDeny);
  EXPECT_EQ(d.security, ExecSecurity::kDeny);
  EXPECT_EQ(d.ask, ExecAsk::kOnMiss);
  EXPECT_TRUE(d.approvals_consulted);
}

TEST(ResolveExecDefaults, SessionFieldsDropTheModeAndOverridesComeLast) {
  ExecDefaultsInputs in;
  in.global.mode = ExecMode::kFull;
  in.session_ask = ExecAsk::kAlways;
  in.session_host = ExecHost::kNode;
  in.overrides.security = ExecSecurity::kAllowlist;
  in.agent.node = "agent-node";
  in.session_node = "session-node";
  const ExecDefaults d = resolve_exec_defaults(in);
  EXPECT_EQ(d.host, ExecHost::kNode);
  EXPECT_EQ(d.effective_host, ExecHost::kNode);
  EXPECT_EQ(d.security, ExecSecurity::kAllowlist);
  EXPECT_EQ(d.ask, ExecAsk::kAlways);
  EXPECT_EQ(d.mode, ExecMode::kAsk);
  EXPECT_EQ(d.node, "session-node");
  EXPECT_TRUE(d.can_request_node);
}

TEST(ResolveNodeExecEligibility, SystemRunDenyListBlocksNodeExec) {
  ExecDefaults d;
  d.can_request_node = true;
  d.security = ExecSecurity::kFull;
  EXPECT_TRUE(resolve_node_exec_eligibility(d, {"camera.snap"}).can_exec);
  EXPECT_FALSE(resolve_node_exec_eligibility(d, {" system.run "}).can_exec);
}

TEST(ExecCallPolicy, DenyOnAHostIsRefusedWithTheHostInTheMessage) {
  ExecCallPolicyInputs in;
  in.host = ExecHost::kGateway;
  in.approvals = file_policy(ExecSecurity::kDeny, ExecAsk::kOff);
  auto r = resolve_exec_call_policy(in);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kRejected);
  EXPECT_EQ(r.error().message, "exec denied: host=gateway security=deny");
}

TEST(ExecCallPolicy, ImplicitSandboxDenyStillRunsButExplicitDenyDoesNot) {
  ExecCallPolicyInputs in;
  in.host = ExecHost::kSandbox;
  in.approvals = file_policy(ExecSecurity::kFull, ExecAsk::kAlways);  // ignored on the sandbox
  auto r = resolve_exec_call_policy(in);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->security, ExecSecurity::kDeny);
  EXPECT_EQ(r->ask, ExecAsk::kOff);
  in.security = ExecSecurity::kDeny;
  r = resolve_exec_call_policy(in);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "exec denied: host=sandbox security=deny");
  in.security.reset();
  in.mode = ExecMode::kDeny;
  EXPECT_FALSE(resolve_exec_call_policy(in).ok());
}

TEST(ExecCallPolicy, RequestedAskOnlyHardensAndIsIgnoredFromChannelsWhenHostAskIsOff) {
  ExecCallPolicyInputs in;
  in.host = ExecHost::kGateway;
  in.security = ExecSecurity::kAllowlist;
  in.ask = ExecAsk::kOnMiss;
  in.requested_ask = ExecAsk::kOff;
  EXPECT_EQ(resolve_exec_call_policy(in)->ask, ExecAsk::kOnMiss);  // cannot loosen
  in.requested_ask = ExecAsk::kAlways;
  EXPECT_EQ(resolve_exec_call_policy(in)->ask, ExecAsk::kAlways);
  in.origin = CallOrigin::kChannel;
  EXPECT_EQ(resolve_exec_call_policy(in)->ask, ExecAsk::kAlways);  // host ask on-miss: honoured
  in.ask = ExecAsk::kOff;
  EXPECT_EQ(resolve_exec_call_policy(in)->ask, ExecAsk::kOff);  // host ask off: ignored
}

TEST(ExecCallPolicy, StricterAskDisablesTheAutoReviewer) {
  ExecCallPolicyInputs in;
  in.host = ExecHost::kGateway;
  in.mode = ExecMode::kAuto;
  EXPECT_TRUE(resolve_exec_call_policy(in)->auto_review);
  in.approvals = file_policy(ExecSecurity::kFull, ExecAsk::kAlways);
  const auto r = resolve_exec_call_policy(in);
  EXPECT_EQ(r->ask, ExecAsk::kAlways);
  EXPECT_FALSE(r->auto_review);
}

TEST(ExecCallPolicy, ElevatedFullBypassesApprovalsOnlyWhenModeAndFileAreFullOff) {
  ExecCallPolicyInputs in;
  in.host = ExecHost::kGateway;
  in.elevated = ElevatedMode::kFull;
  in.requested_ask = ExecAsk::kAlways;
  auto r = resolve_exec_call_policy(in);
  EXPECT_TRUE(r->bypass_approvals);
  EXPECT_EQ(r->ask, ExecAsk::kOff);
  in.approvals = file_policy(ExecSecurity::kFull, ExecAsk::kOnMiss);
  r = resolve_exec_call_policy(in);
  EXPECT_FALSE(r->bypass_approvals);
  EXPECT_EQ(r->ask, ExecAsk::kAlways);
}

TEST(HostApprovalContext, AskFallbackIsClampedByHostSecurity) {
  ApprovalsAgentPolicy file = file_policy(ExecSecurity::kAllowlist, ExecAsk::kOff);
  file.ask_fallback = ExecSecurity::kFull;
  auto ctx = resolve_host_approval_context(ExecHost::kNode, ExecSecurity::kFull, ExecAsk::kOnMiss, file);
  ASSERT_TRUE(ctx.ok());
  EXPECT_EQ(ctx->host_security, ExecSecurity::kAllowlist);
  EXPECT_EQ(ctx->ask_fallback, ExecSecurity::kAllowlist);
  file.security = ExecSecurity::kDeny;
  auto denied = resolve_host_approval_context(ExecHost::kNode, ExecSecurity::kFull, ExecAsk::kOnMiss, file);
  ASSERT_FALSE(denied.ok());
  EXPECT_EQ(denied.error().message, "exec denied: host=node security=deny");
}

TEST(RequiresExecApproval, OnMissGatesOnlyAllowlistMisses) {
  ApprovalRequirementInputs in;
  in.ask = ExecAsk::kOnMiss;
  in.security = ExecSecurity::kFull;
  EXPECT_FALSE(requires_exec_approval(in));
  in.security = ExecSecurity::kAllowlist;
  in.analysis_ok = true;
  in.allowlist_satisfied = true;
  EXPECT_FALSE(requires_exec_approval(in));
  in.allowlist_satisfied = false;
  EXPECT_TRUE(requires_exec_approval(in));
  in.durable_approval_satisfied = true;
  EXPECT_FALSE(requires_exec_approval(in));
}

TEST(DurableApproval, PatternIsAShaPrefixOfTheTrimmedCommand) {
  EXPECT_EQ(hash::sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(durable_command_pattern("abc"), "=command:ba7816bf8f01cfea");
  EXPECT_EQ(node_command_pattern("abc"), "=node-command:ba7816bf8f01cfea");
  AllowlistEntry grant;
  grant.pattern = durable_command_pattern("ls -la");
  grant.source = "allow-always";
  EXPECT_TRUE(has_durable_exec_approval(false, {}, {grant}, std::string_view("  ls -la \n")));
  grant.source.reset();  // a plain allowlist entry is not a durable grant
  EXPECT_FALSE(has_durable_exec_approval(false, {}, {grant}, std::string_view("ls -la")));
}

TEST(DurableApproval, AMissingOrNonDurableSegmentEntryBreaksSegmentTrust) {
  AllowlistEntry durable;
  durable.pattern = "/bin/ls";
  durable.source = "allow-always";
  AllowlistEntry plain;
  plain.pattern = "/bin/cat";
  EXPECT_TRUE(has_durable_exec_approval(true, {&durable}, {}, std::nullopt));
  EXPECT_FALSE(has_durable_exec_approval(true, {&durable, nullptr}, {}, std::nullopt));
  EXPECT_FALSE(has_durable_exec_approval(true, {&durable, &plain}, {}, std::nullopt));
  EXPECT_FALSE(has_durable_exec_approval(false, {&durable}, {}, std::nullopt));
  EXPECT_FALSE(has_durable_exec_approval(true, {}, {}, std::nullopt));
}

TEST(ApprovalDecisions, OneShotPersistenceHidesAllowAlways) {
  const auto allowed = resolve_exec_approval_allowed_decisions(ExecAsk::kOnMiss, AllowAlwaysPersistence::kOneShot);
  EXPECT_EQ(allowed, (std::vector<ApprovalDecision>{ApprovalDecision::kAllowOnce, ApprovalDecision::kDeny}));
  EXPECT_EQ(resolve_exec_approval_unavailable_decisions(ExecAsk::kOnMiss, AllowAlwaysPersistence::kOneShot),
            std::vector<ApprovalDecision>{ApprovalDecision::kAllowAlways});
  EXPECT_EQ(resolve_exec_approval_allowed_decisions(std::nullopt).size(), 3u);
}

TEST(PolicyScopeSnapshot, ReportsSourcesForDefaultsFileValuesAndInheritedFields) {
  PolicyScopeSnapshotInputs in;
  in.host_path = "~/.openclaw/exec-approvals.json";
  in.file.security = ExecSecurity::kAllowlist;
  in.file.security_source = "agents.*.security";
  const PolicyScopeSnapshot s = resolve_exec_policy_scope_snapshot(in);
  EXPECT_EQ(s.host_requested_source, "OpenClaw default (auto)");
  EXPECT_EQ(s.security.requested, "full");
  EXPECT_EQ(s.security.requested_source, "OpenClaw default (full)");
  EXPECT_EQ(s.security.host_source, "~/.openclaw/exec-approvals.json agents.*.security");
  EXPECT_EQ(s.security.effective, "allowlist");
  EXPECT_EQ(s.security.note, "stricter host security wins");
  EXPECT_EQ(s.ask.host_source, "inherits requested tool policy");
  EXPECT_EQ(s.ask.note, "requested ask applies");
  EXPECT_EQ(s.mode.requested_source, "derived from OpenClaw default (full) and OpenClaw default (off)");
  EXPECT_EQ(s.mode.effective, "allowlist");
  EXPECT_EQ(s.mode.note, "host policy changes effective mode");
  EXPECT_EQ(s.ask_fallback_effective, "deny");
  EXPECT_EQ(s.ask_fallback_source, "OpenClaw default (deny)");
}

TEST(PolicyScopeSnapshot, AgentSecurityOverAGlobalModeInheritsTheModesAsk) {
  PolicyScopeSnapshotInputs in;
  in.config_path = "agents.entries.runner.tools.exec";
  in.scope.security = ExecSecurity::kFull;
  in.global = ExecPolicyLayer{};
  in.global->mode = ExecMode::kAsk;
  in.global->host = ExecHost::kGateway;
  const PolicyScopeSnapshot s = resolve_exec_policy_scope_snapshot(in);
  EXPECT_EQ(s.host_requested, "gateway");
  EXPECT_EQ(s.host_requested_source, "tools.exec.host");
  EXPECT_EQ(s.security.requested_source, "agents.entries.runner.tools.exec.security");
  EXPECT_EQ(s.ask.requested, "on-miss");
  EXPECT_EQ(s.ask.requested_source, "tools.exec.mode");
  EXPECT_EQ(s.mode.requested, "full");
  EXPECT_EQ(s.mode.requested_source,
            "derived from agents.entries.runner.tools.exec.security and tools.exec.mode");
  const bj::object j = to_json(s);
  EXPECT_EQ(j.at("allowedDecisions").as_array().size(), 3u);
}

}  // namespace
}  // namespace clawexec::policy
