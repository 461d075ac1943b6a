#pragma once
// Internal to net: the client side of TLS, shared by every outgoing connection (the node's
// WebSocket dial, the model client) so certificate checking is set up in one place: a context
// that trusts the system store (or a given CA file), and per connection SNI plus peer and
// host-name verification. Included only by net's .cc files (Asio SSL compiles slowly).

#include <boost/asio/ssl.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <memory>
#include <string>
#include <type_traits>

#include "base/result.h"
#include "net/ws_client.h"

namespace clawexec::net::detail {

/// The two streams an outgoing connection runs on, and which one is TLS.
using PlainStream = boost::beast::tcp_stream;
using TlsStream = boost::beast::ssl_stream<boost::beast::tcp_stream>;
template <class Stream>
constexpr bool kIsTls = std::is_same_v<Stream, TlsStream>;

/// The TLS context outlives the stream built on it: a connection class derives from this
/// before the stream's owner, so it is constructed first and destroyed last.
struct TlsContextHolder {
  std::shared_ptr<boost::asio::ssl::context> tls_;
};

/// A TLS client context. kVerify trusts `ca_file` when it is set, else the system store;
/// kInsecure verifies nothing. Errors say what failed ("TLS setup: load CA file /x: ...").
Result<std::shared_ptr<boost::asio::ssl::context>> make_tls_client_context(TlsMode mode, const std::string& ca_file = {});

/// Before the handshake on `stream`: sets SNI to `host` and, with kVerify, peer verification
/// against `host` (a DNS name or an IP address). Errors name what failed.
Result<void> prepare_tls_client(boost::beast::ssl_stream<boost::beast::tcp_stream>& stream, const std::string& host,
                                TlsMode mode);

}  // namespace clawexec::net::detail
