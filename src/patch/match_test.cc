// match.h: punctuation folding, the seek levels and the similarity used by the hints.

#include "patch/match.h"

#include <gtest/gtest.h>

namespace clawexec::patch {
namespace {

TEST(NormalizePunctuation, FoldsExactlyTheReferenceSets) {
  EXPECT_EQ(normalize_punctuation("\xE2\x80\x90\xE2\x80\x91\xE2\x80\x92\xE2\x80\x93\xE2\x80\x94\xE2\x80\x95\xE2\x88\x92"),
            "-------");
  EXPECT_EQ(normalize_punctuation("\xE2\x80\x98\xE2\x80\x99\xE2\x80\x9A\xE2\x80\x9B"), "''''");
  EXPECT_EQ(normalize_punctuation("\xE2\x80\x9C\xE2\x80\x9D\xE2\x80\x9E\xE2\x80\x9F"), "\"\"\"\"");
  EXPECT_EQ(normalize_punctuation("a\xC2\xA0" "b\xE2\x80\x82" "c\xE2\x80\x8A" "d\xE2\x80\xAF" "e\xE2\x81\x9F" "f\xE3\x80\x80g"),
            "a b c d e f g");
  // Neighbours of the sets stay: U+2016, U+2001 (em quad), U+200B (zero width), U+2026.
  for (std::string s : {"\xE2\x80\x96", "\xE2\x80\x81", "\xE2\x80\x8B", "\xE2\x80\xA6"}) {
    EXPECT_EQ(normalize_punctuation(s), s);
  }
  EXPECT_EQ(normalize_punctuation("\xE2\x80"), "\xE2\x80");  // truncated sequence kept
}

TEST(LineTableSeek, ReportsLevelOccurrencesAndStarts) {
  std::vector<std::string_view> lines{"a", " a ", "b", "a\xC2\xA0z", "a z"};
  LineTable t(lines);
  SeekResult r = t.seek({"a"}, 0, false);
  EXPECT_EQ(r.outcome, SeekOutcome::kFound);
  EXPECT_EQ(r.level, MatchLevel::kExact);
  r = t.seek({" a"}, 0, false);  // trimEnd matches " a " only
  EXPECT_EQ(r.outcome, SeekOutcome::kFound);
  EXPECT_EQ(r.index, 1u);
  EXPECT_EQ(r.level, MatchLevel::kTrimEnd);
  r = t.seek({"\ta"}, 0, false);  // trim level: "a" and " a "
  EXPECT_EQ(r.outcome, SeekOutcome::kAmbiguous);
  EXPECT_EQ(r.occurrences, 2u);
  EXPECT_EQ(r.starts, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(r.level, MatchLevel::kTrim);
  r = t.seek({"a z"}, 0, false);  // exact wins over the punctuation level
  EXPECT_EQ(r.index, 4u);
  r = t.seek({"a\xE3\x80\x80z"}, 0, false);
  EXPECT_EQ(r.outcome, SeekOutcome::kAmbiguous);
  EXPECT_EQ(r.level, MatchLevel::kPunctuation);
  EXPECT_EQ(t.seek({"b"}, 3, false).outcome, SeekOutcome::kMissing);
  EXPECT_EQ(t.seek({"a", "b"}, 0, true).outcome, SeekOutcome::kMissing);
  EXPECT_EQ(t.seek({"a z"}, 0, true).index, 4u);
  EXPECT_EQ(t.seek({}, 2, false).index, 2u);
}

TEST(LineSimilarity, RanksCloserLinesHigher) {
  EXPECT_EQ(line_similarity("same", "same"), 1.0);
  EXPECT_EQ(line_similarity("ab", "cd"), 0.0);
  EXPECT_GT(line_similarity("result += it.price", "result += it.cost"), line_similarity("result += it.price", "return 0"));
}

TEST(ClosestWindow, PicksTheWindowSharingMostLines) {
  std::vector<std::string_view> lines{"int a = 1;", "int b = 2;", "int c = 3;", "x", "int a = 1;", "int b = 5;", "int c = 3;"};
  LineTable t(lines);
  auto c = closest_window(t, {"int a = 1;", "int b = 2;", "int c = 4;"});
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->start, 0u);
  EXPECT_EQ(c->identical, 2u);
  EXPECT_FALSE(closest_window(t, {"zzz"}).has_value());
}

TEST(ClosestWindow, FindsALineOneTypoAwayWithoutASharedWord) {
  std::vector<std::string_view> lines{"alpha", "beta", "gamma"};
  LineTable t(lines);
  auto c = closest_window(t, {"betta"});
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->start, 1u);
  EXPECT_EQ(c->identical, 0u);
}

TEST(BoundedEditDistance, CountsEditsUpToTheLimit) {
  EXPECT_EQ(bounded_edit_distance("beta", "betta", 3), 1u);
  EXPECT_EQ(bounded_edit_distance("kitten", "sitting", 5), 3u);
  EXPECT_EQ(bounded_edit_distance("sitting", "kitten", 5), 3u);
  EXPECT_EQ(bounded_edit_distance("", "abc", 5), 3u);
  EXPECT_EQ(bounded_edit_distance("abc", "abc", 0), 0u);
  EXPECT_EQ(bounded_edit_distance("kitten", "sitting", 2), 3u);  // over the limit: limit + 1
  EXPECT_EQ(bounded_edit_distance("a", "abcdefgh", 3), 4u);       // length gap alone exceeds it
  EXPECT_EQ(bounded_edit_distance("abcdef", "fedcba", 10), 6u);
}

TEST(LineTableSeek, CountsEveryOccurrenceAfterTheStartUsingTheRarestLine) {
  std::vector<std::string> storage;
  for (int i = 0; i < 1000; ++i) storage.push_back(i % 10 == 0 ? "marker" : "}");
  std::vector<std::string_view> lines(storage.begin(), storage.end());
  LineTable t(lines);
  SeekResult r = t.seek({"}", "marker", "}"}, 0, false);
  EXPECT_EQ(r.outcome, SeekOutcome::kAmbiguous);
  EXPECT_EQ(r.occurrences, 99u);  // the marker at line 0 has no "}" before it
  EXPECT_EQ(r.starts.front(), 9u);
  r = t.seek({"}", "marker", "}"}, 985, false);
  EXPECT_EQ(r.outcome, SeekOutcome::kFound);
  EXPECT_EQ(r.index, 989u);
  EXPECT_EQ(t.seek({"  marker\t"}, 985, false).level, MatchLevel::kTrim);
  EXPECT_EQ(t.seek({"marker"}, 991, false).outcome, SeekOutcome::kMissing);
  EXPECT_EQ(t.seek({"}"}, 0, true).index, 999u);
}

}  // namespace
}  // namespace clawexec::patch
