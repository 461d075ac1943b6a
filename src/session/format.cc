// Text fragments shared by exec and process results.
//
// Each function reproduces one small formatter of the reference (compact durations built on
// pretty-ms, exit labels, the notify snippet, the poll backoff schedule, Node's signal
// names); the expected outputs were established by running the reference's own functions.
// Everything here is pure: callers pass in times and states.

#include "session/format.h"

#include <algorithm>
#include <array>

#include "base/utf.h"

namespace clawexec::session {
namespace {

constexpr int64_t kSecondMs = 1000;
constexpr int64_t kMinuteMs = 60 * kSecondMs;
constexpr int64_t kHourMs = 60 * kMinuteMs;
constexpr int64_t kDayMs = 24 * kHourMs;

constexpr size_t kNotifyTailChars = 400;
constexpr size_t kNotifySnippetChars = 180;

constexpr std::array<uint32_t, 4> kRetrySchedule = {5000, 10000, 30000, 60000};

// JavaScript's /\s+/g -> " " followed by trim().
std::string collapse_white_space(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool in_space = false;
  size_t i = 0;
  while (i < text.size()) {
    char32_t cp = 0;
    size_t length = decode_utf8(text.substr(i), cp);
    if (length == 0) length = 1;
    if (is_js_whitespace(cp)) {
      in_space = true;
    } else {
      if (in_space && !out.empty()) out += ' ';
      in_space = false;
      out.append(text.substr(i, length));
    }
    i += length;
  }
  return out;
}

}  // namespace

std::optional<std::string> format_duration_compact(int64_t ms) {
  if (ms <= 0) return std::nullopt;
  if (ms < kSecondMs) return std::to_string(ms) + "ms";
  const int64_t rounded = (ms + kSecondMs / 2) / kSecondMs * kSecondMs;
  const std::array<std::pair<int64_t, const char*>, 4> parts = {{
      {rounded / kDayMs, "d"},
      {rounded / kHourMs % 24, "h"},
      {rounded / kMinuteMs % 60, "m"},
      {rounded / kSecondMs % 60, "s"},
  }};
  std::string out;
  int shown = 0;
  for (const auto& [value, unit] : parts) {
    if (value == 0 || shown == 2) continue;
    out += std::to_string(value);
    out += unit;
    ++shown;
  }
  return out;
}

std::string exit_label(std::optional<int> exit_code, std::string_view exit_signal) {
  if (!exit_signal.empty()) return "signal " + std::string(exit_signal);
  if (exit_code) return "code " + std::to_string(*exit_code);
  return "unknown exit code";
}

std::string compact_notify_output(std::string_view text) {
  std::string normalized = collapse_white_space(utf16_suffix(text, kNotifyTailChars));
  if (utf16_length(normalized) <= kNotifySnippetChars) return normalized;
  std::string out(utf16_prefix(normalized, kNotifySnippetChars - 1));
  out += "\u2026";
  return out;
}

std::string input_wait_hint(int64_t idle_ms) {
  std::optional<std::string> idle = format_duration_compact(idle_ms);
  return "\n\nNo new output for " + (idle ? *idle : std::to_string(idle_ms) + "ms") +
         "; this session may be waiting for input. Use process write, send-keys, submit, or "
         "paste to provide input.";
}

uint32_t PollBackoff::record(PollOutput output) {
  if (output == PollOutput::kNew) {
    streak_ = 0;
    return kRetrySchedule[0];
  }
  streak_ = streak_ ? *streak_ + 1 : 0;
  return kRetrySchedule[std::min<size_t>(*streak_, kRetrySchedule.size() - 1)];
}

std::string signal_name(int signo) {
  // Linux numbering, the names Node's signo_string() returns (SIGABRT for 6, SIGIO for 29).
  static constexpr std::array<const char*, 32> kNames = {
      "",        "SIGHUP",  "SIGINT",    "SIGQUIT", "SIGILL",    "SIGTRAP", "SIGABRT",
      "SIGBUS",  "SIGFPE",  "SIGKILL",   "SIGUSR1", "SIGSEGV",   "SIGUSR2", "SIGPIPE",
      "SIGALRM", "SIGTERM", "SIGSTKFLT", "SIGCHLD", "SIGCONT",   "SIGSTOP", "SIGTSTP",
      "SIGTTIN", "SIGTTOU", "SIGURG",    "SIGXCPU", "SIGXFSZ",   "SIGVTALRM", "SIGPROF",
      "SIGWINCH", "SIGIO",  "SIGPWR",    "SIGSYS",
  };
  if (signo <= 0 || signo >= static_cast<int>(kNames.size())) return "";
  return kNames[static_cast<size_t>(signo)];
}

}  // namespace clawexec::session
