// SHA-256 hex digests for durable-approval patterns, approvals-file hashes and shell startup
// fingerprints, through OpenSSL's one-shot EVP_Digest (no state kept between calls).

#include "hash/sha256.h"

#include <openssl/evp.h>

#include <array>
#include <new>

namespace clawexec::hash {

void append_lower_hex(std::string& out, const unsigned char* bytes, size_t size) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.reserve(out.size() + size * 2);
  for (size_t i = 0; i < size; ++i) {
    out.push_back(kHex[bytes[i] >> 4]);
    out.push_back(kHex[bytes[i] & 0xf]);
  }
}

std::string sha256_hex(std::string_view data) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  if (EVP_Digest(data.data(), data.size(), digest.data(), &length, EVP_sha256(), nullptr) != 1) {
    // EVP_Digest with a built-in algorithm fails only when OpenSSL cannot allocate, which we
    // treat like any other allocation failure.
    throw std::bad_alloc();
  }
  std::string out;
  append_lower_hex(out, digest.data(), length);
  return out;
}

}  // namespace clawexec::hash
