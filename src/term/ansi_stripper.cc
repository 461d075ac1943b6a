// ANSI escape stripping for captured command output.
//
// Problem: commands colour and position their output with escape sequences that an agent
// should never see, and a sequence may be cut anywhere by pipe reads. We must remove exactly
// what the reference removes, so agents see the same text from both implementations.
//
// Approach: a constant-size state machine fed one code point at a time, so state carries
// across chunks and an unterminated string cannot make us buffer. The grammar (the
// reference's, established by reading and differential testing):
//   * ESC '[' or the 8-bit CSI (U+009B) starts a CSI: bytes 0x20-0x3F are parameters and
//     intermediates, 0x40-0x7E ends it. C0 controls and DEL inside it are visible text and
//     the sequence goes on; CAN/SUB cancel it silently. If only "compat prefix" characters
//     ([ ] ( ) # ; ?) were seen, a '[' or ']' switches to the compat grammar below.
//   * ESC ']' or U+009D starts an OSC string that swallows everything up to BEL, U+009C or
//     ESC '\'. ESC followed by BEL/U+009C also ends it, ESC ESC keeps waiting for the
//     terminator, ESC + anything else is swallowed as string content.
//   * ESC followed by a compat prefix or a digit enters the compat grammar: prefixes, then
//     parameters of at most four digits separated by ';' or ':', then an optional final
//     character (digits, '@'-'Z', c, f-n, q-u, y, = > < ~). A fifth digit ends the sequence
//     (and is swallowed). ESC followed directly by a final character is a two-character
//     sequence.
//   * Outside OSC, ESC, U+009B and U+009D always restart parsing. Any character that does not
//     fit the current sequence ends it and is then treated as ordinary text.
// Complete CSI sequences are also inspected for DECCKM toggles and cursor-position requests,
// and a plain SGR (digits and ';' only, final 'm') keeps its parameters for the caller, which
// may record where the colour changed (the control UI shows it; the agent never does).

#include "term/ansi_stripper.h"

