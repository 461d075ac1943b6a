// The client side of TLS (see tls_client.h): OpenSSL through Asio's ssl::context, with host
// names checked by Asio's host_name_verification (RFC 6125 matching, IP addresses included).

#include "net/tls_client.h"

#include <openssl/ssl.h>

namespace clawexec::net::detail {

namespace ssl = boost::asio::ssl;

Result<std::shared_ptr<ssl::context>> make_tls_client_context(TlsMode mode, const std::string& ca_file) {
  auto tls = std::make_shared<ssl::context>(ssl::context::tls_client);
  boost::system::error_code ec;
  tls->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3, ec);
  if (ec) return Error{ErrorCode::kIo, 0, "TLS setup: " + ec.message()};
  if (mode != TlsMode::kVerify) return tls;
  if (ca_file.empty()) {
    tls->set_default_verify_paths(ec);
    if (ec) return Error{ErrorCode::kIo, 0, "TLS setup: load the system CA store: " + ec.message()};
  } else {
    tls->load_verify_file(ca_file, ec);
    if (ec) return Error{ErrorCode::kIo, 0, "TLS setup: load CA file " + ca_file + ": " + ec.message()};
  }
  return tls;
}

Result<void> prepare_tls_client(boost::beast::ssl_stream<boost::beast::tcp_stream>& stream, const std::string& host,
                                TlsMode mode) {
  if (!SSL_set_tlsext_host_name(stream.native_handle(), host.c_str())) {
    return Error{ErrorCode::kIo, 0, "TLS: cannot set the server name"};
  }
  if (mode == TlsMode::kVerify) {
    stream.set_verify_mode(ssl::verify_peer);
    stream.set_verify_callback(ssl::host_name_verification(host));
  } else {
    stream.set_verify_mode(ssl::verify_none);
  }
  return {};
}

}  // namespace clawexec::net::detail
