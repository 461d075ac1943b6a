// The Beast side of net::HttpServer (see http_server.h). One Connection per accepted socket,
// templated on the stream (plain TCP or TLS over TCP): it reads one request at a time with
// Beast's parser (header and body limits, a deadline for the whole request), hands it up, and
// writes the answer from a queue of byte strings. Responses are formatted here rather than by
// Beast's serializer so that complete answers and chunked streams share one write queue;
// header values are stripped of CR and LF so no caller can split a response. While a response
// streams, a read stays posted so a client that goes away is noticed at once (its FIN), not
// at the next write. Upgrades move the stream into a websocket::stream; its messages are text
// only, its writes queued, and an unread backlog past the limit closes it.

#include "net/http_server.h"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ip/v6_only.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <map>

#include "net/ws_pump.h"

namespace clawexec::net {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

std::optional<std::string_view> HttpRequest::header(std::string_view name) const {
  for (const auto& [k, v] : headers) {
    if (k == name) return std::string_view(v);
  }
  return std::nullopt;
}

std::string_view status_text(int status) {
  std::string_view reason = http::obsolete_reason(static_cast<http::status>(status));
  return reason.empty() ? std::string_view("Unknown") : reason;
}

namespace {

std::string clean_header_value(std::string_view v) {
  std::string out;
  out.reserve(v.size());
  for (char c : v) {
    if (c != '\r' && c != '\n' && c != '\0') out.push_back(c);
  }
  return out;
}

std::string head_bytes(int status, const Headers& headers, std::optional<size_t> content_length, bool keep_alive) {
  std::string out = "HTTP/1.1 " + std::to_string(status) + " " + std::string(status_text(status)) + "\r\n";
  for (const auto& [k, v] : headers) out += clean_header_value(k) + ": " + clean_header_value(v) + "\r\n";
  if (content_length) {
    out += "Content-Length: " + std::to_string(*content_length) + "\r\n";
  } else {
    out += "Transfer-Encoding: chunked\r\n";
  }
  if (!keep_alive) out += "Connection: close\r\n";
  out += "\r\n";
  return out;
}

std::string chunk_bytes(std::string_view data) {
  char size[32];
  int n = std::snprintf(size, sizeof size, "%zx\r\n", data.size());
  std::string out(size, static_cast<size_t>(n));
  out.append(data);
  out += "\r\n";
  return out;
}

bool is_loopback(const asio::ip::address& a) {
  if (a.is_loopback()) return true;
  if (a.is_v6() && a.to_v6().is_v4_mapped()) {
    return asio::ip::make_address_v4(asio::ip::v4_mapped, a.to_v6()).is_loopback();
  }
  return false;
}

std::string peer_text(const asio::ip::address& a) {
  if (a.is_v6() && a.to_v6().is_v4_mapped()) {
    return asio::ip::make_address_v4(asio::ip::v4_mapped, a.to_v6()).to_string();
  }
  return a.to_string();
}

template <class Stream>
tcp::socket& socket_of(Stream& s) {
  return beast::get_lowest_layer(s).socket();
}

}  // namespace

struct HttpServer::Impl : std::enable_shared_from_this<HttpServer::Impl> {
  Impl(asio::io_context& io_context, Handlers h, ServerLimits l)
      : io(io_context), handlers(std::move(h)), limits(l), acceptor(io_context) {}
  asio::io_context& io;
  Handlers handlers;
  ServerLimits limits;
  tcp::acceptor acceptor;
  std::unique_ptr<asio::ssl::context> ssl;
  bool stopped = false;
  // Every live connection, so stop() can close them.
  std::map<uint64_t, std::function<void()>> closers;
  uint64_t next_closer = 1;
  uint64_t add_closer(std::function<void()> f) {
    closers.emplace(next_closer, std::move(f));
    return next_closer++;
  }