namespace clawexec::term {
namespace {

constexpr char32_t kBel = 0x07;
constexpr char32_t kCan = 0x18;
constexpr char32_t kSub = 0x1A;
constexpr char32_t kEsc = 0x1B;
constexpr char32_t kDel = 0x7F;
constexpr char32_t kCsi8 = 0x9B;
constexpr char32_t kSt8 = 0x9C;
constexpr char32_t kOsc8 = 0x9D;

bool is_digit(char32_t c) { return c >= '0' && c <= '9'; }

bool is_compat_prefix(char32_t c) {
  return c == '[' || c == ']' || c == '(' || c == ')' || c == '#' || c == ';' || c == '?';
}

bool is_compat_final(char32_t c) {
  return is_digit(c) || (c >= '@' && c <= 'Z') || c == 'c' || (c >= 'f' && c <= 'n') ||
         (c >= 'q' && c <= 'u') || c == 'y' || c == '=' || c == '>' || c == '<' || c == '~';
}

}  // namespace

bool is_sgr_params(std::string_view params) {
  if (params.size() > kMaxSgrParamsLength) return false;
  for (char c : params) {
    if (!is_digit(static_cast<unsigned char>(c)) && c != ';') return false;
  }
  return true;
}

bool AnsiStripper::keep(char32_t cp) {
  switch (state_) {
    case State::kText:
      return keep_in_text(cp);
    case State::kOsc:
      if (cp == kBel || cp == kSt8) {
        state_ = State::kText;
      } else if (cp == kEsc) {
        state_ = State::kOscEscape;
      }
      return false;
    case State::kOscEscape:
      if (cp == '\\' || cp == kBel || cp == kSt8) {
        state_ = State::kText;
      } else if (cp != kEsc) {
        state_ = State::kOsc;
      }
      return false;
    case State::kEscape:
    case State::kCsi:
    case State::kCompat:
      break;
  }
  if (cp == kEsc || cp == kCsi8 || cp == kOsc8) return keep_in_text(cp);  // restart
  switch (state_) {
    case State::kCsi:
      return step_csi(cp);
    case State::kEscape:
      return step_escape(cp);
    default:
      return step_compat(cp);
  }
}

bool AnsiStripper::keep_in_text(char32_t cp) {
  if (cp == kEsc) {
    state_ = State::kEscape;
  } else if (cp == kCsi8) {
    start_csi();
  } else if (cp == kOsc8) {
    state_ = State::kOsc;
  } else {
    state_ = State::kText;
    return true;
  }
  return false;
}

bool AnsiStripper::step_csi(char32_t cp) {
  if (cp == kCan || cp == kSub) {
    state_ = State::kText;
    return false;
  }
  if (cp < 0x20 || cp == kDel) return true;  // executed by the terminal, sequence goes on
  if (cp <= 0x3F) {
    if (csi_param_count_ < 2) csi_params_[csi_param_count_] = static_cast<char>(cp);
    if (csi_param_count_ < UINT8_MAX) ++csi_param_count_;
    if (!is_compat_prefix(cp)) csi_compat_prefix_only_ = false;
    if (sgr_candidate_) {
      if ((is_digit(cp) || cp == ';') && sgr_length_ < kMaxSgrParamsLength) {
        sgr_params_[sgr_length_++] = static_cast<char>(cp);
      } else {
        sgr_candidate_ = false;  // an intermediate, a private marker, ':' or too long
      }
    }
    return false;
  }
  if ((cp == '[' || cp == ']') && csi_compat_prefix_only_) {
    start_compat(false);
    return false;
  }
  if (cp <= 0x7E) {
    finish_csi(cp);
    state_ = State::kText;
    return false;
  }
  state_ = State::kText;  // not part of a CSI: ends it and is text
  return true;
}

bool AnsiStripper::step_escape(char32_t cp) {
  if (cp == ']') {
    state_ = State::kOsc;
    return false;
  }
  if (cp == '[') {
    start_csi();
    return false;
  }
  if (is_compat_prefix(cp)) {
    start_compat(false);
    return false;
  }
  if (is_digit(cp)) {
    start_compat(true);
    return false;
  }
  state_ = State::kText;
  return !is_compat_final(cp);  // a final completes a two-character sequence
}

bool AnsiStripper::step_compat(char32_t cp) {
  if (cp == kCan || cp == kSub) {
    state_ = State::kText;
    return false;
  }
  if (!compat_in_parameters_) {
    if (is_compat_prefix(cp)) return false;
    if (is_digit(cp)) {
      compat_in_parameters_ = true;
      compat_digits_ = 1;
      return false;
    }
  } else if (cp == ';' || cp == ':') {
    compat_digits_ = 0;
    return false;
  } else if (is_digit(cp)) {
    if (compat_digits_ < 4) {
      ++compat_digits_;
    } else {
      state_ = State::kText;  // a fifth digit ends the sequence and is swallowed with it
    }
    return false;
  }
  state_ = State::kText;
  return !is_compat_final(cp);
}

void AnsiStripper::start_csi() {
  state_ = State::kCsi;
  csi_compat_prefix_only_ = true;
  csi_param_count_ = 0;
  sgr_candidate_ = true;
  sgr_length_ = 0;
}

void AnsiStripper::start_compat(bool in_parameters) {
  state_ = State::kCompat;
  compat_in_parameters_ = in_parameters;
  compat_digits_ = in_parameters ? 1 : 0;
}

void AnsiStripper::finish_csi(char32_t final_char) {
  if (final_char == 'm' && sgr_candidate_) sgr_completed_ = true;
  const bool private_marker = csi_param_count_ >= 1 && csi_params_[0] == '?';
  const bool one_param = csi_param_count_ == (private_marker ? 2 : 1);
  const char param = one_param ? csi_params_[csi_param_count_ - 1] : 0;
  if (private_marker && param == '1' && (final_char == 'h' || final_char == 'l')) {
    requests_.cursor_key_mode =
        final_char == 'h' ? CursorKeyMode::kApplication : CursorKeyMode::kNormal;
  } else if (param == '6' && final_char == 'n') {
    ++requests_.cursor_position_requests;
  }
}

TerminalRequests AnsiStripper::take_requests() {
  TerminalRequests taken = requests_;
  requests_ = TerminalRequests{};
  return taken;
}

void AnsiStripper::reset() {
  state_ = State::kText;
  csi_compat_prefix_only_ = false;
  csi_param_count_ = 0;
  sgr_candidate_ = false;
  sgr_completed_ = false;
  compat_in_parameters_ = false;
  compat_digits_ = 0;
}

}  // namespace clawexec::term
