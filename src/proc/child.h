#pragma once
// What a supervised run needs from the thing that runs its command, whether that is a local
// process tree (proc::Process, below its shim) or a command running on another machine (a node
// host's streamed session, exec/node_stream.h). Output, the start and the exit arrive through
// Child::Events; these are the requests the supervisor makes. Everything runs on the
// io_context thread.

#include <sys/types.h>

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace clawexec::proc {

/// How a command ended: exactly one of `code` and `signal` is set, or neither when the
/// supervisor vanished without reporting (treated as "unknown exit code").
struct ExitStatus {
  std::optional<int> code;
  std::optional<int> signal;
};

struct ChildEvents {
  /// Once: the command's pid, or why it could not be started (its execve failed).
  std::function<void(Result<pid_t>)> started;
  /// Output bytes (stdout and stderr merged, or the PTY stream), in order.
  std::function<void(std::string_view)> output;
  /// Once, after `started` succeeded: the command and every descendant are gone and all of
  /// their output has been delivered.
  std::function<void(ExitStatus)> exited;
};

class Child {
 public:
  virtual ~Child() = default;
  /// Sends `signo` to every process of the command's tree. No-op once exited.
  virtual void signal_tree(int signo) = 0;
  /// Queues `data` for the command's input; `done` reports the outcome.
  virtual void write_input(std::string data, std::function<void(Result<void>)> done) = 0;
  /// Ends the input (closes the pipe, or sends ^D to a terminal).
  virtual void close_input() = 0;
  /// A terminal's own answer (cursor position report) to a PTY. No-op where it means nothing.
  virtual void answer_terminal(std::string data) = 0;
  virtual bool input_writable() const = 0;
  /// Stops (true) or resumes reading the command's output: a paused command blocks once its
  /// pipe or terminal buffer is full, so a slow consumer loses nothing.
  virtual void pause_output(bool paused) = 0;
  /// Gives up on a command that does not die: delivers `status` as its exit now.
  virtual void abandon(ExitStatus status) = 0;
};

}  // namespace clawexec::proc
