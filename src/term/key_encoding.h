#pragma once
// What `process send-keys` and `process paste` write to a session's terminal: tmux-style key
// names ("Enter", "C-c", "M-up", "^D", "S-Tab"...), hex bytes and literal text encoded as the
// bytes an xterm-compatible terminal would send.

#include <string>
#include <string_view>
#include <vector>

#include "term/terminal_modes.h"

namespace clawexec::term {

struct KeyRequest {
  std::string literal;            // sent verbatim, first
  std::vector<std::string> hex;   // then one byte per entry ("1b", "0x0d", "A")
  std::vector<std::string> keys;  // then one key token per entry
};

struct EncodedKeys {
  std::string data;                   // raw bytes to write (hex bytes >= 0x80 stay single bytes)
  std::vector<std::string> warnings;  // invalid hex entries first, then unknown keys
};

/// Encodes a send-keys request. Unmodified arrows/home/end use SS3 forms only when `mode`
/// is kApplication; kUnknown encodes like kNormal.
EncodedKeys encode_key_sequence(const KeyRequest& request, CursorKeyMode mode);

/// True when some token is an unmodified up/down/left/right/home/end, whose bytes depend on
/// the cursor-key mode (send-keys refuses those while the mode is still unknown).
bool has_cursor_mode_sensitive_keys(const std::vector<std::string>& keys);

enum class PasteBracketing { kBracketed, kRaw };

/// Paste payload: the text between ESC[200~ and ESC[201~, or the text alone.
std::string encode_paste(std::string_view text, PasteBracketing bracketing);

}  // namespace clawexec::term
