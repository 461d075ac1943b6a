// Line windows over retained output for `process log`.
//
// The reference resolves the window in two steps (a default 200-line tail when the caller
// gave neither offset nor limit, then a slice over the lines) and relies on JavaScript's
// Array.prototype.slice clamping. We compute the same start/end in double arithmetic (the
// inputs are arbitrary JSON numbers, possibly huge or infinite) and clamp once to the line
// count. Lines are found in one pass without rewriting the text: a CR directly before an LF
// belongs to the line break, any other CR stays in the line.
//
// Colour marks are positioned in stream units; slice_styles walks the selected byte range
// once, advancing a stream position and a position in the slice text side by side (they
// differ only by the CRs removed before LFs), and stops at the last mark.

#include "session/log_slice.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "base/utf.h"

namespace clawexec::session {
namespace {

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (true) {
    size_t lf = text.find('\n', start);
    if (lf == std::string_view::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    size_t end = lf > start && text[lf - 1] == '\r' ? lf - 1 : lf;
    lines.push_back(text.substr(start, end - start));
    start = lf + 1;
  }
  if (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

size_t clamp_index(double value, size_t count) {
  if (!(value > 0)) return 0;  // also NaN
  if (value >= static_cast<double>(count)) return count;
  return static_cast<size_t>(value);
}

}  // namespace

LogSlice slice_log(std::string_view aggregated, std::optional<double> offset,
                   std::optional<double> limit) {
  LogSlice out;
  const bool default_window = !offset && !limit;
  // A non-finite limit is dropped; without offset and limit the window is the last 200.
  std::optional<double> window_limit;
  if (limit && std::isfinite(*limit)) {
    window_limit = *limit;
  } else if (default_window) {
    window_limit = static_cast<double>(kDefaultLogTailLines);
  }
  if (aggregated.empty()) return out;

  std::vector<std::string_view> lines = split_lines(aggregated);
  out.total_lines = lines.size();
  out.total_chars = utf16_length(aggregated);
  const double total = static_cast<double>(lines.size());

  double start = offset && std::isfinite(*offset) ? std::max(0.0, std::floor(*offset)) : 0.0;
  if (window_limit && !offset) {
    start = std::max(total - std::max(0.0, std::floor(*window_limit)), 0.0);
  }
  double end = window_limit ? start + std::max(0.0, std::floor(*window_limit)) : total;

  size_t first = clamp_index(start, lines.size());
  size_t last = clamp_index(end, lines.size());
  for (size_t i = first; i < last; ++i) {
    if (i > first) out.text += '\n';
    out.text += lines[i];
  }
  if (first < last) {
    out.begin_byte = static_cast<size_t>(lines[first].data() - aggregated.data());
    out.end_byte = static_cast<size_t>(lines[last - 1].data() + lines[last - 1].size() - aggregated.data());
  }
  if (default_window && out.total_lines > kDefaultLogTailLines) {
    out.tail_note = "\n\n[showing last " + std::to_string(kDefaultLogTailLines) + " of " +
                    std::to_string(out.total_lines) + " lines; pass offset/limit to page]";
  }
  return out;
}

std::vector<TextStyle> slice_styles(const OutputBuffer& buffer, const LogSlice& slice) {
  std::vector<TextStyle> out;
  const StyleMarks& marks = buffer.style_marks();
  std::string_view aggregated = buffer.aggregated();
  if (slice.text.empty() || marks.empty() || slice.end_byte > aggregated.size()) return out;
  uint64_t at = buffer.aggregate_start_chars() + utf16_length(aggregated.substr(0, slice.begin_byte));
  for (std::string& params : marks.in_effect_before(at)) out.push_back({0, std::move(params)});

  std::string_view range = aggregated.substr(slice.begin_byte, slice.end_byte - slice.begin_byte);
  const std::deque<StyleMark>& all = marks.marks();
  auto next = std::lower_bound(all.begin(), all.end(), at, [](const StyleMark& m, uint64_t v) { return m.at < v; });
  size_t offset = 0;  // UTF-16 units of slice.text before the byte at `i`
  size_t i = 0;
  while (next != all.end()) {
    while (next != all.end() && next->at <= at) out.push_back({offset, (next++)->params});
    if (i >= range.size()) break;
    char32_t cp = 0;
    const size_t length = decode_utf8(range.substr(i), cp);
    const size_t units = cp >= 0x10000 ? 2 : 1;
    at += units;
    const bool dropped_cr = cp == '\r' && i + 1 < range.size() && range[i + 1] == '\n';
    if (!dropped_cr) offset += units;
    i += length;
  }
  return out;
}

}  // namespace clawexec::session
