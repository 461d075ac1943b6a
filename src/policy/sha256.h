#pragma once
// SHA-256 as lowercase hex (OpenSSL's EVP digest; hashing is pure, so policy may use it).

#include <string>
#include <string_view>

namespace clawexec::policy {

/// sha256(data) as 64 lowercase hex digits.
std::string sha256_hex(std::string_view data);

}  // namespace clawexec::policy
