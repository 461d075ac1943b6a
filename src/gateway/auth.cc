// Gateway credentials and the failed-auth limiter: see auth.h.

#include "gateway/auth.h"

#include <openssl/crypto.h>
#include <openssl/sha.h>

#include "approvals/random.h"
#include "base/strings.h"
#include "sys/whole_file.h"

namespace clawexec::gateway {

std::string token_file_path(const std::string& state_dir) { return state_dir + "/gateway/token"; }

Result<std::string> load_or_create_token(const std::string& state_dir) {
  std::string path = token_file_path(state_dir);
  std::optional<std::string> text =
      TRY(sys::read_private_file(path, "gateway token file", "chmod 600 it, or delete it to get a new token"));
  if (text) {
    std::string token(trim_ascii(*text));
    if (token.empty()) return Error::invalid("gateway token file " + path + ": empty (delete it to get a new token)");
    return token;
  }
  std::string token = TRY(approvals::generate_socket_token());
  TRY(sys::write_private_file(path, token + "\n"));
  return token;
}

bool secret_equals(std::string_view given, std::string_view expected) {
  unsigned char a[SHA256_DIGEST_LENGTH];
  unsigned char b[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(given.data()), given.size(), a);
  SHA256(reinterpret_cast<const unsigned char*>(expected.data()), expected.size(), b);
  return CRYPTO_memcmp(a, b, sizeof a) == 0;
}

std::optional<std::string> bearer_token(std::string_view authorization) {
  std::string_view v = trim_ascii(authorization);
  if (v.size() < 7 || ascii_lower(v.substr(0, 7)) != "bearer ") return std::nullopt;
  std::string_view token = trim_ascii(v.substr(7));
  if (token.empty()) return std::nullopt;
  return std::string(token);
}

std::optional<int64_t> AuthLimiter::blocked_for(const std::string& address, bool loopback, int64_t now_ms) {
  if (exempt(loopback)) return std::nullopt;
  auto it = entries_.find(address);
  if (it == entries_.end()) return std::nullopt;
  if (it->second.locked_until_ms > now_ms) return it->second.locked_until_ms - now_ms;
  return std::nullopt;
}

void AuthLimiter::record_failure(const std::string& address, bool loopback, int64_t now_ms) {
  if (exempt(loopback)) return;
  // Bounded: addresses whose window and lockout are over are forgotten first.
  if (entries_.size() > 10000) {
    for (auto it = entries_.begin(); it != entries_.end();) {
      bool stale = it->second.locked_until_ms <= now_ms && now_ms - it->second.window_start_ms > limits_.window_ms;
      it = stale ? entries_.erase(it) : std::next(it);
    }
  }
  Entry& e = entries_[address];
  if (now_ms - e.window_start_ms > limits_.window_ms) {
    e.failures = 0;
    e.window_start_ms = now_ms;
  }
  if (++e.failures >= limits_.max_attempts) {
    e.locked_until_ms = now_ms + limits_.lockout_ms;
    e.failures = 0;
    e.window_start_ms = now_ms;
  }
}

void AuthLimiter::record_success(const std::string& address) { entries_.erase(address); }

}  // namespace clawexec::gateway
