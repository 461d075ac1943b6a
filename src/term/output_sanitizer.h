#pragma once
// Turns the raw bytes of a process output stream into the text an agent sees: valid UTF-8
// with ANSI escape sequences, Unicode format characters and (except TAB, LF, CR) control
// characters removed or made visible. One instance per stream; state spans feed() calls.
// On request it also reports where each stripped SGR (colour) sequence applied, so that a
// human's view can show colours the agent's text never carries.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "term/ansi_stripper.h"
#include "term/terminal_modes.h"

namespace clawexec::term {

namespace internal {
class OutputWriter;
}

/// A stripped SGR sequence: its parameters (is_sgr_params holds) and the byte offset in the
/// output string at which it took effect (the text before it is unstyled by it).
struct SgrMark {
  size_t offset = 0;
  std::string params;
};

class OutputSanitizer {
 public:
  /// Appends the sanitized text of the next chunk of the stream to `out`. A multi-byte
  /// character or escape sequence cut by the chunk boundary is completed by later chunks.
  void feed(std::string_view bytes, std::string& out) { feed(bytes, out, nullptr); }

  /// The same, and appends to `marks` (when not null) each SGR sequence completed in this
  /// chunk, with its offset in `out`. The text appended to `out` is the same either way.
  void feed(std::string_view bytes, std::string& out, std::vector<SgrMark>* marks);

  /// End of the stream: an incomplete UTF-8 sequence left over becomes U+FFFD (appended to
  /// `out` unless an unfinished escape sequence swallows it). The sanitizer is then back in
  /// its initial state and can take a new stream.
  void finish(std::string& out);

  /// DECCKM toggles and cursor-position requests seen since the last call (see
  /// TerminalRequests); only meaningful for a PTY's stream.
  TerminalRequests take_requests() { return stripper_.take_requests(); }

 private:
  const unsigned char* process_text(const unsigned char* p, const unsigned char* end,
                                    internal::OutputWriter& out);
  const unsigned char* process_sequence(const unsigned char* p, const unsigned char* end,
                                        internal::OutputWriter& out);
  void decode_byte(unsigned char byte, internal::OutputWriter& out);
  void emit(char32_t cp, internal::OutputWriter& out);
  void reset_decoder();

  AnsiStripper stripper_;
  std::vector<SgrMark>* marks_ = nullptr;  // set during feed() when marks are wanted
  // WHATWG UTF-8 decoder state between bytes: the code point so far, continuation bytes
  // still needed, and the range the next byte must be in.
  char32_t partial_ = 0;
  uint8_t needed_ = 0;
  uint8_t lower_ = 0x80;
  uint8_t upper_ = 0xBF;
};

/// Convenience for a whole buffer: feed() and finish() on a fresh sanitizer.
std::string sanitize_output(std::string_view bytes);

}  // namespace clawexec::term
