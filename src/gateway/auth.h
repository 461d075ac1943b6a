#pragma once
// Who may talk to the gateway: the shared secret (a token, generated and kept 0600 in the
// state directory when none is configured, or a password), compared in constant time, and a
// limiter that slows a peer that keeps guessing (gateway.auth.rateLimit: maxAttempts failures
// within windowMs lock that address out for lockoutMs; loopback is exempt unless configured
// otherwise). Used by both the MCP endpoint (Authorization: Bearer) and the operator protocol
// (connect.params.auth).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "config/gateway_settings.h"

namespace clawexec::gateway {

/// `<state>/gateway/token`.
std::string token_file_path(const std::string& state_dir);

/// The token in the token file, creating the file (0600, directory 0700) with a fresh random
/// token when there is none. An unreadable or group/other-readable file is an error naming it.
Result<std::string> load_or_create_token(const std::string& state_dir);

/// Constant-time comparison of two secrets (their SHA-256 digests are compared, so neither
/// the content nor the length leaks through timing).
bool secret_equals(std::string_view given, std::string_view expected);

/// The token of an `Authorization: Bearer <token>` header value, if it has that form.
std::optional<std::string> bearer_token(std::string_view authorization);

/// The gateway's credential as configured or generated.
struct GatewayCredential {
  config::GatewayAuthMode mode = config::GatewayAuthMode::kToken;
  std::string secret;  // the token or the password
  std::string token_file;  // where a generated token lives ("" = configured)
  /// `given` (a token or a password, whichever the mode compares) is the secret.
  bool accepts(std::string_view given) const { return !secret.empty() && secret_equals(given, secret); }
};

/// Failed-authentication bookkeeping per peer address.
class AuthLimiter {
 public:
  explicit AuthLimiter(config::GatewayRateLimit limits) : limits_(limits) {}
  /// Milliseconds the peer must wait before it may try again, or nullopt when it may try now.
  std::optional<int64_t> blocked_for(const std::string& address, bool loopback, int64_t now_ms);
  void record_failure(const std::string& address, bool loopback, int64_t now_ms);
  void record_success(const std::string& address);
  void set_limits(config::GatewayRateLimit limits) { limits_ = limits; }

 private:
  struct Entry {
    int failures = 0;
    int64_t window_start_ms = 0;
    int64_t locked_until_ms = 0;
  };
  bool exempt(bool loopback) const { return loopback && limits_.exempt_loopback; }
  config::GatewayRateLimit limits_;
  std::map<std::string, Entry> entries_;
};

}  // namespace clawexec::gateway
