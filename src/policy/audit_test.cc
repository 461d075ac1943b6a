// Unit tests of the exec security audit (policy/audit.h) for spec §10.1 behaviour that the
// reference's public cases do not pin: texts, scope labels, the audit's simplified security
// default, trusted-dir classification and its cap, and the clawexec writable-dir finding.

#include "policy/audit.h"

#include <gtest/gtest.h>

#include <boost/json.hpp>

namespace clawexec::policy {
namespace {

namespace json = boost::json;

const AuditFinding* find(const std::vector<AuditFinding>& findings, std::string_view id) {
  for (const AuditFinding& f : findings) {
    if (f.check_id == id) return &f;
  }
  return nullptr;
}

std::vector<AuditFinding> audit(std::string_view config, std::string_view approvals = "{}", AuditFacts facts = {}) {
  return collect_exec_audit_findings(json::parse(config), json::parse(approvals), facts);
}

TEST(SecurityAudit, EmptyConfigAndApprovalsHaveNoFindings) {
  EXPECT_TRUE(audit("{}").empty());
}

TEST(SecurityAudit, ModeAutoWithoutAReviewerModelWarnsForEachScope) {
  const std::vector<AuditFinding> findings = audit(R"({"tools":{"exec":{"mode":"auto"}},
      "agents":{"entries":{"ops":{"tools":{"exec":{"reviewer":{"timeoutMs":5000}}}},
                           "dev":{"model":"local/qwen"},
                           "calm":{"tools":{"exec":{"mode":"ask"}}}}}})");
  const AuditFinding* f = find(findings, "tools.exec.auto_review_no_model");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, AuditSeverity::kWarn);
  EXPECT_NE(f->detail.find("- tools.exec (mode auto)"), std::string::npos) << f->detail;
  // ops's reviewer object replaces the global one and names no model; dev reviews with its own
  // primary model; calm is not in auto mode.
  EXPECT_NE(f->detail.find("- agents.entries.ops.tools.exec (mode auto)"), std::string::npos) << f->detail;
  EXPECT_EQ(f->detail.find("dev"), std::string::npos) << f->detail;
  EXPECT_EQ(f->detail.find("calm"), std::string::npos) << f->detail;
  EXPECT_NE(f->detail.find("The default reviewer defers every command to a human."), std::string::npos);

  EXPECT_EQ(find(audit(R"({"tools":{"exec":{"mode":"auto","reviewer":{"model":"local/qwen"}}}})"),
                 "tools.exec.auto_review_no_model"),
            nullptr);
  EXPECT_EQ(find(audit(R"({"tools":{"exec":{"mode":"auto"}},"agents":{"defaults":{"model":{"primary":"a/b"}}}})"),
                 "tools.exec.auto_review_no_model"),
            nullptr);
  EXPECT_EQ(find(audit(R"({"tools":{"exec":{"mode":"ask"}}})"), "tools.exec.auto_review_no_model"), nullptr);
}

TEST(SecurityAudit, SandboxHostWithSandboxOffWarnsWithTheReferenceText) {
  auto findings = audit(R"({"tools":{"exec":{"host":"sandbox"}}})");
  const AuditFinding* f = find(findings, "tools.exec.host_sandbox_no_sandbox_defaults");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->title, "Exec host is sandbox but sandbox mode is off");
  EXPECT_EQ(f->detail,
            "tools.exec.host is explicitly set to sandbox while agents.defaults.sandbox.mode=off. In this mode, exec "
            "fails closed because no sandbox runtime is available.");
}

TEST(SecurityAudit, SandboxHostWithSandboxEnabledIsFine) {
  auto findings = audit(R"({"tools":{"exec":{"host":"sandbox"}},"agents":{"defaults":{"sandbox":{"mode":"all"}}}})");
  EXPECT_EQ(find(findings, "tools.exec.host_sandbox_no_sandbox_defaults"), nullptr);
}

TEST(SecurityAudit, AgentSandboxHostListsAtMostFiveAgentsAndHonoursTheAgentsOwnSandboxMode) {
  json::object entries;
  for (int i = 0; i < 7; ++i) {
    entries["a" + std::to_string(i)] = json::parse(R"({"tools":{"exec":{"host":"sandbox"}}})");
  }
  entries["on"] = json::parse(R"({"sandbox":{"mode":"all"},"tools":{"exec":{"host":"sandbox"}}})");
  json::object config{{"agents", json::object{{"entries", entries}}}};
  auto findings = collect_exec_audit_findings(config, json::object());
  const AuditFinding* f = find(findings, "tools.exec.host_sandbox_no_sandbox_agents");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->detail,
            "agents.entries.*.tools.exec.host is set to sandbox for: a0, a1, a2, a3, a4. With sandbox mode off, exec "
            "fails closed for those agents.");
}

