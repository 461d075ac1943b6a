// SHA-256 hex digests for durable-approval patterns and approvals-file hashes, through
// OpenSSL's one-shot EVP_Digest (no state kept between calls).

#include "policy/sha256.h"

#include <openssl/evp.h>

#include <array>
#include <new>

namespace clawexec::policy {

std::string sha256_hex(std::string_view data) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  if (EVP_Digest(data.data(), data.size(), digest.data(), &length, EVP_sha256(), nullptr) != 1) {
    // EVP_Digest with a built-in algorithm fails only when OpenSSL cannot allocate, which we
    // treat like any other allocation failure.
    throw std::bad_alloc();
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(length * 2);
  for (unsigned int i = 0; i < length; ++i) {
    out.push_back(kHex[digest[i] >> 4]);
    out.push_back(kHex[digest[i] & 0xf]);
  }
  return out;
}

}  // namespace clawexec::policy
