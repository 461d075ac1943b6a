#include "policy/arg_pattern.h"

#include <gtest/gtest.h>


namespace clawexec::policy {
namespace {

using std::string_literals::operator""s;

TEST(ArgPattern, LegacyPatternsSeeArgumentsJoinedBySpaces) {
  EXPECT_TRUE(match_arg_pattern("^a\\.py$", {"python3", "a.py"}));
  EXPECT_FALSE(match_arg_pattern("^a\\.py$", {"python3", "a.py", "--verbose"}));
  EXPECT_TRUE(match_arg_pattern("^hello world$", {"echo", "hello", "world"}));
  EXPECT_TRUE(match_arg_pattern("json", {"rg", "--json", "x"}));  // not anchored
}

TEST(ArgPattern, GeneratedPatternsSeeNulJoinedArgumentsWithTrailingNul) {
  const std::string one = "^hello world\0$"s;
  EXPECT_TRUE(match_arg_pattern(one, {"python3", "hello world"}));
  EXPECT_FALSE(match_arg_pattern(one, {"python3", "hello", "world"}));
  const std::string none = "^\0\0$"s;
  EXPECT_TRUE(match_arg_pattern(none, {"python3"}));
  EXPECT_FALSE(match_arg_pattern(none, {"python3", ""}));
  const std::string empty_arg = "^\0$"s;
  EXPECT_TRUE(match_arg_pattern(empty_arg, {"python3", ""}));
  EXPECT_FALSE(match_arg_pattern(empty_arg, {"python3"}));
  EXPECT_EQ(arg_pattern_subject("x\0"s, {"a", "b", "c"}), "b\0c\0"s);
}

TEST(ArgPattern, JavaScriptEscapesWork) {
  EXPECT_TRUE(match_arg_pattern("^\\x41\\u00e9$", {"p", "A\xC3\xA9"}));
  EXPECT_TRUE(match_arg_pattern("^a\\x00\0?$"s, {"p", "a"}));
}

TEST(ArgPattern, DollarDoesNotMatchBeforeATrailingNewline) {
  EXPECT_FALSE(match_arg_pattern("^ok$", {"p", "ok\n"}));
}

TEST(ArgPattern, InvalidOrHashedPatternsNeverMatch) {
  EXPECT_FALSE(match_arg_pattern("[invalid", {"p", "[invalid"}));
  EXPECT_FALSE(match_arg_pattern("(", {"p", "("}));
  EXPECT_FALSE(match_arg_pattern("sha256:argv:abc", {"p", "sha256:argv:abc"}));
}

// Without the match limits these would backtrack for longer than the test suite's timeout.
TEST(ArgPattern, CatastrophicBacktrackingIsCutOffAsNoMatch) {
  EXPECT_FALSE(match_arg_pattern("^(a+)+$", {"p", std::string(40, 'a') + "b"}));
  EXPECT_FALSE(match_arg_pattern("^(a|aa)+$", {"p", std::string(60, 'a') + "b"}));
}

}  // namespace
}  // namespace clawexec::policy
