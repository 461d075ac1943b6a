// The WebSocket client of ws_client.h. One class template serves both transports (plain TCP
// and TLS over TCP); the dial is a chain of asynchronous steps (resolve, connect, TLS
// handshake with SNI and host-name verification, upgrade) raced against one timer, and the
// open connection follows the server side's discipline (http_server.cc): a write queue with
// one write in flight, reads in 64 KiB chunks checked against the message limit, and a close
// handshake through async_close so Beast tears the stream down properly.

#include "net/ws_client.h"

#include <openssl/ssl.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <deque>

namespace clawexec::net {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;

using PlainStream = beast::tcp_stream;
using TlsStream = beast::ssl_stream<beast::tcp_stream>;

template <class Stream>
constexpr bool kIsTls = std::is_same_v<Stream, TlsStream>;

template <class Stream>
class Client final : public WsClient, public std::enable_shared_from_this<Client<Stream>> {
 public:
  Client(asio::io_context& io, WsClientOptions options, Handlers handlers, std::shared_ptr<ssl::context> tls)
      : options_(std::move(options)), handlers_(std::move(handlers)), tls_(std::move(tls)), resolver_(io),
        ws_(make_stream(io, tls_.get())), dial_timer_(io) {}

  void start() {
    auto self = this->shared_from_this();
    dial_timer_.expires_after(options_.connect_timeout);
    dial_timer_.async_wait([self](const boost::system::error_code& ec) {
      if (ec || self->opened_ || self->closed_) return;
      self->fail("timed out after " + std::to_string(self->options_.connect_timeout.count()) + " ms");
    });
    resolver_.async_resolve(options_.host, std::to_string(options_.port),
                            [self](beast::error_code ec, tcp::resolver::results_type results) {
                              if (self->closed_) return;
                              if (ec) return self->fail("resolve: " + ec.message());
                              self->connect(results);
                            });
  }

  void send(std::string text) override {
    if (closed_ || closing_) return;
    queue_.push_back(std::move(text));
    if (opened_ && !writing_) write_next();
  }

  void close(uint16_t code, std::string reason) override {
    if (closed_ || closing_) return;
    if (!opened_) return finish(code, reason);
    closing_ = true;
    close_code_ = code;
    close_reason_ = std::move(reason);
    if (!writing_) write_next();
  }

  void abort() override {
    if (closed_) return;
    finish(1006, "connection aborted");
  }

  bool is_open() const override { return opened_ && !closed_ && !closing_; }

 private:
  static websocket::stream<Stream> make_stream(asio::io_context& io, ssl::context* tls) {
    if constexpr (kIsTls<Stream>) {
      return websocket::stream<Stream>(io, *tls);
    } else {
      (void)tls;
      return websocket::stream<Stream>(io);
    }
  }

  std::string endpoint() const { return options_.host + ":" + std::to_string(options_.port); }

  void fail(const std::string& what) {
    finish(1006, std::string(kIsTls<Stream> ? "wss" : "ws") + "://" + endpoint() + options_.path + ": " + what);
  }

  void connect(const tcp::resolver::results_type& results) {
    auto self = this->shared_from_this();
    beast::get_lowest_layer(ws_).async_connect(results, [self](beast::error_code ec, const tcp::endpoint&) {
      if (self->closed_) return;
      if (ec) return self->fail("connect: " + ec.message());
      beast::get_lowest_layer(self->ws_).socket().set_option(tcp::no_delay(true));
      if constexpr (kIsTls<Stream>) {
        self->tls_handshake();
      } else {
        self->upgrade();
      }
    });
  }

  void tls_handshake() {
    if constexpr (kIsTls<Stream>) {
      auto& tls_stream = ws_.next_layer();
      if (!SSL_set_tlsext_host_name(tls_stream.native_handle(), options_.host.c_str())) {
        return fail("TLS: cannot set the server name");
      }
      if (options_.tls == TlsMode::kVerify) {
        tls_stream.set_verify_mode(ssl::verify_peer);
        tls_stream.set_verify_callback(ssl::host_name_verification(options_.host));
      } else {
        tls_stream.set_verify_mode(ssl::verify_none);
      }
      auto self = this->shared_from_this();
      tls_stream.async_handshake(ssl::stream_base::client, [self](beast::error_code ec) {
        if (self->closed_) return;
        if (ec) return self->fail("TLS handshake: " + ec.message());
        self->upgrade();
      });
    }
  }

  void upgrade() {
    websocket::stream_base::timeout timeouts{};
    timeouts.handshake_timeout = options_.connect_timeout;
    timeouts.idle_timeout = options_.idle_timeout;
    timeouts.keep_alive_pings = true;
    ws_.set_option(timeouts);
    ws_.set_option(websocket::stream_base::decorator([](websocket::request_type& req) {
      req.set(beast::http::field::user_agent, "clawexec-node");
    }));
    auto self = this->shared_from_this();
    ws_.async_handshake(endpoint(), options_.path, [self](beast::error_code ec) {
      if (self->closed_) return;
      if (ec) return self->fail("WebSocket upgrade: " + ec.message());
      self->opened_ = true;
      self->dial_timer_.cancel();
      if (self->handlers_.opened) self->handlers_.opened();
      if (self->closed_) return;
      self->read();
      if (!self->writing_) self->write_next();
    });
  }