  void log(const std::string& line) const {
    if (handlers.log) handlers.log(line);
  }
  void accept();
};

namespace {

// --- WebSocket ---------------------------------------------------------------------------

template <class Stream>
class WsConnection final : public WebSocket,
                           public WsPump<WsConnection<Stream>, Stream>,
                           public std::enable_shared_from_this<WsConnection<Stream>> {
  using Pump = WsPump<WsConnection<Stream>, Stream>;
  friend Pump;

 public:
  WsConnection(Stream stream, std::shared_ptr<HttpServer::Impl> server)
      : Pump(std::move(stream)), server_(std::move(server)) {}

  void accept(http::request<http::string_body> request, std::function<void(bool)> done) {
    auto& ws = this->ws_;
    websocket::stream_base::timeout opt{};
    opt.handshake_timeout = std::chrono::seconds(10);
    opt.idle_timeout = server_->limits.ws_idle_timeout;
    opt.keep_alive_pings = true;
    ws.set_option(opt);
    // The message limit is ours (see ws_pump.h), not Beast's: Beast fails an oversized message
    // by tearing the connection down without draining what the peer is still sending, so the
    // peer gets a reset (EPIPE) instead of the 1009 close frame.
    ws.read_message_max(0);
    max_message_ = server_->limits.ws_initial_max_message;
    ws.auto_fragment(false);
    ws.set_option(websocket::stream_base::decorator(
        [](websocket::response_type& res) { res.set(http::field::server, "clawexec"); }));
    beast::get_lowest_layer(ws).expires_never();
    auto self = this->shared_from_this();
    request_ = std::move(request);
    ws.async_accept(request_, [self, done = std::move(done)](beast::error_code ec) {
      if (ec) {
        self->pump_finish(1006, "WebSocket upgrade: " + ec.message());
        return done(false);
      }
      self->closer_ = self->server_->add_closer([weak = std::weak_ptr(self)] {
        if (auto s = weak.lock()) s->abort();
      });
      self->registered_ = true;
      done(true);
    });
  }

  void start(Handlers handlers) override {
    handlers_ = std::move(handlers);
    this->pump_start();
  }

  void send(std::string text) override {
    if (this->pump_closed() || this->pump_closing()) return;
    if (this->pump_buffered() + text.size() > server_->limits.ws_max_buffered) {
      server_->log("websocket: peer is not reading (" + std::to_string(this->pump_buffered() + text.size()) +
                   " bytes queued); closing");
      return abort();
    }
    this->pump_send(std::move(text));
  }

  void close(uint16_t code, std::string reason) override { this->pump_close(code, std::move(reason)); }
  void set_max_message(size_t bytes) override { max_message_ = bytes; }
  bool closed() const override { return this->pump_closed(); }
  size_t buffered() const override { return this->pump_buffered(); }

 private:
  // WsPump's hooks.
  bool pump_ready() const { return true; }  // accepted before anyone can send
  size_t pump_max_message() const { return max_message_; }
  void pump_message(std::string text) {
    if (handlers_.message) handlers_.message(std::move(text));
  }
  void pump_finished(uint16_t code, const std::string& reason) {
    if (registered_) {
      server_->closers.erase(closer_);
      registered_ = false;
    }
    Handlers handlers = std::move(handlers_);
    handlers_ = {};
    if (handlers.closed) handlers.closed(code, reason);
  }

  void abort() { this->pump_finish(1006, "connection closed by the server"); }

  std::shared_ptr<HttpServer::Impl> server_;
  size_t max_message_ = 0;
  http::request<http::string_body> request_;
  bool registered_ = false;
  uint64_t closer_ = 0;
  Handlers handlers_;
};

// --- HTTP --------------------------------------------------------------------------------

template <class Stream>
class Connection : public std::enable_shared_from_this<Connection<Stream>> {
 public:
  Connection(Stream stream, std::shared_ptr<HttpServer::Impl> server)
      : stream_(std::move(stream)), server_(std::move(server)), idle_timer_(server_->io) {
    beast::error_code ec;
    tcp::endpoint remote = socket_of(stream_).remote_endpoint(ec);
    if (!ec) {
      peer_address_ = peer_text(remote.address());
      peer_loopback_ = is_loopback(remote.address());
    }
  }

  void start() {
    closer_ = server_->add_closer([weak = this->weak_from_this()] {
      if (auto s = weak.lock()) s->close();
    });
    registered_ = true;
    if constexpr (std::is_same_v<Stream, beast::ssl_stream<beast::tcp_stream>>) {
      beast::get_lowest_layer(stream_).expires_after(server_->limits.request_timeout);
      auto self = this->shared_from_this();
      stream_.async_handshake(asio::ssl::stream_base::server, [self](beast::error_code ec) {
        if (ec) return self->close();
        self->read_request();
      });
    } else {
      read_request();
    }
  }

