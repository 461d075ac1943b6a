// The operator channel's connection layer. Every peer speaks one JSON object per line over a
// unix stream socket; the connection object owns the socket, reads into a bounded line buffer
// (an oversized line ends the connection rather than growing memory), and serialises writes
// through a queue so at most one async_write is in flight. Lifetimes follow asio's usual
// pattern: every pending operation holds a shared_ptr to the connection.

#include "approvals/operator_channel_wire.h"

#include <sys/socket.h>

#include <boost/asio/write.hpp>

#include <algorithm>

#include "base/strings.h"
#include "base/utf.h"
#include "json/json.h"
#include "sys/sys.h"

namespace clawexec::approvals {

namespace bj = boost::json;

LineBuffer::LineBuffer()
    : splitter_(
          kOperatorMaxLineBytes,
          [this](std::string line) {
            if (!line.empty() && out_ != nullptr) out_->push_back(std::move(line));
          },
          [this](size_t) { oversized_ = true; }) {}

bool LineBuffer::feed(std::string_view bytes, std::vector<std::string>& lines) {
  out_ = &lines;
  splitter_.feed(bytes);
  out_ = nullptr;
  return !oversized_ && !splitter_.in_oversized_line();
}

JsonConnection::JsonConnection(Socket socket) : socket_(std::move(socket)) {}

void JsonConnection::start(MessageHandler on_message, CloseHandler on_close) {
  on_message_ = std::move(on_message);
  on_close_ = std::move(on_close);
  read_more();
}

void JsonConnection::read_more() {
  if (!open_) return;
  socket_.async_read_some(boost::asio::buffer(read_buffer_),
                          [self = shared_from_this()](const boost::system::error_code& ec, size_t n) {
                            if (ec || !self->open_) {
                              self->finish();
                              return;
                            }
                            std::vector<std::string> lines;
                            if (!self->lines_.feed(std::string_view(self->read_buffer_.data(), n), lines)) {
                              self->finish();
                              return;
                            }
                            for (std::string& line : lines) {
                              if (!self->open_) return;
                              std::optional<bj::value> parsed = json::parse(line);
                              if (parsed && parsed->is_object()) {
                                self->on_message_(parsed->as_object());
                              } else {
                                self->on_message_(bj::object{{"type", "invalid"}});
                              }
                            }
                            self->read_more();
                          });
}

void JsonConnection::send(const bj::object& message) {
  if (!open_ || closing_) return;
  outbox_.push_back(json::serialize(message) + "\n");
  write_next();
}

void JsonConnection::write_next() {
  if (writing_ || !open_) return;
  if (outbox_.empty()) {
    if (closing_) finish();
    return;
  }
  writing_ = true;
  boost::asio::async_write(socket_, boost::asio::buffer(outbox_.front()),
                           [self = shared_from_this()](const boost::system::error_code& ec, size_t) {
                             self->writing_ = false;
                             if (ec) {
                               self->finish();
                               return;
                             }
                             if (!self->outbox_.empty()) self->outbox_.pop_front();
                             self->write_next();
                           });
}

void JsonConnection::close_after_flush() {
  if (!open_) return;
  closing_ = true;
  if (!writing_ && outbox_.empty()) finish();
}

void JsonConnection::close() { finish(); }

void JsonConnection::finish() {
  if (finished_) return;
  finished_ = true;
  open_ = false;
  outbox_.clear();
  boost::system::error_code ignored;
  socket_.shutdown(Socket::shutdown_both, ignored);
  socket_.close(ignored);
  CloseHandler handler = std::move(on_close_);
  on_close_ = nullptr;
  on_message_ = [](const bj::object&) {};
  if (handler) handler();
}

namespace {

// SO_PEERCRED as an asio gettable socket option.
struct PeerCredOption {
  ucred cred{};
  template <typename Protocol>
  int level(const Protocol&) const { return SOL_SOCKET; }
  template <typename Protocol>
  int name(const Protocol&) const { return SO_PEERCRED; }
  template <typename Protocol>
  void* data(const Protocol&) { return &cred; }
  template <typename Protocol>
  size_t size(const Protocol&) const { return sizeof(cred); }
  template <typename Protocol>
  void resize(const Protocol&, size_t) {}
};

}  // namespace

Result<PeerIdentity> peer_identity(boost::asio::local::stream_protocol::socket& socket) {
  PeerCredOption option;
  boost::system::error_code ec;
  socket.get_option(option, ec);
  if (ec) return Error::internal("read the operator socket peer's credentials: " + ec.message());
  return PeerIdentity{static_cast<uint32_t>(option.cred.uid), static_cast<int32_t>(option.cred.pid)};
}

void set_close_on_exec(int fd) { ignore_error(sys::set_cloexec(fd, true)); }

IdLookup lookup_approval_id(std::string_view input, const std::vector<std::string>& ids) {
  auto exact = [&](std::string_view candidate) {
    for (const std::string& id : ids) {
      if (id == candidate) return true;
    }
    return false;
  };
  if (exact(input)) return {IdLookup::Kind::kExact, std::string(input)};
  const std::string_view trimmed = js_trim(input);
  if (trimmed.empty()) return {};
  if (exact(trimmed)) return {IdLookup::Kind::kExact, std::string(trimmed)};
  const std::string prefix = ascii_lower(trimmed);
  std::vector<std::string> matches;
  for (const std::string& id : ids) {
    if (ascii_lower(id).rfind(prefix, 0) == 0 &&
        std::find(matches.begin(), matches.end(), id) == matches.end()) {
      matches.push_back(id);
    }
  }
  if (matches.size() == 1) return {IdLookup::Kind::kPrefix, matches.front()};
  if (matches.size() > 1) return {IdLookup::Kind::kAmbiguous, {}};
  return {};
}

bool is_valid_decision(std::string_view decision) {
  return decision == "allow-once" || decision == "allow-always" || decision == "deny";
}

std::string string_field(const boost::json::object& message, std::string_view key) {
  const boost::json::value* v = message.if_contains(key);
  return v && v->is_string() ? std::string(v->as_string()) : std::string();
}

}  // namespace clawexec::approvals
