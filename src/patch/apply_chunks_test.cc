// apply_chunks and same_content: locating chunks (§6.3), line endings, fuzzy levels,
// uniqueness, EOF anchoring, and the repair hints appended to failures.

#include <gtest/gtest.h>


#include "patch/patch.h"

namespace clawexec::patch {
namespace {

std::vector<Chunk> chunks_of(std::string_view body) {
  auto r = parse_patch("*** Begin Patch\n*** Update File: f.txt\n" + std::string(body) + "\n*** End Patch");
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? r->at(0).chunks : std::vector<Chunk>{};
}

std::string applied(std::string_view file, std::string_view body) {
  auto r = apply_chunks(file, chunks_of(body), "f.txt");
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? *r : "<error>";
}

std::string failure(std::string_view file, std::string_view body) {
  auto r = apply_chunks(file, chunks_of(body), "f.txt");
  EXPECT_FALSE(r.ok()) << "applied: " << (r.ok() ? *r : "");
  return r.ok() ? "" : r.error().message;
}

bool starts_with(const std::string& s, std::string_view prefix) { return s.rfind(prefix, 0) == 0; }

TEST(ApplyChunks, ReplacesRemovedLinesAndKeepsContext) {  // §8.2 case 64
  EXPECT_EQ(applied("foo\nbar\n", "@@\n foo\n-bar\n+baz"), "foo\nbaz\n");
}

TEST(ApplyChunks, PureInsertionWithoutContextAppendsAtEnd) {  // §8.2 case 65
  EXPECT_EQ(applied("line1\n", "@@\n+line2\n*** End of File"), "line1\nline2\n");
  EXPECT_EQ(applied("line1\n", "@@\n+line2"), "line1\nline2\n");
  EXPECT_EQ(applied("", "@@\n+only"), "only\n");
}

TEST(ApplyChunks, PureInsertionAfterContextLine) {
  EXPECT_EQ(applied("a\nb\nc\n", "@@ a\n+inserted"), "a\ninserted\nb\nc\n");
  // With "*** End of File" the insertion goes to the end even after a context line.
  EXPECT_EQ(applied("a\nb\nc\n", "@@ a\n+tail\n*** End of File"), "a\nb\nc\ntail\n");
}

TEST(ApplyChunks, CrlfFileKeepsCrlfIncludingNewLines) {
  EXPECT_EQ(applied("one\r\ntwo\r\nthree\r\n", "@@\n one\n-two\n+2\n+2b"), "one\r\n2\r\n2b\r\nthree\r\n");
}

TEST(ApplyChunks, MixedAndLoneCrEndingsArePreservedPerLine) {
  EXPECT_EQ(applied("a\r\nb\nc\rd\n", "@@\n b\n-c\n+C"), "a\r\nb\nC\rd\n");
}

TEST(ApplyChunks, ByteOrderMarkIsKeptAndNotPartOfTheFirstLine) {
  EXPECT_EQ(applied("\xEF\xBB\xBFhead\nbody\n", "@@\n-head\n+HEAD"), "\xEF\xBB\xBFHEAD\nbody\n");
}

TEST(ApplyChunks, MissingFinalNewlineIsKept) {
  EXPECT_EQ(applied("a\nb", "@@\n-b\n+c\n+d"), "a\nc\nd");
  EXPECT_EQ(applied("a\nb", "@@\n a\n-b\n+B"), "a\nB");
  // Appending to such a file ends the old last line and leaves the new one unterminated.
  EXPECT_EQ(applied("a\nb", "@@\n+c"), "a\nb\nc");
}

TEST(ApplyChunks, InteriorLinesAlwaysGetAnEnding) {
  // Replacing a file's unterminated last line with context before it keeps lines separated.
  EXPECT_EQ(applied("x\r\ny", "@@\n-y\n+y1\n+y2"), "x\r\ny1\r\ny2");
}

TEST(ApplyChunks, DeletingAllLinesGivesEmptyText) {
  EXPECT_EQ(applied("a\nb\n", "@@\n-a\n-b"), "");
}

TEST(ApplyChunks, FuzzyLevelsIgnoreTrailingThenSurroundingWhitespace) {
  EXPECT_EQ(applied("x = 1   \ny\n", "@@\n-x = 1\n+x = 2"), "x = 2\ny\n");
  EXPECT_EQ(applied("    x = 1\ny\n", "@@\n-x = 1\n+    x = 2"), "    x = 2\ny\n");
}

TEST(ApplyChunks, FuzzyLevelFoldsTypographicPunctuation) {
  // U+201C/U+201D quotes, U+2014 dash, U+00A0 and U+3000 spaces, U+2212 minus, U+2019 quote.
  std::string file = "say(\xE2\x80\x9Chi\xE2\x80\x9D) \xE2\x80\x94 it\xE2\x80\x99s\xC2\xA0ok\xE3\x80\x80\xE2\x88\x92" "1\n";
  EXPECT_EQ(applied(file, "@@\n-say(\"hi\") - it's ok -1\n+done"), "done\n");
  // Characters outside the reference's sets are not folded (U+2026 ellipsis vs "...").
  EXPECT_TRUE(starts_with(failure("wait\xE2\x80\xA6\n", "@@\n-wait...\n+x"), "Failed to find expected lines in f.txt:\nwait..."));
}

TEST(ApplyChunks, ContextLinesKeepTheFilesOriginalBytes) {
  std::string file = "  keep\xE2\x80\x94me  \nold\n";
  EXPECT_EQ(applied(file, "@@\n keep-me\n-old\n+new"), "  keep\xE2\x80\x94me  \nnew\n");
}

TEST(ApplyChunks, FirstLevelWithAMatchDecidesUniqueness) {
  // "a" matches exactly once even though " a" would match at the trim level too.
  EXPECT_EQ(applied("a\n a\n", "@@\n-a\n+b"), "b\n a\n");
}

TEST(ApplyChunks, AmbiguousLinesAreRejectedWithPositions) {
  std::string msg = failure("x\ny\nx\ny\n", "@@\n-x\n+z");
  EXPECT_TRUE(starts_with(msg,
                          "Found 2 occurrences of these lines in f.txt. The lines must be unique; include more "
                          "surrounding lines in the hunk:\nx\n\nHunk 1 of f.txt (patch line 3): these lines match at "
                          "lines 1 and 3."))
      << msg;
}

TEST(ApplyChunks, AmbiguousContextIsRejected) {
  std::string msg = failure("def f():\n  a\ndef f():\n  b\n", "@@ def f():\n-  b\n+  c");
  EXPECT_TRUE(starts_with(msg,
                          "Found 2 occurrences of context 'def f():' in f.txt. The context must be unique; use a "
                          "more specific @@ context line.\n\nHunk 1 of f.txt (patch line 3): the @@ context match at "
                          "lines 1 and 3."))
      << msg;
}

TEST(ApplyChunks, ContextMovesTheSearchPastEarlierMatches) {
  EXPECT_EQ(applied("class A:\n  x = 1\nclass B:\n  x = 1\n", "@@ class B:\n-  x = 1\n+  x = 2"),
            "class A:\n  x = 1\nclass B:\n  x = 2\n");
}

TEST(ApplyChunks, MissingContextMessageAndHint) {
  std::string msg = failure("def alpha(x):\n  return x\n", "@@ def alpha(y):\n-  return x\n+  return 0");
  EXPECT_TRUE(starts_with(msg, "Failed to find context 'def alpha(y):' in f.txt\n\nHunk 1 of f.txt (patch line 3): "
                               "the line most like the @@ context is line 1:\n  ! 1  def alpha(x):\n"))
      << msg;
}

TEST(ApplyChunks, CursorMovesForwardSoHunksMustBeInFileOrder) {
  std::string file = "one\ntwo\nthree\nfour\n";
  EXPECT_EQ(applied(file, "@@\n-one\n+1\n@@\n-three\n+3"), "1\ntwo\n3\nfour\n");
  std::string msg = failure(file, "@@\n-three\n+3\n@@\n-one\n+1");
  EXPECT_TRUE(starts_with(msg, "Failed to find expected lines in f.txt:\none\n\nHunk 2 of f.txt (patch line 6): these "
                               "lines are in the file at line 1 (ignoring whitespace):\n"))
      << msg;
  EXPECT_NE(msg.find("Note: the search for this hunk starts at line 4"), std::string::npos) << msg;
}

TEST(ApplyChunks, EndOfFileChunkMatchesOnlyTheLastLines) {
  EXPECT_EQ(applied("x\ny\nx\n", "@@\n-x\n+z\n*** End of File"), "x\ny\nz\n");
  std::string msg = failure("x\ny\nz\n", "@@\n-y\n+Y\n*** End of File");
  EXPECT_TRUE(starts_with(msg, "Failed to find expected lines in f.txt:\ny\n")) << msg;
  EXPECT_NE(msg.find("Note: this hunk ends with '*** End of File', so its lines must be the last lines of the file "
                     "(line 3)."),
            std::string::npos)
      << msg;
}

TEST(ApplyChunks, TrailingEmptyLineIsDroppedOnRetry) {
  // The blank line before "*** End Patch" is an empty context line the file does not have.
  EXPECT_EQ(applied("a\nb", "@@\n-a\n+A\n "), "A\nb");
  EXPECT_EQ(applied("a\n", "@@\n-a\n+A\n "), "A\n");
}

TEST(ApplyChunks, MissingLinesHintShowsClosestWindowWithLineNumbers) {
  std::string file;
  for (int i = 1; i <= 30; ++i) file += "line " + std::to_string(i) + "\n";
  file += "def total(items):\n    result = 0\n    for it in items:\n        result += it.price\n    return result\n";
  std::string msg = failure(file, "@@\n def total(items):\n     result = 0\n     for it in items:\n-        result += it.cost\n+        result += it.amount\n     return result");
  EXPECT_EQ(msg,
            "Failed to find expected lines in f.txt:\ndef total(items):\n    result = 0\n    for it in items:\n"
            "        result += it.cost\n    return result\n\n"
            "Hunk 1 of f.txt (patch line 3): the closest lines in the file are lines 31-35 (4 of 5 identical ignoring "
            "whitespace; '!' marks lines that differ):\n"
            "    31  def total(items):\n"
            "    32      result = 0\n"
            "    33      for it in items:\n"
            "  ! 34          result += it.price\n"
            "    35      return result\n"
            "First difference: the hunk expects\n            result += it.cost\nbut line 34 of the file is\n"
            "            result += it.price\n"
            "Copy the ' ' and '-' lines from the file as it is now, then retry.");
}

TEST(ApplyChunks, HintShowsAtMostTwelveLinesAroundTheFirstDifference) {
  std::string file, body = "@@";
  for (int i = 1; i <= 40; ++i) {
    file += "value_" + std::to_string(i) + " = " + std::to_string(i) + "\n";
    body += "\n " + std::string("value_") + std::to_string(i) + " = " + std::to_string(i == 25 ? 99 : i);
  }
  body += "\n+extra";
  std::string msg = failure(file, body);
  EXPECT_NE(msg.find("the closest lines in the file are lines 1-40 (39 of 40 identical"), std::string::npos) << msg;
  EXPECT_NE(msg.find(", showing lines 23-34:\n    23  value_23 = 23\n"), std::string::npos) << msg;
  EXPECT_NE(msg.find("  ! 25  value_25 = 25\n"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("  22  value_22"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("  35  value_35"), std::string::npos) << msg;
}

TEST(ApplyChunks, HintSaysWhenNothingResemblesTheLines) {
  std::string msg = failure("alpha\nbeta\n", "@@\n-zzz qqq\n+x");
  EXPECT_EQ(msg, "Failed to find expected lines in f.txt:\nzzz qqq\n\nHunk 1 of f.txt (patch line 3): no line of the "
                 "file resembles these lines (no shared word, no line within a few edits); check the path and re-read "
                 "the file.");
  EXPECT_NE(failure("", "@@\n-a\n+b").find("the file is empty"), std::string::npos);
}

TEST(ApplyChunks, HintShowsTheNearestLineWhenATypoLeavesNoSharedWord) {
  std::string msg = failure("alpha\nbeta\ngamma\n", "@@\n-betta\n+delta");
  EXPECT_EQ(msg, "Failed to find expected lines in f.txt:\nbetta\n\nHunk 1 of f.txt (patch line 3): the closest lines in "
                 "the file are line 2 (0 of 1 identical ignoring whitespace; '!' marks lines that differ):\n"
                 "  ! 2  beta\n"
                 "First difference: the hunk expects\n    betta\nbut line 2 of the file is\n    beta\n"
                 "Copy the ' ' and '-' lines from the file as it is now, then retry.");
  std::string context = failure("int main() {\n  return 0;\n}\n", "@@ int mian() {\n-  return 0;\n+  return 1;");
  EXPECT_NE(context.find("the line most like the @@ context is line 1:\n  ! 1  int main() {\n"), std::string::npos) << context;
}

TEST(ApplyChunks, NearestLineSearchPrefersTheFewestEditsInALargeFile) {
  std::string file;
  for (int i = 0; i < 50000; ++i) file += "entry_" + std::to_string(i) + "\n";
  file += "configuration\n";
  for (int i = 0; i < 50000; ++i) file += "x" + std::to_string(i) + "\n";
  std::string msg = failure(file, "@@\n-configuraton\n+settings");
  EXPECT_NE(msg.find("are line 50001 (0 of 1"), std::string::npos) << msg.substr(0, 600);
}

// The hint search on a large file finds the right window (its speed is a benchmark concern:
// bench/patch_bench.py measures a 100 000-line file; unit tests never assert timings).
TEST(ApplyChunks, ClosestWindowSearchFindsTheWindowInLargeFiles) {
  std::string file;
  for (int i = 0; i < 100000; ++i) file += "    call_" + std::to_string(i % 997) + "(arg, " + std::to_string(i) + ");\n";
  std::string msg = failure(file, "@@\n     call_150(argument, 50000);\n-    call_151(argument, 50001);\n+    x();");
  EXPECT_NE(msg.find("lines 50001-50002"), std::string::npos) << msg.substr(0, 600);
}

TEST(ApplyChunks, ChunksBuiltByHandWithoutContextMapReplaceEveryLine) {
  Chunk c;
  c.old_lines = {"a", "b"};
  c.new_lines = {"a", "c"};
  auto r = apply_chunks("  a\nb\n", {c}, "f.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(*r, "a\nc\n");  // without new_to_old, "a" is new text, not kept context
}

TEST(SameContent, IgnoresLineEndingStyleAndAFinalNewline) {
  EXPECT_TRUE(same_content("a\r\nb\r\n", "a\nb"));
  EXPECT_TRUE(same_content("a\rb", "a\nb\n"));
  EXPECT_TRUE(same_content("", ""));
  EXPECT_FALSE(same_content("", "\n"));
  EXPECT_FALSE(same_content("a\nb\n", "a\nb\n\n"));
  EXPECT_FALSE(same_content("a b\n", "a  b\n"));
}

}  // namespace
}  // namespace clawexec::patch
