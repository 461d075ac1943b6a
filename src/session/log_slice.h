#pragma once
// `process log`: a line window over a session's retained aggregate output, and (for the
// operator's view) the colour marks that apply to the window.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "session/output_buffer.h"
#include "session/style_marks.h"

namespace clawexec::session {

/// Lines shown when neither offset nor limit is given.
inline constexpr size_t kDefaultLogTailLines = 200;

struct LogSlice {
  std::string text;          // the selected lines joined with "\n" (no trailing newline)
  size_t total_lines = 0;    // lines in the whole aggregate (details.total and totalLines)
  size_t total_chars = 0;    // UTF-16 units of the raw aggregate (details.totalChars)
  /// "\n\n[showing last 200 of <total> lines; pass offset/limit to page]" when the default
  /// window hid lines, else empty. Goes after the slice (or its placeholder) in the text.
  std::string tail_note;
  /// The bytes of the aggregate the selected lines come from: [begin_byte, end_byte), from
  /// the first selected line's start to the last one's end (0, 0 when none is selected).
  size_t begin_byte = 0;
  size_t end_byte = 0;
};

/// Selects lines of `aggregated` the way the reference does. Lines: CRLF counts as LF, text
/// is split on LF, and one trailing empty line (text ending in a newline) is dropped.
/// `offset` and `limit` are the JSON numbers as given (nullopt when absent):
///  * both absent: the last 200 lines, with the tail note when there are more;
///  * only limit: the last floor(limit) lines;
///  * offset (floored, at least 0; a non-finite offset counts as 0): lines from there, up to
///    floor(limit) of them when limit is given;
///  * a negative limit selects nothing; a non-finite limit counts as absent but still turns
///    the default 200-line window off.
LogSlice slice_log(std::string_view aggregated, std::optional<double> offset,
                   std::optional<double> limit);

/// The colour marks for `slice.text`, where `slice` is a slice_log of `buffer.aggregated()`:
/// first the marks still in effect where the slice begins (at offset 0), then every mark
/// inside it at its offset in UTF-16 units of slice.text (CR LF counted as the LF it became).
std::vector<TextStyle> slice_styles(const OutputBuffer& buffer, const LogSlice& slice);

}  // namespace clawexec::session
