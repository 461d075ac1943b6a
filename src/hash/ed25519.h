#pragma once
// Ed25519 through OpenSSL's libcrypto, with keys as raw 32-byte strings: the device identity of
// OpenClaw's gateway protocol (a device proves it holds its key by signing the connect
// challenge; its id is the SHA-256 of the raw public key). The gateway verifies, node hosts and
// tests generate and sign.

#include <string>
#include <string_view>

#include "base/result.h"

namespace clawexec::hash {

inline constexpr size_t kEd25519KeySize = 32;
inline constexpr size_t kEd25519SignatureSize = 64;

struct Ed25519KeyPair {
  std::string public_key;   // raw, 32 bytes
  std::string private_key;  // raw seed, 32 bytes
};

/// A fresh key pair from OpenSSL's CSPRNG.
Result<Ed25519KeyPair> ed25519_generate();

/// The public key that belongs to a raw private key (seed).
Result<std::string> ed25519_public_key(std::string_view private_key);

/// The 64-byte signature of `message` under the raw private key.
Result<std::string> ed25519_sign(std::string_view private_key, std::string_view message);

/// Whether `signature` is a valid Ed25519 signature of `message` under the raw public key. A key
/// or signature of the wrong size is simply not valid.
bool ed25519_verify(std::string_view public_key, std::string_view message, std::string_view signature);

}  // namespace clawexec::hash
