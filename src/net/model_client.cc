// The model client of model_client.h. One class template serves plain TCP and TLS; a call is
// a chain of asynchronous steps (resolve, connect, TLS handshake, write, read the header, read
// the body into a fixed buffer piece by piece) and a timer that, when it fires first, closes
// the socket and reports the timeout. Streamed 2xx bodies go through StreamDecoder as they
// arrive (so a server that keeps the connection open after its last event is not waited for);
// everything else is collected up to the size cap and parsed at the end.

#include "net/model_client.h"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <limits>

#include "net/tls_client.h"

namespace clawexec::net {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

using detail::kIsTls;
using detail::PlainStream;
using detail::TlsContextHolder;
using detail::TlsStream;

std::string host_port(const BaseUrl& base) {
  bool v6 = base.host.find(':') != std::string::npos;
  return (v6 ? "[" + base.host + "]" : base.host) + ":" + std::to_string(base.port);
}

template <class Stream>
class Call final : private TlsContextHolder, public ModelCall, public std::enable_shared_from_this<Call<Stream>> {
 public:
  Call(asio::io_context& io, config::ModelApi api, BaseUrl base, WireRequest wire, const CompletionRequest& request,
       std::string secret, const ModelClientOptions& options, CompletionCallback done,
       std::shared_ptr<asio::ssl::context> tls)
      : TlsContextHolder{std::move(tls)}, io_(io), stream_(make_stream(io, tls_.get())), resolver_(io), timer_(io),
        api_(api), base_(std::move(base)), wire_(std::move(wire)), timeout_(request.timeout),
        streaming_(request.stream), secret_(std::move(secret)), max_bytes_(options.max_response_bytes),
        done_(std::move(done)), decoder_(api) {}

  void start() {
    auto self = this->shared_from_this();
    timer_.expires_after(timeout_);
    timer_.async_wait([self](const boost::system::error_code& ec) {
      if (ec || self->finished_) return;
      self->fail(ErrorCode::kTimedOut, "timed out after " + std::to_string(self->timeout_.count()) + " ms");
    });
    resolver_.async_resolve(base_.host, std::to_string(base_.port),
                            [self](beast::error_code ec, tcp::resolver::results_type results) {
                              if (self->finished_) return;
                              if (ec) return self->fail(ErrorCode::kIo, "resolve " + self->base_.host + ": " + ec.message());
                              self->connect(results);
                            });
  }

  void cancel() override {
    auto self = this->shared_from_this();
    asio::post(io_, [self] {
      if (!self->finished_) self->fail(ErrorCode::kCancelled, "cancelled");
    });
  }

 private:
  static Stream make_stream(asio::io_context& io, asio::ssl::context* tls) {
    if constexpr (kIsTls<Stream>) {
      return Stream(io, *tls);
    } else {
      (void)tls;
      return Stream(io);
    }
  }

  std::string url() const { return std::string(kIsTls<Stream> ? "https://" : "http://") + host_port(base_) + wire_.target; }

  void fail(ErrorCode code, const std::string& what) { finish(Error{code, 0, "model request " + url() + ": " + what}); }

  void finish(Result<Completion> result) {
    if (finished_) return;
    finished_ = true;
    timer_.cancel();
    resolver_.cancel();
    beast::error_code ignored;
    beast::get_lowest_layer(stream_).socket().close(ignored);
    CompletionCallback done = std::move(done_);
    done_ = nullptr;
    if (done) done(std::move(result));
  }

  void connect(const tcp::resolver::results_type& results) {
    auto self = this->shared_from_this();
    beast::get_lowest_layer(stream_).async_connect(results, [self](beast::error_code ec, const tcp::endpoint&) {
      if (self->finished_) return;
      if (ec) return self->fail(ErrorCode::kIo, "connect " + host_port(self->base_) + ": " + ec.message());
      beast::get_lowest_layer(self->stream_).socket().set_option(tcp::no_delay(true), ec);
      if constexpr (kIsTls<Stream>) {
        self->handshake();
      } else {
        self->write();
      }
    });
  }

  void handshake() {
    if constexpr (kIsTls<Stream>) {
      if (auto prepared = detail::prepare_tls_client(stream_, base_.host, TlsMode::kVerify); !prepared.ok()) {
        return fail(ErrorCode::kIo, prepared.error().message);
      }
      auto self = this->shared_from_this();
      stream_.async_handshake(asio::ssl::stream_base::client, [self](beast::error_code ec) {
        if (self->finished_) return;
        if (ec) return self->fail(ErrorCode::kIo, "TLS handshake with " + host_port(self->base_) + ": " + ec.message());
        self->write();
      });
    }
  }

