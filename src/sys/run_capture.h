#pragma once
// Running a short helper program to completion and keeping what it printed: startup probes
// (the sandbox preflight runs `bwrap ... /bin/true` and needs its exit status and stderr).
// Blocking, so only for callers that run before the event loop or on a thread of their own;
// commands proper go through proc/ and the shim. posix_spawn (no fork), stdin /dev/null,
// stdout and stderr into one pipe, own process group, default signal dispositions; a run over
// its time limit is killed as a group.

#include <optional>
#include <string>
#include <vector>

#include "base/result.h"

namespace clawexec::sys {

struct CapturedRun {
  std::optional<int> exit_code;  // set when it exited normally
  int signal = 0;                // the signal that killed it, else 0
  std::string output;            // stdout and stderr merged, at most max_output bytes
  bool timed_out = false;        // killed by us at the time limit
};

/// Runs `program` (absolute path) with `argv` (argv[0] included) and exactly `env`, waits at
/// most `timeout_ms`, and returns how it ended. An error only when it could not be started
/// ("spawn /usr/bin/bwrap: No such file or directory") or waited for.
Result<CapturedRun> run_and_capture(const std::string& program, const std::vector<std::string>& argv,
                                    const std::vector<std::string>& env, int timeout_ms,
                                    size_t max_output = 64 * 1024);

}  // namespace clawexec::sys
