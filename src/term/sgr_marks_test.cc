// The sanitizer's SGR marks: which stripped sequences are reported as colour changes, and at
// which offset of the sanitized text. The text itself must be byte for byte what the agent
// gets without marks, however the stream is cut.

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "term/ansi_stripper.h"
#include "term/output_sanitizer.h"

namespace clawexec::term {
namespace {

using namespace std::string_view_literals;
using Marks = std::vector<std::pair<size_t, std::string>>;

struct Marked {
  std::string text;
  Marks marks;
};

Marked sanitize_marked(const std::vector<std::string_view>& chunks) {
  OutputSanitizer sanitizer;
  Marked out;
  std::vector<SgrMark> marks;
  for (std::string_view chunk : chunks) sanitizer.feed(chunk, out.text, &marks);
  sanitizer.finish(out.text);
  for (SgrMark& m : marks) out.marks.emplace_back(m.offset, std::move(m.params));
  return out;
}

Marked sanitize_marked(std::string_view input) { return sanitize_marked(std::vector<std::string_view>{input}); }

TEST(SgrMarks, ReportsEachColourChangeAtItsOffsetInTheText) {
  Marked m = sanitize_marked("\x1b[31mred\x1b[0m plain \x1b[1;32mgreen\x1b[m\n");
  EXPECT_EQ(m.text, "red plain green\n");
  EXPECT_EQ(m.marks, (Marks{{0, "31"}, {3, "0"}, {10, "1;32"}, {15, ""}}));
}

TEST(SgrMarks, TextIsTheSameWithAndWithoutMarks) {
  const std::string_view input =
      "a\x1b[31mb\x1b[?25lc\x1b]0;title\x07" "d\x1b[2Ke\x1b[38;5;196mf\xC2\x9B" "1mg\x1b[8mh\x1b[0m\r\n\x01";
  EXPECT_EQ(sanitize_marked(input).text, sanitize_output(input));
}

TEST(SgrMarks, ASequenceSplitAcrossFeedsIsReportedOnceAtTheSameOffset) {
  const std::string_view input = "ab\x1b[1;31mcd\x1b[0mef";
  const Marks expected{{2, "1;31"}, {4, "0"}};
  for (size_t cut = 1; cut < input.size(); ++cut) {
    Marked m = sanitize_marked({input.substr(0, cut), input.substr(cut)});
    EXPECT_EQ(m.text, "abcdef") << "cut at " << cut;
    EXPECT_EQ(m.marks, expected) << "cut at " << cut;
  }
  std::vector<std::string_view> bytes;
  for (size_t i = 0; i < input.size(); ++i) bytes.push_back(input.substr(i, 1));
  EXPECT_EQ(sanitize_marked(bytes).marks, expected);
}

TEST(SgrMarks, OffsetsCountFromTheStartOfTheOutputString) {
  OutputSanitizer sanitizer;
  std::string out = "earlier";
  std::vector<SgrMark> marks;
  sanitizer.feed("x\x1b[4my", out, &marks);
  ASSERT_EQ(marks.size(), 1u);
  EXPECT_EQ(marks[0].offset, 8u);
  EXPECT_EQ(out, "earlierxy");
}

TEST(SgrMarks, OtherCsiSequencesAreNotReported) {
  for (std::string_view seq : {"\x1b[2K", "\x1b[10;20H", "\x1b[3A", "\x1b[6n", "\x1b[?1h", "\x1b[31h", "\x1b[1;2r"}) {
    Marked m = sanitize_marked(std::string("a") + std::string(seq) + "b");
    EXPECT_EQ(m.text, "ab") << seq.substr(1);
    EXPECT_TRUE(m.marks.empty()) << seq.substr(1);
  }
}

TEST(SgrMarks, PrivateMarkersIntermediatesAndColonsAreNotReported) {
  for (std::string_view seq : {"\x1b[?1m", "\x1b[>4m", "\x1b[<1m", "\x1b[=5m", "\x1b[1 m", "\x1b[1$m", "\x1b[38:2:1:2:3m",
                               "\x1b[1;?m"}) {
    Marked m = sanitize_marked(std::string("a") + std::string(seq) + "b");
    EXPECT_EQ(m.text, sanitize_output(std::string("a") + std::string(seq) + "b")) << seq.substr(1);
    EXPECT_TRUE(m.marks.empty()) << seq.substr(1);
  }
}

TEST(SgrMarks, EscapesOtherThanCsiAreNotReported) {
  // OSC strings (titles, hyperlinks), the compat grammar ESC[[..., two-character sequences.
  Marked m = sanitize_marked("a\x1b]0;\x1b[31mtitle\x07" "b\x1b]8;;http://x/\x1b\\link\x1b]8;;\x1b\\c\x1b[[31md\x1b" "7e");
  EXPECT_TRUE(m.marks.empty()) << m.marks.front().second;
}

TEST(SgrMarks, HugeParametersAreStrippedButNotReported) {
  const std::string longest(kMaxSgrParamsLength, '1');
  Marked ok = sanitize_marked("a\x1b[" + longest + "mb");
  EXPECT_EQ(ok.marks, (Marks{{1, longest}}));
  for (size_t size : {kMaxSgrParamsLength + 1, size_t{300}, size_t{100000}}) {
    Marked m = sanitize_marked("a\x1b[" + std::string(size, '1') + "mb");
    EXPECT_EQ(m.text, "ab") << size;
    EXPECT_TRUE(m.marks.empty()) << size;
  }
}

TEST(SgrMarks, CancelledOrInterruptedSequencesAreNotReported) {
  // CAN cancels; a new ESC restarts; the restarted sequence alone counts.
  Marked m = sanitize_marked("a\x1b[31\x18m b\x1b[31\x1b[32mc");
  EXPECT_EQ(m.marks, (Marks{{sanitize_output("a\x1b[31\x18m b").size(), "32"}}));
}

TEST(SgrMarks, AControlInsideTheSequenceIsTextAndTheMarkFollowsIt) {
  Marked m = sanitize_marked("a\x1b[3\n1mb");
  EXPECT_EQ(m.text, "a\nb");
  EXPECT_EQ(m.marks, (Marks{{2, "31"}}));
}

TEST(SgrMarks, EightBitCsiCountsAsCsi) {
  Marked m = sanitize_marked("a\xC2\x9B" "33mb");
  EXPECT_EQ(m.text, "ab");
  EXPECT_EQ(m.marks, (Marks{{1, "33"}}));
}

TEST(SgrMarks, AFeedWithoutMarksDoesNotLeaveOneForTheNext) {
  OutputSanitizer sanitizer;
  std::string out;
  sanitizer.feed("\x1b[31m", out);
  std::vector<SgrMark> marks;
  sanitizer.feed("x\x1b[2Ky", out, &marks);
  EXPECT_TRUE(marks.empty());
}

TEST(SgrParams, AcceptsOnlyDigitsAndSemicolonsOfBoundedLength) {
  EXPECT_TRUE(is_sgr_params(""));
  EXPECT_TRUE(is_sgr_params("0"));
  EXPECT_TRUE(is_sgr_params("38;5;196;1"));
  EXPECT_TRUE(is_sgr_params(std::string(kMaxSgrParamsLength, ';')));
  EXPECT_FALSE(is_sgr_params(std::string(kMaxSgrParamsLength + 1, '1')));
  for (std::string_view bad : {"1m"sv, "\x1b"sv, "?1"sv, "1:2"sv, " 1"sv, "1\n"sv, "1\0"sv, "\xD9\xA1"sv}) {
    EXPECT_FALSE(is_sgr_params(bad)) << bad;
  }
}

}  // namespace
}  // namespace clawexec::term
