#pragma once
// SHA-256 digests as lowercase hex, and the hex rendering that goes with them. Hashing is
// pure (no I/O, no clock), so the pure modules (policy) may use it as well as the services
// (approvals document hashes, shell-environment fingerprints, exec file bindings).

#include <cstddef>
#include <string>
#include <string_view>

namespace clawexec::hash {

/// sha256(data) as 64 lowercase hex digits (OpenSSL's one-shot EVP digest).
std::string sha256_hex(std::string_view data);

/// Appends `size` bytes as lowercase hex, two digits per byte.
void append_lower_hex(std::string& out, const unsigned char* bytes, size_t size);

}  // namespace clawexec::hash
