#pragma once
// Helpers for the terminal protocol a PTY session speaks with its program: answering cursor
// position requests (DSR) and noticing when the program switches its cursor-key mode.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "term/terminal_modes.h"

namespace clawexec::term {

struct DsrStripResult {
  std::string cleaned;  // the input without its DSR requests
  size_t requests = 0;  // how many were removed (each wants one cursor_position_response())
};

/// Removes every cursor position request (ESC[6n and ESC[?6n) from raw PTY output.
DsrStripResult strip_dsr_requests(std::string_view raw);

/// The terminal's answer to a cursor position request: ESC[<row>;<col>R.
std::string cursor_position_response(int row = 1, int col = 1);

/// The cursor-key mode a raw output chunk leaves the terminal in: the last of ESC[?1h
/// (application) and ESC[?1l (normal) wins; nullopt when the chunk contains neither.
std::optional<CursorKeyMode> detect_cursor_key_mode(std::string_view raw);

}  // namespace clawexec::term
