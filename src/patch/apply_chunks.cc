// Applying one file's update chunks to its text (spec §6.3).
//
// Problem: a chunk names old lines (context and removed) and new lines; they must be located
// in the current file the way the reference does it (moving cursor, unique "@@" context, the
// fuzzy levels, "*** End of File" anchoring, a retry without a trailing empty line), and the
// result must disturb nothing the patch did not change: each line keeps its own ending (LF,
// CRLF or lone CR), a byte-order mark and a missing final newline survive, and context lines
// keep the file's bytes even when they matched only fuzzily.
//
// Approach: split the file into (text, ending) views, locate every chunk first and record a
// replacement (start, old count, new lines) for it, then merge the replacements into the line
// list in one forward pass (the cursor only moves forward, so they never overlap) and give every
// interior line that lost its ending the file's first ending. New lines take the endings of the
// lines they replace, else of their neighbours, as the reference does.

#include <algorithm>

#include "patch/match.h"
#include "patch/match_report.h"
#include "patch/patch.h"

namespace clawexec::patch {
namespace {

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

struct SourceLine {
  std::string_view text;
  std::string_view ending;  // "\n", "\r\n", "\r" or "" (last line without newline)
};

struct Source {
  std::string_view bom;
  std::vector<SourceLine> lines;
  std::string_view preferred_ending = "\n";
  bool missing_final_ending = false;
};

struct NewLine {
  std::string text;
  std::string_view ending;
};

struct Replacement {
  size_t start = 0;
  size_t old_count = 0;
  std::vector<NewLine> lines;
};

Source parse_source(std::string_view text) {
  Source src;
  if (text.starts_with(kByteOrderMark)) {
    src.bom = text.substr(0, kByteOrderMark.size());
    text.remove_prefix(kByteOrderMark.size());
  }
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\n' && text[i] != '\r') continue;
    size_t ending_size = text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n' ? 2 : 1;
    src.lines.push_back({text.substr(start, i - start), text.substr(i, ending_size)});
    i += ending_size - 1;
    start = i + 1;
  }
  if (start < text.size()) src.lines.push_back({text.substr(start), {}});
  for (const SourceLine& line : src.lines) {
    if (!line.ending.empty()) {
      src.preferred_ending = line.ending;
      break;
    }
  }
  src.missing_final_ending = !src.lines.empty() && src.lines.back().ending.empty();
  return src;
}

// New lines replacing source lines [start, start + old_count): endings come from the replaced
// lines position by position, the last new line takes the last replaced line's ending, and
// the rest take a nearby ending.
std::vector<NewLine> changed_lines(const Source& src, size_t start, size_t old_count,
                                   const std::vector<std::string>& texts, size_t from, size_t to) {
  size_t n = src.lines.size();
  size_t first = std::min(start, n);
  size_t replaced = std::min(start + old_count, n) - first;
  auto replaced_ending = [&](size_t k) { return src.lines[first + k].ending; };
  std::string_view nearby;
  for (size_t k = 0; k < replaced && nearby.empty(); ++k) nearby = replaced_ending(k);
  if (nearby.empty() && start < n) nearby = src.lines[start].ending;
  if (nearby.empty() && start > 0 && start - 1 < n) nearby = src.lines[start - 1].ending;
  if (nearby.empty()) nearby = src.preferred_ending;

  std::vector<NewLine> out;
  size_t count = to - from;
  out.reserve(count);
  for (size_t k = 0; k < count; ++k) {
    std::string_view ending = nearby;
    if (replaced == count) {
      ending = replaced_ending(k);
    } else if (k + 1 == count && replaced > 0) {
      ending = replaced_ending(replaced - 1);
    } else if (k + 1 < replaced) {
      ending = replaced_ending(k);
    }
    out.push_back({texts[from + k], ending});
  }
  return out;
}

void append(std::vector<NewLine>& to, std::vector<NewLine> lines) {
  for (NewLine& line : lines) to.push_back(std::move(line));
}

// The new lines of a located chunk: runs of changed lines between context lines, each context
// line copied from the file as it is.
std::vector<NewLine> chunk_lines(const Source& src, const Chunk& chunk, size_t at, size_t old_count,
                                 size_t new_count) {
  std::vector<NewLine> out;
  size_t old_start = 0, new_start = 0;
  if (chunk.new_to_old.size() == chunk.new_lines.size()) {
    for (size_t k = 0; k < new_count; ++k) {
      if (!chunk.new_to_old[k]) continue;
      size_t old_k = *chunk.new_to_old[k];
      if (old_k >= old_count || old_k < old_start) continue;
      append(out, changed_lines(src, at + old_start, old_k - old_start, chunk.new_lines, new_start, k));
      const SourceLine& kept = src.lines[at + old_k];
      out.push_back({std::string(kept.text), kept.ending});
      old_start = old_k + 1;
      new_start = k + 1;
    }
  }
  append(out, changed_lines(src, at + old_start, old_count - old_start, chunk.new_lines, new_start, new_count));
  return out;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i > 0) out.push_back('\n');
    out += lines[i];
  }
  return out;
}

