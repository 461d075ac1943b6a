// Repair hints for failed apply_patch chunks.
//
// Problem: the reference's messages say only that lines were not found (or not unique), so an
// agent re-reads the whole file or guesses; that is where most failed patch calls come from.
// The hint must point at the failing chunk and show the part of the file the agent most likely
// meant, with line numbers, without flooding the reply.
//
// Approach: closest_window() (closest.cc) picks the most similar window; this file renders it
// (at most kShownLines lines, differing lines marked with '!', the first difference spelled
// out) and adds the one note that explains a miss when the lines do exist: the search starts
// after the previous chunk, or an "*** End of File" chunk must end the file.

#include "patch/match_report.h"

#include <algorithm>

#include "base/utf.h"

namespace clawexec::patch {
namespace {

constexpr size_t kShownLines = 12;
constexpr size_t kShownLineUnits = 200;

std::string head(const ChunkRef& ref) {
  return "\n\nHunk " + std::to_string(ref.number) + " of " + std::string(ref.path) + " (patch line " +
         std::to_string(ref.patch_line) + "): ";
}

std::string clip(std::string_view line) {
  std::string_view kept = utf16_prefix(line, kShownLineUnits);
  std::string out(kept);
  if (kept.size() < line.size()) out += " [...]";
  return out;
}

std::string range(size_t first, size_t count) {
  if (count <= 1) return "line " + std::to_string(first + 1);
  return "lines " + std::to_string(first + 1) + "-" + std::to_string(first + count);
}

std::string listing(const LineTable& table, size_t from, size_t count, const std::vector<bool>& differs, size_t offset) {
  size_t width = std::to_string(from + count).size();
  std::string out;
  for (size_t i = from; i < from + count; ++i) {
    std::string number = std::to_string(i + 1);
    out += differs[i - offset] ? "  ! " : "    ";
    out += std::string(width - number.size(), ' ') + number + "  " + clip(table.line(i)) + "\n";
  }
  return out;
}

// Why a window that matches (or nearly) was not used.
std::string position_note(const Closest& c, const ChunkRef& ref, size_t file_lines) {
  std::string out;
  if (c.start < ref.cursor) {
    out += "Note: the search for this hunk starts at line " + std::to_string(ref.cursor + 1) +
           " (after the previous hunk or this hunk's @@ context) and these lines are above it; hunks must be in "
           "file order.\n";
  }
  if (ref.at_end && c.start + c.length != file_lines) {
    out += "Note: this hunk ends with '*** End of File', so its lines must be the last lines of the file (" +
           range(file_lines - std::min(c.length, file_lines), std::min(c.length, file_lines)) + ").\n";
  }
  return out;
}

}  // namespace

std::string explain_missing_lines(const LineTable& table, const std::vector<std::string>& old_lines, const ChunkRef& ref) {
  std::vector<std::string> pattern = old_lines;
  while (pattern.size() > 1 && pattern.back().empty()) pattern.pop_back();
  std::string out = head(ref);
  if (table.size() == 0) {
    return out + "the file is empty, so this hunk can only add lines ('+' lines with no ' ' or '-' lines).";
  }
  std::optional<Closest> c = closest_window(table, pattern);
  if (!c) {
    return out + "no line of the file resembles these lines (no shared word, no line within a few edits); check "
                 "the path and re-read the file.";
  }
  std::vector<bool> differs(c->length);
  size_t first_diff = c->length;
  for (size_t j = 0; j < c->length; ++j) {
    differs[j] = table.key(c->start + j) != normalize_line(pattern[j], MatchLevel::kPunctuation);
    if (differs[j] && first_diff == c->length) first_diff = j;
  }
  bool whole = c->identical == c->length && c->length == pattern.size();
  out += whole ? "these lines are in the file at " + range(c->start, c->length) + " (ignoring whitespace)"
               : "the closest lines in the file are " + range(c->start, c->length) + " (" +
                     std::to_string(c->identical) + " of " + std::to_string(pattern.size()) +
                     " identical ignoring whitespace; '!' marks lines that differ)";
  size_t shown = std::min(c->length, kShownLines);
  size_t from = c->start;
  if (c->length > kShownLines && first_diff < c->length) {
    from = c->start + std::min(first_diff > 2 ? first_diff - 2 : 0, c->length - kShownLines);
  }
  if (shown < c->length) out += ", showing " + range(from, shown);
  out += ":\n" + listing(table, from, shown, differs, c->start);
  if (first_diff < c->length) {
    out += "First difference: the hunk expects\n    " + clip(pattern[first_diff]) + "\nbut line " +
           std::to_string(c->start + first_diff + 1) + " of the file is\n    " +
           clip(table.line(c->start + first_diff)) + "\n";
  }
  out += position_note(*c, ref, table.size());
  out += "Copy the ' ' and '-' lines from the file as it is now, then retry.";
  return out;
}

std::string explain_missing_context(const LineTable& table, std::string_view context, const ChunkRef& ref) {
  std::string out = head(ref);
  std::optional<Closest> c;
  if (table.size() > 0) c = closest_window(table, {std::string(context)});
  if (!c) {
    return out + "no line of the file resembles the @@ context (no shared word, no line within a few edits); "
                 "check the path and re-read the file.";
  }
  out += c->identical == 1 ? "the @@ context is the file's " + range(c->start, 1) + " (ignoring whitespace):\n"
                           : "the line most like the @@ context is " + range(c->start, 1) + ":\n";
  out += listing(table, c->start, 1, {c->identical != 1}, c->start);
  out += position_note(*c, ref, table.size());
  out += "Copy that line after '@@ ' exactly, or use a bare '@@' and rely on the hunk's ' ' lines.";
  return out;
}

std::string explain_ambiguous(const SeekResult& seek, const ChunkRef& ref, bool context) {
  std::string where;
  for (size_t i = 0; i < seek.starts.size(); ++i) {
    if (i > 0) where += i + 1 == seek.starts.size() && seek.occurrences == seek.starts.size() ? " and " : ", ";
    where += std::to_string(seek.starts[i] + 1);
  }
  if (seek.occurrences > seek.starts.size()) where += ", ...";
  std::string out = head(ref) + (context ? "the @@ context" : "these lines") + " match at lines " + where;
  if (ref.cursor > 0) out += " (searching from line " + std::to_string(ref.cursor + 1) + ")";
  out += context ? ". Use a longer, more distinctive @@ line (e.g. the full signature of the enclosing function), "
                   "or an earlier hunk to move the search past the other matches."
                 : ". Add unchanged ' ' lines around the change, or an '@@ <line>' naming the enclosing function or "
                   "class, so that only one place matches.";
  return out;
}

}  // namespace clawexec::patch
