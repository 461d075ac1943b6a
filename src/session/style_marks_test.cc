// Colour marks beside session output: positioned in stream units, kept only for what the
// aggregate holds (plus what is still in effect where it begins), bounded under a flood, and
// mapped onto log slices and follow chunks.

#include "session/style_marks.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/utf.h"
#include "session/log_slice.h"
#include "session/output_buffer.h"
#include "term/output_sanitizer.h"

namespace clawexec::session {
namespace {

// Feeds raw output through the sanitizer into a buffer, as exec::Run does.
void feed(OutputBuffer& buffer, term::OutputSanitizer& sanitizer, std::string_view bytes) {
  std::string text;
  std::vector<term::SgrMark> marks;
  sanitizer.feed(bytes, text, &marks);
  buffer.append(Stream::kStdout, text, marks);
}

std::vector<std::pair<uint64_t, std::string>> positions(const OutputBuffer& buffer) {
  std::vector<std::pair<uint64_t, std::string>> out;
  for (const StyleMark& m : buffer.style_marks().marks()) out.emplace_back(m.at, m.params);
  return out;
}

using Positions = std::vector<std::pair<uint64_t, std::string>>;

TEST(StyleMarks, PositionsAreStreamUnitsAcrossAppends) {
  OutputBuffer buffer;
  term::OutputSanitizer sanitizer;
  feed(buffer, sanitizer, "ab\x1b[31m");        // a mark at the very end of a read
  feed(buffer, sanitizer, "\xF0\x9F\x98\x80");  // one emoji: two UTF-16 units
  feed(buffer, sanitizer, "\x1b[1");
  feed(buffer, sanitizer, ";4m\xC3\xA9x\x1b[0m");
  EXPECT_EQ(buffer.aggregated(), "ab\xF0\x9F\x98\x80\xC3\xA9x");
  EXPECT_EQ(positions(buffer), (Positions{{2, "31"}, {4, "1;4"}, {6, "0"}}));
}

TEST(StyleMarks, TheAgentsTextIsUnchanged) {
  OutputBuffer with;
  OutputBuffer without;
  term::OutputSanitizer sanitizer;
  const std::string_view input = "\x1b[31mred\x1b[0m plain \x1b[1;32mgreen\x1b[0m\n";
  feed(with, sanitizer, input);
  without.append(Stream::kStdout, term::sanitize_output(input));
  EXPECT_EQ(with.aggregated(), without.aggregated());
  EXPECT_EQ(with.drain_pending().text, without.drain_pending().text);
  EXPECT_EQ(with.total_output_chars(), without.total_output_chars());
}

TEST(StyleMarks, NothingIsRecordedAfterSeal) {
  OutputBuffer buffer;
  buffer.seal();
  std::vector<term::SgrMark> marks{{0, "31"}};
  buffer.append(Stream::kStdout, "x", marks);
  EXPECT_TRUE(buffer.style_marks().empty());
}

TEST(StyleMarks, MarksThatAreNotSgrParametersAreRefused) {
  OutputBuffer buffer;
  std::vector<term::SgrMark> marks{{0, "31"}, {1, "\x1b]0;x\x07"}, {1, "1m<b>"}, {1, std::string(300, '1')}};
  buffer.append(Stream::kStdout, "xy", marks);
  EXPECT_EQ(positions(buffer), (Positions{{0, "31"}}));
}

TEST(StyleMarks, MarksBeforeTheRetainedAggregateGoUnlessStillInEffect) {
  OutputBuffer buffer(OutputLimits{10, 10});
  term::OutputSanitizer sanitizer;
  feed(buffer, sanitizer, "\x1b[31mab\x1b[0mcd\x1b[1mef\x1b[4mgh");
  feed(buffer, sanitizer, "0123456789");  // the aggregate now starts at unit 8 ("gh" cut too)
  // Red was reset before the retained text: both go. Bold and underline still apply there.
  EXPECT_EQ(positions(buffer), (Positions{{4, "1"}, {6, "4"}}));
  EXPECT_EQ(buffer.style_marks().in_effect_before(buffer.aggregate_start_chars()), (std::vector<std::string>{"1", "4"}));
  feed(buffer, sanitizer, "\x1b[mxyz0123456789");  // a reset, then it falls off too
  EXPECT_TRUE(buffer.style_marks().empty());
}

TEST(StyleMarks, AFloodOfColourCodesKeepsAFixedNumberOfMarks) {
  OutputBuffer buffer;
  term::OutputSanitizer sanitizer;
  std::string chunk;
  for (int i = 0; i < 1000; ++i) chunk += "\x1b[3" + std::to_string(i % 8) + "mx";
  for (int i = 0; i < 500; ++i) feed(buffer, sanitizer, chunk);  // 500 000 marks
  EXPECT_EQ(buffer.style_marks().size(), kMaxStyleMarks);
  // The newest are the ones kept.
  EXPECT_EQ(buffer.style_marks().marks().back().at, buffer.total_output_chars() - 1);
  // A small aggregate and colours that are never reset: of the marks before the aggregate,
  // only the newest kMaxCarriedStyleMarks stay.
  OutputBuffer bare(OutputLimits{100, 100});
  for (int i = 0; i < 100; ++i) feed(bare, sanitizer, std::string(5000, 'x') + chunk);
  EXPECT_LE(bare.style_marks().size(), kMaxStyleMarks);
  uint64_t before_start = 0;
  for (const StyleMark& m : bare.style_marks().marks()) before_start += m.at < bare.aggregate_start_chars();
  EXPECT_LE(before_start, kMaxCarriedStyleMarks);
}

TEST(StyleMarks, InEffectBeforeStopsAtTheLastResetAndIsBounded) {
  StyleMarks marks;
  marks.add(1, "31");
  marks.add(2, "0;0");
  marks.add(3, "1");
  marks.add(4, "32");
  marks.add(9, "4");
  EXPECT_EQ(marks.in_effect_before(9), (std::vector<std::string>{"1", "32"}));
  EXPECT_EQ(marks.in_effect_before(2), (std::vector<std::string>{"31"}));
  StyleMarks many;
  for (uint64_t i = 0; i < 1000; ++i) many.add(i, "1");
  EXPECT_EQ(many.in_effect_before(1000).size(), kMaxCarriedStyleMarks);
}

TEST(StyleMarks, BetweenIsInclusiveAndRelative) {
  StyleMarks marks;
  marks.add(5, "31");
  marks.add(10, "0");
  marks.add(11, "1");
  EXPECT_EQ(marks.between(5, 10), (std::vector<TextStyle>{{0, "31"}, {5, "0"}}));
  EXPECT_EQ(marks.between(6, 20), (std::vector<TextStyle>{{4, "0"}, {5, "1"}}));
}

TEST(SliceStyles, MarksLandOnTheirCharactersInTheSliceText) {
  OutputBuffer buffer;
  term::OutputSanitizer sanitizer;
  feed(buffer, sanitizer, "one\r\n\x1b[31mtw\xF0\x9F\x98\x80o\x1b[0m\r\nth\x1b[1mree\n");
  LogSlice all = slice_log(buffer.aggregated(), std::nullopt, std::nullopt);
  ASSERT_EQ(all.text, "one\ntw\xF0\x9F\x98\x80o\nthree");
  // CR LF became LF: red starts at 4, the reset follows the emoji (2 units) at 9.
  EXPECT_EQ(slice_styles(buffer, all), (std::vector<TextStyle>{{4, "31"}, {9, "0"}, {12, "1"}}));
  // From line 1: the same marks, 4 units earlier.
  LogSlice from_two = slice_log(buffer.aggregated(), 1.0, std::nullopt);
  EXPECT_EQ(slice_styles(buffer, from_two), (std::vector<TextStyle>{{0, "31"}, {5, "0"}, {8, "1"}}));
  // Line 2 alone: bold starts inside it, red was reset before it.
  EXPECT_EQ(slice_styles(buffer, slice_log(buffer.aggregated(), 2.0, 1.0)), (std::vector<TextStyle>{{2, "1"}}));
}

TEST(SliceStyles, AColourStartedOnAnEarlierLineIsCarriedToTheSliceStart) {
  OutputBuffer buffer;
  term::OutputSanitizer sanitizer;
  feed(buffer, sanitizer, "\x1b[32ma\nb\n\x1b[1mc\nd\n");
  LogSlice last = slice_log(buffer.aggregated(), std::nullopt, 1.0);
  ASSERT_EQ(last.text, "d");
  EXPECT_EQ(slice_styles(buffer, last), (std::vector<TextStyle>{{0, "32"}, {0, "1"}}));
  feed(buffer, sanitizer, "\x1b[0m\ne\n");
  EXPECT_TRUE(slice_styles(buffer, slice_log(buffer.aggregated(), std::nullopt, 1.0)).empty());
}

TEST(SliceStyles, EachOffsetIsWithinTheSliceText) {
  OutputBuffer buffer(OutputLimits{300, 300});
  term::OutputSanitizer sanitizer;
  for (int i = 0; i < 200; ++i) {
    feed(buffer, sanitizer, "l\xC3\xA9ne \x1b[3" + std::to_string(i % 8) + "m" + std::to_string(i) + "\r\n\x1b[0m");
  }
  for (double offset : {0.0, 3.0, 10.0, 30.0}) {
    LogSlice slice = slice_log(buffer.aggregated(), offset, 5.0);
    const size_t length = utf16_length(slice.text);
    size_t last = 0;
    for (const TextStyle& s : slice_styles(buffer, slice)) {
      EXPECT_LE(s.offset, length);
      EXPECT_GE(s.offset, last);
      last = s.offset;
    }
  }
}

}  // namespace
}  // namespace clawexec::session
