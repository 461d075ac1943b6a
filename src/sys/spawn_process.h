#pragma once
// Starting a program with posix_spawn (the server never forks) in the one way every caller
// needs: chosen descriptors at 0..n-1 and nothing else open, signal dispositions and mask
// reset (the server ignores SIGPIPE; children must not inherit that), its own process group
// (terminal signals aimed at the server's group do not hit it). And reading a child's short
// output with a deadline, for the callers that wait on a helper before the event loop runs.

#include <sys/types.h>

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/result.h"

namespace clawexec::sys {

/// argv/envp for exec-family calls: pointers into `strings`, null-terminated.
std::vector<char*> c_strings(const std::vector<std::string>& strings);

/// Starts `program` (absolute) with `argv` (argv[0] included) and exactly `env`. The child's
/// descriptor i is `fds[i]` (-1: /dev/null, read-write); every higher one is closed. `cwd` ""
/// keeps ours. Errors name the program ("spawn /usr/bin/bwrap: No such file or directory").
Result<pid_t> spawn_process(const std::string& program, const std::vector<std::string>& argv,
                            const std::vector<std::string>& env, std::span<const int> fds, const std::string& cwd = "");

struct TimedRead {
  std::string data;        // at most max_bytes of what was read
  bool timed_out = false;  // the deadline passed first
};

/// Reads `fd` until end-of-file, a read error, `timeout_ms`, or (when `until` is set) that
/// byte, which is consumed but not kept (nothing after it is read). Bytes past `max_bytes` are read and
/// dropped, so a chatty writer never blocks on a full pipe.
TimedRead read_with_deadline(int fd, int timeout_ms, size_t max_bytes, std::optional<char> until = std::nullopt);

}  // namespace clawexec::sys
