// The one place that spells a run's exit reasons (session.h).

#include "session/session.h"

namespace clawexec::session {

std::string_view to_string(ExitReason reason) {
  switch (reason) {
    case ExitReason::kExit: return "exit";
    case ExitReason::kSignal: return "signal";
    case ExitReason::kOverallTimeout: return "overall-timeout";
    case ExitReason::kNoOutputTimeout: return "no-output-timeout";
    case ExitReason::kManualCancel: return "manual-cancel";
  }
  return "exit";
}

}  // namespace clawexec::session
