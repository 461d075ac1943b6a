// The reference's gateway-flow and exec-tool precedence cases, driven through the same policy
// steps the exec tool takes (src/exec/policy_gate.cc): the call policy (mode, config, approvals
// floor, per-call ask, elevated), the host approval context, then the gateway decision.
// "approval-pending" expectations are Verdict::kAsk (a human would be asked), "allow ..." is
// kAllow and {"deny": text} a refusal with that text. The auto reviewer itself (§8) is outside
// issue 3: for mode=auto cases we check that the decision reaches review (kAsk, auto_review on)
// with the reason the reviewer would be given.

#include <gtest/gtest.h>

#include <algorithm>

#include "policy/decide.h"
#include "policy/evaluate_conformance_support.h"
#include "policy/modes.h"

namespace clawexec::policy {
namespace {

using namespace testing;  // NOLINT: the test-support vocabulary

const bj::object& object_or_empty(const bj::object& o, std::string_view key) {
  static const bj::object kEmpty;
  const bj::value* v = find_key(o, key);
  return v && v->is_object() ? v->as_object() : kEmpty;
}

std::optional<std::string> opt_str(const bj::object& o, std::string_view key) {
  const bj::value* v = find_key(o, key);
  if (!v || !v->is_string()) return std::nullopt;
  return str(*v);
}

struct Outcome {
  Verdict verdict = Verdict::kDeny;
  std::string deny_message;
  bool sandbox = false;
  bool auto_review = false;
  std::vector<std::string> reasons;
};

// The approvals document's answer for agent "main" with the given fallbacks for unset fields.
ApprovalsAgentPolicy file_agent(const bj::object& approvals, ExecSecurity security, ExecAsk ask) {
  HostPolicyView view;
  for (const bj::object* layer : {&object_or_empty(approvals, "defaults"),
                                  &object_or_empty(object_or_empty(approvals, "agents"), "*"),
                                  &object_or_empty(object_or_empty(approvals, "agents"), "main")}) {
    if (auto s = opt_str(*layer, "security")) view.security = normalize_exec_security(*s);
    if (auto a = opt_str(*layer, "ask")) view.ask = normalize_exec_ask(*a);
    if (auto f = opt_str(*layer, "askFallback")) view.ask_fallback = normalize_exec_security(*f);
  }
  return apply_approvals_fallbacks(view, ApprovalsOverrides{security, ask, std::nullopt, std::nullopt});
}

Outcome run_exec_tool(const bj::object& c) {
  const bj::object& defaults = object_or_empty(c, "defaults");
  const bj::object& call = object_or_empty(c, "call");
  const bj::value* approvals_value = find_key(c, "approvals");
  const bj::object& approvals = object_or_empty(c, "approvals");
  Outcome out;

  const bool sandbox_available = find_key(defaults, "sandbox") != nullptr;
  const bj::object& elevated_cfg = object_or_empty(defaults, "elevated");
  const bool elevated_on = find_key(call, "elevated") && call.at("elevated").as_bool() &&
                           find_key(elevated_cfg, "enabled") && elevated_cfg.at("enabled").as_bool() &&
                           find_key(elevated_cfg, "allowed") && elevated_cfg.at("allowed").as_bool();
  Result<ExecTarget> target =
      resolve_exec_target(normalize_exec_target(opt_str(defaults, "host").value_or("auto")).value_or(ExecHost::kAuto),
                          std::nullopt, elevated_on ? ElevatedRequest::kYes : ElevatedRequest::kNo, sandbox_available);
  EXPECT_TRUE(target.ok());
  if (!target.ok()) return out;
  const ExecHost host = target.value().effective;

  ExecCallPolicyInputs in;
  in.host = host;
  if (auto m = opt_str(defaults, "mode")) in.mode = normalize_exec_mode(*m);
  if (auto s = opt_str(defaults, "security")) in.security = normalize_exec_security(*s);
  if (auto a = opt_str(defaults, "ask")) in.ask = normalize_exec_ask(*a);
  if (approvals_value) in.approvals = file_agent(approvals, ExecSecurity::kFull, ExecAsk::kOff);
  if (auto a = opt_str(call, "ask")) in.requested_ask = normalize_exec_ask(*a);
  in.origin = find_key(defaults, "messageProvider") ? CallOrigin::kChannel : CallOrigin::kDirect;
  if (elevated_on) {
    std::string level = opt_str(elevated_cfg, "defaultLevel").value_or("ask");
    in.elevated = level == "full" ? ElevatedMode::kFull : ElevatedMode::kAsk;
  }
  Result<ExecCallPolicy> policy = resolve_exec_call_policy(in);
  if (!policy.ok()) {
    out.deny_message = policy.error().message;
    return out;
  }
  out.auto_review = policy.value().auto_review;
  if (host == ExecHost::kSandbox) {  // the sandbox host runs without the host approvals gate
    out.verdict = Verdict::kAllow;
    out.sandbox = true;
    return out;
  }
  Result<HostApprovalContext> hc = resolve_host_approval_context(
      host, policy.value().security, policy.value().ask, file_agent(approvals, policy.value().security, policy.value().ask));
  if (!hc.ok()) {
    out.deny_message = hc.error().message;
    return out;
  }
  if (hc.value().host_security == ExecSecurity::kFull && hc.value().host_ask == ExecAsk::kOff) {
    out.verdict = Verdict::kAllow;  // the gate's fast path (strictInlineEval is off in every case)
    return out;
  }
  CaseWorld world(c);
  const bj::object& agents = object_or_empty(approvals, "agents");
  for (const char* agent : {"*", "main"}) {
    if (const bj::value* list = find_key(object_or_empty(agents, agent), "allowlist")) {
      for (const bj::value& e : list->as_array()) world.add_pattern(sub(str(e.at("pattern"))));
    }
  }
  std::string path = "/usr/bin:/bin";
  if (const bj::value* prepend = find_key(defaults, "pathPrepend")) {
    for (auto it = prepend->as_array().rbegin(); it != prepend->as_array().rend(); ++it) path = sub(str(*it)) + ":" + path;
  }
  world.ctx.resolve.path_env = path;
  DecisionInputs d;
  d.command = str(call.at("command"));
  d.security = hc.value().host_security;
  d.ask = hc.value().host_ask;
  d.ask_fallback = hc.value().ask_fallback;
  d.evaluation = world.ctx;
  Decision decision = decide_gateway(d);
  out.verdict = decision.verdict;
  out.deny_message = decision.deny_message;
  out.reasons = decision.reasons;
  return out;
}

bool has(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

TEST(EvaluateConformance, ExecToolPrecedence) {
  std::vector<bj::object> cases = load_cases({"createExecTool().execute"});
  ASSERT_EQ(cases.size(), 9u);
  int reviewed = 0;
  for (const bj::object& c : cases) {
    const std::string id = case_id(c);
    Outcome got = run_exec_tool(c);
    const bj::value& expect = c.at("expect");
    if (expect.is_string()) {
      std::string want = str(expect);
      if (want == "approval-pending") {
        EXPECT_EQ(got.verdict, Verdict::kAsk) << id;
      } else {
        ASSERT_TRUE(want.starts_with("allow")) << id;
        EXPECT_EQ(got.verdict, Verdict::kAllow) << id << ": " << got.deny_message;
        EXPECT_EQ(got.sandbox, want.find("sandbox") != std::string::npos) << id;
      }
      continue;
    }
    const bj::object& e = expect.as_object();
    if (const bj::value* deny = find_key(e, "deny")) {
      EXPECT_EQ(got.verdict, Verdict::kDeny) << id;
      EXPECT_EQ(got.deny_message, str(*deny)) << id;
      if (const bj::value* called = find_key(e, "autoReviewerCalled")) {
        EXPECT_EQ(got.auto_review, called->as_bool()) << id;
      }
      continue;
    }
    ASSERT_EQ(str(e.at("status")), "approval-pending") << id;
    EXPECT_EQ(got.verdict, Verdict::kAsk) << id;
    const bj::object& with = e.at("autoReviewerCalledWith").as_object();
    EXPECT_TRUE(got.auto_review) << id << ": the reviewer would not be asked";
    EXPECT_TRUE(has(got.reasons, str(with.at("reason")))) << id;
    ++reviewed;
  }
  EXPECT_EQ(reviewed, 3);
}

TEST(EvaluateConformance, ProcessGatewayAllowlist) {
  std::vector<bj::object> cases = load_cases({"processGatewayAllowlist"});
  ASSERT_EQ(cases.size(), 1u);
  for (const bj::object& c : cases) {
    const std::string id = case_id(c);
    CaseWorld world(c);
    DecisionInputs d;
    d.command = str(c.at("command"));
    d.security = normalize_exec_security(str(c.at("hostSecurity"))).value();
    d.ask = normalize_exec_ask(str(c.at("hostAsk"))).value();
    d.evaluation = world.ctx;
    Decision decision = decide_gateway(d);
    ASSERT_EQ(str(c.at("expect")), "approval-pending") << id;
    EXPECT_EQ(decision.verdict, Verdict::kAsk) << id;
    EXPECT_TRUE(decision.security_audit_suppression) << id;
  }
}

// The read-only exemption the case's note states: inspecting the suppressions does not ask.
TEST(GatewayDecision, ReadingAuditSuppressionsNeedsNoApproval) {
  bj::object c;
  CaseWorld world(c);
  DecisionInputs d;
  d.command = "openclaw config get security.audit.suppressions";
  d.security = ExecSecurity::kFull;
  d.ask = ExecAsk::kOnMiss;
  d.evaluation = world.ctx;
  EXPECT_EQ(decide_gateway(d).verdict, Verdict::kAllow);
  d.ask = ExecAsk::kOff;  // yolo: even edits run
  d.command = "openclaw config set security.audit.suppressions '[]'";
  EXPECT_EQ(decide_gateway(d).verdict, Verdict::kAllow);
}

}  // namespace
}  // namespace clawexec::policy
