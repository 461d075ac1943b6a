#pragma once
// Asking a language model for one completion (the exec auto-reviewer's transport): given an
// endpoint from config/model_providers.h, a system prompt and a user message, POST the request
// its API expects over http:// or https:// and hand back the text and the normalised stop
// reason. The request and response formats live in model_wire.h; this is the network part.
//
// Approach: one asynchronous chain on the caller's io_context (resolve, connect, TLS with the
// system store or a given CA file plus SNI and host-name checks, write, read the body in
// pieces), raced against one timer that bounds the whole call. Beast and OpenSSL stay in
// model_client.cc. Nothing blocks the io thread; the callback runs on it exactly once.
//
// Outcomes:
// * The model answered (any HTTP status): a Completion. A non-2xx status, a provider error
//   event or an unmappable stop reason is stop_reason "error" with error_message ("HTTP 500:
//   <bounded, sanitised excerpt>"), never containing the API key.
// * The call failed before an answer: an Error naming the URL (never the key):
//   kTimedOut "... timed out after <ms> ms" (connect and response share the budget), kIo for
//   resolve/connect failures ("connect 127.0.0.1:9: Connection refused"), TLS verification
//   failures, a connection closed mid-response, or a response over the size cap;
//   kCancelled after cancel() (OpenClaw would call that stop reason "aborted");
//   kInvalidArgument for a base URL that is not http(s).

#include <boost/asio/io_context.hpp>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "base/result.h"
#include "config/model_providers.h"
#include "net/model_wire.h"

namespace clawexec::net {

struct ModelClientOptions {
  /// PEM file of CAs to trust for https:// instead of the system store ("" = system store).
  std::string ca_file;
  /// Largest response body accepted (streamed or not); a larger one fails the call.
  size_t max_response_bytes = 1024 * 1024;
};

/// One call in flight. Dropping the handle does not cancel it.
class ModelCall {
 public:
  virtual ~ModelCall() = default;
  /// Ends the call now; the callback then reports kCancelled (unless it already ran).
  virtual void cancel() = 0;
};

using CompletionCallback = std::function<void(Result<Completion>)>;

/// Starts a completion; `done` runs once on `io`'s thread.
std::shared_ptr<ModelCall> complete(boost::asio::io_context& io, const config::ModelEndpoint& endpoint,
                                    const CompletionRequest& request, CompletionCallback done,
                                    const ModelClientOptions& options = {});

}  // namespace clawexec::net
