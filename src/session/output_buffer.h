#pragma once
// Per-session output retention: what a background session keeps of its command's output.
//
// Two views of the same stream of sanitized text (valid UTF-8, lengths in UTF-16 units):
//  * the *aggregate*: the last max_output_chars units of everything, stdout and stderr merged
//    in arrival order (what `process log`, the foreground result and `tail` are built from);
//  * the *pending* output: text no poll has returned yet, in arrival order, where each stream
//    may hold at most min(pending_max_output_chars, max_output_chars) units. When a stream goes
//    over, its own oldest text is dropped (the other stream's is untouched) and the
//    "dropped since the last drain" flag is raised for the poll's omitted-output note.
// `truncated` becomes true the first time anything falls off either view; it never resets.
// Beside the aggregate, the colour marks of the text it holds (style_marks.h), for the
// operator's view; nothing the agent reads includes them.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <string_view>

#include "session/style_marks.h"
#include "term/output_sanitizer.h"

namespace clawexec::session {

enum class Stream { kStdout, kStderr };

inline constexpr size_t kDefaultMaxOutputChars = 200'000;
inline constexpr size_t kDefaultPendingMaxOutputChars = 30'000;
/// Length of `tail` (the last part of the aggregate shown in lists and progress updates).
inline constexpr size_t kTailChars = 2'000;

struct OutputLimits {
  size_t max_output_chars = kDefaultMaxOutputChars;
  size_t pending_max_output_chars = kDefaultPendingMaxOutputChars;
};

/// What one drain of the pending output returns.
struct DrainedOutput {
  std::string text;          // unpolled output of both streams, in arrival order
  bool output_dropped = false;  // the pending cap dropped text since the previous drain
};

class OutputBuffer {
 public:
  explicit OutputBuffer(OutputLimits limits = {});

  /// Records the next piece of sanitized output of `stream`. Cost is O(text.size()) amortized,
  /// independent of the caps. Ignored after seal() and for empty text. `marks` are the SGR
  /// sequences stripped from it (byte offsets into `text`, ascending); they are kept as style
  /// marks even when the text is empty (a colour change at the end of a read).
  void append(Stream stream, std::string_view text, std::span<const term::SgrMark> marks = {});

  /// Returns the pending output in arrival order together with the dropped flag, then empties
  /// the pending output and clears the flag.
  DrainedOutput drain_pending();

  /// The session's process has exited: later append() calls are ignored (the reference stops
  /// recording at exit); whatever is still pending stays available to drain_pending().
  void seal() { sealed_ = true; }
  bool sealed() const { return sealed_; }

  /// The retained aggregate: the last max_output_chars units (fewer when the cut would split
  /// a surrogate pair). Valid until the next non-const call.
  std::string_view aggregated() const {
    return std::string_view(aggregate_).substr(aggregate_begin_);
  }
  /// Length of aggregated() in UTF-16 units.
  size_t aggregated_chars() const { return aggregate_units_; }
  /// The last kTailChars units of the aggregate.
  std::string_view tail() const;
  /// Units ever appended (before any cap).
  uint64_t total_output_chars() const { return total_units_; }
  /// Stream position (in units) where the retained aggregate begins.
  uint64_t aggregate_start_chars() const { return total_units_ - aggregate_units_; }
  /// Colour marks of the retained aggregate, positioned in stream units.
  const StyleMarks& style_marks() const { return style_marks_; }
  /// Some output was lost from the aggregate (the retention-cap note applies).
  bool retention_capped() const { return total_units_ > aggregate_units_; }
  /// Something fell off the aggregate or the pending output at some point.
  bool truncated() const { return truncated_; }
  /// The pending cap dropped text since the last drain.
  bool pending_output_dropped() const { return pending_dropped_; }
  /// Unpolled text is waiting (a waiting poll returns early when this or the flag is set).
  bool has_pending() const;
  /// Units of `stream` currently pending.
  size_t pending_chars(Stream stream) const { return queue(stream).units; }

  const OutputLimits& limits() const { return limits_; }

 private:
  // A run of consecutive same-stream output. Text before `begin` has been dropped but not
  // yet compacted away; `seq` orders pieces of both streams by arrival.
  struct Piece {
    uint64_t seq = 0;
    std::string text;
    size_t begin = 0;
    size_t units = 0;
  };
  struct StreamQueue {
    std::deque<Piece> pieces;
    size_t units = 0;
  };

  StreamQueue& queue(Stream s) { return s == Stream::kStdout ? stdout_ : stderr_; }
  const StreamQueue& queue(Stream s) const { return s == Stream::kStdout ? stdout_ : stderr_; }
  size_t pending_cap() const;
  void append_pending(Stream stream, std::string_view text, size_t units);
  void drop_oldest_pending(StreamQueue& q, size_t overflow);
  void append_aggregate(std::string_view text, size_t units);
  void record_marks(std::string_view text, std::span<const term::SgrMark> marks);

  OutputLimits limits_;
  std::string aggregate_;
  size_t aggregate_begin_ = 0;  // bytes of aggregate_ already cut off
  size_t aggregate_units_ = 0;
  uint64_t total_units_ = 0;
  StyleMarks style_marks_;
  StreamQueue stdout_;
  StreamQueue stderr_;
  uint64_t next_seq_ = 0;  // sequence number of the next new piece
  bool pending_dropped_ = false;
  bool truncated_ = false;
  bool sealed_ = false;
};

}  // namespace clawexec::session