  // The response interface of the request being answered.
  class Writer final : public ResponseWriter {
   public:
    Writer(std::weak_ptr<Connection> c, bool keep_alive) : conn_(std::move(c)), keep_alive_(keep_alive) {}
    void respond(int status, Headers headers, std::string body) override {
      auto c = live();
      if (!c || started_) return;
      started_ = ended_ = true;
      std::string bytes = head_bytes(status, headers, body.size(), keep_alive_);
      bytes += body;
      c->queue(std::move(bytes));
      c->response_done(keep_alive_);
    }
    void start_stream(int status, Headers headers) override {
      auto c = live();
      if (!c || started_) return;
      started_ = true;
      c->queue(head_bytes(status, headers, std::nullopt, keep_alive_));
      c->watch_while_streaming();
    }
    void write(std::string chunk) override {
      auto c = live();
      if (!c || !started_ || ended_ || chunk.empty()) return;
      c->queue(chunk_bytes(chunk));
    }
    void end() override {
      auto c = live();
      if (!c || !started_ || ended_) return;
      ended_ = true;
      c->queue("0\r\n\r\n");
      c->response_done(keep_alive_);
    }
    bool closed() const override {
      auto c = conn_.lock();
      return !c || c->closed_ || ended_;
    }
    void on_close(std::function<void()> callback) override {
      auto c = conn_.lock();
      if (!c || c->closed_) return callback();
      c->close_callbacks_.push_back(std::move(callback));
    }

   private:
    std::shared_ptr<Connection> live() const {
      auto c = conn_.lock();
      return c && !c->closed_ ? c : nullptr;
    }
    std::weak_ptr<Connection> conn_;
    bool keep_alive_;
    bool started_ = false;
    bool ended_ = false;
  };

 private:
  void read_request() {
    if (closed_) return;
    parser_.emplace();
    parser_->header_limit(static_cast<std::uint32_t>(kMaxHeaderBytes));
    parser_->body_limit(server_->limits.max_body_bytes);
    beast::get_lowest_layer(stream_).expires_after(server_->limits.request_timeout);
    auto self = this->shared_from_this();
    http::async_read(stream_, buffer_, *parser_, [self](beast::error_code ec, size_t) { self->on_read(ec); });
  }

  void on_read(beast::error_code ec) {
    if (closed_) return;
    if (ec) {
      if (ec == http::error::end_of_stream || ec == asio::error::eof || ec == asio::error::connection_reset ||
          ec == asio::error::operation_aborted) {
        return close();
      }
      if (ec == beast::error::timeout) return fail(408, "the request was not received in time");
      if (ec == http::error::header_limit) {
        return fail(431, "the request line and headers exceed " + std::to_string(kMaxHeaderBytes) + " bytes");
      }
      if (ec == http::error::body_limit) {
        return fail(413, "the request body exceeds " + std::to_string(server_->limits.max_body_bytes) + " bytes");
      }
      return fail(400, "malformed HTTP request (" + ec.message() + ")");
    }
    beast::get_lowest_layer(stream_).expires_never();
    http::request<http::string_body> req = parser_->release();
    parser_.reset();
    HttpRequest r;
    r.method = std::string(req.method_string());
    r.target = std::string(req.target());
    r.path = r.target.substr(0, r.target.find('?'));
    for (const auto& field : req) {
      std::string name(field.name_string());
      for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      r.headers.emplace_back(std::move(name), std::string(field.value()));
    }
    r.peer_address = peer_address_;
    r.peer_loopback = peer_loopback_;
    if (websocket::is_upgrade(req)) return upgrade(std::move(req), std::move(r));
    r.body = std::move(req.body());
    bool keep_alive = req.keep_alive();
    writer_ = std::make_shared<Writer>(this->weak_from_this(), keep_alive);
    server_->handlers.request(std::move(r), writer_);
    // An answer still to come: the posted read keeps this connection alive meanwhile and sees
    // the client go away.
    if (writer_ && !closed_) watch_while_streaming();
  }

