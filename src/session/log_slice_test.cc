#include "session/log_slice.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace clawexec::session {
namespace {

constexpr auto kAbsent = std::nullopt;
constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::nan("");

std::string numbered_lines(int count, std::string_view eol = "\n") {
  std::string out;
  for (int i = 1; i <= count; ++i) {
    out += "line-" + std::to_string(i);
    out += eol;
  }
  return out;
}

TEST(SliceLog, OnlyLimitShowsTheLastLines) {  // §8.2 #41
  LogSlice slice = slice_log("one\ntwo\nthree\n", kAbsent, 2);
  EXPECT_EQ(slice.text, "two\nthree");
  EXPECT_EQ(slice.total_lines, 3u);
  EXPECT_EQ(slice.total_chars, 14u);
  EXPECT_EQ(slice.tail_note, "");
}

TEST(SliceLog, OffsetAndLimitSelectAWindow) {  // §8.2 #41
  EXPECT_EQ(slice_log("alpha\nbeta\ngamma", 1, 1).text, "beta");
}

TEST(SliceLog, DefaultWindowIsTheLast200LinesWithANote) {  // §8.2 #42
  LogSlice slice = slice_log(numbered_lines(201), kAbsent, kAbsent);
  EXPECT_EQ(slice.text.substr(0, 7), "line-2\n");
  EXPECT_EQ(slice.text.substr(slice.text.size() - 8), "line-201");
  EXPECT_EQ(slice.total_lines, 201u);
  EXPECT_EQ(slice.total_chars, 1701u);
  EXPECT_EQ(slice.tail_note, "\n\n[showing last 200 of 201 lines; pass offset/limit to page]");
}

TEST(SliceLog, OffsetAloneRunsToTheEndWithoutNote) {  // §8.2 #42
  LogSlice slice = slice_log(numbered_lines(201), 30, kAbsent);
  EXPECT_EQ(slice.text.substr(0, 8), "line-31\n");
  EXPECT_EQ(slice.text.substr(slice.text.size() - 8), "line-201");
  EXPECT_EQ(slice.tail_note, "");
}

TEST(SliceLog, NoNoteWhenEverythingFitsTheDefaultWindow) {
  LogSlice slice = slice_log(numbered_lines(200), kAbsent, kAbsent);
  EXPECT_EQ(slice.text.substr(0, 7), "line-1\n");
  EXPECT_EQ(slice.tail_note, "");
}

TEST(SliceLog, CrlfIsALineBreakButALoneCrStaysInTheLine) {
  LogSlice slice = slice_log("a\rb\r\r\nc\n\n", kAbsent, kAbsent);
  EXPECT_EQ(slice.text, "a\rb\r\nc\n");
  EXPECT_EQ(slice.total_lines, 3u);  // "a\rb\r", "c", ""
  EXPECT_EQ(slice.total_chars, 9u);  // of the raw text, CRs included
}

TEST(SliceLog, OnlyOneTrailingEmptyLineIsDropped) {
  EXPECT_EQ(slice_log("\n", kAbsent, kAbsent).total_lines, 1u);
  EXPECT_EQ(slice_log("\n\n\n", kAbsent, kAbsent).total_lines, 3u);
  EXPECT_EQ(slice_log("a\nb\nc\nd\ne", kAbsent, kAbsent).total_lines, 5u);
}

TEST(SliceLog, EmptyTextHasNoLines) {
  LogSlice slice = slice_log("", 0, 10);
  EXPECT_EQ(slice.text, "");
  EXPECT_EQ(slice.total_lines, 0u);
  EXPECT_EQ(slice.total_chars, 0u);
}

TEST(SliceLog, TotalCharsCountsUtf16Units) {
  LogSlice slice = slice_log("\U0001F600x\n\u65e5\u672c\n", kAbsent, kAbsent);
  EXPECT_EQ(slice.total_chars, 7u);
  EXPECT_EQ(slice.total_lines, 2u);
}

TEST(SliceLog, OffsetIsFlooredAndClampedAtZero) {
  const char* text = "a\nb\nc\nd\ne";
  EXPECT_EQ(slice_log(text, 1.7, 1.2).text, "b");
  EXPECT_EQ(slice_log(text, -3, 2).text, "a\nb");
  EXPECT_EQ(slice_log(text, -0.5, kAbsent).text, "a\nb\nc\nd\ne");
  EXPECT_EQ(slice_log(text, 4, kAbsent).text, "e");
  EXPECT_EQ(slice_log(text, 100, 1).text, "");
}

TEST(SliceLog, NegativeOrZeroLimitSelectsNothing) {
  const char* text = "a\nb\nc";
  EXPECT_EQ(slice_log(text, kAbsent, -1).text, "");
  EXPECT_EQ(slice_log(text, 2, -1).text, "");
  EXPECT_EQ(slice_log(text, kAbsent, 0).text, "");
  EXPECT_EQ(slice_log(text, -0.5, -0.5).text, "");
  EXPECT_EQ(slice_log(text, kAbsent, -1).total_lines, 3u);
}

TEST(SliceLog, NonFiniteLimitShowsEverythingAndDisablesTheDefaultWindow) {
  std::string text = numbered_lines(450, "\r\n");
  for (double limit : {kInf, kNaN}) {
    LogSlice slice = slice_log(text, kAbsent, limit);
    EXPECT_EQ(slice.text.substr(0, 7), "line-1\n");
    EXPECT_EQ(slice.total_lines, 450u);
    EXPECT_EQ(slice.tail_note, "");
  }
}

TEST(SliceLog, NonFiniteOffsetCountsAsZero) {
  const char* text = "a\nb\nc\nd\ne";
  EXPECT_EQ(slice_log(text, kInf, 2).text, "a\nb");
  EXPECT_EQ(slice_log(text, -kInf, kAbsent).text, "a\nb\nc\nd\ne");
  EXPECT_EQ(slice_log(text, kNaN, 1).text, "a");
}

TEST(SliceLog, HugeNumbersClampToTheLog) {
  const char* text = "a\nb\nc\nd\ne";
  EXPECT_EQ(slice_log(text, kAbsent, 1e300).text, "a\nb\nc\nd\ne");
  EXPECT_EQ(slice_log(text, 3, 1e300).text, "d\ne");
  EXPECT_EQ(slice_log(text, 1e300, 5).text, "");
}

}  // namespace
}  // namespace clawexec::session
