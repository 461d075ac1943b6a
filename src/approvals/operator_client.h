#pragma once
// A blocking client of the operator channel (operator_channel.h) for the CLI: connect, say
// hello as an operator, send requests and read their replies; and, after subscribe(), read
// events as they arrive. Events that arrive while a request waits for its reply are queued and
// returned by next_message() afterwards, in order.

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/json/object.hpp>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "approvals/operator_channel_wire.h"
#include "base/result.h"

namespace clawexec::approvals {

class OperatorClient {
 public:
  /// Connects and completes the hello. Errors: kNotFound when no hub serves the socket (the
  /// file is missing or nobody listens: "socket <path> not found"); kPermissionDenied when the
  /// hub refuses the token ("invalid token"); kIo / kTimedOut otherwise.
  static Result<std::unique_ptr<OperatorClient>> connect(const std::string& socket_path, const std::string& token,
                                                         int timeout_ms = 5000);

  /// Sends `request` (a "requestId" is added) and returns its reply (the next message that is
  /// not an event).
  Result<boost::json::object> request(boost::json::object request, int timeout_ms = 15000);

  /// {"type":"list"} → the approvals array.
  Result<std::vector<boost::json::object>> list();
  /// {"type":"resolve"} → the "resolved" reply (ok true/false; a false reply is not an Error).
  Result<boost::json::object> resolve(const std::string& id, const std::string& decision);
  /// {"type":"command","text":...} → the reply text (or the error reply's message as Error).
  Result<std::string> command(const std::string& text);
  /// {"type":"subscribe"}; events then arrive through next_message().
  Result<void> subscribe();

  /// The next queued or incoming message. nullopt when `timeout_ms` (>= 0) passes first; -1
  /// waits forever. An error when the connection ends ("connection closed").
  Result<std::optional<boost::json::object>> next_message(int timeout_ms);

  /// The socket descriptor, for poll() together with other inputs; has_buffered() says whether
  /// next_message(0) would return something without reading.
  int native_handle();
  bool has_buffered() const { return !queued_.empty(); }

  OperatorClient(const OperatorClient&) = delete;
  OperatorClient& operator=(const OperatorClient&) = delete;
  ~OperatorClient();

 private:
  OperatorClient();
  Result<std::optional<boost::json::object>> read_one(int timeout_ms);
  Result<void> send(const boost::json::object& message);

  std::unique_ptr<boost::asio::io_context> io_;
  std::unique_ptr<boost::asio::local::stream_protocol::socket> socket_;
  LineBuffer lines_;
  std::deque<boost::json::object> queued_;  // parsed, not yet returned
  std::deque<boost::json::object> events_;  // events put aside while waiting for a reply
  int64_t next_request_id_ = 1;
};

}  // namespace clawexec::approvals
