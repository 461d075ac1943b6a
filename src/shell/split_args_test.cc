#include "shell/split_args.h"

#include <gtest/gtest.h>

namespace clawexec::shell {
namespace {

Argv split(std::string_view s) {
  auto argv = split_shell_args(s);
  EXPECT_TRUE(argv.has_value()) << s;
  return argv.value_or(Argv{});
}

TEST(SplitShellArgs, SplitsOnWhiteSpaceHonouringQuotes) {
  EXPECT_EQ(split("  a  'b c' \"d e\"f "), (Argv{"a", "b c", "d ef"}));
}

TEST(SplitShellArgs, OperatorsAreOrdinaryCharacters) {
  EXPECT_EQ(split("a && b|c;d"), (Argv{"a", "&&", "b|c;d"}));
}

TEST(SplitShellArgs, BackslashEscapesOutsideQuotesAndFewInsideDoubleQuotes) {
  EXPECT_EQ(split(R"(a\ b "c\"d\n" 'e\f')"), (Argv{"a b", "c\"d\\n", "e\\f"}));
}

TEST(SplitShellArgs, HashStartingAWordEndsTheInput) {
  EXPECT_EQ(split("a b#c #d e"), (Argv{"a", "b#c"}));
  EXPECT_EQ(split("a ''#d"), (Argv{"a"}));  // the empty quoted word does not count
}

TEST(SplitShellArgs, DropsEmptyWords) { EXPECT_EQ(split("a '' \"\" b"), (Argv{"a", "b"})); }

TEST(SplitShellArgs, UnicodeWhiteSpaceSeparatesWords) {
  EXPECT_EQ(split("a\xC2\xA0"
                  "b\xE3\x80\x80"
                  "c"),
            (Argv{"a", "b", "c"}));
}

TEST(SplitShellArgs, RejectsUnterminatedQuotesAndTrailingBackslash) {
  EXPECT_FALSE(split_shell_args("a 'b").has_value());
  EXPECT_FALSE(split_shell_args("a \"b").has_value());
  EXPECT_FALSE(split_shell_args("a b\\").has_value());
}

}  // namespace
}  // namespace clawexec::shell
