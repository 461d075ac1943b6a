// Reference conformance cases for allowlist globs and entry matching (spec §4.1, §4.2).

#include <gtest/gtest.h>

#include <map>

#include "policy/allowlist_match.h"
#include "policy/conformance_cases.h"
#include "policy/glob.h"

namespace clawexec::policy {
namespace {

using testing::case_id;
using testing::load_cases;
namespace json = boost::json;

std::string str(const json::value& v) { return std::string(v.as_string()); }

std::optional<std::string> opt_str(const json::object& o, const char* key) {
  auto it = o.find(key);
  if (it == o.end() || !it->value().is_string()) return std::nullopt;
  return str(it->value());
}

Argv to_argv(const json::value& v) {
  Argv out;
  for (const json::value& x : v.as_array()) out.push_back(str(x));
  return out;
}

std::string platform_of(const json::object& c) {
  auto it = c.find("platform");
  return it == c.end() ? "any" : str(it->value());
}

TEST(AllowlistConformance, MatchesExecAllowlistPatternCases) {
  // Windows globs lower-case, strip \\?\ and realpath both sides; we implement POSIX only.
  const std::map<std::string, std::string> kInapplicable = {
      {"oc-0205", "win32: case-insensitive Windows matching"},
      {"oc-0206", "win32: Windows path normalisation"},
      {"oc-0207", "win32: Windows backslash targets"},
      {"oc-0208", "win32: Windows path normalisation"},
  };
  auto cases = load_cases({"matchesExecAllowlistPattern"});
  int ran = 0, skipped = 0;
  for (const json::object& c : cases) {
    const std::string id = case_id(c);
    if (kInapplicable.count(id)) {
      EXPECT_EQ(platform_of(c), "win32") << id;
      ++skipped;
      continue;
    }
    std::string home = "/home/test";
    if (auto it = c.find("env"); it != c.end()) {
      const json::object& env = it->value().as_object();
      if (auto h = opt_str(env, "OPENCLAW_HOME")) {
        home = *h;
      } else if (auto h2 = opt_str(env, "HOME")) {
        home = *h2;
      }
    }
    bool got = matches_exec_allowlist_pattern(str(c.at("pattern")), str(c.at("target")), home);
    EXPECT_EQ(got, c.at("expect").as_bool()) << id;
    ++ran;
  }
  EXPECT_EQ(ran, 17);
  EXPECT_EQ(skipped, 4);
}

AllowlistEntry to_entry(const json::object& o) {
  AllowlistEntry e;
  e.pattern = str(o.at("pattern"));
  e.arg_pattern = opt_str(o, "argPattern");
  e.source = opt_str(o, "source");
  e.id = opt_str(o, "id");
  return e;
}

TEST(AllowlistConformance, MatchAllowlistCases) {
  // Five cases are tagged win32; their inputs are POSIX paths and what they test (argPattern
  // precedence, argPattern entries needing argv) is platform-independent, so they run here
  // under POSIX semantics.
  auto cases = load_cases({"matchAllowlist"});
  int ran = 0, win32 = 0;
  for (const json::object& c : cases) {
    const std::string id = case_id(c);
    if (platform_of(c) == "win32") ++win32;
    std::vector<AllowlistEntry> entries;
    for (const json::value& e : c.at("entries").as_array()) entries.push_back(to_entry(e.as_object()));
    const json::object& r = c.at("resolution").as_object();
    ExecutableResolution res;
    res.raw_executable = str(r.at("rawExecutable"));
    res.resolved_path = opt_str(r, "resolvedPath");
    res.resolved_real_path = opt_str(r, "resolvedRealPath");
    res.executable_name = opt_str(r, "executableName").value_or("");
    std::optional<Argv> argv;
    if (auto it = c.find("argv"); it != c.end()) argv = to_argv(it->value());
    const AllowlistEntry* got =
        match_allowlist(entries, &res, argv ? &*argv : nullptr, "/home/test");
    const json::value& expect = c.at("expect");
    ++ran;
    if (expect.is_null()) {
      EXPECT_EQ(got, nullptr) << id;
      continue;
    }
    ASSERT_NE(got, nullptr) << id;
    const json::object& want = expect.as_object();
    EXPECT_EQ(got->pattern, str(want.at("pattern"))) << id;
    if (auto it = want.find("argPattern"); it != want.end()) {
      if (it->value().is_null()) {
        EXPECT_FALSE(got->arg_pattern.has_value()) << id;
      } else {
        EXPECT_EQ(got->arg_pattern, str(it->value())) << id;
      }
    }
  }
  EXPECT_EQ(ran, 23);
  EXPECT_EQ(win32, 5);
}

}  // namespace
}  // namespace clawexec::policy
