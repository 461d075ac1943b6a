// Exec outcomes. Classification order follows the reference: a normal exit whose code is not
// 126/127 is "completed" whatever the code; everything else is "failed", with 126/127 taking
// precedence over a timeout, then timeouts, then a signal, then "aborted".

#include "exec/outcome.h"

#include "base/strings.h"
#include "base/utf.h"
#include "session/format.h"

namespace clawexec::exec {
namespace {

constexpr std::string_view kBackgroundHint =
    "\n\nIf it should keep running, start it with exec background=true or yieldMs so it continues "
    "as a process session you can poll. Do not rely on shell backgrounding with a trailing &.";

using session::ExitReason;

FailureKind failure_kind_for(const RunEnd& end, bool shell_failure) {
  if (shell_failure) return end.exit_code == 127 ? FailureKind::kShellCommandNotFound : FailureKind::kShellNotExecutable;
  if (end.reason == ExitReason::kOverallTimeout) return FailureKind::kOverallTimeout;
  if (end.reason == ExitReason::kNoOutputTimeout) return FailureKind::kNoOutputTimeout;
  if (!end.exit_signal.empty()) return FailureKind::kSignal;
  return FailureKind::kAborted;
}

std::string failure_text(FailureKind kind, const RunEnd& end, std::optional<double> timeout_seconds,
                         bool continuation_available) {
  std::string guidance = "\n\n" + std::string(session::kTimeoutRetryGuidance);
  if (kind == FailureKind::kShellCommandNotFound) return "Command not found";
  if (kind == FailureKind::kShellNotExecutable) return "Command not executable (permission denied)";
  if (kind == FailureKind::kOverallTimeout) {
    std::string text = timeout_seconds && *timeout_seconds > 0
                           ? "Command timed out after " + json::js_number(*timeout_seconds) + " seconds."
                           : "Command timed out.";
    text += guidance;
    if (continuation_available) text += kBackgroundHint;
    return text;
  }
  if (kind == FailureKind::kNoOutputTimeout) return "Command timed out waiting for output." + guidance;
  if (kind == FailureKind::kSignal) return "Command aborted by signal " + end.exit_signal;
  return "Command aborted before exit code was captured";
}

std::string join_failure(std::string_view output, std::string_view reason) {
  if (output.empty()) return std::string(reason);
  return std::string(output) + "\n\n" + std::string(reason);
}

json::Value nullable(const std::optional<int>& v) { return v ? json::Value(*v) : json::Value(nullptr); }
json::Value nullable(const std::string& v) { return v.empty() ? json::Value(nullptr) : json::Value(v); }

}  // namespace

std::string_view to_string(FailureKind kind) {
  switch (kind) {
    case FailureKind::kShellCommandNotFound: return "shell-command-not-found";
    case FailureKind::kShellNotExecutable: return "shell-not-executable";
    case FailureKind::kOverallTimeout: return "overall-timeout";
    case FailureKind::kNoOutputTimeout: return "no-output-timeout";
    case FailureKind::kSignal: return "signal";
    case FailureKind::kAborted: return "aborted";
    case FailureKind::kRuntimeError: return "runtime-error";
  }
  return "aborted";
}

ExecOutcome build_exit_outcome(const RunEnd& end, std::string_view trimmed_output, int64_t duration_ms,
                               std::optional<double> timeout_seconds, bool continuation_available) {
  int code = end.exit_code.value_or(0);
  bool normal = end.reason == ExitReason::kExit;
  bool shell_failure = code == 126 || code == 127;
  ExecOutcome out;
  out.exit_signal = end.exit_signal;
  out.exit_reason = end.reason;
  out.duration_ms = duration_ms;
  if (normal && !shell_failure) {
    out.completed = true;
    out.exit_code = code;
    if (code != 0) {
      out.aggregated = (trimmed_output.empty() ? std::string("(no output)") : std::string(trimmed_output)) +
                       "\n\n(Command exited with code " + std::to_string(code) + ")";
    } else {
      out.aggregated = std::string(trimmed_output);
    }
    return out;
  }
  out.exit_code = end.exit_code;
  out.aggregated = std::string(trimmed_output);
  out.timed_out = session::is_timeout(end.reason);
  out.failure_kind = failure_kind_for(end, shell_failure);
  out.reason = join_failure(trimmed_output, failure_text(*out.failure_kind, end, timeout_seconds, continuation_available));
  return out;
}

ExecOutcome build_runtime_error_outcome(std::string_view error_text, std::string_view trimmed_output,
                                        int64_t duration_ms) {
  ExecOutcome out;
  out.duration_ms = duration_ms;
  out.aggregated = std::string(trimmed_output);
  out.failure_kind = FailureKind::kRuntimeError;
  out.reason = join_failure(trimmed_output, error_text);
  return out;
}

std::string warning_block(const std::vector<std::string>& warnings) {
  if (warnings.empty()) return "";
  std::string text = join(warnings, "\n");
  if (js_trim(text).empty()) return "";
  return text + "\n\n";
}

std::string foreground_text(const ExecOutcome& outcome, bool retention_capped, std::string_view warning_text) {
  std::string text = retention_capped ? std::string(session::kRetentionCapNote) : "";
  text += warning_text;
  if (!outcome.completed) return text + outcome.reason;
  return text + (outcome.aggregated.empty() ? "(no output)" : outcome.aggregated);
}

json::Object foreground_details(const ExecOutcome& outcome, std::string_view cwd) {
  json::Object d;
  if (outcome.completed) {
    d["status"] = "completed";
    d["exitCode"] = nullable(outcome.exit_code);
    d["exitSignal"] = nullable(outcome.exit_signal);
    d["exitReason"] = session::to_string(outcome.exit_reason.value_or(ExitReason::kExit));
    d["durationMs"] = outcome.duration_ms;
    d["aggregated"] = outcome.aggregated;
    d["noOutputTimedOut"] = false;
    d["cwd"] = cwd;
    return d;
  }
  d["status"] = "failed";
  d["exitCode"] = nullable(outcome.exit_code);
  d["exitSignal"] = nullable(outcome.exit_signal);
  d["failureKind"] = to_string(outcome.failure_kind.value_or(FailureKind::kAborted));
  if (outcome.exit_reason) d["exitReason"] = session::to_string(*outcome.exit_reason);
  d["durationMs"] = outcome.duration_ms;
  d["aggregated"] = outcome.aggregated;
  d["timedOut"] = outcome.timed_out;
  if (outcome.exit_reason) d["noOutputTimedOut"] = false;
  d["cwd"] = cwd;
  return d;
}

std::string workdir_unavailable_text(std::string_view requested) {
  return "workdir \"" + std::string(requested) +
         "\" is unavailable or not a directory: command was not executed. workdir is treated as a "
         "literal path; shell expansions such as \"~\" are not applied. Use an existing directory, omit "
         "an explicit workdir to use the default cwd, or update the configured default cwd.";
}

}  // namespace clawexec::exec
