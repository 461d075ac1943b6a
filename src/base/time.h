#pragma once
// Clocks. Wall-clock epoch milliseconds appear in results (startedAt, endedAt); durations and
// deadlines use the monotonic clock.

#include <chrono>
#include <cstdint>

namespace clawexec {

using SteadyClock = std::chrono::steady_clock;
using Millis = std::chrono::milliseconds;

/// Milliseconds since the Unix epoch (JavaScript's Date.now()).
inline int64_t epoch_ms() {
  return std::chrono::duration_cast<Millis>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

inline int64_t steady_ms() {
  return std::chrono::duration_cast<Millis>(SteadyClock::now().time_since_epoch()).count();
}

}  // namespace clawexec
