// The reference's own security-audit and doctor cases (tests/conformance/policy-cases-public.jsonl,
// fns collectSecurityAuditFindings, maybeRepairExecSafeBinProfiles, scanExecSafeBinCoverage and
// scanExecSafeBinTrustedDirHints+collectExecSafeBinTrustedDirHintWarnings) run through
// policy/audit.h and policy/doctor.h. Each test counts the cases it ran and the ones listed as
// inapplicable, so a case cannot disappear unnoticed.

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <map>
#include <set>
#include <string>

#include "policy/audit.h"
#include "policy/conformance_cases.h"
#include "policy/doctor.h"

namespace clawexec::policy {
namespace {

namespace json = boost::json;
using testing::case_id;
using testing::load_cases;

// Cases that cannot apply to clawexec, with the reason.
const std::map<std::string, std::string>& inapplicable_cases() {
  static const std::map<std::string, std::string> cases = {
      {"oc-1131", "security.exposure.open_channels_with_exec needs chat channels; clawexec has none"},
  };
  return cases;
}

const json::value& field(const json::object& c, std::string_view key) {
  static const json::value kEmpty = json::object();
  auto it = c.find(key);
  return it == c.end() ? kEmpty : it->value();
}

std::vector<std::string> strings(const json::value& array) {
  std::vector<std::string> out;
  for (const json::value& v : array.as_array()) out.emplace_back(v.as_string());
  return out;
}

TEST(AuditConformance, SecurityAuditFindingsMatchTheReferenceCases) {
  int ran = 0;
  int skipped = 0;
  for (const json::object& c : load_cases({"collectSecurityAuditFindings"})) {
    const std::string id = case_id(c);
    if (inapplicable_cases().count(id)) {
      ++skipped;
      continue;
    }
    ++ran;
    std::vector<AuditFinding> findings = collect_exec_audit_findings(field(c, "cfg"), field(c, "approvals"));
    std::map<std::string, std::string> by_id;
    for (const AuditFinding& f : findings) by_id[f.check_id] = std::string(to_string(f.severity));
    for (const auto& expected : c.at("expect").as_object()) {
      std::string check(expected.key());
      if (expected.value().is_null()) {
        EXPECT_EQ(by_id.count(check), 0u) << id << ": unexpected " << check;
      } else {
        ASSERT_EQ(by_id.count(check), 1u) << id << ": missing " << check;
        EXPECT_EQ(by_id[check], expected.value().as_string()) << id << ": severity of " << check;
      }
    }
  }
  EXPECT_EQ(ran, 5);
  EXPECT_EQ(skipped, 1);
}

TEST(AuditConformance, DoctorRepairMatchesTheReferenceCases) {
  int ran = 0;
  for (const json::object& c : load_cases({"maybeRepairExecSafeBinProfiles"})) {
    const std::string id = case_id(c);
    ++ran;
    SafeBinProfileRepair repair = maybe_repair_exec_safe_bin_profiles(field(c, "cfg"));
    const json::object& expect = c.at("expect").as_object();
    EXPECT_EQ(repair.changes, strings(expect.at("changes"))) << id;
    EXPECT_EQ(repair.warnings, strings(expect.at("warnings"))) << id;
    const json::value& profiles = expect.at("config.tools.exec.safeBinProfiles");
    const json::object& exec = repair.config.at("tools").at("exec").as_object();
    if (profiles.is_string() && profiles.as_string() == "<undefined>") {
      EXPECT_FALSE(exec.contains("safeBinProfiles")) << id;
      EXPECT_FALSE(repair.config_changed) << id;
    } else {
      ASSERT_TRUE(exec.contains("safeBinProfiles")) << id;
      EXPECT_EQ(exec.at("safeBinProfiles"), profiles) << id;
      EXPECT_TRUE(repair.config_changed) << id;
    }
  }
  EXPECT_EQ(ran, 3);
}

TEST(AuditConformance, SafeBinCoverageScanMatchesTheReferenceCases) {
  int ran = 0;
  for (const json::object& c : load_cases({"scanExecSafeBinCoverage"})) {
    const std::string id = case_id(c);
    ++ran;
    std::vector<SafeBinCoverageHit> hits = scan_exec_safe_bin_coverage(field(c, "cfg"));
    json::array actual;
    for (const SafeBinCoverageHit& hit : hits) {
      json::object o{{"scopePath", hit.scope_path}, {"bin", hit.bin}};
      if (hit.kind == SafeBinCoverageKind::kMissingProfile) {
        o["kind"] = "missingProfile";
        o["isInterpreter"] = hit.is_interpreter;
      } else {
        o["kind"] = "riskySemantics";
        o["warning"] = hit.warning;
      }
      actual.push_back(std::move(o));
    }
    EXPECT_EQ(json::value(actual), c.at("expect")) << id << ": " << json::serialize(actual);
  }
  EXPECT_EQ(ran, 1);
}

// Replaces every "<tmp>" in `text` with `dir`.
std::string substitute(std::string text, const std::string& dir) {
  for (size_t at = text.find("<tmp>"); at != std::string::npos; at = text.find("<tmp>", at + dir.size())) {
    text.replace(at, 5, dir);
  }
  return text;
}

TEST(AuditConformance, TrustedDirHintsMatchTheReferenceCases) {
  const std::string tmp = "/stub/tmp";
  int ran = 0;
  for (const json::object& c : load_cases({"scanExecSafeBinTrustedDirHints+collectExecSafeBinTrustedDirHintWarnings"})) {
    const std::string id = case_id(c);
    ++ran;
    // The case's stub executables: every expected resolvedPath exists in the fake file system.
    std::set<std::string> executables;
    for (const json::value& hit : c.at("expect").at("hits").as_array()) {
      executables.insert(substitute(std::string(hit.at("resolvedPath").as_string()), tmp));
    }
    FsView fs;
    fs.is_executable_file = [&](const std::string& p) { return executables.count(p) != 0; };
    fs.realpath = [&](const std::string& p) -> std::optional<std::string> {
      if (executables.count(p) || p == tmp) return p;
      return std::nullopt;
    };
    // "<tmp>:..." - the stub dir first, then directories that hold nothing in the fake.
    ResolveContext ctx{"/stub/cwd", tmp + ":/nonexistent/bin", "/stub/home", &fs};
    std::vector<SafeBinTrustedDirHint> hits = scan_exec_safe_bin_trusted_dir_hints(field(c, "cfg"), ctx);
    const json::array& expected_hits = c.at("expect").at("hits").as_array();
    ASSERT_EQ(hits.size(), expected_hits.size()) << id;
    for (size_t i = 0; i < hits.size(); ++i) {
      EXPECT_EQ(hits[i].scope_path, expected_hits[i].at("scopePath").as_string()) << id;
      EXPECT_EQ(hits[i].bin, expected_hits[i].at("bin").as_string()) << id;
      EXPECT_EQ(hits[i].resolved_path, substitute(std::string(expected_hits[i].at("resolvedPath").as_string()), tmp)) << id;
    }
    std::vector<std::string> expected_warnings;
    for (const std::string& w : strings(c.at("expect").at("warnings"))) expected_warnings.push_back(substitute(w, tmp));
    EXPECT_EQ(collect_exec_safe_bin_trusted_dir_hint_warnings(hits), expected_warnings) << id;
  }
  EXPECT_EQ(ran, 1);
}

}  // namespace
}  // namespace clawexec::policy
