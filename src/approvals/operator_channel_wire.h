#pragma once
// Pieces of the operator channel (operator_channel.h) shared by the hub, the members and the
// blocking CLI client: one newline-delimited JSON connection over an AF_UNIX stream socket,
// the peer-uid check, and the approval-id lookup (exact id, then a unique case-insensitive
// prefix).

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/json/object.hpp>
#include <array>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "rpc/line_splitter.h"

namespace clawexec::approvals {

/// The longest message line either side accepts; a longer line closes the connection.
inline constexpr size_t kOperatorMaxLineBytes = 4 * 1024 * 1024;

inline constexpr std::string_view kUnknownApprovalId = "unknown or expired approval id";
inline constexpr std::string_view kAmbiguousApprovalId = "ambiguous approval id prefix; use the full id";

/// The operator channel's framing on top of rpc::LineSplitter: "\n"-terminated lines (a
/// trailing "\r" dropped), blank lines ignored, and a line over kOperatorMaxLineBytes fatal
/// for the connection. Holds a pointer to itself in the splitter's callbacks: not copyable.
class LineBuffer {
 public:
  LineBuffer();
  LineBuffer(const LineBuffer&) = delete;
  LineBuffer& operator=(const LineBuffer&) = delete;

  /// Appends bytes, adding each completed non-blank line to `lines`; returns false when a
  /// line exceeds kOperatorMaxLineBytes (the connection must end).
  bool feed(std::string_view bytes, std::vector<std::string>& lines);

 private:
  rpc::LineSplitter splitter_;
  std::vector<std::string>* out_ = nullptr;
  bool oversized_ = false;
};

/// One newline-delimited JSON connection on the io_context. Reads until EOF or error, queues
/// writes (one in flight at a time), and reports each JSON object line; a line that is not a
/// JSON object is reported as an empty object with `"type":"invalid"`.
class JsonConnection : public std::enable_shared_from_this<JsonConnection> {
 public:
  using Socket = boost::asio::local::stream_protocol::socket;
  using MessageHandler = std::function<void(const boost::json::object& message)>;
  using CloseHandler = std::function<void()>;

  explicit JsonConnection(Socket socket);

  /// Starts reading. `on_close` runs once, when the connection ends for any reason.
  void start(MessageHandler on_message, CloseHandler on_close);
  /// Queues one message (serialised on one line).
  void send(const boost::json::object& message);
  /// Closes once the queued messages are written.
  void close_after_flush();
  /// Closes now (queued messages are dropped); the close handler runs.
  void close();
  bool is_open() const { return open_; }
  Socket& socket() { return socket_; }

 private:
  void read_more();
  void write_next();
  void finish();

  Socket socket_;
  MessageHandler on_message_;
  CloseHandler on_close_;
  LineBuffer lines_;
  std::deque<std::string> outbox_;
  std::array<char, 16384> read_buffer_{};
  bool writing_ = false;
  bool open_ = true;
  bool closing_ = false;
  bool finished_ = false;
};

/// The peer's uid and pid (SO_PEERCRED).
struct PeerIdentity {
  uint32_t uid = 0;
  int32_t pid = 0;
};
Result<PeerIdentity> peer_identity(boost::asio::local::stream_protocol::socket& socket);

/// Marks the socket close-on-exec so spawned commands never inherit it.
void set_close_on_exec(int fd);

/// The outcome of looking an approval id up among the pending ids.
struct IdLookup {
  enum class Kind { kNone, kExact, kPrefix, kAmbiguous } kind = Kind::kNone;
  std::string id;  // the full id for kExact and kPrefix
};

/// The reference lookup: `input` as given, then trimmed, as an exact id; otherwise a unique
/// case-insensitive prefix of one pending id. Blank input finds nothing.
IdLookup lookup_approval_id(std::string_view input, const std::vector<std::string>& ids);

/// The decision names a resolution may carry.
bool is_valid_decision(std::string_view decision);

/// A string member of a protocol message, or "" when absent or not a string.
std::string string_field(const boost::json::object& message, std::string_view key);

}  // namespace clawexec::approvals
