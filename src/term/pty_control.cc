// Byte-level DSR and DECCKM handling on raw PTY output chunks (before sanitizing). These are
// plain substring scans; the streaming equivalent that also sees sequences split between
// chunks is OutputSanitizer::take_requests().

#include "term/pty_control.h"

namespace clawexec::term {
namespace {

constexpr std::string_view kDsr = "\x1b[6n";
constexpr std::string_view kPrivateDsr = "\x1b[?6n";
constexpr std::string_view kApplicationCursorKeys = "\x1b[?1h";
constexpr std::string_view kNormalCursorKeys = "\x1b[?1l";

}  // namespace

DsrStripResult strip_dsr_requests(std::string_view raw) {
  DsrStripResult result;
  result.cleaned.reserve(raw.size());
  size_t pos = 0;
  while (pos < raw.size()) {
    const size_t esc = raw.find('\x1b', pos);
    if (esc == std::string_view::npos) break;
    result.cleaned.append(raw.substr(pos, esc - pos));
    const std::string_view rest = raw.substr(esc);
    if (rest.starts_with(kDsr) || rest.starts_with(kPrivateDsr)) {
      ++result.requests;
      pos = esc + (rest.starts_with(kDsr) ? kDsr.size() : kPrivateDsr.size());
    } else {
      result.cleaned.push_back('\x1b');
      pos = esc + 1;
    }
  }
  if (pos < raw.size()) result.cleaned.append(raw.substr(pos));
  return result;
}

std::string cursor_position_response(int row, int col) {
  return "\x1b[" + std::to_string(row) + ";" + std::to_string(col) + "R";
}

std::optional<CursorKeyMode> detect_cursor_key_mode(std::string_view raw) {
  const size_t application = raw.rfind(kApplicationCursorKeys);
  const size_t normal = raw.rfind(kNormalCursorKeys);
  if (application == std::string_view::npos && normal == std::string_view::npos) {
    return std::nullopt;
  }
  if (normal == std::string_view::npos) return CursorKeyMode::kApplication;
  if (application == std::string_view::npos) return CursorKeyMode::kNormal;
  return application > normal ? CursorKeyMode::kApplication : CursorKeyMode::kNormal;
}

}  // namespace clawexec::term
