#include "base/strings.h"

#include <gtest/gtest.h>

namespace clawexec {
namespace {

TEST(LowerTrimmed, TrimsLikeJavaScriptAndLowersAscii) {
  EXPECT_EQ(lower_trimmed("  On-Miss \t\r\n"), "on-miss");
  EXPECT_EQ(lower_trimmed("\xC2\xA0" "Claude-Opus" "\xE2\x80\xA8"), "claude-opus");  // NBSP, LINE SEPARATOR
  EXPECT_EQ(lower_trimmed("\v\fGATEWAY"), "gateway");
  EXPECT_EQ(lower_trimmed("   "), "");
  EXPECT_EQ(lower_trimmed("\xC3\x89t\xC3\xA9"), "\xC3\x89t\xC3\xA9");  // non-ASCII letters are left alone
}

}  // namespace
}  // namespace clawexec
