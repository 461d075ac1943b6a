#include "term/output_sanitizer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "term/unicode_format.h"
#include "term/sanitizer_test_support.h"

namespace clawexec::term {
namespace {

using namespace ::clawexec::term::testing;

using namespace std::string_view_literals;


std::string repeat(std::string_view s, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}

TEST(OutputSanitizer, PlainTextPassesUnchanged) {
  EXPECT_EQ(sanitize_output("hello world\n"), "hello world\n");
  EXPECT_EQ(sanitize_output(""), "");
  const std::string long_text = repeat("The quick brown fox; 0123456789 ~!@#$%^&*()\n", 1000);
  EXPECT_EQ(sanitize_output(long_text), long_text);
}

TEST(OutputSanitizer, KeepsTabLineFeedAndCarriageReturnWithoutCollapsing) {
  EXPECT_EQ(sanitize_output("a\tb\nc\rd\r\n"), "a\tb\nc\rd\r\n");
  EXPECT_EQ(sanitize_output("10%\r20%\r100%\r\n"), "10%\r20%\r100%\r\n");
}

TEST(OutputSanitizer, EscapesEveryOtherC0ControlAsLowerCaseHex) {
  for (int c = 0; c < 0x20; ++c) {
    if (c == '\t' || c == '\n' || c == '\r' || c == 0x1B) continue;
    const std::string input = std::string("a") + static_cast<char>(c) + "b";
    char expected[16];
    std::snprintf(expected, sizeof expected, "a\\x%02xb", c);
    EXPECT_EQ(sanitize_output(input), expected) << "control " << c;
  }
  EXPECT_EQ(sanitize_output("\x1f"), "\\x1f");
  EXPECT_EQ(sanitize_output("\x0b\x0c"), "\\x0b\\x0c");
}

TEST(OutputSanitizer, EscapesDelete) {
  EXPECT_EQ(sanitize_output("a\x7f"
                            "b"),
            "a\\x7fb");
}

TEST(OutputSanitizer, EscapesC1ControlsDecodedFromUtf8) {
  EXPECT_EQ(sanitize_output("\xC2\x80"), "\\x80");
  EXPECT_EQ(sanitize_output("x\xC2\x85y"), "x\\x85y");
  EXPECT_EQ(sanitize_output("\xC2\x9C"), "\\x9c");  // ST outside a string is just a control
  EXPECT_EQ(sanitize_output("\xC2\x9F"), "\\x9f");
  EXPECT_EQ(sanitize_output("\xC2\xA0"), "\xC2\xA0");  // NBSP is not a control
}

TEST(OutputSanitizer, CancelCharactersOutsideSequencesAreEscapedControls) {
  EXPECT_EQ(sanitize_output("a\x18"
                            "b\x1a"
                            "c"),
            "a\\x18b\\x1ac");
}

TEST(OutputSanitizer, RemovesFormatCharacters) {
  EXPECT_EQ(sanitize_output("a\u200Bb\u200Dc\uFEFFd\u00ADe"), "abcde");
  EXPECT_EQ(sanitize_output("\u202Eevil\u202C \u2066x\u2069"), "evil x");
  EXPECT_EQ(sanitize_output("tag\U000E0041\U000E007F end"), "tag end");
  EXPECT_EQ(sanitize_output("\u0600\u061C\u06DD\u070F\u0890\u08E2\u180E"), "");
  EXPECT_EQ(
      sanitize_output("\uFFF9\uFFFB\U000110BD\U000110CD\U00013430\U0001BCA0\U0001D173\U000E0001"),
      "");
}

TEST(OutputSanitizer, KeepsNeighboursOfFormatRanges) {
  const std::string kept = "\u00AC\u00AE\u05FF\u0606\u200A\u2010\u2065\u2070\uFEFE\uFFF8\uFFFC";
  EXPECT_EQ(sanitize_output(kept), kept);
  const std::string astral = "\U000E0000\U000E0002\U000E0080\U0001D172\U0001D17B";
  EXPECT_EQ(sanitize_output(astral), astral);
}

TEST(UnicodeFormat, RangeBoundaries) {
  for (const CodePointRange& range : kFormatRanges) {
    const auto first = static_cast<uint32_t>(range.first);
    const auto last = static_cast<uint32_t>(range.last);
    EXPECT_TRUE(is_format_code_point(range.first)) << std::hex << first;
    EXPECT_TRUE(is_format_code_point(range.last)) << std::hex << last;
    EXPECT_FALSE(is_format_code_point(range.first - 1)) << std::hex << first - 1;
    EXPECT_FALSE(is_format_code_point(range.last + 1)) << std::hex << last + 1;
  }
  EXPECT_FALSE(is_format_code_point('a'));
  EXPECT_FALSE(is_format_code_point(0x4E2D));
}

TEST(OutputSanitizer, KeepsValidMultiByteText) {
  const std::string text = "caf\u00E9 \u20AC \u4E2D\u6587 \U0001F600 \U0010FFFD\n";
  EXPECT_EQ(sanitize_output(text), text);
}

TEST(OutputSanitizer, CharacterSplitAcrossChunksIsDecodedWhole) {
  expect_same_for_every_split("a\u00E9b\u20ACc\U0001F600d", "a\u00E9b\u20ACc\U0001F600d");
  EXPECT_EQ(sanitize_chunks({"\xF0\x9F", "\x98", "\x80"}), "\U0001F600");
}

TEST(OutputSanitizer, InvalidBytesBecomeReplacementCharacters) {
  // Checked whole and split at every position (the per-byte decoder has its own checks).
  expect_same_for_every_split("a\xFF" "b", std::string("a") + std::string(kFffd) + "b");
  expect_same_for_every_split("\x80\xBF", repeat(kFffd, 2));          // lone continuations
  expect_same_for_every_split("\xC0\x80", repeat(kFffd, 2));          // overlong lead
  expect_same_for_every_split("\xE0\x80\x80", repeat(kFffd, 3));      // overlong 3-byte
  expect_same_for_every_split("\xF0\x80\x80\x80", repeat(kFffd, 4));  // overlong 4-byte
  expect_same_for_every_split("\xED\xA0\x80", repeat(kFffd, 3));      // surrogate
  expect_same_for_every_split("\xF4\x90\x80\x80", repeat(kFffd, 4));  // above U+10FFFF
  expect_same_for_every_split("\xF5\xF8\x88", repeat(kFffd, 3));
  // The boundary values themselves are valid.
  expect_same_for_every_split("\xE0\xA0\x80\xED\x9F\xBF\xF0\x90\x80\x80\xF4\x8F\xBF\xBF",
                              "\u0800\uD7FF\U00010000\U0010FFFF");
}

TEST(OutputSanitizer, TruncatedSequenceIsOneReplacementCharacter) {
  // Maximal subpart: a valid prefix cut short by a non-continuation byte is one U+FFFD.
  EXPECT_EQ(sanitize_output("\xF0\x9F\x98"
                            "A"),
            std::string(kFffd) + "A");
  EXPECT_EQ(sanitize_output("\xE2\x82\xE2\x82\xAC"), std::string(kFffd) + "\u20AC");
  EXPECT_EQ(sanitize_output("\xE2(x"), std::string(kFffd) + "(x");
  expect_same_for_every_split(
      "\xF0\x9F\x98"
      "A\xE2\x82\xE2\x82\xAC",
      std::string(kFffd) + "A" + std::string(kFffd) + "\u20AC");
}

TEST(OutputSanitizer, IncompleteSequenceAtEndOfStreamBecomesReplacementCharacter) {
  OutputSanitizer sanitizer;
  std::string out;
  sanitizer.feed("ok\xF0\x9F\x98", out);
  EXPECT_EQ(out, "ok");  // still waiting for the last byte
  sanitizer.finish(out);
  EXPECT_EQ(out, std::string("ok") + std::string(kFffd));
}

TEST(OutputSanitizer, IsReusableAfterFinish) {
  OutputSanitizer sanitizer;
  std::string out;
  sanitizer.feed("a\x1b]0;unterminated title", out);
  sanitizer.finish(out);
  sanitizer.feed("b", out);
  sanitizer.finish(out);
  EXPECT_EQ(out, "ab");
}

TEST(OutputSanitizer, AppendsToExistingOutput) {
  OutputSanitizer sanitizer;
  std::string out = "prefix:";
  sanitizer.feed("\x1b[1mbold\x1b[0m", out);
  EXPECT_EQ(out, "prefix:bold");
}

TEST(OutputSanitizer, ControlsAndSequencesAcrossLongRunsAreHandled) {
  // Long plain runs around the special bytes exercise the block-wise fast path.
  const std::string a(37, 'a');
  const std::string b(41, 'b');
  EXPECT_EQ(
      sanitize_output(a + "\x01" + b + "\x1b[31m" + a + "\xC2\x85" + b + "\xFF" + a + "\u200B" + b),
      a + "\\x01" + b + a + "\\x85" + b + std::string(kFffd) + a + b);
  for (size_t pad = 0; pad < 40; ++pad) {
    const std::string lead(pad, 'x');
    EXPECT_EQ(sanitize_output(lead + "\x07"
                                     "\u00E9\n"),
              lead + "\\x07\u00E9\n")
        << pad;
  }
}

TEST(OutputSanitizer, ResultDoesNotDependOnChunkBoundaries) {
  std::mt19937 rng(1234);
  const std::vector<std::string> pieces = {"\x1b",     "[",        "]",
                                           "?",        "1",        "6",
                                           ";",        "h",        "n",
                                           "m",        "A",        "(",
                                           "#",        "\x07",     "\\",
                                           "\x18",     "\xC2\x9B", "\xC2\x9C",
                                           "\xC2\x9D", "\xE2\x82", "\xAC",
                                           "\xF0",     "\xFF",     "\u200B",
                                           "\n",       "text",     "\xE4\xB8\xAD",
                                           "\x01",     "\x7f",     "0123456789abcdef0123"};
  for (int round = 0; round < 300; ++round) {
    std::string input;
    const int count = 1 + static_cast<int>(rng() % 40);
    for (int i = 0; i < count; ++i) input += pieces[rng() % pieces.size()];
    const std::string whole = sanitize_output(input);
    std::vector<std::string_view> chunks;
    size_t pos = 0;
    while (pos < input.size()) {
      const size_t size = 1 + rng() % 7;
      chunks.push_back(std::string_view(input).substr(pos, size));
      pos += size;
    }
    EXPECT_EQ(sanitize_chunks(chunks), whole) << "round " << round;
  }
}

}  // namespace
}  // namespace clawexec::term
