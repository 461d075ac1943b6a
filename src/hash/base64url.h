#pragma once
// base64url (RFC 4648 §5) without padding, the encoding OpenClaw's protocol uses for device
// public keys, signatures and tokens. Decoding also accepts the standard alphabet and `=`
// padding, since clients differ in what they send; anything else is refused.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace clawexec::hash {

/// base64url of `size` bytes, no padding.
std::string base64url_encode(const unsigned char* data, size_t size);
inline std::string base64url_encode(std::string_view bytes) {
  return base64url_encode(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
}

/// The bytes `text` encodes, or nullopt when it is not base64(url): a character outside both
/// alphabets, padding anywhere but the end, a length that cannot be, or non-zero spare bits.
std::optional<std::string> base64url_decode(std::string_view text);

}  // namespace clawexec::hash
