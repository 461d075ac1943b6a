// Unit tests of doctor's safe-bin checks (policy/doctor.h) for spec §10.2 behaviour beyond the
// reference's public cases: scope labels for both roster shapes, warning caps, the scaffold
// of an empty profiles object, and that the caller's document is never modified.

#include "policy/doctor.h"

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <set>

namespace clawexec::policy {
namespace {

namespace json = boost::json;

TEST(DoctorSafeBins, ScopesAreLabelledAfterTheRosterShape) {
  auto hits = scan_exec_safe_bin_coverage(json::parse(R"({"agents":{"list":[{"id":"x"},
      {"id":"ops","tools":{"exec":{"safeBins":["myfilter"]}}}]}})"));
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].scope_path, "agents.list.1.tools.exec");
  hits = scan_exec_safe_bin_coverage(json::parse(R"({"agents":{"entries":{"ops":{"tools":{"exec":{"safeBins":["myfilter"]}}}}}})"));
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].scope_path, "agents.entries.ops.tools.exec");
}

TEST(DoctorSafeBins, ExplicitDefaultBinsWithoutUserProfilesAreMissingProfiles) {
  auto hits = scan_exec_safe_bin_coverage(json::parse(R"({"tools":{"exec":{"safeBins":["head"]}}})"));
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].kind, SafeBinCoverageKind::kMissingProfile);
  EXPECT_FALSE(hits[0].is_interpreter);
}

TEST(DoctorSafeBins, AgentProfilesMergeWithGlobalOnes) {
  auto hits = scan_exec_safe_bin_coverage(json::parse(R"({"tools":{"exec":{"safeBinProfiles":{"A":{}}}},
      "agents":{"entries":{"ops":{"tools":{"exec":{"safeBins":["a","b"],"safeBinProfiles":{"b":{}}}}}}}})"));
  EXPECT_TRUE(hits.empty());
}

TEST(DoctorSafeBins, CoverageWarningsAreCappedPerGroupAndHintAtTheFixCommand) {
  json::array bins;
  for (int i = 0; i < 7; ++i) bins.push_back(json::string("f" + std::to_string(i)));
  bins.push_back("python3");
  json::object config{{"tools", json::object{{"exec", json::object{{"safeBins", bins}}}}}};
  auto warnings = collect_exec_safe_bin_coverage_warnings(scan_exec_safe_bin_coverage(config), "clawexec doctor --fix");
  std::vector<std::string> expected = {
      "- tools.exec.safeBins includes interpreter/runtime 'python3' without profile.",
      "- tools.exec.safeBins entry 'f0' is missing safeBinProfiles.f0.",
      "- tools.exec.safeBins entry 'f1' is missing safeBinProfiles.f1.",
      "- tools.exec.safeBins entry 'f2' is missing safeBinProfiles.f2.",
      "- tools.exec.safeBins entry 'f3' is missing safeBinProfiles.f3.",
      "- tools.exec.safeBins entry 'f4' is missing safeBinProfiles.f4.",
      "- 2 more custom safeBins entries are missing profiles.",
      "- Run \"clawexec doctor --fix\" to scaffold missing custom safeBinProfiles entries.",
  };
  EXPECT_EQ(warnings, expected);
  EXPECT_TRUE(collect_exec_safe_bin_coverage_warnings({}, "x").empty());
}

TEST(DoctorSafeBins, RepairCreatesAnEmptyProfilesObjectEvenWhenOnlyInterpretersAreMissing) {
  json::value config = json::parse(R"({"tools":{"exec":{"safeBins":["busybox","toybox"]}}})");
  json::value original = config;
  SafeBinProfileRepair repair = maybe_repair_exec_safe_bin_profiles(config);
  EXPECT_TRUE(repair.changes.empty());
  ASSERT_EQ(repair.warnings.size(), 2u);
  EXPECT_EQ(repair.warnings[0],
            "- tools.exec.safeBins includes interpreter/runtime 'busybox' without profile; remove it from safeBins or "
            "use explicit allowlist entries.");
  EXPECT_EQ(repair.config.at("tools").at("exec").at("safeBinProfiles"), json::object());
  EXPECT_TRUE(repair.config_changed);
  EXPECT_EQ(config, original);
}

TEST(DoctorSafeBins, RepairScaffoldsInsideTheAgentScopeAndKeepsOtherKeys) {
  json::value config = json::parse(R"({"gateway":{"port":1},"agents":{"entries":{"ops":{"name":"n",
      "tools":{"exec":{"safeBins":["myfilter"],"safeBinProfiles":{"other":{"maxPositional":1}}}}}}}})");
  SafeBinProfileRepair repair = maybe_repair_exec_safe_bin_profiles(config);
  EXPECT_EQ(repair.changes, (std::vector<std::string>{"- agents.entries.ops.tools.exec.safeBinProfiles.myfilter: added "
                                                      "scaffold profile {} (review and tighten flags/positionals)."}));
  EXPECT_EQ(json::serialize(repair.config),
            R"({"gateway":{"port":1},"agents":{"entries":{"ops":{"name":"n","tools":{"exec":{"safeBins":["myfilter"],)"
            R"("safeBinProfiles":{"other":{"maxPositional":1},"myfilter":{}}}}}}}})");
}

TEST(DoctorSafeBins, RepairOfACoveredConfigChangesNothing) {
  json::value config = json::parse(R"({"tools":{"exec":{"safeBins":["x"],"safeBinProfiles":{"x":{}}}}})");
  SafeBinProfileRepair repair = maybe_repair_exec_safe_bin_profiles(config);
  EXPECT_FALSE(repair.config_changed);
  EXPECT_TRUE(repair.changes.empty());
  EXPECT_TRUE(repair.warnings.empty());
  EXPECT_EQ(repair.config, config);
}

TEST(DoctorSafeBins, TrustedDirHintsSkipBinsInTrustedDirsAndCapTheList) {
  std::set<std::string> files = {"/usr/bin/cut", "/opt/ok/okbin"};
  for (int i = 0; i < 7; ++i) files.insert("/opt/x/b" + std::to_string(i));
  FsView fs;
  fs.is_executable_file = [&](const std::string& p) { return files.count(p) != 0; };
  fs.realpath = [&](const std::string& p) -> std::optional<std::string> {
    if (files.count(p) || p == "/opt/ok" || p == "/opt/x" || p == "/usr/bin" || p == "/bin") return p;
    return std::nullopt;
  };
  ResolveContext ctx{"/", "/usr/bin:/opt/ok:/opt/x", "/home/u", &fs};
  json::value config = json::parse(R"({"tools":{"exec":{"safeBinTrustedDirs":["/opt/ok"],
      "safeBins":["cut","okbin","b0","b1","b2","b3","b4","b5","b6","missing"]}}})");
  auto hits = scan_exec_safe_bin_trusted_dir_hints(config, ctx);
  ASSERT_EQ(hits.size(), 7u);
  EXPECT_EQ(hits[0].resolved_path, "/opt/x/b0");
  auto warnings = collect_exec_safe_bin_trusted_dir_hint_warnings(hits);
  ASSERT_EQ(warnings.size(), 7u);
  EXPECT_EQ(warnings[5], "- 2 more safeBins entries resolve outside trusted safe-bin dirs.");
  EXPECT_EQ(warnings[6],
            "- If intentional, add the binary directory to tools.exec.safeBinTrustedDirs (global or agent scope).");
  EXPECT_TRUE(collect_exec_safe_bin_trusted_dir_hint_warnings({}).empty());
}

}  // namespace
}  // namespace clawexec::policy