TEST(SecurityAudit, SecurityFullUsesTheAuditDefaultOfDenyAndNamesTheScopes) {
  // Nothing configured: the audit assumes deny (not the runtime default full).
  EXPECT_EQ(find(audit("{}"), "tools.exec.security_full_configured"), nullptr);
  auto findings = audit(R"({"tools":{"exec":{"mode":"full"}},
      "agents":{"list":[{"id":"ops"},{"id":"safe","tools":{"exec":{"security":"allowlist"}}}]}})");
  const AuditFinding* f = find(findings, "tools.exec.security_full_configured");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, AuditSeverity::kWarn);
  // Two agents: no default agent, so the global scope is "global"; ops inherits full.
  EXPECT_EQ(f->detail, "Full exec trust is enabled for: global, ops.");
}

TEST(SecurityAudit, SecurityFullGlobalScopeIsNamedAfterTheSoleAgent) {
  auto findings = audit(R"({"tools":{"exec":{"security":"full"}},"agents":{"entries":{"runner":{}}}})");
  const AuditFinding* f = find(findings, "tools.exec.security_full_configured");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->detail, "Full exec trust is enabled for: runner.");
}

TEST(SecurityAudit, AutoAllowSkillsListsEveryPlaceItIsOn) {
  auto findings = audit("{}", R"({"version":1,"defaults":{"autoAllowSkills":true},
      "agents":{"ops":{"autoAllowSkills":true},"dev":{"autoAllowSkills":false}}})");
  const AuditFinding* f = find(findings, "tools.exec.auto_allow_skills_enabled");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->detail,
            "Implicit skill-bin allowlisting is enabled at:\n- defaults.autoAllowSkills\n- agents.ops.autoAllowSkills\n"
            "This widens host exec trust beyond explicit manual allowlist entries.");
}

TEST(SecurityAudit, InterpreterAllowlistRespectsGlobalAndAgentStrictInlineEval) {
  const char* approvals = R"({"version":1,"agents":{
      "main":{"allowlist":[{"pattern":"/usr/bin/python3"},{"pattern":"/usr/bin/ls"}]},
      "ops":{"allowlist":[{"pattern":"**/node"}]}}})";
  auto findings = audit(R"({"agents":{"entries":{"ops":{"tools":{"exec":{"strictInlineEval":true}}}}}})", approvals);
  const AuditFinding* f = find(findings, "tools.exec.allowlist_interpreter_without_strict_inline_eval");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->detail,
            "Interpreter/runtime allowlist entries were found without strictInlineEval enabled:\n"
            "- agents.main.allowlist: /usr/bin/python3");
  // Global strictInlineEval covers everyone without an own value.
  EXPECT_EQ(find(audit(R"({"tools":{"exec":{"strictInlineEval":true}}})", approvals),
                 "tools.exec.allowlist_interpreter_without_strict_inline_eval"),
            nullptr);
}

TEST(SecurityAudit, UnprofiledInterpreterSafeBinsAreListedPerScope) {
  auto findings = audit(R"({"tools":{"exec":{"safeBins":["python3","cut"]}},
      "agents":{"entries":{"ops":{"tools":{"exec":{"safeBins":["node","perl"],"safeBinProfiles":{"perl":{}}}}}}}})");
  const AuditFinding* f = find(findings, "tools.exec.safe_bins_interpreter_unprofiled");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->detail,
            "Detected interpreter-like safeBins entries missing explicit profiles:\n"
            "- tools.exec.safeBins: python3\n- agents.entries.ops.tools.exec.safeBins: node\n"
            "These entries can turn safeBins into a broad execution surface when used with permissive argv profiles.");
}

