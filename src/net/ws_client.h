#pragma once
// An outgoing WebSocket connection (ws:// or wss://), for the node host: it dials a gateway,
// keeps one connection, and speaks text frames. The server side is http_server.h.
//
// Beast and OpenSSL stay inside ws_client.cc (they compile slowly): callers see connect(),
// send(), close() and three callbacks. The whole dial (resolve, TCP connect, TLS handshake,
// WebSocket upgrade) is bounded by one connect timeout; certificates are verified against the
// system store and the host name unless the caller turns verification off. Sends are queued
// in order. Incoming messages are read in 64 KiB chunks and bounded by a maximum size (a
// larger one closes the connection with 1009). Everything runs on the io_context's thread;
// callbacks arrive there, and `closed` is called exactly once per connection, whether the
// dial failed, the peer closed, or close()/abort() was called.

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace clawexec::net {

enum class TlsMode { kOff, kVerify, kInsecure };

struct WsClientOptions {
  std::string host;
  uint16_t port = 0;
  std::string path = "/";
  TlsMode tls = TlsMode::kOff;
  std::chrono::milliseconds connect_timeout{10000};
  size_t max_message = 26214400;
  /// A connection that receives nothing (not even a pong) for this long is dropped; it is
  /// pinged half way through.
  std::chrono::milliseconds idle_timeout{60000};
};

class WsClient {
 public:
  struct Handlers {
    /// The upgrade succeeded; sends are now written.
    std::function<void()> opened;
    std::function<void(std::string text)> message;
    /// Once: `code` and `reason` as the peer sent them in its close frame, or 1006 and what
    /// went wrong (the dial's error names the host and port).
    std::function<void(uint16_t code, std::string reason)> closed;
  };
  virtual ~WsClient() = default;
  /// Queues a text message (before `opened` it waits for the upgrade).
  virtual void send(std::string text) = 0;
  /// Sends a close frame after what is queued, then ends the connection.
  virtual void close(uint16_t code, std::string reason) = 0;
  /// Ends the connection at once (no close frame).
  virtual void abort() = 0;
  virtual bool is_open() const = 0;
};

/// Starts dialing `options`; the handlers report the rest.
std::shared_ptr<WsClient> ws_connect(boost::asio::io_context& io, WsClientOptions options, WsClient::Handlers handlers);

}  // namespace clawexec::net
