#include "config/env_lookup.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace clawexec::config {
namespace {

TEST(StrictInteger, AcceptsSignedAsciiDigitsAfterJavaScriptTrim) {
  EXPECT_EQ(parse_strict_integer("42"), 42);
  EXPECT_EQ(parse_strict_integer(" 42 "), 42);
  EXPECT_EQ(parse_strict_integer("\t7\n"), 7);
  EXPECT_EQ(parse_strict_integer("\u00a042\u3000"), 42);
  EXPECT_EQ(parse_strict_integer("+15"), 15);
  EXPECT_EQ(parse_strict_integer("-5"), -5);
  EXPECT_EQ(parse_strict_integer("007"), 7);
  EXPECT_EQ(parse_strict_integer("-0"), 0);
  EXPECT_EQ(parse_strict_integer("00000000000000000000000001"), 1);
  EXPECT_EQ(parse_strict_integer("9007199254740991"), 9007199254740991);
  EXPECT_EQ(parse_strict_integer("-9007199254740991"), -9007199254740991);
}

TEST(StrictInteger, RejectsEverythingElse) {
  for (const char* text : {"", "  ", "+", "-", "1e3", "0x10", "1.0", "1.", ".5", "12abc", "1 2", "++1",
                           "\u0661\u0662", "9007199254740992", "99999999999999999999999", "Infinity"}) {
    EXPECT_EQ(parse_strict_integer(text), std::nullopt) << text;
  }
}

TEST(EnvInteger, FallsBackToTheLegacyNameOnlyWhenThePrimaryIsUnsetOrEmpty) {
  EXPECT_EQ(read_env_integer(env_from_map({{"NEW", "5"}, {"OLD", "6"}}), "NEW", "OLD"), 5);
  EXPECT_EQ(read_env_integer(env_from_map({{"OLD", "6"}}), "NEW", "OLD"), 6);
  EXPECT_EQ(read_env_integer(env_from_map({{"NEW", ""}, {"OLD", "6"}}), "NEW", "OLD"), 6);
  EXPECT_EQ(read_env_integer(env_from_map({{"NEW", "x"}, {"OLD", "6"}}), "NEW", "OLD"), std::nullopt);
  EXPECT_EQ(read_env_integer(env_from_map({{"NEW", " "}, {"OLD", "6"}}), "NEW", "OLD"), std::nullopt);
  EXPECT_EQ(read_env_integer(env_from_map({{"OLD", "6"}}), "NEW"), std::nullopt);
  EXPECT_EQ(read_env_integer(EnvLookup(), "NEW", "OLD"), std::nullopt);
}

TEST(EnvInteger, ProcessEnvReadsTheRealEnvironment) {
  ASSERT_EQ(setenv("CLAWEXEC_CONFIG_TEST_VAR", "123", 1), 0);
  EnvLookup env = process_env();
  EXPECT_EQ(env("CLAWEXEC_CONFIG_TEST_VAR"), "123");
  unsetenv("CLAWEXEC_CONFIG_TEST_VAR");
  EXPECT_EQ(env("CLAWEXEC_CONFIG_TEST_VAR"), std::nullopt);
}

}  // namespace
}  // namespace clawexec::config