  void upgrade(http::request<http::string_body> req, HttpRequest r) {
    if (server_->handlers.upgrade_check) {
      if (auto refusal = server_->handlers.upgrade_check(r)) {
        queue(head_bytes(refusal->first, {{"Content-Type", "text/plain; charset=utf-8"}}, refusal->second.size(), false) +
              refusal->second);
        return response_done(false);
      }
    }
    if (!server_->handlers.websocket) return fail(404, "no WebSocket endpoint here");
    // The stream moves into the WebSocket; this connection ends without closing the socket.
    auto ws = std::make_shared<WsConnection<Stream>>(std::move(stream_), server_);
    unregister();
    closed_ = true;
    auto server = server_;
    ws->accept(std::move(req), [ws, server, r = std::move(r)](bool ok) mutable {
      if (ok) server->handlers.websocket(std::move(r), ws);
    });
  }

  void fail(int status, const std::string& message) {
    std::string body = message + "\n";
    queue(head_bytes(status, {{"Content-Type", "text/plain; charset=utf-8"}}, body.size(), false) + body);
    response_done(false);
  }

  void queue(std::string bytes) {
    if (closed_) return;
    buffered_ += bytes.size();
    if (buffered_ > server_->limits.max_buffered) {
      server_->log("http: peer " + peer_address_ + " is not reading its response; closing");
      return close();
    }
    out_.push_back(std::move(bytes));
    if (!writing_) write_next();
  }

  void write_next() {
    if (closed_) return;
    if (out_.empty()) {
      if (close_after_writes_) return close();
      if (read_after_writes_) {
        read_after_writes_ = false;
        read_request();
      }
      return;
    }
    writing_ = true;
    auto self = this->shared_from_this();
    asio::async_write(stream_, asio::buffer(out_.front()), [self](beast::error_code ec, size_t) {
      self->writing_ = false;
      if (self->closed_) {  // close() kept only the bytes this write was using
        self->out_.clear();
        self->buffered_ = 0;
        return;
      }
      self->buffered_ -= self->out_.front().size();
      self->out_.pop_front();
      if (ec) return self->close();
      self->write_next();
    });
  }

  void response_done(bool keep_alive) {
    writer_.reset();
    if (keep_alive) {
      read_after_writes_ = !watching_;
      resume_after_watch_ = watching_;
      // The read left posted by a stream now waits for the next request: under the deadline
      // (a separate timer: a tcp_stream's own deadline cannot change under a pending read).
      if (watching_) arm_idle_timer();
    } else {
      close_after_writes_ = true;
    }
    if (!writing_) write_next();
  }

  // While a response is pending or streams nothing else is read; a read stays posted to see the
  // client go.
  void watch_while_streaming() {
    if (watching_ || closed_) return;
    watching_ = true;
    auto self = this->shared_from_this();
    stream_.async_read_some(buffer_.prepare(4096), [self](beast::error_code ec, size_t n) {
      self->watching_ = false;
      if (self->closed_) return;
      if (ec) return self->close();
      self->buffer_.commit(n);  // the start of the next (pipelined) request
      self->idle_timer_.cancel();
      if (self->resume_after_watch_) {
        self->resume_after_watch_ = false;
        self->read_after_writes_ = true;
        if (!self->writing_) self->write_next();
      } else if (self->buffer_.size() > kMaxHeaderBytes) {
        self->close();
      } else {
        self->watch_while_streaming();
      }
    });
  }

  void arm_idle_timer() {
    idle_timer_.expires_after(server_->limits.request_timeout);
    idle_timer_.async_wait([weak = this->weak_from_this()](beast::error_code ec) {
      auto self = weak.lock();
      if (!ec && self && self->resume_after_watch_) self->close();
    });
  }

  void unregister() {
    if (registered_) {
      server_->closers.erase(closer_);
      registered_ = false;
    }
  }

 public:
  void close() {
    if (closed_) return;
    closed_ = true;
    unregister();
    idle_timer_.cancel();
    beast::error_code ignored;
    socket_of(stream_).shutdown(tcp::socket::shutdown_both, ignored);
    socket_of(stream_).close(ignored);
    // A write in flight still reads the front buffer: it is freed when that write completes.
    if (writing_ && !out_.empty()) {
      out_.erase(std::next(out_.begin()), out_.end());
    } else {
      out_.clear();
      buffered_ = 0;
    }
    std::vector<std::function<void()>> callbacks = std::move(close_callbacks_);
    close_callbacks_.clear();
    for (auto& cb : callbacks) cb();
  }

