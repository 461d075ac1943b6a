// The effective-policy report's scopes: tools.exec first, then the agents named by the
// config roster or the approvals file, sorted; and the two report styles.

#include "operator/effective_policy_report.h"

#include <gtest/gtest.h>

#include "approvals/document.h"
#include "json/json.h"

namespace clawexec::operator_ops {
namespace {

namespace bj = boost::json;

std::vector<std::string> labels(const bj::object& report) {
  std::vector<std::string> out;
  for (const bj::value& s : report.at("scopes").as_array()) out.emplace_back(s.at("scopeLabel").as_string());
  return out;
}

approvals::Document normalized(const bj::value& raw) {
  return approvals::normalize_document(raw, [] { return std::string("11111111-1111-4111-8111-111111111111"); });
}

TEST(EffectivePolicyReport, ScopesAreGlobalThenAgentsFromConfigAndApprovalsSorted) {
  bj::value config = *json::parse(R"({"agents":{"list":[{"id":"zeta","tools":{"exec":{"ask":"always"}}}]}})");
  bj::value raw = *json::parse(R"({"version":1,"agents":{"alpha":{"security":"deny"},"*":{}}})");
  bj::object report = effective_policy_report(config, raw, normalized(raw), "/state/exec-approvals.json",
                                              ReportStyle::kApprovalsGet);
  EXPECT_EQ(labels(report), (std::vector<std::string>{"tools.exec", "agent:alpha", "agent:zeta"}));
  EXPECT_NE(std::string(report.at("note").as_string()).find("Per-session /exec overrides are not included"),
            std::string::npos);
}

TEST(EffectivePolicyReport, TheExecPolicyStyleNamesTheApprovalsSourceInsteadOfDecisions) {
  bj::value raw = bj::object();
  bj::object get = effective_policy_report(bj::object(), raw, normalized(raw), "/a.json", ReportStyle::kApprovalsGet);
  bj::object show = effective_policy_report(bj::object(), raw, normalized(raw), "/a.json", ReportStyle::kExecPolicy);
  const bj::object& get_scope = get.at("scopes").at(0).as_object();
  const bj::object& show_scope = show.at("scopes").at(0).as_object();
  EXPECT_TRUE(get_scope.contains("allowedDecisions"));
  EXPECT_FALSE(get_scope.contains("runtimeApprovalsSource"));
  EXPECT_FALSE(show_scope.contains("allowedDecisions"));
  EXPECT_EQ(show_scope.at("runtimeApprovalsSource"), bj::value("local-file"));
}

TEST(EffectivePolicyReport, AnAgentSnapshotLayersItsSectionOverToolsExec) {
  bj::value config =
      *json::parse(R"({"tools":{"exec":{"security":"allowlist"}},"agents":{"list":[{"id":"ops","tools":{"exec":{"ask":"always"}}}]}})");
  bj::value raw = bj::object();
  bj::object ops = agent_policy_snapshot(config, raw, normalized(raw), "/a.json", "ops");
  EXPECT_EQ(ops.at("scopeLabel"), bj::value("agent:ops"));
  EXPECT_EQ(ops.at("ask").at("requested"), bj::value("always"));
  EXPECT_EQ(ops.at("security").at("requested"), bj::value("allowlist"));
}

}  // namespace
}  // namespace clawexec::operator_ops
