// UUIDs and socket tokens from getrandom(2) (through sys::random_bytes).

#include "approvals/random.h"

#include "approvals/document.h"
#include "base/time.h"
#include "hash/base64url.h"
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

Result<std::string> generate_socket_token() {
  unsigned char bytes[24];
  TRY(sys::random_bytes(bytes, sizeof bytes));
  return hash::base64url_encode(bytes, sizeof bytes);
}

}  // namespace clawexec::approvals
