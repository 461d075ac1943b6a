#pragma once
// The pure half of apply_patch (spec §6.2, §6.3): parsing the patch envelope into hunks and
// applying one file's update chunks to that file's text. No file I/O here; the file-system side
// (paths, atomic writes, the summary) builds on these.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace clawexec::patch {

/// One "@@" section of an "*** Update File:" hunk.
struct Chunk {
  std::optional<std::string> context;  // "@@ <context>" text; nullopt for a bare "@@" (or "@@ ") or none
  std::vector<std::string> old_lines;  // context + removed lines, in order
  std::vector<std::string> new_lines;  // context + added lines, in order
  /// Parallel to new_lines: for a context line, its index in old_lines (the file's original text
  /// of that line is kept); nullopt for an added line. Empty = no line is treated as context.
  std::vector<std::optional<size_t>> new_to_old;
  bool end_of_file = false;  // "*** End of File": the old lines must be the file's last lines
  size_t line = 0;           // 1-based line of the chunk header (or first body line) in the patch
};

enum class HunkKind { kAdd, kDelete, kUpdate };

struct Hunk {
  HunkKind kind = HunkKind::kAdd;
  std::string path;                    // as written after the marker
  std::optional<std::string> move_to;  // "*** Move to: " for updates
  std::string contents;                // kAdd: the new file (each "+" line + "\n")
  std::vector<Chunk> chunks;           // kUpdate
  size_t line = 0;                     // 1-based line of the hunk header ("*** Begin Patch" = 1)
};

/// §6.2: parses a patch envelope with the reference's grammar and exact messages
/// (Error::invalid): heredoc-wrapped input, CRLF input, "Provide a patch input." for blank
/// input, "No files were modified." for a patch without hunks.
Result<std::vector<Hunk>> parse_patch(std::string_view input);

/// §6.3: applies one file's update chunks to its text and returns the new text. Each line keeps
/// its own ending (LF, CRLF or CR), a byte-order mark and a missing final newline are kept, new
/// lines take the ending of the lines they replace or their neighbours. Chunks are located with
/// a moving cursor, an optional unique "@@" context line, the four fuzzy levels (exact, trimEnd,
/// trim, trim + typographic punctuation) and a uniqueness requirement; context lines keep the
/// file's original bytes. Failure messages start with the reference's text and then name the
/// chunk ("hunk N of <path>, patch line L") and show the closest lines present in the file.
/// `display_path` is used in messages.
Result<std::string> apply_chunks(std::string_view original, const std::vector<Chunk>& chunks,
                                 std::string_view display_path);

/// True when the two texts are equal after CRLF/CR -> LF normalisation and ensuring a final
/// newline on non-empty text (the reference's no-op detection).
bool same_content(std::string_view a, std::string_view b);

}  // namespace clawexec::patch
