// Blocking operator-channel client for the CLI. The socket is used synchronously through asio
// (error codes, no exceptions); waiting with a timeout is a poll() on its descriptor followed
// by one read, so a silent hub can never hang a command forever. Replies and events share the
// connection: while a request waits for its reply, events are put aside and handed out later
// by next_message(), so `approvals watch` loses none.

#include "approvals/operator_client.h"

#include <poll.h>
#include <unistd.h>

#include <boost/asio/write.hpp>
#include <chrono>

#include "approvals/operator_channel_wire.h"
#include "json/json.h"

namespace clawexec::approvals {

namespace bj = boost::json;
using boost::asio::local::stream_protocol;

namespace {

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

OperatorClient::OperatorClient()
    : io_(std::make_unique<boost::asio::io_context>()),
      socket_(std::make_unique<stream_protocol::socket>(*io_)) {}

OperatorClient::~OperatorClient() {
  boost::system::error_code ignored;
  socket_->close(ignored);
}

int OperatorClient::native_handle() { return socket_->native_handle(); }

Result<std::unique_ptr<OperatorClient>> OperatorClient::connect(const std::string& socket_path,
                                                                const std::string& token, int timeout_ms) {
  std::unique_ptr<OperatorClient> client(new OperatorClient());
  boost::system::error_code ec;
  client->socket_->connect(stream_protocol::endpoint(socket_path), ec);
  if (ec == boost::asio::error::connection_refused || ec == boost::system::errc::no_such_file_or_directory) {
    return Error{ErrorCode::kNotFound, 0, "socket " + socket_path + " not found"};
  }
  if (ec) return Error{ErrorCode::kIo, 0, "connect " + socket_path + ": " + ec.message()};
  set_close_on_exec(client->native_handle());
  // A hub that refuses us may close before our hello is written: its error line is still there.
  Result<void> hello = client->send({{"type", "hello"}, {"token", token}, {"role", "operator"}, {"pid", ::getpid()}});
  Result<std::optional<bj::object>> read = client->read_one(timeout_ms);
  if (!read.ok()) return hello.ok() ? std::move(read).error() : std::move(hello).error();
  auto reply = std::move(*read);
  if (!reply) return Error{ErrorCode::kTimedOut, 0, "the approvals hub on " + socket_path + " did not answer"};
  client->queued_.pop_front();
  if (string_field(*reply, "type") == "error") {
    return Error{ErrorCode::kPermissionDenied, 0, string_field(*reply, "error")};
  }
  if (string_field(*reply, "type") != "hello") {
    return Error{ErrorCode::kIo, 0, "unexpected hello reply from " + socket_path};
  }
  return client;
}

Result<void> OperatorClient::send(const bj::object& message) {
  const std::string line = json::serialize(message) + "\n";
  boost::system::error_code ec;
  boost::asio::write(*socket_, boost::asio::buffer(line), ec);
  if (ec) return Error{ErrorCode::kIo, 0, "write to the approvals socket: " + ec.message()};
  return {};
}

// Peeks: leaves the message at the front of queued_.
Result<std::optional<bj::object>> OperatorClient::read_one(int timeout_ms) {
  const int64_t deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
  while (queued_.empty()) {
    const int wait = deadline < 0 ? -1 : static_cast<int>(std::max<int64_t>(0, deadline - now_ms()));
    pollfd pfd{socket_->native_handle(), POLLIN, 0};
    const int ready = ::poll(&pfd, 1, wait);
    if (ready == 0) return std::optional<bj::object>();
    if (ready < 0) {
      if (deadline >= 0 && now_ms() >= deadline) return std::optional<bj::object>();
      continue;  // interrupted
    }
    std::array<char, 16384> buffer{};
    boost::system::error_code ec;
    const size_t n = socket_->read_some(boost::asio::buffer(buffer), ec);
    if (ec) return Error{ErrorCode::kIo, 0, "connection closed"};
    std::vector<std::string> lines;
    if (!lines_.feed(std::string_view(buffer.data(), n), lines)) {
      return Error{ErrorCode::kIo, 0, "the approvals hub sent an oversized message"};
    }
    for (const std::string& line : lines) {
      std::optional<bj::value> parsed = json::parse(line);
      if (parsed && parsed->is_object()) queued_.push_back(std::move(parsed->as_object()));
    }
  }
  return std::optional<bj::object>(queued_.front());
}

Result<std::optional<bj::object>> OperatorClient::next_message(int timeout_ms) {
  if (!events_.empty()) {
    bj::object event = std::move(events_.front());
    events_.pop_front();
    return std::optional<bj::object>(std::move(event));
  }
  auto message = TRY(read_one(timeout_ms));
  if (message) queued_.pop_front();
  return message;
}

Result<bj::object> OperatorClient::request(bj::object message, int timeout_ms) {
  const int64_t id = next_request_id_++;
  message["requestId"] = id;
  TRY(send(message));
  const int64_t deadline = now_ms() + timeout_ms;
  for (;;) {
    const int left = static_cast<int>(std::max<int64_t>(0, deadline - now_ms()));
    auto next = TRY(read_one(left));
    if (!next) return Error{ErrorCode::kTimedOut, 0, "the approvals hub did not answer"};
    bj::object reply = std::move(*next);
    queued_.pop_front();
    if (string_field(reply, "type") == "event") {
      events_.push_back(std::move(reply));
      continue;
    }
    const bj::value* rid = json::find(reply, "requestId");
    if (rid && json::as_number(*rid) != static_cast<double>(id)) continue;  // a stale reply
    return reply;
  }
}

Result<std::vector<bj::object>> OperatorClient::list() {
  bj::object reply = TRY(request({{"type", "list"}}));
  const bj::value* approvals = json::find(reply, "approvals");
  if (string_field(reply, "type") != "pending" || !approvals || !approvals->is_array()) {
    return Error{ErrorCode::kIo, 0, "list pending approvals: " + string_field(reply, "error")};
  }
  std::vector<bj::object> out;
  for (const bj::value& v : approvals->as_array()) {
    if (v.is_object()) out.push_back(v.as_object());
  }
  return out;
}

Result<bj::object> OperatorClient::resolve(const std::string& id, const std::string& decision) {
  bj::object reply = TRY(request({{"type", "resolve"}, {"id", id}, {"decision", decision}}));
  if (string_field(reply, "type") != "resolved") {
    return Error{ErrorCode::kIo, 0, "resolve " + id + ": " + string_field(reply, "error")};
  }
  return reply;
}

Result<std::string> OperatorClient::command(const std::string& text) {
  bj::object reply = TRY(request({{"type", "command"}, {"text", text}}));
  if (string_field(reply, "type") != "reply") {
    return Error{ErrorCode::kRejected, 0, string_field(reply, "error")};
  }
  return string_field(reply, "text");
}

Result<void> OperatorClient::subscribe() {
  bj::object reply = TRY(request({{"type", "subscribe"}}));
  if (string_field(reply, "type") != "subscribed") {
    return Error{ErrorCode::kIo, 0, "subscribe: " + string_field(reply, "error")};
  }
  return {};
}

}  // namespace clawexec::approvals