  void write() {
    request_.method(http::verb::post);
    request_.target(wire_.target);
    request_.version(11);
    request_.set(http::field::host, host_port(base_));
    request_.set(http::field::user_agent, "clawexec");
    request_.set(http::field::connection, "close");
    for (const auto& [name, value] : wire_.headers) request_.set(name, value);
    request_.body() = std::move(wire_.body);
    request_.prepare_payload();
    auto self = this->shared_from_this();
    http::async_write(stream_, request_, [self](beast::error_code ec, size_t) {
      if (self->finished_) return;
      if (ec) return self->fail(ErrorCode::kIo, "send: " + ec.message());
      self->request_ = {};  // the key is no longer needed in memory
      self->read_header();
    });
  }

  void read_header() {
    parser_.body_limit(std::numeric_limits<std::uint64_t>::max());
    parser_.header_limit(64 * 1024);
    auto self = this->shared_from_this();
    http::async_read_header(stream_, buffer_, parser_, [self](beast::error_code ec, size_t) {
      if (self->finished_) return;
      if (ec) return self->fail(ErrorCode::kIo, "no response: " + ec.message());
      self->status_ = static_cast<int>(self->parser_.get().result_int());
      self->decode_stream_ = self->streaming_ && self->status_ >= 200 && self->status_ <= 299;
      self->read_body();
    });
  }

  void read_body() {
    if (parser_.is_done()) return complete();
    parser_.get().body().data = chunk_;
    parser_.get().body().size = sizeof chunk_;
    auto self = this->shared_from_this();
    http::async_read(stream_, buffer_, parser_, [self](beast::error_code ec, size_t) {
      if (self->finished_) return;
      if (ec == http::error::need_buffer) ec = {};
      if (ec == http::error::partial_message || ec == asio::error::eof || ec == asio::ssl::error::stream_truncated) {
        return self->fail(ErrorCode::kIo, "the connection closed before the response was complete");
      }
      if (ec) return self->fail(ErrorCode::kIo, "read: " + ec.message());
      size_t got = sizeof self->chunk_ - self->parser_.get().body().size;
      self->received_ += got;
      if (self->received_ > self->max_bytes_) {
        return self->fail(ErrorCode::kIo, "the response is larger than " + std::to_string(self->max_bytes_) + " bytes");
      }
      if (self->decode_stream_) {
        self->decoder_.feed(std::string_view(self->chunk_, got));
        if (self->decoder_.done()) return self->complete();
      } else {
        self->body_.append(self->chunk_, got);
      }
      self->read_body();
    });
  }

  void complete() {
    finish(decode_stream_ ? decoder_.finish(status_) : parse_completion(api_, status_, body_, secret_));
  }

  asio::io_context& io_;
  Stream stream_;
  tcp::resolver resolver_;
  asio::steady_timer timer_;
  config::ModelApi api_;
  BaseUrl base_;
  WireRequest wire_;
  std::chrono::milliseconds timeout_;
  bool streaming_;
  std::string secret_;
  size_t max_bytes_;
  CompletionCallback done_;
  StreamDecoder decoder_;

  http::request<http::string_body> request_;
  http::response_parser<http::buffer_body> parser_;
  beast::flat_buffer buffer_;
  char chunk_[16384];
  std::string body_;
  size_t received_ = 0;
  int status_ = 0;
  bool decode_stream_ = false;
  bool finished_ = false;
};

// A call that fails before it starts (bad URL, no TLS context): reported asynchronously, like
// every other failure.
class FailedCall final : public ModelCall {
 public:
  void cancel() override {}
};

std::shared_ptr<ModelCall> fail_later(asio::io_context& io, Error error, CompletionCallback done) {
  asio::post(io, [done = std::move(done), error = std::move(error)]() mutable {
    if (done) done(std::move(error));
  });
  return std::make_shared<FailedCall>();
}

}  // namespace

std::shared_ptr<ModelCall> complete(asio::io_context& io, const config::ModelEndpoint& endpoint,
                                    const CompletionRequest& request, CompletionCallback done,
                                    const ModelClientOptions& options) {
  Result<BaseUrl> base = parse_base_url(endpoint.base_url);
  if (!base.ok()) return fail_later(io, std::move(base).error(), std::move(done));
  WireRequest wire = build_wire_request(endpoint, *base, request);
  if (!base->tls) {
    auto call = std::make_shared<Call<PlainStream>>(io, endpoint.api, std::move(*base), std::move(wire), request,
                                                    endpoint.api_key, options, std::move(done), nullptr);
    call->start();
    return call;
  }
  auto tls = detail::make_tls_client_context(TlsMode::kVerify, options.ca_file);
  if (!tls.ok()) {
    Error e = std::move(tls).error();
    e.message = "model request https://" + host_port(*base) + wire.target + ": " + e.message;
    return fail_later(io, std::move(e), std::move(done));
  }
  auto call = std::make_shared<Call<TlsStream>>(io, endpoint.api, std::move(*base), std::move(wire), request,
                                                endpoint.api_key, options, std::move(done), std::move(*tls));
  call->start();
  return call;
}

}  // namespace clawexec::net
