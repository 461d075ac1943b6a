#pragma once
// Small pieces of the texts `exec` and `process` results are built from: durations, exit
// labels, the notify-on-exit snippet, the poll retry hint, signal names, and the fixed notes
// (all strings verbatim from the reference).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace clawexec::session {

/// Prepended to poll/log text when output was lost to the aggregate cap
/// (OutputBuffer::retention_capped()).
inline constexpr std::string_view kRetentionCapNote =
    "[earlier output was discarded at the retention cap and cannot be recovered]\n\n";
/// Prepended to poll text when the pending cap dropped output and the session is still
/// retained (so `log` can show it) ...
inline constexpr std::string_view kOmittedOutputNote =
    "[earlier output is omitted from this poll; use action=log with offset and limit to "
    "inspect retained output]\n\n";
/// ... and when the finished session was already evicted from the registry.
inline constexpr std::string_view kOmittedOutputGoneNote =
    "[earlier output is omitted from this poll; omitted output is no longer available through "
    "action=log]\n\n";
/// Appended after "\n\n" to results of timed-out commands (exitReason overall-timeout or
/// no-output-timeout).
inline constexpr std::string_view kTimeoutRetryGuidance =
    "The command was terminated, but external side effects may already have completed. Verify "
    "the resulting state before retrying. Do not automatically rerun non-idempotent commands. "
    "Use a higher timeout only when the command is known to be safe to retry.";

/// The reference's formatDurationCompact: nullopt for ms <= 0; below one second (after
/// rounding) "<n>ms"; otherwise rounded to whole seconds and shown as the two largest
/// non-zero units among d, h, m, s without spaces: 231 -> "231ms", 1031 -> "1s",
/// 65000 -> "1m5s", 3720000 -> "1h2m", 3605000 -> "1h5s", 90000000 -> "1d1h".
std::optional<std::string> format_duration_compact(int64_t ms);

/// "signal <NAME>" when the process died of a signal, else "code <n>", else
/// "unknown exit code". An empty signal name counts as no signal.
std::string exit_label(std::optional<int> exit_code, std::string_view exit_signal);

/// The " :: <output>" snippet of a notify-on-exit event: the last 400 units of `text` (the
/// session's tail), white-space runs (JavaScript \s) collapsed to one space, trimmed; longer
/// than 180 units -> the first 179 units + U+2026. Empty when nothing is left.
std::string compact_notify_output(std::string_view text);

/// The input-wait hint appended to poll/log text of a session waiting for input:
/// "\n\nNo new output for <compact idle>; this session may be waiting for input. Use process
/// write, send-keys, submit, or paste to provide input." (idle shown as "<n>ms" when the
/// compact form is empty).
std::string input_wait_hint(int64_t idle_ms);

/// Whether a poll returned new output (its trimmed text was non-empty).
enum class PollOutput { kNone, kNew };

/// The retryInMs suggestion of a running session's polls (one instance per session).
/// New output -> 5000 and the streak restarts at 0; a poll without new output advances the
/// streak (a fresh tracker starts at 0) and answers 5000, 10000, 30000 or 60000 for streak
/// 0, 1, 2, >= 3. So five empty polls on a fresh session give 5000, 10000, 30000, 60000,
/// 60000, while an empty poll right after one with output gives 10000.
class PollBackoff {
 public:
  uint32_t record(PollOutput output);
  /// Forget the streak (terminal poll, kill, clear, remove).
  void reset() { streak_.reset(); }

 private:
  std::optional<uint32_t> streak_;
};

/// The name Node.js gives a signal ("SIGTERM"), or "" for numbers it has no name for (the
/// real-time signals). Node reports a process killed by such a signal as exit code 0.
std::string signal_name(int signo);

}  // namespace clawexec::session