TEST(SecurityAudit, BroadBehaviorSafeBinsCarryTheirWarning) {
  auto findings = audit(R"({"tools":{"exec":{"safeBins":["jq"]}}})");
  const AuditFinding* f = find(findings, "tools.exec.safe_bins_broad_behavior");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->detail,
            "Detected risky safeBins entries:\n- tools.exec.safeBins: jq (jq can read environment data and load jq "
            "code from modules or startup files, so prefer explicit allowlist entries or approval-gated runs instead "
            "of safeBins.)\nThese tools expose semantics that do not fit the low-risk stdin-filter fast path.");
}

TEST(SecurityAudit, RiskyTrustedDirsAreClassifiedAndCappedAtTen) {
  auto findings = audit(R"({"tools":{"exec":{"safeBinTrustedDirs":
      ["bin","/tmp/x","/var/tmp","/usr/local/bin","/home/me/bin","/opt/tools/.local/bin","/usr/libexec","/opt/ok"]}}})");
  const AuditFinding* f = find(findings, "tools.exec.safe_bin_trusted_dirs_risky");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->detail,
            "Detected risky safeBinTrustedDirs entries:\n"
            "- tools.exec.safeBinTrustedDirs: bin (relative path (trust boundary depends on process cwd))\n"
            "- tools.exec.safeBinTrustedDirs: /tmp/x (temporary directory is mutable and easy to poison)\n"
            "- tools.exec.safeBinTrustedDirs: /var/tmp (temporary directory is mutable and easy to poison)\n"
            "- tools.exec.safeBinTrustedDirs: /usr/local/bin (package-manager bin directory (often user-writable))\n"
            "- tools.exec.safeBinTrustedDirs: /home/me/bin (home-scoped bin directory (typically user-writable))\n"
            "- tools.exec.safeBinTrustedDirs: /opt/tools/.local/bin (home-scoped bin directory (typically "
            "user-writable))");

  json::array many;
  for (int i = 0; i < 12; ++i) many.push_back(json::string("/tmp/d" + std::to_string(i)));
  json::object config{{"tools", json::object{{"exec", json::object{{"safeBinTrustedDirs", many}}}}}};
  auto capped = collect_exec_audit_findings(config, json::object());
  const AuditFinding* c = find(capped, "tools.exec.safe_bin_trusted_dirs_risky");
  ASSERT_NE(c, nullptr);
  EXPECT_NE(c->detail.find("/tmp/d9 ("), std::string::npos);
  EXPECT_EQ(c->detail.find("/tmp/d10 ("), std::string::npos);
  EXPECT_TRUE(c->detail.ends_with("\n- +2 more entries.")) << c->detail;
}

TEST(SecurityAudit, WritableTrustedDirsComeFromInjectedPermissionBits) {
  AuditFacts facts;
  facts.trusted_dir_modes = {{"/opt/a", 0777}, {"/opt/b", 0775}, {"/opt/c", 0755}};
  auto findings = audit(R"({"tools":{"exec":{"safeBinTrustedDirs":["/opt/a","/opt/b","/opt/c"]}}})", "{}", facts);
  const AuditFinding* f = find(findings, "tools.exec.safe_bin_trusted_dirs_writable");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->detail.find("- tools.exec.safeBinTrustedDirs: /opt/a (world-writable)\n"
                           "- tools.exec.safeBinTrustedDirs: /opt/b (group-writable)\n"),
            std::string::npos);
  EXPECT_EQ(f->detail.find("/opt/c"), std::string::npos);
  EXPECT_EQ(find(audit(R"({"tools":{"exec":{"safeBinTrustedDirs":["/opt/a"]}}})"),
                 "tools.exec.safe_bin_trusted_dirs_writable"),
            nullptr);
}

TEST(SecurityAudit, TrustedDirsToInspectCoverGlobalAndAgentScopesOnce) {
  auto dirs = audit_trusted_dirs_to_inspect(json::parse(R"({"tools":{"exec":{"safeBinTrustedDirs":[" /a ","/b"]}},
      "agents":{"list":[{"id":"x","tools":{"exec":{"safeBinTrustedDirs":["/b","/c"]}}}]}})"));
  EXPECT_EQ(dirs, (std::vector<std::string>{"/a", "/b", "/c"}));
}

TEST(SecurityAudit, FindingJsonHasTheReferenceKeys) {
  AuditFinding f{"x.y", AuditSeverity::kCritical, "T", "D", "R"};
  EXPECT_EQ(json::serialize(to_json(f)),
            R"({"checkId":"x.y","severity":"critical","title":"T","detail":"D","remediation":"R"})");
}

}  // namespace
}  // namespace clawexec::policy
