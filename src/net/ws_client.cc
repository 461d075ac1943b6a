// The WebSocket client of ws_client.h. One class template serves both transports (plain TCP
// and TLS over TCP); the dial is a chain of asynchronous steps (resolve, connect, TLS
// handshake with SNI and host-name verification from tls_client.h, upgrade) raced against one timer; the open
// connection is the server side's own WsPump (ws_pump.h): a write queue with one write in
// flight, reads in 64 KiB chunks checked against the message limit, and a close handshake
// through async_close so Beast tears the stream down properly.

#include "net/ws_client.h"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include "net/tls_client.h"
#include "net/ws_pump.h"

namespace clawexec::net {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;

using detail::kIsTls;
using detail::PlainStream;
using detail::TlsContextHolder;
using detail::TlsStream;

template <class Stream>
class Client final : public WsClient,
                     private TlsContextHolder,
                     public WsPump<Client<Stream>, Stream>,
                     public std::enable_shared_from_this<Client<Stream>> {
  using Pump = WsPump<Client<Stream>, Stream>;
  friend Pump;

 public:
  Client(asio::io_context& io, WsClientOptions options, Handlers handlers, std::shared_ptr<ssl::context> tls)
      : TlsContextHolder{std::move(tls)}, Pump(make_stream(io, tls_.get())), options_(std::move(options)),
        handlers_(std::move(handlers)), resolver_(io), dial_timer_(io) {}

  void start() {
    auto self = this->shared_from_this();
    dial_timer_.expires_after(options_.connect_timeout);
    dial_timer_.async_wait([self](const boost::system::error_code& ec) {
      if (ec || self->opened_ || self->pump_closed()) return;
      self->fail("timed out after " + std::to_string(self->options_.connect_timeout.count()) + " ms");
    });
    resolver_.async_resolve(options_.host, std::to_string(options_.port),
                            [self](beast::error_code ec, tcp::resolver::results_type results) {
                              if (self->pump_closed()) return;
                              if (ec) return self->fail("resolve: " + ec.message());
                              self->connect(results);
                            });
  }

  void send(std::string text) override { this->pump_send(std::move(text)); }

  void close(uint16_t code, std::string reason) override {
    if (this->pump_closed() || this->pump_closing()) return;
    if (!opened_) return this->pump_finish(code, reason);
    this->pump_close(code, std::move(reason));
  }

  void abort() override { this->pump_finish(1006, "connection aborted"); }

  bool is_open() const override { return opened_ && !this->pump_closed() && !this->pump_closing(); }

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
    this->pump_finish(1006, std::string(kIsTls<Stream> ? "wss" : "ws") + "://" + endpoint() + options_.path + ": " + what);
  }

  void connect(const tcp::resolver::results_type& results) {
    auto self = this->shared_from_this();
    beast::get_lowest_layer(this->ws_).async_connect(results, [self](beast::error_code ec, const tcp::endpoint&) {
      if (self->pump_closed()) return;
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
      auto& tls_stream = this->ws_.next_layer();
      if (auto prepared = detail::prepare_tls_client(tls_stream, options_.host, options_.tls); !prepared.ok()) {
        return fail(prepared.error().message);
      }
      auto self = this->shared_from_this();
      tls_stream.async_handshake(ssl::stream_base::client, [self](beast::error_code ec) {
        if (self->pump_closed()) return;
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
    this->ws_.set_option(timeouts);
    this->ws_.set_option(websocket::stream_base::decorator([](websocket::request_type& req) {
      req.set(beast::http::field::user_agent, "clawexec-node");
    }));
    auto self = this->shared_from_this();
    this->ws_.async_handshake(endpoint(), options_.path, [self](beast::error_code ec) {
      if (self->pump_closed()) return;
      if (ec) return self->fail("WebSocket upgrade: " + ec.message());
      self->opened_ = true;
      self->dial_timer_.cancel();
      if (self->handlers_.opened) self->handlers_.opened();
      if (self->pump_closed()) return;
      self->pump_start();
    });
  }

  // WsPump's hooks.
  bool pump_ready() const { return opened_; }
  size_t pump_max_message() const { return options_.max_message; }
  void pump_message(std::string text) {
    if (handlers_.message) handlers_.message(std::move(text));
  }
  void pump_finished(uint16_t code, const std::string& reason) {
    dial_timer_.cancel();
    resolver_.cancel();
    Handlers handlers = std::move(handlers_);
    handlers_ = {};
    if (handlers.closed) handlers.closed(code, reason);
  }

  WsClientOptions options_;
  Handlers handlers_;
  tcp::resolver resolver_;
  asio::steady_timer dial_timer_;
  bool opened_ = false;
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
  auto tls = detail::make_tls_client_context(options.tls);
  if (!tls.ok()) {
    std::string why = "wss://" + options.host + ":" + std::to_string(options.port) + ": " + tls.error().message;
    asio::post(io, [closed = std::move(handlers.closed), why] {
      if (closed) closed(1006, why);
    });
    return std::make_shared<FailedClient>();
  }
  auto c = std::make_shared<Client<TlsStream>>(io, std::move(options), std::move(handlers), std::move(*tls));
  c->start();
  return c;
}

}  // namespace clawexec::net
