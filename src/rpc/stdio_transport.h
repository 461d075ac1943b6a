#pragma once
// Newline-delimited messages over a pair of file descriptors (stdin/stdout for `clawexec serve`),
// without ever blocking the io thread and without unbounded memory.
//
// Three threads: the io_context thread owns all state and receives every event; a reader
// thread turns the input into bounded lines (rpc::LineSplitter, so a 100 MB line cannot exhaust
// memory) and posts them to the loop; a writer thread drains the outgoing queue so a peer that
// reads slowly never blocks the loop. Back-pressure keeps that queue bounded: while more than
// kOutputBudgetBytes of answers wait to be written, or kMaxLinesInFlight lines wait for the loop,
// the reader stops reading, so a peer that does not read its answers sees its own writes block
// instead of the server growing; nothing accepted is dropped, and lines keep their order.

#include <boost/asio/io_context.hpp>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <unistd.h>

namespace clawexec::rpc {

/// Lines longer than this are skipped and reported as oversized.
inline constexpr size_t kMaxLineBytes = 16 * 1024 * 1024;
/// Answers queued for output beyond which no further line is read (docs/operations.md).
inline constexpr size_t kOutputBudgetBytes = 8 * 1024 * 1024;
/// Lines read but not yet handled by the loop beyond which no further line is read.
inline constexpr size_t kMaxLinesInFlight = 8;

class StdioTransport {
 public:
  /// All run on the io thread.
  struct Handlers {
    std::function<void(std::string line)> line;
    std::function<void(size_t bytes)> oversized;  // a line over kMaxLineBytes was skipped
    std::function<void()> eof;                    // the input ended
    std::function<void()> broken;                 // the output cannot be written any more
  };

  StdioTransport(boost::asio::io_context& io, Handlers handlers, int in_fd = STDIN_FILENO,
                 int out_fd = STDOUT_FILENO);
  /// stop().
  ~StdioTransport();
  StdioTransport(const StdioTransport&) = delete;
  StdioTransport& operator=(const StdioTransport&) = delete;

  /// Starts reading. Until then lines are only written.
  void start();
  /// Queues one line (without its newline) for output. Any thread.
  void send(std::string line);
  /// No event reaches the loop any more (the reader thread may stay blocked in read() until the
  /// process exits, but never touches the loop again); what is queued is written, then the
  /// writer thread ends. Idempotent.
  void stop();

 private:
  class Flow;
  class Writer;
  struct Sink;
  std::shared_ptr<Flow> flow_;
  std::shared_ptr<Sink> sink_;
  std::unique_ptr<Writer> writer_;
  int in_fd_;
};

}  // namespace clawexec::rpc
