#pragma once
// Streaming removal of ANSI escape sequences from decoded terminal output, one code point at
// a time, with the grammar of the reference's output sanitizer (see ansi_stripper.cc).

#include <cstdint>

#include "term/terminal_modes.h"

namespace clawexec::term {

class AnsiStripper {
 public:
  /// Feeds the next code point of the stream. Returns true when it is visible text that the
  /// caller keeps, false when it belongs to (or cancels) an escape sequence. C0 controls
  /// inside a CSI sequence are returned as visible; the sequence continues after them.
  bool keep(char32_t cp);

  /// True between sequences (the state in which plain text passes unchanged).
  bool in_text() const { return state_ == State::kText; }
  /// True inside an OSC string, which swallows everything up to its terminator.
  bool in_osc_string() const { return state_ == State::kOsc; }

  /// Requests made by CSI sequences completed since the last call, then forgets them.
  TerminalRequests take_requests();

  /// Back to the initial state (an unfinished sequence is dropped); keeps pending requests.
  void reset();

 private:
  enum class State : uint8_t { kText, kEscape, kCsi, kCompat, kOsc, kOscEscape };

  bool keep_in_text(char32_t cp);
  bool step_csi(char32_t cp);
  bool step_escape(char32_t cp);
  bool step_compat(char32_t cp);
  void start_csi();
  void start_compat(bool in_parameters);
  void finish_csi(char32_t final_char);

  State state_ = State::kText;
  // CSI: whether every parameter/intermediate byte so far was a "compat" prefix character
  // (then a further '[' or ']' switches to the compat grammar), and the first two parameter
  // bytes with the count, enough to recognise the DECCKM and DSR requests.
  bool csi_compat_prefix_only_ = false;
  uint8_t csi_param_count_ = 0;
  char csi_params_[2] = {0, 0};
  // Compat grammar: inside the digit/';'/':' parameter part, and digits in the current one.
  bool compat_in_parameters_ = false;
  uint8_t compat_digits_ = 0;
  TerminalRequests requests_;
};

}  // namespace clawexec::term
