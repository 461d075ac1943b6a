// ANSI grammar as observed through OutputSanitizer (bytes in, text out). Expected values
// were checked against the reference's own sanitizer.

#include "term/ansi_stripper.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "term/output_sanitizer.h"
#include "term/sanitizer_test_support.h"

namespace clawexec::term {
namespace {

using namespace ::clawexec::term::testing;


TEST(AnsiStripping, RemovesColourSequences) {
  expect_same_for_every_split("a\x1b[31mred\x1b[0m b\x1b[1;38;5;208mX\x1b[m", "ared bX");
}

TEST(AnsiStripping, RemovesEightBitCsiWrittenAsUtf8) {
  expect_same_for_every_split(
      "\xC2\x9B"
      "31mX\xC2\x9B?25lY",
      "XY");
}

TEST(AnsiStripping, RawByte9BIsInvalidUtf8NotACsi) {
  EXPECT_EQ(sanitize_output("\x9B"
                            "31mX"),
            std::string(kFffd) + "31mX");
}

TEST(AnsiStripping, OscEndsWithBelStringTerminatorOrEightBitSt) {
  expect_same_for_every_split(
      "a\x1b]0;title\x07"
      "b",
      "ab");
  expect_same_for_every_split("a\x1b]8;;http://x/\x1b\\link\x1b]8;;\x1b\\b", "alinkb");
  expect_same_for_every_split(
      "a\x1b]0;t\xC2\x9C"
      "b",
      "ab");
  expect_same_for_every_split(
      "a\xC2\x9D"
      "0;t\x07"
      "b",
      "ab");
}

TEST(AnsiStripping, UnterminatedOscSwallowsUntilATerminatorInALaterChunk) {
  EXPECT_EQ(sanitize_chunks({"a\x1b]0;ti", "tle\nstill title", " more\x07", "b"}), "ab");
  EXPECT_EQ(sanitize_output("a\x1b]0;never ends\nline"), "a");
}

TEST(AnsiStripping, OscEscapeHandling) {
  // ESC ESC keeps waiting for '\'; ESC followed by anything else is string content.
  EXPECT_EQ(sanitize_output("\x1b]x\x1b\x1b\\b"), "b");
  EXPECT_EQ(sanitize_output("\x1b]x\x1b[31m still osc\x07"
                            "b"),
            "b");
  EXPECT_EQ(sanitize_output("\x1b]x\x1b\x07"
                            "b"),
            "b");
  // CAN/SUB do not cancel an OSC string.
  EXPECT_EQ(sanitize_output("\x1b]x\x18y\x1a\x07"
                            "b"),
            "b");
}

TEST(AnsiStripping, ControlsInsideCsiAreEmittedAndTheSequenceContinues) {
  expect_same_for_every_split("\x1b[3\n1mX", "\nX");
  EXPECT_EQ(sanitize_output("\x1b[3\x01"
                            "1mX"),
            "\\x01X");
  EXPECT_EQ(sanitize_output("\x1b[3\x7f"
                            "1mX"),
            "\\x7fX");
  EXPECT_EQ(sanitize_output("\x1b[\t\r2J"), "\t\r");
}

TEST(AnsiStripping, CanAndSubCancelCsiAndCompatSequences) {
  EXPECT_EQ(sanitize_output("\x1b[31\x18mX"), "mX");
  EXPECT_EQ(sanitize_output("\x1b[31\x1amX"), "mX");
  EXPECT_EQ(sanitize_output("\x1b(\x18"
                            "BX"),
            "BX");
  EXPECT_EQ(sanitize_output("\x1b"
                            "12\x1a"
                            "3X"),
            "3X");
}

TEST(AnsiStripping, CancelAfterBareEscapeIsAnEscapedControl) {
  EXPECT_EQ(sanitize_output("\x1b\x18X"), "\\x18X");
}

TEST(AnsiStripping, NewIntroducerRestartsParsing) {
  EXPECT_EQ(sanitize_output("\x1b[31\x1b[32mX"), "X");
  EXPECT_EQ(sanitize_output("\x1b[31\x1b"
                            "aX"),
            "aX");
  EXPECT_EQ(sanitize_output("\x1b[31\xC2\x9B"
                            "32mX"),
            "X");
  EXPECT_EQ(sanitize_output("\x1b[31\x1b]t\x07X"), "X");
  EXPECT_EQ(sanitize_output("\x1b\xC2\x9D"
                            "x\x07Y"),
            "Y");
}

TEST(AnsiStripping, TwoCharacterEscapeSequences) {
  EXPECT_EQ(sanitize_output("\x1bMX"), "X");
  EXPECT_EQ(sanitize_output("\x1b=X\x1b>Y"), "XY");
  EXPECT_EQ(sanitize_output("\x1b"
                            "cX"),
            "X");
  EXPECT_EQ(sanitize_output("\x1b~X"), "X");
  // Not final characters: the escape is dropped, the character is text.
  EXPECT_EQ(sanitize_output("\x1b"
                            "aX"),
            "aX");
  EXPECT_EQ(sanitize_output("\x1b"
                            "eX"),
            "eX");
  EXPECT_EQ(sanitize_output("\x1b oX"), " oX");
}

TEST(AnsiStripping, CompatGrammarPrefixesAndParameters) {
  EXPECT_EQ(sanitize_output("\x1b(BX"), "X");
  EXPECT_EQ(sanitize_output("\x1b#8 x"), " x");
  EXPECT_EQ(sanitize_output("\x1b"
                            "1;2:3mX"),
            "X");
  EXPECT_EQ(sanitize_output("\x1b"
                            "1234X"),
            "");  // four digits then the final 'X'
  EXPECT_EQ(sanitize_output("\x1b"
                            "12345X"),
            "X");                               // a fifth digit ends it (swallowed)
  EXPECT_EQ(sanitize_output("\x1b(:x"), ":x");  // ':' only counts inside parameters
}

TEST(AnsiStripping, SaveCursorSwallowsAFollowingFinalCharacter) {
  // ESC 7 is parsed as a parameter digit, so a final character right after it is consumed
  // (the reference does the same).
  EXPECT_EQ(sanitize_output("\x1b"
                            "7Hello"),
            "ello");
  EXPECT_EQ(sanitize_output("\x1b"
                            "7hello"),
            "ello");
  EXPECT_EQ(sanitize_output("\x1b"
                            "7 hello"),
            " hello");
}

TEST(AnsiStripping, CsiOfOnlyPrefixCharactersSwitchesToCompatOnBracket) {
  EXPECT_EQ(sanitize_output("\x1b[[AX"), "X");
  EXPECT_EQ(sanitize_output("\x1b[?[5;1~Y"), "Y");
  EXPECT_EQ(sanitize_output("\x1b[1[X"), "X");  // after a parameter '[' is a final byte
}

TEST(AnsiStripping, NonAsciiCharacterEndsASequenceAndIsKept) {
  EXPECT_EQ(sanitize_output("\x1b[3\u00E9"), "\u00E9");
  EXPECT_EQ(sanitize_output("\x1b\u4E2D"), "\u4E2D");
  EXPECT_EQ(sanitize_output("\xC2\x9B\xC2\x85"), "\\x85");
  EXPECT_EQ(sanitize_output("\x1b(\u200Bx"), "x");  // ends the sequence, then removed as Cf
}

TEST(AnsiStripping, UnfinishedSequenceAtEndOfStreamIsDropped) {
  EXPECT_EQ(sanitize_output("ab\x1b[31"), "ab");
  EXPECT_EQ(sanitize_output("ab\x1b"), "ab");
}

TEST(AnsiStripping, DanglingPartialCharacterAtEndGoesThroughTheStripper) {
  EXPECT_EQ(sanitize_output("\x1b]0;\xE2\x82"), "");               // swallowed by the OSC
  EXPECT_EQ(sanitize_output("\x1b\xE2\x82"), std::string(kFffd));  // ends the escape, is text
}

TerminalRequests requests_after(const std::vector<std::string_view>& chunks) {
  OutputSanitizer sanitizer;
  std::string out;
  for (std::string_view chunk : chunks) sanitizer.feed(chunk, out);
  return sanitizer.take_requests();
}

TEST(AnsiStripperRequests, ReportsTheLastCursorKeyModeToggle) {
  EXPECT_EQ(requests_after({"\x1b[?1h"}).cursor_key_mode, CursorKeyMode::kApplication);
  EXPECT_EQ(requests_after({"\x1b[?1l"}).cursor_key_mode, CursorKeyMode::kNormal);
  EXPECT_EQ(requests_after({"x\x1b[?1hy\x1b[?1l"}).cursor_key_mode, CursorKeyMode::kNormal);
  EXPECT_EQ(requests_after({"\x1b[?1l", "\x1b[?1h"}).cursor_key_mode, CursorKeyMode::kApplication);
  EXPECT_EQ(requests_after({"plain"}).cursor_key_mode, std::nullopt);
}

TEST(AnsiStripperRequests, SeesTogglesSplitAcrossChunksOrInEightBitForm) {
  EXPECT_EQ(requests_after({"\x1b[?", "1h"}).cursor_key_mode, CursorKeyMode::kApplication);
  EXPECT_EQ(requests_after({"\xC2", "\x9B?1h"}).cursor_key_mode, CursorKeyMode::kApplication);
  EXPECT_EQ(requests_after({"\x1b[?1\nh"}).cursor_key_mode, CursorKeyMode::kApplication);
}

TEST(AnsiStripperRequests, IgnoresOtherPrivateModes) {
  EXPECT_EQ(requests_after({"\x1b[?12h\x1b[1h\x1b[?1;2h\x1b[?25l\x1b[?1049h"}).cursor_key_mode,
            std::nullopt);
}

TEST(AnsiStripperRequests, CountsCursorPositionRequests) {
  EXPECT_EQ(requests_after({"a\x1b[6nb\x1b[?6n"}).cursor_position_requests, 2u);
  EXPECT_EQ(requests_after({"\x1b[", "6", "n"}).cursor_position_requests, 1u);
  EXPECT_EQ(requests_after({"\x1b[5n\x1b[16n\x1b[6m"}).cursor_position_requests, 0u);
}

TEST(AnsiStripperRequests, TakeRequestsForgetsWhatWasReported) {
  OutputSanitizer sanitizer;
  std::string out;
  sanitizer.feed("\x1b[6n\x1b[?1h", out);
  const TerminalRequests first = sanitizer.take_requests();
  EXPECT_EQ(first.cursor_position_requests, 1u);
  EXPECT_EQ(first.cursor_key_mode, CursorKeyMode::kApplication);
  const TerminalRequests second = sanitizer.take_requests();
  EXPECT_EQ(second.cursor_position_requests, 0u);
  EXPECT_EQ(second.cursor_key_mode, std::nullopt);
  EXPECT_EQ(out, "");
}

TEST(AnsiStripper, KeepReportsVisibleCodePoints) {
  AnsiStripper stripper;
  EXPECT_TRUE(stripper.keep('a'));
  EXPECT_FALSE(stripper.keep(0x1B));
  EXPECT_FALSE(stripper.in_text());
  EXPECT_FALSE(stripper.keep('['));
  EXPECT_TRUE(stripper.keep('\n'));  // executed inside the CSI
  EXPECT_FALSE(stripper.keep('m'));
  EXPECT_TRUE(stripper.in_text());
  EXPECT_FALSE(stripper.keep(0x9D));
  EXPECT_TRUE(stripper.in_osc_string());
  stripper.reset();
  EXPECT_TRUE(stripper.in_text());
}

}  // namespace
}  // namespace clawexec::term
