#include "base/utf.h"

#include <gtest/gtest.h>

#include "base/strings.h"

namespace clawexec {
namespace {

TEST(Utf16, CountsAstralCodePointsAsTwoUnits) {
  EXPECT_EQ(utf16_length("abc"), 3u);
  EXPECT_EQ(utf16_length("é"), 1u);
  EXPECT_EQ(utf16_length("€"), 1u);
  EXPECT_EQ(utf16_length("😀"), 2u);
}

TEST(Utf16, SuffixNeverSplitsASurrogatePair) {
  EXPECT_EQ(utf16_suffix("ab😀", 2), "😀");
  EXPECT_EQ(utf16_suffix("ab😀", 1), "");
  EXPECT_EQ(utf16_suffix("ab😀", 3), "b😀");
  EXPECT_EQ(utf16_suffix("abc", 10), "abc");
}

TEST(Utf16, PrefixNeverSplitsASurrogatePair) {
  EXPECT_EQ(utf16_prefix("😀ab", 1), "");
  EXPECT_EQ(utf16_prefix("😀ab", 3), "😀a");
  EXPECT_EQ(utf16_prefix("é€x", 2), "é€");
}

TEST(Utf16, OffsetToBytes) {
  EXPECT_EQ(utf16_offset_to_bytes("aé😀b", 0), 0u);
  EXPECT_EQ(utf16_offset_to_bytes("aé😀b", 2), 3u);
  EXPECT_EQ(utf16_offset_to_bytes("aé😀b", 4), 7u);
  EXPECT_EQ(utf16_offset_to_bytes("aé😀b", 9), 8u);
}

TEST(Utf8, InvalidSequencesBecomeReplacementCharacters) {
  EXPECT_EQ(to_valid_utf8("a\xff" "b"), "a\xEF\xBF\xBD" "b");
  EXPECT_EQ(to_valid_utf8("ok é"), "ok é");
  EXPECT_EQ(to_valid_utf8("\xC3"), "\xEF\xBF\xBD");
}

TEST(JsTrim, StripsUnicodeWhiteSpaceLikeJavaScript) {
  EXPECT_EQ(js_trim(" \t\nhi\r\n "), "hi");
  EXPECT_EQ(js_trim("\xC2\xA0x\xE2\x80\xA8"), "x");
  EXPECT_EQ(js_trim("   "), "");
  EXPECT_EQ(js_trim_end("a \n"), "a");
  EXPECT_EQ(js_trim_start(" a "), "a ");
}

TEST(TruncateMiddle, KeepsBothEnds) {
  EXPECT_EQ(truncate_middle("short", 10), "short");
  EXPECT_EQ(truncate_middle("abcdefghijklmnop", 9), "abc...nop");
}

}  // namespace
}  // namespace clawexec

namespace clawexec {
namespace {

TEST(Utf8, FindInvalidPointsAtTheFirstBadSequence) {
  EXPECT_EQ(find_invalid_utf8("plain é 😀"), std::string_view::npos);
  EXPECT_EQ(find_invalid_utf8("ab\xC0\x80"), 2u);          // overlong
  EXPECT_EQ(find_invalid_utf8("x\xED\xA0\x80"), 1u);       // surrogate
  EXPECT_EQ(find_invalid_utf8("xy\xF4\x90\x80\x80"), 2u);  // above U+10FFFF
  EXPECT_EQ(find_invalid_utf8("abc\xE2\x82"), 3u);         // truncated
}

TEST(Utf8, ReplacementFollowsMaximalSubparts) {
  // A valid lead with a missing continuation is one replacement; the next byte starts afresh.
  EXPECT_EQ(to_valid_utf8("\xE2\x82" "A"), "\xEF\xBF\xBD" "A");
  EXPECT_EQ(to_valid_utf8("\xFF\xFE"), "\xEF\xBF\xBD\xEF\xBF\xBD");
}

}  // namespace
}  // namespace clawexec
