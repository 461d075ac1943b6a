#pragma once
// Streaming removal of ANSI escape sequences from decoded terminal output, one code point at
// a time, with the grammar of the reference's output sanitizer (see ansi_stripper.cc).

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "term/terminal_modes.h"

namespace clawexec::term {

/// The longest SGR parameter text reported (see AnsiStripper::sgr_completed); a longer one
/// is stripped like any sequence and not reported.
inline constexpr size_t kMaxSgrParamsLength = 48;

/// True for text that can only be SGR parameters: digits and ';', at most kMaxSgrParamsLength
/// characters (empty too: `ESC[m`). Everything that carries a style mark checks this.
bool is_sgr_params(std::string_view params);

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

  /// True when the last keep() completed a plain SGR sequence: ESC '[' (or U+009B), then only
  /// digits and ';' (at most kMaxSgrParamsLength), no intermediates or private markers, final
  /// 'm'. take_sgr() returns its parameters and clears the flag.
  bool sgr_completed() const { return sgr_completed_; }
  std::string_view take_sgr() {
    sgr_completed_ = false;
    return std::string_view(sgr_params_, sgr_length_);
  }

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
  // SGR: whether the CSI so far can still be one, and its parameter text.
  bool sgr_candidate_ = false;
  bool sgr_completed_ = false;
  uint8_t sgr_length_ = 0;
  char sgr_params_[kMaxSgrParamsLength] = {};
};

}  // namespace clawexec::term