  // See http_server.cc: a message is read in chunks so one over the limit is noticed early.
  void read() {
    auto self = this->shared_from_this();
    ws_.async_read_some(buffer_, kReadChunk, [self](beast::error_code ec, size_t) {
      if (self->closed_) return;
      if (ec) {
        if (ec == websocket::error::closed) {
          return self->finish(self->ws_.reason().code, std::string(self->ws_.reason().reason.c_str()));
        }
        return self->finish(1006, ec.message());
      }
      if (!self->ws_.got_text()) {
        self->buffer_.consume(self->buffer_.size());
        return self->close(1003, "binary frames are not supported");
      }
      if (self->buffer_.size() > self->options_.max_message) {
        self->buffer_.consume(self->buffer_.size());
        return self->close(1009, "message too large");
      }
      if (!self->ws_.is_message_done()) return self->read();
      std::string text = beast::buffers_to_string(self->buffer_.data());
      self->buffer_.consume(self->buffer_.size());
      if (self->handlers_.message) self->handlers_.message(std::move(text));
      if (!self->closed_ && !self->closing_) self->read();
    });
  }

  void write_next() {
    if (closed_ || !opened_) return;
    if (queue_.empty()) {
      if (closing_ && !close_sent_) {
        close_sent_ = true;
        writing_ = true;
        auto self = this->shared_from_this();
        websocket::close_reason why(static_cast<websocket::close_code>(close_code_), close_reason_.substr(0, 120));
        ws_.async_close(why, [self](beast::error_code) {
          self->writing_ = false;
          self->finish(self->close_code_, self->close_reason_);
        });
      }
      return;
    }
    writing_ = true;
    ws_.text(true);
    auto self = this->shared_from_this();
    ws_.async_write(asio::buffer(queue_.front()), [self](beast::error_code ec, size_t) {
      self->writing_ = false;
      if (self->closed_ || self->queue_.empty()) {
        self->queue_.clear();
        return;
      }
      self->queue_.pop_front();
      if (ec) return self->finish(1006, ec.message());
      self->write_next();
    });
  }

  void finish(uint16_t code, const std::string& reason) {
    if (closed_) return;
    closed_ = true;
    dial_timer_.cancel();
    resolver_.cancel();
    // A write in flight still reads the front message; it is dropped when that write completes.
    if (writing_ && !queue_.empty()) {
      queue_.erase(std::next(queue_.begin()), queue_.end());
    } else {
      queue_.clear();
    }
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().shutdown(tcp::socket::shutdown_both, ignored);
    beast::get_lowest_layer(ws_).socket().close(ignored);
    Handlers handlers = std::move(handlers_);
    handlers_ = {};
    if (handlers.closed) handlers.closed(code, reason);
  }

  static constexpr size_t kReadChunk = 64 * 1024;
  WsClientOptions options_;
  Handlers handlers_;
  std::shared_ptr<ssl::context> tls_;
  tcp::resolver resolver_;
  websocket::stream<Stream> ws_;
  asio::steady_timer dial_timer_;
  beast::flat_buffer buffer_;
  std::deque<std::string> queue_;
  bool opened_ = false;
  bool writing_ = false;
  bool closing_ = false;
  bool close_sent_ = false;
  bool closed_ = false;
  uint16_t close_code_ = 1000;
  std::string close_reason_;
};

// A connection that cannot even start (no TLS context): reports its failure asynchronously,
// like every other dial error.
class FailedClient final : public WsClient {
 public:
  void send(std::string) override {}
  void close(uint16_t, std::string) override {}
  void abort() override {}
  bool is_open() const override { return false; }
};

}  // namespace

std::shared_ptr<WsClient> ws_connect(asio::io_context& io, WsClientOptions options, WsClient::Handlers handlers) {
  if (options.tls == TlsMode::kOff) {
    auto c = std::make_shared<Client<PlainStream>>(io, std::move(options), std::move(handlers), nullptr);
    c->start();
    return c;
  }
  auto tls = std::make_shared<ssl::context>(ssl::context::tls_client);
  boost::system::error_code ec;
  tls->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3, ec);
  if (!ec && options.tls == TlsMode::kVerify) tls->set_default_verify_paths(ec);
  if (ec) {
    std::string why = "wss://" + options.host + ":" + std::to_string(options.port) + ": TLS setup: " + ec.message();
    asio::post(io, [closed = std::move(handlers.closed), why] {
      if (closed) closed(1006, why);
    });
    return std::make_shared<FailedClient>();
  }
  auto c = std::make_shared<Client<TlsStream>>(io, std::move(options), std::move(handlers), std::move(tls));
  c->start();
  return c;
}

}  // namespace clawexec::net
