#pragma once
// The repair hints appended to apply_patch's "not found" and "not unique" messages: which chunk
// failed and what the file really holds nearby, so an agent can fix the patch in one try.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "patch/match.h"

namespace clawexec::patch {

/// Identifies the failing chunk in messages.
struct ChunkRef {
  size_t number = 0;      // 1-based among the file's chunks
  size_t patch_line = 0;  // Chunk::line
  std::string_view path;
  size_t cursor = 0;  // 0-based first file line the search considered
  bool at_end = false;  // "*** End of File" chunk
};

/// "\n\nHunk N of <path> (patch line L): ..." plus the closest window of the file.
std::string explain_missing_lines(const LineTable& table, const std::vector<std::string>& old_lines, const ChunkRef& ref);
/// The same for an "@@ <context>" line that was not found.
std::string explain_missing_context(const LineTable& table, std::string_view context, const ChunkRef& ref);
/// Where the several matches are, and how to make the hunk unique.
std::string explain_ambiguous(const SeekResult& seek, const ChunkRef& ref, bool context);

}  // namespace clawexec::patch
