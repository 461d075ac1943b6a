#include "policy/allowlist_match.h"

#include <gtest/gtest.h>

namespace clawexec::policy {
namespace {

AllowlistEntry entry(std::string pattern, std::optional<std::string> arg = std::nullopt) {
  AllowlistEntry e;
  e.pattern = std::move(pattern);
  e.arg_pattern = std::move(arg);
  return e;
}

ExecutableResolution resolved(std::string raw, std::optional<std::string> path,
                              std::optional<std::string> real = std::nullopt) {
  ExecutableResolution r;
  r.raw_executable = std::move(raw);
  r.resolved_path = path;
  r.resolved_real_path = std::move(real);
  r.executable_name = path ? path->substr(path->rfind('/') + 1) : r.raw_executable;
  return r;
}

TEST(AllowlistMatch, BareStarMatchesEvenUnresolvedExecutables) {
  std::vector<AllowlistEntry> entries{entry("/usr/bin/rg"), entry(" * ")};
  ExecutableResolution r = resolved("nope", std::nullopt);
  EXPECT_EQ(match_allowlist(entries, &r, nullptr, "/h"), &entries[1]);
  EXPECT_EQ(match_allowlist(entries, nullptr, nullptr, "/h"), nullptr);
  std::vector<AllowlistEntry> star_with_args{entry("*", "^x$")};
  EXPECT_EQ(match_allowlist(star_with_args, &r, nullptr, "/h"), nullptr);
}

TEST(AllowlistMatch, UnresolvedExecutablesMatchNothingElse) {
  std::vector<AllowlistEntry> entries{entry("nope"), entry("/**")};
  ExecutableResolution r = resolved("nope", std::nullopt);
  EXPECT_EQ(match_allowlist(entries, &r, nullptr, "/h"), nullptr);
}

TEST(AllowlistMatch, PathEntriesMatchTheRealpathOnly) {
  ExecutableResolution r = resolved("rg", "/usr/local/bin/rg", "/opt/Cellar/rg/bin/rg");
  std::vector<AllowlistEntry> link{entry("/usr/local/bin/rg")};
  EXPECT_EQ(match_allowlist(link, &r, nullptr, "/h"), nullptr);
  std::vector<AllowlistEntry> real{entry("/opt/Cellar/**/rg")};
  EXPECT_EQ(match_allowlist(real, &r, nullptr, "/h"), &real[0]);
  std::vector<AllowlistEntry> home{entry("~/bin/rg")};
  ExecutableResolution in_home = resolved("~/bin/rg", "/h/bin/rg");
  EXPECT_EQ(match_allowlist(home, &in_home, nullptr, "/h"), &home[0]);
}

TEST(AllowlistMatch, BareNamesOnlyTrustPathLookups) {
  std::vector<AllowlistEntry> entries{entry("rg")};
  ExecutableResolution via_path = resolved("rg", "/usr/bin/rg");
  EXPECT_EQ(match_allowlist(entries, &via_path, nullptr, "/h"), &entries[0]);
  for (const char* raw : {"./rg", "~/rg", "bin\\rg"}) {
    ExecutableResolution r = resolved(raw, "/usr/bin/rg");
    EXPECT_EQ(match_allowlist(entries, &r, nullptr, "/h"), nullptr) << raw;
  }
  std::vector<AllowlistEntry> upper{entry("RG")};
  EXPECT_EQ(match_allowlist(upper, &via_path, nullptr, "/h"), nullptr);
}

TEST(AllowlistMatch, ArgPatternEntriesWinOverEarlierPathOnlyEntriesAndNeedArgv) {
  std::vector<AllowlistEntry> entries{entry("/usr/bin/python3"), entry("/usr/bin/python3", "^a\\.py$"),
                                      entry("python3", "^b\\.py$")};
  ExecutableResolution r = resolved("python3", "/usr/bin/python3");
  Argv a{"python3", "a.py"}, b{"python3", "b.py"}, c{"python3", "c.py"};
  EXPECT_EQ(match_allowlist(entries, &r, &a, "/h"), &entries[1]);
  EXPECT_EQ(match_allowlist(entries, &r, &b, "/h"), &entries[2]);
  EXPECT_EQ(match_allowlist(entries, &r, &c, "/h"), &entries[0]);
  EXPECT_EQ(match_allowlist(entries, &r, nullptr, "/h"), &entries[0]);
  std::vector<AllowlistEntry> only_args{entry("/usr/bin/python3", "^a\\.py$")};
  EXPECT_EQ(match_allowlist(only_args, &r, nullptr, "/h"), nullptr);
  std::vector<AllowlistEntry> empty_arg{entry("/usr/bin/python3", "")};
  EXPECT_EQ(match_allowlist(empty_arg, &r, nullptr, "/h"), &empty_arg[0]);
}

}  // namespace
}  // namespace clawexec::policy
