#pragma once
// How a finished exec run is reported (reference §1.5 (a), (b), (g)). Pure: the supervisor
// describes how the process ended; these functions classify it (completed vs failed, the
// failure kind) and render the result text and details exactly as the reference does.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "json/json.h"
#include "session/session.h"

namespace clawexec::exec {

/// Why a run ended, as the supervisor saw it.
/// Why a failed run failed (details.failureKind). to_string is the one place that spells them.
enum class FailureKind {
  kShellCommandNotFound,
  kShellNotExecutable,
  kOverallTimeout,
  kNoOutputTimeout,
  kSignal,
  kAborted,
  kRuntimeError,
};

/// "shell-command-not-found", "shell-not-executable", "overall-timeout", "no-output-timeout",
/// "signal", "aborted", "runtime-error".
std::string_view to_string(FailureKind kind);

struct RunEnd {
  session::ExitReason reason = session::ExitReason::kExit;
  std::optional<int> exit_code;
  std::string exit_signal;      // "SIGTERM", or empty
};

struct ExecOutcome {
  bool completed = false;
  std::optional<int> exit_code;
  std::string exit_signal;  // empty = null
  std::optional<session::ExitReason> exit_reason;  // absent for runtime errors
  int64_t duration_ms = 0;
  /// Completed: the trimmed output plus "(Command exited with code N)" when N != 0.
  /// Failed: the trimmed output.
  std::string aggregated;
  bool timed_out = false;
  std::optional<FailureKind> failure_kind;  // failed only
  /// Failed only: the output followed by the failure text (what the result text shows).
  std::string reason;
};

/// The reference's buildExecExitOutcome. `timeout_seconds` is the effective timeout (for the
/// "timed out after N seconds" text); `continuation_available` adds the background hint.
ExecOutcome build_exit_outcome(const RunEnd& end, std::string_view trimmed_output, int64_t duration_ms,
                               std::optional<double> timeout_seconds, bool continuation_available);

/// A run that failed outside the process (spawn or wait error): failureKind runtime-error.
ExecOutcome build_runtime_error_outcome(std::string_view error_text, std::string_view trimmed_output,
                                        int64_t duration_ms);

/// The foreground exec result: text (retention note, warnings, output or failure reason) and
/// details.
std::string foreground_text(const ExecOutcome& outcome, bool retention_capped, std::string_view warning_text);
json::Object foreground_details(const ExecOutcome& outcome, std::string_view cwd);

/// Result text of a backgrounded run and the follow-up hint it ends with.
inline constexpr std::string_view kBackgroundFollowUp =
    "Use process (list/poll/log/write/send-keys/submit/paste/kill/clear/remove) for follow-up.";

/// "Warning: ...\nWarning: ...\n\n" or "" (the block every exec text starts with).
std::string warning_block(const std::vector<std::string>& warnings);

/// The text of an unusable workdir (§1.5 (g)).
std::string workdir_unavailable_text(std::string_view requested);

}  // namespace clawexec::exec
