#include "policy/glob.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "policy/allowlist_match.h"

namespace clawexec::policy {
namespace {

bool m(std::string_view pattern, std::string_view target) {
  return matches_exec_allowlist_pattern(pattern, target, "/home/u");
}

TEST(Glob, SingleStarStaysInsideOneSegmentDoubleStarCrosses) {
  EXPECT_FALSE(m("/tmp/*/tool", "/tmp/a/b/tool"));
  EXPECT_TRUE(m("/tmp/*/tool", "/tmp/a/tool"));
  EXPECT_TRUE(m("/tmp/**/tool", "/tmp/a/b/tool"));
  EXPECT_TRUE(m("/usr/bin/*", "/usr/bin/sub/../env"));
  EXPECT_FALSE(m("/usr/bin/**", "/usr/bin/../../bin/sh"));
}

TEST(Glob, RegexAndShellGlobCharactersAreLiteral) {
  EXPECT_TRUE(m("/opt/builds/tool[1](stable)", "/opt/builds/tool[1](stable)"));
  EXPECT_FALSE(m("/opt/builds/tool[12]", "/opt/builds/tool1"));
  EXPECT_FALSE(m("/opt/{a,b}/x", "/opt/a/x"));
  EXPECT_FALSE(m("/usr/bin/g.+", "/usr/bin/gcc"));
  EXPECT_TRUE(m("/usr/bin/*++", "/usr/bin/g++"));
}

TEST(Glob, TildeExpandsToTheGivenHomeOnly) {
  EXPECT_TRUE(m("~/bin/tool", "/home/u/bin/tool"));
  EXPECT_FALSE(m("~/bin/tool", "/home/other/bin/tool"));
  EXPECT_FALSE(m("~other/bin", "/home/u/other/bin"));
  EXPECT_TRUE(m("~other/bin", "~other/bin"));
}

TEST(Glob, DoubleBackslashIsASeparatorAndCaseMatters) {
  EXPECT_TRUE(m("/opt\\\\tool", "/opt/tool"));
  EXPECT_TRUE(m("/opt/tool", "/opt\\\\tool"));
  EXPECT_FALSE(m("/opt\\tool", "/opt/tool"));
  EXPECT_FALSE(m("/tmp/Tool", "/tmp/tool"));
}

TEST(Glob, DotSegmentsOfTheTargetCollapseOnlyForWildcardPatterns) {
  EXPECT_FALSE(m("/opt/tool", "/opt/./tool"));
  EXPECT_TRUE(m("/opt/*", "/opt/./tool"));
  EXPECT_FALSE(m("/opt/**", "/opt/../etc/shadow"));
  EXPECT_FALSE(m("/usr/bin/**", "../../etc/shadow"));
}

TEST(Glob, BlankPatternNeverMatchesAndPatternIsTrimmed) {
  EXPECT_FALSE(m("", ""));
  EXPECT_FALSE(m("   ", "   "));
  EXPECT_TRUE(m("  /bin/ls  ", "/bin/ls"));
}

TEST(Glob, QuestionMarkIsOneNonSlashCharacter) {
  EXPECT_TRUE(m("r?", "rg"));
  EXPECT_FALSE(m("r?", "r"));
  EXPECT_FALSE(m("/tmp/a?b", "/tmp/a/b"));
}

TEST(Glob, ManyStarsDoNotBacktrackExponentially) {
  std::string pattern = "/x/";
  for (int i = 0; i < 40; ++i) pattern += "*a";
  std::string target = "/x/" + std::string(200, 'a') + "b";
  // Exponential backtracking would run for longer than the test suite's timeout.
  EXPECT_FALSE(m(pattern, target));
}

TEST(Glob, CacheOverflowKeepsAnswersRight) {
  for (int i = 0; i < 1200; ++i) {
    std::string p = "/opt/t" + std::to_string(i) + "/*";
    ASSERT_TRUE(m(p, "/opt/t" + std::to_string(i) + "/x")) << i;
    ASSERT_FALSE(m(p, "/opt/t" + std::to_string(i) + "x/y")) << i;
  }
}

TEST(Glob, NormalizePosixPathFollowsNode) {
  EXPECT_EQ(normalize_posix_path("/usr/./bin/../bin//env"), "/usr/bin/env");
  EXPECT_EQ(normalize_posix_path("../../etc"), "../../etc");
  EXPECT_EQ(normalize_posix_path("/../x"), "/x");
  EXPECT_EQ(normalize_posix_path("a/b/"), "a/b/");
  EXPECT_EQ(normalize_posix_path(""), ".");
  EXPECT_EQ(posix_basename("/opt/bin/rg"), "rg");
  EXPECT_EQ(posix_basename("/opt/bin/"), "bin");
}

}  // namespace
}  // namespace clawexec::policy
