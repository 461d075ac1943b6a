#pragma once
// Colour marks kept beside a session's output, for the operator's view only.
//
// The agent's text has every escape sequence stripped (as OpenClaw strips them); the control
// UI should still show colours. So the SGR sequences the sanitizer strips are remembered as
// marks — the parameter text ("1;31") and the absolute position in the stream, in UTF-16
// units as OutputBuffer counts them — and a viewer gets the marks that fall inside the text
// it is sent. Marks never change the text.
//
// Bounded: at most kMaxStyleMarks marks (the oldest go first), and of the marks before the
// retained aggregate only those still in effect where it begins (after the last full reset,
// at most kMaxCarriedStyleMarks), so a flood of colour codes costs a fixed amount of memory.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace clawexec::session {

inline constexpr size_t kMaxStyleMarks = 2048;
inline constexpr size_t kMaxCarriedStyleMarks = 64;

/// An SGR that took effect at `at` (UTF-16 units since the stream began).
struct StyleMark {
  uint64_t at = 0;
  std::string params;
};

/// A mark inside a piece of text sent to a viewer: `offset` UTF-16 units from its start.
struct TextStyle {
  size_t offset = 0;
  std::string params;

  bool operator==(const TextStyle&) const = default;
};

/// True for parameters that reset every attribute ("", "0", "0;0", ";"): what came before
/// them no longer matters.
bool is_style_reset(std::string_view params);

class StyleMarks {
 public:
  /// Records an SGR at `at`. Ignored unless `params` are SGR parameters (digits and ';',
  /// bounded length). Positions never go backwards (an earlier one is moved up).
  void add(uint64_t at, std::string_view params);

  /// The retained text now begins at `start`: forgets the marks before it that no longer
  /// matter (see the file comment).
  void retain_from(uint64_t start);

  /// Marks with from <= at <= to, as offsets from `from`.
  std::vector<TextStyle> between(uint64_t from, uint64_t to) const;

  /// Parameters of the marks before `at` that are still in effect there, oldest first: those
  /// after the last full reset, at most kMaxCarriedStyleMarks of them.
  std::vector<std::string> in_effect_before(uint64_t at) const;

  const std::deque<StyleMark>& marks() const { return marks_; }
  bool empty() const { return marks_.empty(); }
  size_t size() const { return marks_.size(); }

 private:
  std::deque<StyleMark> marks_;
};

}  // namespace clawexec::session
