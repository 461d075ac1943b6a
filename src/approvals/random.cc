// UUIDs and socket tokens from getrandom(2) (through sys::random_bytes).

#include "approvals/random.h"

#include "approvals/document.h"
#include "base/time.h"
#include "sys/sys.h"

namespace clawexec::approvals {

std::string random_uuid() {
  unsigned char bytes[16] = {};
  if (!sys::random_bytes(bytes, sizeof bytes).ok()) {
    static uint64_t counter = 0;
    const uint64_t mix = static_cast<uint64_t>(steady_ms()) ^ (static_cast<uint64_t>(sys::current_pid()) << 32) ^ ++counter;
    for (size_t i = 0; i < sizeof bytes; ++i) bytes[i] = static_cast<unsigned char>(mix >> (i % 8 * 8));
  }
  return format_uuid_v4(bytes);
}

std::string base64url(const unsigned char* data, size_t size) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  size_t i = 0;
  for (; i + 3 <= size; i += 3) {
    const uint32_t n = (uint32_t{data[i]} << 16) | (uint32_t{data[i + 1]} << 8) | data[i + 2];
    out.push_back(kAlphabet[(n >> 18) & 63]);
    out.push_back(kAlphabet[(n >> 12) & 63]);
    out.push_back(kAlphabet[(n >> 6) & 63]);
    out.push_back(kAlphabet[n & 63]);
  }
  if (size - i == 1) {
    const uint32_t n = uint32_t{data[i]} << 16;
    out.push_back(kAlphabet[(n >> 18) & 63]);
    out.push_back(kAlphabet[(n >> 12) & 63]);
  } else if (size - i == 2) {
    const uint32_t n = (uint32_t{data[i]} << 16) | (uint32_t{data[i + 1]} << 8);
    out.push_back(kAlphabet[(n >> 18) & 63]);
    out.push_back(kAlphabet[(n >> 12) & 63]);
    out.push_back(kAlphabet[(n >> 6) & 63]);
  }
  return out;
}

Result<std::string> generate_socket_token() {
  unsigned char bytes[24];
  TRY(sys::random_bytes(bytes, sizeof bytes));
  return base64url(bytes, sizeof bytes);
}

}  // namespace clawexec::approvals
