#include "session/output_buffer.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "base/utf.h"

namespace clawexec::session {
namespace {

std::string repeat(std::string_view s, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}

OutputLimits limits(size_t max_output, size_t pending_max) {
  return OutputLimits{max_output, pending_max};
}

// --- conformance §8.2 #55 and #56 ---------------------------------------------------------

TEST(OutputBuffer, AggregateKeepsLastMaxOutputCharsAndMarksTruncated) {  // #55
  OutputBuffer buffer(limits(10, kDefaultPendingMaxOutputChars));
  buffer.append(Stream::kStdout, "0123456789");
  EXPECT_FALSE(buffer.truncated());
  buffer.append(Stream::kStdout, "abcdef");
  EXPECT_EQ(buffer.aggregated(), "6789abcdef");
  EXPECT_TRUE(buffer.truncated());
}

TEST(OutputBuffer, OversizedChunkKeepsOnlyItsEndInPending) {  // #55
  OutputBuffer buffer(limits(kDefaultMaxOutputChars, 20'000));
  buffer.append(Stream::kStdout, std::string(70'000, 'a') + std::string(20'000, 'b'));
  DrainedOutput drained = buffer.drain_pending();
  EXPECT_EQ(drained.text, std::string(20'000, 'b'));
  EXPECT_TRUE(drained.output_dropped);
}

TEST(OutputBuffer, PendingCapDropsOldestChunksOfThatStreamOnly) {  // #56
  OutputBuffer buffer(limits(kDefaultMaxOutputChars, 10));
  buffer.append(Stream::kStdout, "aaaaaa");
  buffer.append(Stream::kStdout, "bbbbbb");
  buffer.append(Stream::kStderr, "cccccccccccc");
  EXPECT_EQ(buffer.drain_pending().text, "aaaabbbbbbcccccccccc");
}

// --- pending output -------------------------------------------------------------------------

TEST(OutputBuffer, DrainReturnsBothStreamsInArrivalOrder) {
  OutputBuffer buffer;
  buffer.append(Stream::kStdout, "1 out\n");
  buffer.append(Stream::kStderr, "2 err\n");
  buffer.append(Stream::kStdout, "3 out\n");
  buffer.append(Stream::kStderr, "4 err\n");
  DrainedOutput drained = buffer.drain_pending();
  EXPECT_EQ(drained.text, "1 out\n2 err\n3 out\n4 err\n");
  EXPECT_FALSE(drained.output_dropped);
  EXPECT_EQ(buffer.drain_pending().text, "");
  EXPECT_FALSE(buffer.has_pending());
}

TEST(OutputBuffer, OverflowKeepsOtherStreamChunksInPlace) {
  OutputBuffer buffer(limits(1000, 5));
  buffer.append(Stream::kStdout, "ab");
  buffer.append(Stream::kStderr, "XY");
  buffer.append(Stream::kStdout, "cd");
  buffer.append(Stream::kStderr, "Z");
  buffer.append(Stream::kStdout, "efg");  // stdout now 7 > 5: "ab" goes
  EXPECT_EQ(buffer.pending_chars(Stream::kStdout), 5u);
  EXPECT_EQ(buffer.pending_chars(Stream::kStderr), 3u);
  EXPECT_EQ(buffer.drain_pending().text, "XYcdZefg");
}

TEST(OutputBuffer, OverflowTrimsInsideTheOldestChunk) {
  OutputBuffer buffer(limits(1000, 5));
  buffer.append(Stream::kStdout, "abcd");
  buffer.append(Stream::kStderr, "-");
  buffer.append(Stream::kStdout, "ef");  // one unit too many: "a" goes
  EXPECT_EQ(buffer.drain_pending().text, "bcd-ef");
}

TEST(OutputBuffer, DroppedFlagIsSetByOverflowAndClearedByDrain) {
  OutputBuffer buffer(limits(1000, 4));
  buffer.append(Stream::kStdout, "abcd");
  EXPECT_FALSE(buffer.pending_output_dropped());  // exactly at the cap
  buffer.append(Stream::kStdout, "e");
  EXPECT_TRUE(buffer.pending_output_dropped());
  DrainedOutput first = buffer.drain_pending();
  EXPECT_EQ(first.text, "bcde");
  EXPECT_TRUE(first.output_dropped);
  EXPECT_FALSE(buffer.pending_output_dropped());
  buffer.append(Stream::kStdout, "f");
  DrainedOutput second = buffer.drain_pending();
  EXPECT_EQ(second.text, "f");
  EXPECT_FALSE(second.output_dropped);
}

TEST(OutputBuffer, PendingOverflowMarksTruncatedEvenWhenAggregateKeepsEverything) {
  OutputBuffer buffer(limits(1000, 3));
  buffer.append(Stream::kStdout, "abcd");
  EXPECT_TRUE(buffer.truncated());
  EXPECT_FALSE(buffer.retention_capped());
  EXPECT_EQ(buffer.aggregated(), "abcd");
}

TEST(OutputBuffer, PendingCapIsAtMostTheAggregateCap) {
  OutputBuffer buffer(limits(4, 30'000));
  buffer.append(Stream::kStdout, "abcdef");
  EXPECT_EQ(buffer.drain_pending().text, "cdef");
}

TEST(OutputBuffer, PendingCutNeverSplitsASurrogatePair) {
  // "😀" is two UTF-16 units. Dropping one unit from the front takes the whole pair.
  OutputBuffer buffer(limits(1000, 3));
  buffer.append(Stream::kStdout, "\U0001F600ab");
  DrainedOutput drained = buffer.drain_pending();
  EXPECT_EQ(drained.text, "ab");
  EXPECT_TRUE(drained.output_dropped);
}

TEST(OutputBuffer, PendingCountsWhatTheSurrogateCutReallyRemoved) {
  OutputBuffer buffer(limits(1000, 3));
  buffer.append(Stream::kStdout, "x");
  buffer.append(Stream::kStderr, "-");
  buffer.append(Stream::kStdout, "\U0001F600a");  // 4 units: "x" goes, then 3 fit
  EXPECT_EQ(buffer.pending_chars(Stream::kStdout), 3u);
  buffer.append(Stream::kStdout, "b");  // 4 units again: the pair goes whole, 2 remain
  EXPECT_EQ(buffer.pending_chars(Stream::kStdout), 2u);
  EXPECT_EQ(buffer.drain_pending().text, "-ab");
}

// --- aggregate, tail, totals ----------------------------------------------------------------

TEST(OutputBuffer, TotalCountsEverythingEverAppendedInUtf16Units) {
  OutputBuffer buffer(limits(5, 5));
  buffer.append(Stream::kStdout, "h\u00e9llo");      // 5 units, 6 bytes
  buffer.append(Stream::kStderr, "\U0001F600\n");  // 3 units
  EXPECT_EQ(buffer.total_output_chars(), 8u);
  EXPECT_EQ(buffer.aggregated_chars(), 5u);
  EXPECT_EQ(buffer.aggregated(), "lo\U0001F600\n");
  EXPECT_TRUE(buffer.retention_capped());
}

TEST(OutputBuffer, AggregateCutNeverSplitsASurrogatePair) {
  OutputBuffer buffer(limits(3, 100));
  buffer.append(Stream::kStdout, "\U0001F600ab");  // 4 units, cap 3
  EXPECT_EQ(buffer.aggregated(), "ab");
  EXPECT_EQ(buffer.aggregated_chars(), 2u);
  EXPECT_TRUE(buffer.truncated());
}

TEST(OutputBuffer, MergesStdoutAndStderrInAggregate) {
  OutputBuffer buffer;
  buffer.append(Stream::kStdout, "out ");
  buffer.append(Stream::kStderr, "err ");
  buffer.append(Stream::kStdout, "out");
  EXPECT_EQ(buffer.aggregated(), "out err out");
  EXPECT_FALSE(buffer.truncated());
  EXPECT_FALSE(buffer.retention_capped());
}

TEST(OutputBuffer, TailIsTheLast2000UnitsOfTheAggregate) {
  OutputBuffer buffer;
  buffer.append(Stream::kStdout, std::string(1500, 'a'));
  EXPECT_EQ(buffer.tail(), std::string(1500, 'a'));
  buffer.append(Stream::kStdout, std::string(1000, 'b'));
  EXPECT_EQ(buffer.tail(), std::string(1000, 'a') + std::string(1000, 'b'));
  EXPECT_EQ(buffer.aggregated().size(), 2500u);
}

TEST(OutputBuffer, EmptyAppendChangesNothing) {
  OutputBuffer buffer;
  buffer.append(Stream::kStdout, "");
  EXPECT_FALSE(buffer.has_pending());
  EXPECT_EQ(buffer.total_output_chars(), 0u);
}

TEST(OutputBuffer, SealIgnoresLaterOutputButKeepsUnpolledText) {
  OutputBuffer buffer(limits(1000, 3));
  buffer.append(Stream::kStdout, "abcd");
  buffer.seal();
  buffer.append(Stream::kStdout, "late");
  EXPECT_EQ(buffer.aggregated(), "abcd");
  EXPECT_EQ(buffer.total_output_chars(), 4u);
  DrainedOutput drained = buffer.drain_pending();
  EXPECT_EQ(drained.text, "bcd");
  EXPECT_TRUE(drained.output_dropped);
  EXPECT_EQ(buffer.drain_pending().text, "");
}

// The reference splits output into pieces of at most 8192 units before appending; the
// resulting state is the same as appending the whole text at once.
TEST(OutputBuffer, PiecewiseAppendEqualsWholeAppend) {
  std::string text = repeat("line \u65e5\u672c \U0001F600\n", 3000);
  OutputBuffer whole(limits(20'000, 7'000));
  OutputBuffer pieces(limits(20'000, 7'000));
  whole.append(Stream::kStdout, text);
  std::string_view rest = text;
  while (!rest.empty()) {
    std::string_view piece = utf16_prefix(rest, 8192);
    pieces.append(Stream::kStdout, piece);
    rest.remove_prefix(piece.size());
  }
  EXPECT_EQ(whole.aggregated(), pieces.aggregated());
  EXPECT_EQ(whole.total_output_chars(), pieces.total_output_chars());
  EXPECT_EQ(whole.truncated(), pieces.truncated());
  DrainedOutput a = whole.drain_pending();
  DrainedOutput b = pieces.drain_pending();
  EXPECT_EQ(a.text, b.text);
  EXPECT_EQ(a.output_dropped, b.output_dropped);
}

TEST(OutputBuffer, LongStreamKeepsExactWindows) {
  OutputBuffer buffer;  // default caps
  std::string all;
  for (int i = 0; i < 5000; ++i) {
    std::string line =
        "row " + std::to_string(i) + " \u00fc\U0001F600 " + std::string(40, 'x') + "\n";
    buffer.append(i % 3 == 0 ? Stream::kStderr : Stream::kStdout, line);
    all += line;
  }
  EXPECT_EQ(buffer.total_output_chars(), utf16_length(all));
  EXPECT_EQ(buffer.aggregated(), utf16_suffix(all, kDefaultMaxOutputChars));
  EXPECT_EQ(buffer.aggregated_chars(), utf16_length(buffer.aggregated()));
  EXPECT_TRUE(buffer.retention_capped());
}

// --- differential test against a direct model of the semantics ------------------------------

// The semantics written as plainly as possible: chunk list, counters, front trimming.
class ModelBuffer {
 public:
  explicit ModelBuffer(OutputLimits l) : limits_(l) {}
  void append(Stream stream, const std::string& text) {
    if (sealed_ || text.empty()) return;
    size_t cap = std::min(limits_.pending_max_output_chars, limits_.max_output_chars);
    chunks_.push_back({stream, text});
    size_t count = 0;
    for (auto& c : chunks_) {
      if (c.first == stream) count += utf16_length(c.second);
    }
    if (count > cap) {
      dropped_ = true;
      truncated_ = true;
      size_t overflow = count - cap;
      for (auto& c : chunks_) {
        if (overflow == 0) break;
        if (c.first != stream) continue;
        size_t len = utf16_length(c.second);
        if (len <= overflow) {
          overflow -= len;
          c.second.clear();
        } else {
          c.second = std::string(utf16_suffix(c.second, len - overflow));
          overflow = 0;
        }
      }
    }
    total_ += utf16_length(text);
    std::string joined = aggregate_ + text;
    aggregate_ = std::string(utf16_suffix(joined, limits_.max_output_chars));
    if (aggregate_.size() < joined.size()) truncated_ = true;
  }
  DrainedOutput drain() {
    DrainedOutput out;
    for (auto& c : chunks_) out.text += c.second;
    out.output_dropped = dropped_;
    chunks_.clear();
    dropped_ = false;
    return out;
  }
  void seal() { sealed_ = true; }
  OutputLimits limits_;
  std::vector<std::pair<Stream, std::string>> chunks_;
  std::string aggregate_;
  uint64_t total_ = 0;
  bool dropped_ = false;
  bool truncated_ = false;
  bool sealed_ = false;
};

TEST(OutputBuffer, MatchesDirectModelOnRandomOperations) {
  std::mt19937 rng(20260906);
  const std::vector<std::string> alphabet = {"a", "b", "\n", "\u00e9", "\u65e5", "\U0001F600", " "};
  auto random_text = [&](size_t max_len) {
    std::string s;
    size_t n = 1 + rng() % max_len;
    bool ascii = rng() % 2 == 0;
    for (size_t i = 0; i < n; ++i) {
      s += ascii ? std::string(1, "xyzw"[rng() % 4]) : alphabet[rng() % alphabet.size()];
    }
    return s;
  };
  for (int round = 0; round < 200; ++round) {
    bool big = round % 4 == 0;
    // Large rounds exercise the compaction paths, small ones the edge cases.
    OutputLimits l{(big ? 5000 : 1) + rng() % (big ? 20000 : 60),
                   (big ? 100 : 1) + rng() % (big ? 9000 : 40)};
    OutputBuffer buffer(l);
    ModelBuffer model(l);
    int ops = 10 + static_cast<int>(rng() % 60);
    for (int op = 0; op < ops; ++op) {
      SCOPED_TRACE("round " + std::to_string(round) + " op " + std::to_string(op));
      unsigned kind = rng() % 20;
      if (kind < 17) {
        Stream s = rng() % 3 ? Stream::kStdout : Stream::kStderr;
        std::string text = random_text(big ? (rng() % 5 == 0 ? 30000 : 3000) : 25);
        buffer.append(s, text);
        model.append(s, text);
      } else if (kind < 19) {
        DrainedOutput a = buffer.drain_pending();
        DrainedOutput b = model.drain();
        ASSERT_EQ(a.text, b.text);
        ASSERT_EQ(a.output_dropped, b.output_dropped);
      } else {
        buffer.seal();
        model.seal();
      }
      ASSERT_EQ(buffer.aggregated(), model.aggregate_);
      ASSERT_EQ(buffer.aggregated_chars(), utf16_length(model.aggregate_));
      ASSERT_EQ(buffer.tail(), utf16_suffix(model.aggregate_, kTailChars));
      ASSERT_EQ(buffer.total_output_chars(), model.total_);
      ASSERT_EQ(buffer.truncated(), model.truncated_);
      ASSERT_EQ(buffer.pending_output_dropped(), model.dropped_);
    }
  }
}

}  // namespace
}  // namespace clawexec::session