 private:
  Stream stream_;
  std::shared_ptr<HttpServer::Impl> server_;
  asio::steady_timer idle_timer_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::shared_ptr<Writer> writer_;
  std::deque<std::string> out_;
  size_t buffered_ = 0;
  bool writing_ = false;
  bool close_after_writes_ = false;
  bool read_after_writes_ = false;
  bool resume_after_watch_ = false;
  bool watching_ = false;
  bool closed_ = false;
  bool registered_ = false;
  uint64_t closer_ = 0;
  std::vector<std::function<void()>> close_callbacks_;
  std::string peer_address_;
  bool peer_loopback_ = false;
};

}  // namespace

void HttpServer::Impl::accept() {
  auto self = shared_from_this();
  acceptor.async_accept([self](beast::error_code ec, tcp::socket socket) {
    if (self->stopped) return;
    if (ec) {
      if (ec == asio::error::operation_aborted) return;
      self->log("http: accept failed: " + ec.message());
      // EMFILE and friends: try again shortly rather than spinning.
      auto timer = std::make_shared<asio::steady_timer>(self->io, std::chrono::milliseconds(50));
      timer->async_wait([self, timer](beast::error_code) {
        if (!self->stopped) self->accept();
      });
      return;
    }
    beast::error_code ignored;
    socket.set_option(tcp::no_delay(true), ignored);
    if (self->ssl) {
      auto c = std::make_shared<Connection<beast::ssl_stream<beast::tcp_stream>>>(
          beast::ssl_stream<beast::tcp_stream>(beast::tcp_stream(std::move(socket)), *self->ssl), self);
      c->start();
    } else {
      auto c = std::make_shared<Connection<beast::tcp_stream>>(beast::tcp_stream(std::move(socket)), self);
      c->start();
    }
    self->accept();
  });
}

HttpServer::HttpServer(asio::io_context& io, Handlers handlers, ServerLimits limits)
    : impl_(std::make_shared<Impl>(io, std::move(handlers), limits)) {}

HttpServer::~HttpServer() { stop(); }

Result<void> HttpServer::use_tls(const TlsFiles& files) {
  auto ctx = std::make_unique<asio::ssl::context>(asio::ssl::context::tls_server);
  ctx->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                   asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 | asio::ssl::context::no_tlsv1_1 |
                   asio::ssl::context::single_dh_use);
  beast::error_code ec;
  ctx->use_certificate_chain_file(files.cert_path, ec);
  if (ec) return Error::invalid("TLS certificate " + files.cert_path + ": " + ec.message());
  ctx->use_private_key_file(files.key_path, asio::ssl::context::pem, ec);
  if (ec) return Error::invalid("TLS key " + files.key_path + ": " + ec.message());
  impl_->ssl = std::move(ctx);
  return {};
}

Result<void> HttpServer::listen(const std::string& address, uint16_t port) {
  beast::error_code ec;
  asio::ip::address addr = asio::ip::make_address(address, ec);
  if (ec) return Error::invalid("listen address " + address + ": not a numeric IP address");
  tcp::endpoint endpoint(addr, port);
  tcp::acceptor& a = impl_->acceptor;
  a.open(endpoint.protocol(), ec);
  if (!ec) a.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec && addr.is_v6()) a.set_option(asio::ip::v6_only(false), ec);
  if (!ec) a.bind(endpoint, ec);
  if (!ec) a.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    beast::error_code ignored;
    a.close(ignored);
    return Error{ErrorCode::kIo, ec.value(), "listen on " + address + ":" + std::to_string(port) + ": " + ec.message()};
  }
  impl_->accept();
  return {};
}

uint16_t HttpServer::port() const {
  beast::error_code ec;
  tcp::endpoint e = impl_->acceptor.local_endpoint(ec);
  return ec ? 0 : e.port();
}

bool HttpServer::tls() const { return impl_->ssl != nullptr; }

void HttpServer::stop() {
  if (impl_->stopped) return;
  impl_->stopped = true;
  beast::error_code ignored;
  impl_->acceptor.close(ignored);
  std::map<uint64_t, std::function<void()>> closers = std::move(impl_->closers);
  impl_->closers.clear();
  for (auto& [id, c] : closers) c();
}

size_t HttpServer::connection_count() const { return impl_->closers.size(); }

}  // namespace clawexec::net
