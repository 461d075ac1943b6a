// parse_patch: the §6.2 grammar, its leniencies and every error message, verbatim.

#include <gtest/gtest.h>

#include "patch/patch.h"

namespace clawexec::patch {
namespace {

std::string error_of(std::string_view input) {
  auto r = parse_patch(input);
  EXPECT_FALSE(r.ok()) << "parsed: " << input;
  return r.ok() ? "" : r.error().message;
}

std::vector<Hunk> parsed(std::string_view input) {
  auto r = parse_patch(input);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? *r : std::vector<Hunk>{};
}

constexpr const char* kFirst = "The first line of the patch must be '*** Begin Patch'";
constexpr const char* kLast = "The last line of the patch must be '*** End Patch'";

TEST(ParsePatch, AddFileCollectsPlusLinesEachEndingWithNewline) {  // §8.2 case 63
  auto hunks = parsed("*** Begin Patch\n*** Add File: hello.txt\n+hello\n+\n+ world\n*** End Patch");
  ASSERT_EQ(hunks.size(), 1u);
  EXPECT_EQ(hunks[0].kind, HunkKind::kAdd);
  EXPECT_EQ(hunks[0].path, "hello.txt");
  EXPECT_EQ(hunks[0].contents, "hello\n\n world\n");
  EXPECT_EQ(hunks[0].line, 2u);
}

TEST(ParsePatch, AddFileWithoutLinesIsEmptyAndNextHeaderFollows) {
  auto hunks = parsed("*** Begin Patch\n*** Add File: empty\n*** Delete File: old.txt\n*** End Patch");
  ASSERT_EQ(hunks.size(), 2u);
  EXPECT_EQ(hunks[0].contents, "");
  EXPECT_EQ(hunks[1].kind, HunkKind::kDelete);
  EXPECT_EQ(hunks[1].path, "old.txt");
  EXPECT_EQ(hunks[1].line, 3u);
}

TEST(ParsePatch, BlankInputAsksForAPatch) {
  EXPECT_EQ(error_of(""), "Provide a patch input.");
  EXPECT_EQ(error_of(" \n\t\r\n "), "Provide a patch input.");
}

TEST(ParsePatch, NoHunksMeansNoFilesModified) {
  EXPECT_EQ(error_of("*** Begin Patch\n*** End Patch"), "No files were modified.");
  EXPECT_EQ(error_of("*** Begin Patch\n*** End Patch\n"), "No files were modified.");
}

TEST(ParsePatch, BoundaryErrorsNameTheFirstFailingMarker) {  // §8.2 case 67
  EXPECT_EQ(error_of("*** Begin Patch\n*** Add File: a\n+x"), kLast);
  EXPECT_EQ(error_of("*** Add File: a\n+x\n*** End Patch"), kFirst);
  EXPECT_EQ(error_of("hello"), kFirst);
  EXPECT_EQ(error_of("garbage\n*** Begin Patch\n*** End Patch"), kFirst);
}

TEST(ParsePatch, MarkersAreComparedTrimmedAndInputIsTrimmed) {
  auto hunks = parsed("\n\n  *** Begin Patch  \n*** Delete File: a\n\t*** End Patch \n\n");
  ASSERT_EQ(hunks.size(), 1u);
  EXPECT_EQ(hunks[0].path, "a");
}

TEST(ParsePatch, HeredocWrappedPatchIsAccepted) {
  for (const char* opener : {"<<EOF", "<<'EOF'", "<<\"EOF\""}) {
    auto hunks = parsed(std::string(opener) + "\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF");
    ASSERT_EQ(hunks.size(), 1u) << opener;
    EXPECT_EQ(hunks[0].line, 2u) << "line numbers count from the Begin line";
  }
  // The closing line only has to end with EOF.
  EXPECT_EQ(parsed("<<EOF\n*** Begin Patch\n*** Delete File: a\n*** End Patch\n  EOF").size(), 1u);
}

TEST(ParsePatch, HeredocWithBadInnerBoundaryReportsTheInnerError) {
  EXPECT_EQ(error_of("<<EOF\n*** Begin Patch\n*** Delete File: a\nEOF"), kLast);
  EXPECT_EQ(error_of("<<EOF\nx\n*** Delete File: a\n*** End Patch\nEOF"), kFirst);
}

TEST(ParsePatch, HeredocNeedsFourLinesAndAnExactOpener) {
  EXPECT_EQ(error_of("<<EOF\n*** Begin Patch\nEOF"), kFirst);  // 3 lines: strict error
  EXPECT_EQ(error_of("<<END\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEND"), kFirst);
}

TEST(ParsePatch, CrlfInputIsSplitOnCrlf) {
  auto hunks = parsed("*** Begin Patch\r\n*** Update File: a.txt\r\n@@ ctx\r\n-old\r\n+new\r\n*** End Patch\r\n");
  ASSERT_EQ(hunks.size(), 1u);
  EXPECT_EQ(hunks[0].path, "a.txt");
  ASSERT_EQ(hunks[0].chunks.size(), 1u);
  EXPECT_EQ(hunks[0].chunks[0].context, "ctx");
  EXPECT_EQ(hunks[0].chunks[0].old_lines, std::vector<std::string>{"old"});
  EXPECT_EQ(hunks[0].chunks[0].new_lines, std::vector<std::string>{"new"});
}

TEST(ParsePatch, UnknownHunkHeaderIsRejectedWithItsLineNumber) {
  EXPECT_EQ(error_of("*** Begin Patch\n*** Delete File: a\n  *** Frobnicate: b\n*** End Patch"),
            "Invalid patch hunk at line 3: '  *** Frobnicate: b' is not a valid hunk header. Valid hunk headers: "
            "'*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'");
}

TEST(ParsePatch, UpdateWithMoveAndChunks) {  // §8.2 case 64
  auto hunks = parsed(
      "*** Begin Patch\n*** Update File: source.txt\n  *** Move to: dest.txt  \n@@\n foo\n-bar\n+baz\n*** End Patch");
  ASSERT_EQ(hunks.size(), 1u);
  const Hunk& h = hunks[0];
  EXPECT_EQ(h.kind, HunkKind::kUpdate);
  EXPECT_EQ(h.move_to, "dest.txt");
  ASSERT_EQ(h.chunks.size(), 1u);
  EXPECT_EQ(h.chunks[0].context, std::nullopt);
  EXPECT_EQ(h.chunks[0].line, 4u);
  EXPECT_EQ(h.chunks[0].old_lines, (std::vector<std::string>{"foo", "bar"}));
  EXPECT_EQ(h.chunks[0].new_lines, (std::vector<std::string>{"foo", "baz"}));
  EXPECT_EQ(h.chunks[0].new_to_old, (std::vector<std::optional<size_t>>{0, std::nullopt}));
}

TEST(ParsePatch, PathIsTheRestOfTheTrimmedHeaderLine) {
  auto hunks = parsed("*** Begin Patch\n   *** Delete File:  spaced name.txt   \n*** End Patch");
  EXPECT_EQ(hunks.at(0).path, " spaced name.txt");
}

TEST(ParsePatch, EmptyUpdateHunkIsAnError) {
  EXPECT_EQ(error_of("*** Begin Patch\n*** Delete File: x\n*** Update File: a.txt\n\n*** End Patch"),
            "Invalid patch hunk at line 3: Update file hunk for path 'a.txt' is empty");
}

TEST(ParsePatch, ChunkHeaderWithoutLinesIsAnError) {
  EXPECT_EQ(error_of("*** Begin Patch\n*** Update File: a\n@@ x\n*** End Patch"),
            "Invalid patch hunk at line 4: Update hunk does not contain any lines");
  EXPECT_EQ(error_of("*** Begin Patch\n*** Update File: a\n@@\n*** End of File\n*** End Patch"),
            "Invalid patch hunk at line 4: Update hunk does not contain any lines");
}

TEST(ParsePatch, LaterChunksMustStartWithAContextMarker) {
  // "+a" then "xx" ends the first chunk; "xx" must then open a chunk with @@.
  EXPECT_EQ(error_of("*** Begin Patch\n*** Update File: a\n+a\nxx\n*** End Patch"),
            "Invalid patch hunk at line 4: Expected update hunk to start with a @@ context marker, got: 'xx'");
}

TEST(ParsePatch, UnexpectedFirstBodyLineIsAnError) {
  EXPECT_EQ(error_of("*** Begin Patch\n*** Update File: a\n@@\nfoo\n*** End Patch"),
            "Invalid patch hunk at line 4: Unexpected line found in update hunk: 'foo'. Every line should start "
            "with ' ' (context line), '+' (added line), or '-' (removed line)");
  // Without an @@ header the reference still reports the line after it (kept for fidelity).
  EXPECT_EQ(error_of("*** Begin Patch\n*** Update File: a\nfoo\n*** End Patch"),
            "Invalid patch hunk at line 4: Unexpected line found in update hunk: 'foo'. Every line should start "
            "with ' ' (context line), '+' (added line), or '-' (removed line)");
}

TEST(ParsePatch, FirstChunkMayOmitTheMarkerAndLaterOnesSplitAtMarkers) {
  auto hunks = parsed(
      "*** Begin Patch\n*** Update File: a\n-one\n+uno\n@@ def f():\n-two\n+dos\n\n\n@@\n three\n*** End Patch");
  const auto& chunks = hunks.at(0).chunks;
  ASSERT_EQ(chunks.size(), 3u);
  EXPECT_EQ(chunks[0].line, 3u);
  EXPECT_EQ(chunks[1].context, "def f():");
  EXPECT_EQ(chunks[1].line, 5u);
  // Blank lines inside a chunk are empty context lines.
  EXPECT_EQ(chunks[1].old_lines, (std::vector<std::string>{"two", "", ""}));
  EXPECT_EQ(chunks[1].new_lines, (std::vector<std::string>{"dos", "", ""}));
  EXPECT_EQ(chunks[2].line, 10u);
  EXPECT_EQ(chunks[2].old_lines, std::vector<std::string>{"three"});
}

TEST(ParsePatch, ContextMarkerWithEmptyTextHasNoContext) {
  auto hunks = parsed("*** Begin Patch\n*** Update File: a\n@@ \n+x\n*** End Patch");
  EXPECT_EQ(hunks.at(0).chunks.at(0).context, std::nullopt);
  hunks = parsed("*** Begin Patch\n*** Update File: a\n@@   spaced  \n+x\n*** End Patch");
  EXPECT_EQ(hunks.at(0).chunks.at(0).context, "  spaced  ");
}

TEST(ParsePatch, EndOfFileMarkerEndsAndAnchorsTheChunk) {  // §8.2 case 65
  auto hunks = parsed("*** Begin Patch\n*** Update File: end.txt\n@@\n+line2\n*** End of File\n*** End Patch");
  const Chunk& c = hunks.at(0).chunks.at(0);
  EXPECT_TRUE(c.end_of_file);
  EXPECT_TRUE(c.old_lines.empty());
  EXPECT_EQ(c.new_lines, std::vector<std::string>{"line2"});
}

TEST(ParsePatch, BlankLinesBetweenHunksAreSkippedAfterUpdates) {
  auto hunks = parsed("*** Begin Patch\n*** Update File: a\n-x\n*** Add File: b\n+y\n*** End Patch");
  ASSERT_EQ(hunks.size(), 2u);
  EXPECT_EQ(hunks[1].kind, HunkKind::kAdd);
  EXPECT_EQ(hunks[1].line, 4u);
}

TEST(ParsePatch, ChunkEndsAtAnUnexpectedLineWhichMustThenBeAHeader) {
  EXPECT_EQ(error_of("*** Begin Patch\n*** Update File: a\n-x\n*** Frob\n*** End Patch"),
            "Invalid patch hunk at line 4: '*** Frob' is not a valid hunk header. Valid hunk headers: '*** Add File: "
            "{path}', '*** Delete File: {path}', '*** Update File: {path}'");
}

TEST(ParsePatch, PathWithNulIsRefusedAtItsHeaderLine) {
  using namespace std::string_literals;
  EXPECT_EQ(error_of("*** Begin Patch\n*** Add File: ok\n+x\n*** Add File: ab\0cd\n+x\n*** End Patch"s),
            "Invalid patch hunk at line 4: the path in '*** Add File: ab\\0cd' contains a NUL byte; a file path "
            "cannot contain NUL or control characters");
  EXPECT_EQ(error_of("*** Begin Patch\n*** Delete File: a\0\n*** End Patch"s).substr(0, 32),
            "Invalid patch hunk at line 2: th");
}

TEST(ParsePatch, ControlCharactersInUpdateAndMovePathsAreRefused) {
  EXPECT_EQ(error_of("*** Begin Patch\n*** Update File: a\rb\n@@\n-x\n+y\n*** End Patch"),
            "Invalid patch hunk at line 2: the path in '*** Update File: a\\rb' contains the control character "
            "\\r; a file path cannot contain NUL or control characters");
  EXPECT_EQ(error_of("*** Begin Patch\n*** Update File: a\n*** Move to: b\x1b[2Jc\n@@\n-x\n+y\n*** End Patch"),
            "Invalid patch hunk at line 3: the path in '*** Move to: b\\x1b[2Jc' contains the control character "
            "\\x1b; a file path cannot contain NUL or control characters");
  EXPECT_EQ(error_of("*** Begin Patch\n*** Add File: a\tb\n+x\n*** End Patch").find("\\t"), 58u);
  EXPECT_EQ(parsed("*** Begin Patch\n*** Add File: caf\xC3\xA9 and spaces\n+x\n*** End Patch")[0].path,
            "caf\xC3\xA9 and spaces");
}

}  // namespace
}  // namespace clawexec::patch