// Locates one chunk and records its replacement; advances the cursor.
Result<void> locate(const Source& src, LineTable& table, const Chunk& chunk, ChunkRef ref, size_t& cursor,
                    std::vector<Replacement>& out) {
  const std::string path(ref.path);
  bool has_context = chunk.context && !chunk.context->empty();
  if (has_context) {
    SeekResult found = table.seek({*chunk.context}, cursor, false);
    if (found.outcome == SeekOutcome::kAmbiguous) {
      return Error::invalid("Found " + std::to_string(found.occurrences) + " occurrences of context '" +
                            *chunk.context + "' in " + path +
                            ". The context must be unique; use a more specific @@ context line." +
                            explain_ambiguous(found, ref, true));
    }
    if (found.outcome == SeekOutcome::kMissing) {
      return Error::invalid("Failed to find context '" + *chunk.context + "' in " + path +
                            explain_missing_context(table, *chunk.context, ref));
    }
    cursor = found.index + 1;
    ref.cursor = cursor;
  }
  if (chunk.old_lines.empty()) {
    size_t at = has_context && !chunk.end_of_file ? cursor : src.lines.size();
    std::vector<NewLine> lines = changed_lines(src, at, 0, chunk.new_lines, 0, chunk.new_lines.size());
    if (src.missing_final_ending && at == src.lines.size() && !lines.empty()) lines.back().ending = {};
    out.push_back({at, 0, std::move(lines)});
    cursor = at;
    return {};
  }
  std::vector<std::string> pattern = chunk.old_lines;
  size_t new_count = chunk.new_lines.size();
  SeekResult found = table.seek(pattern, cursor, chunk.end_of_file);
  if (found.outcome == SeekOutcome::kMissing && pattern.back().empty()) {
    pattern.pop_back();
    if (new_count > 0 && chunk.new_lines[new_count - 1].empty()) --new_count;
    found = table.seek(pattern, cursor, chunk.end_of_file);
  }
  if (found.outcome == SeekOutcome::kAmbiguous) {
    return Error::invalid("Found " + std::to_string(found.occurrences) + " occurrences of these lines in " + path +
                          ". The lines must be unique; include more surrounding lines in the hunk:\n" +
                          joined(chunk.old_lines) + explain_ambiguous(found, ref, false));
  }
  if (found.outcome == SeekOutcome::kMissing) {
    return Error::invalid("Failed to find expected lines in " + path + ":\n" + joined(chunk.old_lines) +
                          explain_missing_lines(table, chunk.old_lines, ref));
  }
  out.push_back({found.index, pattern.size(), chunk_lines(src, chunk, found.index, pattern.size(), new_count)});
  cursor = found.index + pattern.size();
  return {};
}

std::string render(const Source& src, const std::vector<Replacement>& replacements) {
  struct Piece {
    std::string_view text, ending;
  };
  std::vector<Piece> pieces;
  pieces.reserve(src.lines.size());
  size_t next = 0;  // first source line not yet emitted or replaced
  for (const Replacement& r : replacements) {
    for (; next < r.start && next < src.lines.size(); ++next) pieces.push_back({src.lines[next].text, src.lines[next].ending});
    for (const NewLine& line : r.lines) pieces.push_back({line.text, line.ending});
    next = std::max(next, std::min(r.start + r.old_count, src.lines.size()));
  }
  for (; next < src.lines.size(); ++next) pieces.push_back({src.lines[next].text, src.lines[next].ending});

  size_t size = src.bom.size();
  for (const Piece& piece : pieces) size += piece.text.size() + std::max<size_t>(piece.ending.size(), 2);
  std::string out;
  out.reserve(size);  // one allocation: growing by doubling would peak at twice the file
  out += src.bom;
  for (size_t i = 0; i < pieces.size(); ++i) {
    out += pieces[i].text;
    bool interior = i + 1 < pieces.size();
    out += interior && pieces[i].ending.empty() ? src.preferred_ending : pieces[i].ending;
  }
  return out;
}

std::string normalized_for_comparison(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 1);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r') {
      out.push_back('\n');
      if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
    } else {
      out.push_back(text[i]);
    }
  }
  if (!out.empty() && out.back() != '\n') out.push_back('\n');
  return out;
}

}  // namespace

Result<std::string> apply_chunks(std::string_view original, const std::vector<Chunk>& chunks,
                                 std::string_view display_path) {
  Source src = parse_source(original);
  std::vector<std::string_view> texts;
  texts.reserve(src.lines.size());
  for (const SourceLine& line : src.lines) texts.push_back(line.text);
  LineTable table(std::move(texts));

  std::vector<Replacement> replacements;
  size_t cursor = 0;
  for (size_t k = 0; k < chunks.size(); ++k) {
    ChunkRef ref{k + 1, chunks[k].line, display_path, cursor, chunks[k].end_of_file};
    TRY(locate(src, table, chunks[k], ref, cursor, replacements));
  }
  std::stable_sort(replacements.begin(), replacements.end(),
                   [](const Replacement& a, const Replacement& b) { return a.start < b.start; });
  return render(src, replacements);
}

bool same_content(std::string_view a, std::string_view b) {
  return normalized_for_comparison(a) == normalized_for_comparison(b);
}

}  // namespace clawexec::patch
