#pragma once
// The record of one exec run as `process` sees it: identity, output, terminal state and, once
// it has ended, how. The live process behind a running session is reached through the
// SessionControl interface (implemented by the exec layer), so this module stays free of
// process and event-loop code.

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "session/format.h"
#include "session/output_buffer.h"
#include "term/terminal_modes.h"

namespace clawexec::session {

/// The terminal status of a finished run (details.status of its poll).
enum class TerminalStatus { kCompleted, kFailed };

/// Why a run ended (the reference's exitReason). to_string is the one place that spells them.
enum class ExitReason { kExit, kSignal, kOverallTimeout, kNoOutputTimeout, kManualCancel };

/// "exit", "signal", "overall-timeout", "no-output-timeout", "manual-cancel".
std::string_view to_string(ExitReason reason);

inline bool is_timeout(ExitReason reason) {
  return reason == ExitReason::kOverallTimeout || reason == ExitReason::kNoOutputTimeout;
}

/// How a run ended, as the reference records it on the session.
struct ExitRecord {
  TerminalStatus status = TerminalStatus::kCompleted;
  std::optional<int> exit_code;
  std::string exit_signal;                 // "SIGTERM"; empty when not killed by a signal
  std::optional<ExitReason> exit_reason;   // absent for runtime errors
  bool no_output_timed_out = false;

  bool timed_out() const { return exit_reason && is_timeout(*exit_reason); }
};

/// What `process` may do to a live run.
class SessionControl {
 public:
  virtual ~SessionControl() = default;
  virtual bool stdin_writable() const = 0;
  virtual void write_stdin(std::string data, std::function<void(Result<void>)> done) = 0;
  virtual void close_stdin() = 0;
  /// Starts the manual-cancel kill sequence; false when there is nothing left to cancel.
  virtual bool cancel() = 0;
  /// Epoch ms of the last output (or of the start when there was none).
  virtual int64_t last_output_at() const = 0;
};

struct Session {
  std::string id;
  std::string scope_key;
  std::string command;
  std::string cwd;
  int64_t started_at = 0;  // epoch ms
  uint64_t start_order = 0;
  pid_t pid = 0;           // 0 until known
  bool pty = false;
  bool backgrounded = false;
  bool exited = false;
  std::optional<int64_t> ended_at;
  int64_t cleanup_ms = 0;  // retention after it finishes
  OutputBuffer output;
  term::CursorKeyMode cursor_key_mode = term::CursorKeyMode::kNormal;
  std::optional<ExitRecord> exit;
  PollBackoff poll_backoff;
  bool terminal_poll_observed = false;
  /// Set for a run started by an approval: its end is announced as "Exec finished (gateway
  /// id=...)" by the approval flow instead of the generic completion notice.
  std::string approval_id;
  /// Set while the run is live; cleared when it has exited.
  std::shared_ptr<SessionControl> control;

  explicit Session(OutputLimits limits) : output(limits) {}
};

}  // namespace clawexec::session
