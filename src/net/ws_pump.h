#pragma once
// The open phase of one WebSocket, shared by the server's connections (http_server.cc) and the
// client (ws_client.cc), so the two cannot drift apart.
//
// Problem: an open WebSocket needs the same careful discipline on both sides: messages read in
// chunks and checked against a size limit as they arrive (Beast's own limit resets the
// connection instead of sending the 1009 close frame the peer should see), a queue of outgoing
// messages with exactly one write in flight (Beast allows one), a close that waits for queued
// messages and goes through async_close, and a teardown that never frees a buffer a write in
// flight still reads. Approach: a CRTP base holding the stream, buffers and flags; the owner
// (Derived) supplies its lifetime (shared_from_this), whether it may write yet, the message
// limit, and what happens to a message and at the end.
//
// Derived must provide:
//   std::shared_ptr<Derived> shared_from_this();
//   bool pump_ready() const;              // the handshake is done: writes may start
//   size_t pump_max_message() const;      // bytes
//   void pump_message(std::string text);  // one whole text message
//   void pump_finished(uint16_t code, const std::string& reason);  // once, after the socket closed
// Only ws_client.cc and http_server.cc include this header (Beast compiles slowly).

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <cstdint>
#include <deque>
#include <string>

namespace clawexec::net {

template <class Derived, class Stream>
class WsPump {
 public:
  using WebSocketStream = boost::beast::websocket::stream<Stream>;

  template <class... Args>
  explicit WsPump(Args&&... args) : ws_(std::forward<Args>(args)...) {}

  /// Queues one text message; false (and nothing queued) once closing or closed.
  bool pump_send(std::string text) {
    if (closed_ || closing_) return false;
    buffered_ += text.size();
    queue_.push_back(std::move(text));
    if (derived().pump_ready() && !writing_) write_next();
    return true;
  }

  /// Sends the close frame with `code` and `reason` after what is queued, then finishes.
  void pump_close(uint16_t code, std::string reason) {
    if (closed_ || closing_) return;
    closing_ = true;
    close_code_ = code;
    close_reason_ = std::move(reason);
    if (derived().pump_ready() && !writing_) write_next();
  }

  /// Starts the read loop and whatever writes were queued before the handshake ended.
  void pump_start() {
    read();
    if (!writing_) write_next();
  }

  /// Ends the connection now: the socket is closed and pump_finished(code, reason) is called.
  void pump_finish(uint16_t code, const std::string& reason) {
    if (closed_) return;
    closed_ = true;
    // A write in flight still reads the front message: it is freed when that write completes.
    // (While the close frame is in flight the queue is already empty.)
    if (writing_ && !queue_.empty()) {
      queue_.erase(std::next(queue_.begin()), queue_.end());
      buffered_ = queue_.front().size();
    } else {
      queue_.clear();
      buffered_ = 0;
    }
    boost::beast::error_code ignored;
    auto& socket = boost::beast::get_lowest_layer(ws_).socket();
    socket.shutdown(boost::asio::ip::tcp::socket::shutdown_both, ignored);
    socket.close(ignored);
    derived().pump_finished(code, reason);
  }

  bool pump_closed() const { return closed_; }
  bool pump_closing() const { return closing_; }
  /// Bytes queued and not yet written.
  size_t pump_buffered() const { return buffered_; }

 protected:
  WebSocketStream ws_;

 private:
  static constexpr size_t kReadChunk = 64 * 1024;

  Derived& derived() { return static_cast<Derived&>(*this); }

  // One message is read in chunks, so that one over the limit is noticed after at most a chunk
  // past it; it is then refused with a close frame (1009), and Beast's closing handshake reads
  // and discards the rest of it, so the peer sees the close frame.
  void read() {
    auto self = derived().shared_from_this();
    ws_.async_read_some(buffer_, kReadChunk, [self](boost::beast::error_code ec, size_t) {
      WsPump& pump = *self;
      if (pump.closed_) return;
      if (ec) {
        if (ec == boost::beast::websocket::error::closed) {
          return pump.pump_finish(pump.ws_.reason().code, std::string(pump.ws_.reason().reason.c_str()));
        }
        return pump.pump_finish(1006, ec.message());
      }
      if (!pump.ws_.got_text()) {
        pump.buffer_.consume(pump.buffer_.size());
        return pump.pump_close(1003, "binary frames are not supported");
      }
      if (pump.buffer_.size() > self->pump_max_message()) {
        pump.buffer_.consume(pump.buffer_.size());
        return pump.pump_close(1009, "message too large");
      }
      if (!pump.ws_.is_message_done()) return pump.read();
      std::string text = boost::beast::buffers_to_string(pump.buffer_.data());
      pump.buffer_.consume(pump.buffer_.size());
      self->pump_message(std::move(text));
      if (!pump.closed_ && !pump.closing_) pump.read();
    });
  }

  void write_next() {
    if (closed_) return;
    auto self = derived().shared_from_this();
    if (queue_.empty()) {
      if (closing_ && !close_sent_) {
        close_sent_ = true;
        writing_ = true;
        boost::beast::websocket::close_reason why(static_cast<boost::beast::websocket::close_code>(close_code_),
                                                  close_reason_.substr(0, 120));
        ws_.async_close(why, [self](boost::beast::error_code) {
          WsPump& pump = *self;
          pump.writing_ = false;
          pump.pump_finish(pump.close_code_, pump.close_reason_);
        });
      }
      return;
    }
    writing_ = true;
    ws_.text(true);
    ws_.async_write(boost::asio::buffer(queue_.front()), [self](boost::beast::error_code ec, size_t) {
      WsPump& pump = *self;
      pump.writing_ = false;
      if (pump.closed_ || pump.queue_.empty()) {  // pump_finish() kept only the bytes this write was using
        pump.queue_.clear();
        pump.buffered_ = 0;
        return;
      }
      pump.buffered_ -= pump.queue_.front().size();
      pump.queue_.pop_front();
      if (ec) return pump.pump_finish(1006, ec.message());
      pump.write_next();
    });
  }

  boost::beast::flat_buffer buffer_;
  std::deque<std::string> queue_;
  size_t buffered_ = 0;
  bool writing_ = false;
  bool closing_ = false;
  bool close_sent_ = false;
  bool closed_ = false;
  uint16_t close_code_ = 1000;
  std::string close_reason_;
};

}  // namespace clawexec::net
