#pragma once
// One listening port for HTTP/1.1 and WebSocket (optionally under TLS), so the gateway serves
// agents (MCP over streamable HTTP), operators and nodes (WebSocket) on a single address.
//
// Beast and OpenSSL stay inside http_server.cc (they compile slowly): callers see a parsed
// request, a response writer that can answer at once or stream (SSE), and a WebSocket
// connection with text messages. Every connection is bounded: the request line and headers
// (kMaxHeaderBytes), the body, the time a client may take to send a whole request (a slow
// client is cut off, never holding anything but its socket), idle keep-alive time, and the
// size of a WebSocket message (set per connection: small before authentication, larger after).
// Writes are queued in order; a peer that stops reading is disconnected once its queue passes
// the connection's budget rather than growing the server.
//
// Everything runs on the io_context's one thread; callbacks arrive there.

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"

namespace clawexec::net {

inline constexpr size_t kMaxHeaderBytes = 16 * 1024;

struct HttpRequest {
  std::string method;  // upper case as sent
  std::string target;  // path and query
  std::string path;    // target without the query
  std::vector<std::pair<std::string, std::string>> headers;  // names lower-cased
  std::string body;
  std::string peer_address;  // numeric, without port
  bool peer_loopback = false;
  /// The first header named `name` (lower case), if any.
  std::optional<std::string_view> header(std::string_view name) const;
};

using Headers = std::vector<std::pair<std::string, std::string>>;

/// The answer to one request: either respond() once, or start_stream() then write()/end().
/// Methods after the connection closed do nothing; closed() tells.
class ResponseWriter {
 public:
  virtual ~ResponseWriter() = default;
  virtual void respond(int status, Headers headers, std::string body) = 0;
  /// Sends the status and headers now; the body follows in chunks.
  virtual void start_stream(int status, Headers headers) = 0;
  virtual void write(std::string chunk) = 0;
  virtual void end() = 0;
  virtual bool closed() const = 0;
  /// Called once when the connection closes (or at once if it already has).
  virtual void on_close(std::function<void()> callback) = 0;
};

/// An accepted WebSocket connection. send() queues a text message; close() sends a close frame
/// with `code` and `reason` after what is queued. Handlers are set by whoever accepts it.
class WebSocket {
 public:
  virtual ~WebSocket() = default;
  virtual void send(std::string text) = 0;
  virtual void close(uint16_t code, std::string reason) = 0;
  virtual void set_max_message(size_t bytes) = 0;
  virtual bool closed() const = 0;
  /// Bytes queued but not yet written.
  virtual size_t buffered() const = 0;
  struct Handlers {
    std::function<void(std::string text)> message;
    /// Once, when the connection ends for any reason (`code`/`reason` as the peer sent them, or
    /// 1006 and the error).
    std::function<void(uint16_t code, std::string reason)> closed;
  };
  virtual void start(Handlers handlers) = 0;
};

struct ServerLimits {
  size_t max_body_bytes = 4 * 1024 * 1024;
  /// How long a client may take to send one whole request (headers and body), and how long a
  /// keep-alive connection may wait for its next one.
  std::chrono::milliseconds request_timeout{10000};
  /// Bytes of response a slow reader may leave unread before it is disconnected.
  size_t max_buffered = 16 * 1024 * 1024;
  /// WebSocket message limit until the handler raises it.
  size_t ws_initial_max_message = 64 * 1024;
  /// A WebSocket peer that leaves more than this unread is disconnected.
  size_t ws_max_buffered = 52428800;
  /// An idle WebSocket is pinged; one that does not answer within this is closed.
  std::chrono::milliseconds ws_idle_timeout{50000};
};

struct TlsFiles {
  std::string cert_path;
  std::string key_path;
};

class HttpServer {
 public:
  struct Handlers {
    std::function<void(HttpRequest request, std::shared_ptr<ResponseWriter> response)> request;
    /// An upgrade request for `request.path`: return nullopt to accept (then `websocket` gets
    /// the connection), or the status and body to refuse it with.
    std::function<std::optional<std::pair<int, std::string>>(const HttpRequest& request)> upgrade_check;
    std::function<void(HttpRequest request, std::shared_ptr<WebSocket> socket)> websocket;
    /// Diagnostics (one line, no newline).
    std::function<void(const std::string& line)> log;
  };

  HttpServer(boost::asio::io_context& io, Handlers handlers, ServerLimits limits = {});
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  /// Loads the certificate and key (PEM). Errors name the file.
  Result<void> use_tls(const TlsFiles& files);
  /// Binds and listens on `address` (numeric IPv4/IPv6) and `port` (0 = any free port).
  Result<void> listen(const std::string& address, uint16_t port);
  uint16_t port() const;
  bool tls() const;
  /// Stops accepting and closes every connection.
  void stop();
  size_t connection_count() const;

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

/// Standard reason phrase for a status code ("Not Found").
std::string_view status_text(int status);

}  // namespace clawexec::net
