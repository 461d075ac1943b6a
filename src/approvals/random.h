#pragma once
// Randomness for the approvals store: entry/nonce UUIDs and the socket token, both from the
// kernel CSPRNG.

#include <string>

#include "base/result.h"

namespace clawexec::approvals {

/// A random UUID v4 (lowercase). If the CSPRNG is unavailable the id is derived from the
/// clock and pid instead: ids and nonces only need to be unique, not secret.
std::string random_uuid();

/// base64url (no padding) of 24 random bytes: 32 characters of [A-Za-z0-9_-]. The token is a
/// secret, so a CSPRNG failure is an error here.
Result<std::string> generate_socket_token();

}  // namespace clawexec::approvals
