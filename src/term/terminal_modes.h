#pragma once
// Terminal state the session layer tracks for a running command: which byte sequences the
// cursor keys must send (DECCKM), and the requests a program made that need an answer.

#include <cstddef>
#include <optional>

namespace clawexec::term {

/// DECCKM cursor-key mode of a session's terminal. PTY sessions start kUnknown until the
/// program prints smkx (ESC[?1h, application) or rmkx (ESC[?1l, normal); pipe sessions are
/// kNormal from the start.
enum class CursorKeyMode { kUnknown, kNormal, kApplication };

/// What complete CSI sequences in an output stream asked of the terminal.
struct TerminalRequests {
  /// The last DECCKM toggle seen (ESC[?1h -> kApplication, ESC[?1l -> kNormal), if any.
  std::optional<CursorKeyMode> cursor_key_mode;
  /// Cursor position reports requested (ESC[6n and ESC[?6n); a PTY session answers each one
  /// with cursor_position_response().
  size_t cursor_position_requests = 0;
};

}  // namespace clawexec::term
