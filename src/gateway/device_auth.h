#pragma once
// The device proof of OpenClaw's connect: a client that sends `device{id, publicKey, signature,
// signedAt, nonce}` proves it holds the Ed25519 key whose SHA-256 is its id by signing the
// connection's challenge. The signed text is `|`-joined and versioned; the gateway accepts v3
// (which binds the client's platform and device family) and v2:
//
//   v3|<deviceId>|<client.id>|<client.mode>|<role>|<scopes,>|<signedAt>|<token>|<nonce>|<platform>|<deviceFamily>
//   v2|<deviceId>|<client.id>|<client.mode>|<role>|<scopes,>|<signedAt>|<token>|<nonce>
//
// where token is auth.token, else auth.deviceToken, else auth.bootstrapToken, else "", and
// platform / deviceFamily are trimmed and ASCII-lowercased. The checks and their order and
// failure codes are the reference's (id, then ±120 s skew, then nonce, then signature). Pure: the
// caller supplies the clock and the connection's nonce.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clawexec::gateway {

inline constexpr int64_t kDeviceSignatureSkewMs = 120000;

struct DeviceProof {
  std::string id;
  std::string public_key;  // as sent: base64url (or base64) of the raw 32-byte key
  std::string signature;   // as sent: base64url of 64 bytes
  std::optional<int64_t> signed_at;
  std::string nonce;
};

/// What the signature binds besides the device itself.
struct DeviceClaims {
  std::string client_id;
  std::string client_mode;
  std::string role;
  std::vector<std::string> scopes;
  std::string token;  // the signature token, see above
  std::string platform;
  std::string device_family;
};

struct DeviceCheck {
  bool ok = false;
  int version = 0;                  // 3 or 2 when ok
  std::string public_key_raw;       // the decoded key when ok
  std::string public_key_b64url;    // its canonical base64url form when ok
  std::string reason;               // e.g. "device-nonce-mismatch" when not ok
  std::string code;                 // e.g. "DEVICE_AUTH_NONCE_MISMATCH"
  std::string message;              // e.g. "device nonce mismatch"
};

/// lowercase hex sha256 of the raw public key: the device id.
std::string device_id_of(std::string_view raw_public_key);

/// The text a device signs for payload version 3 or 2.
std::string device_signature_payload(int version, const DeviceProof& proof, const DeviceClaims& claims);

/// Checks the proof against the connection's challenge nonce at `now_ms`.
DeviceCheck verify_device_proof(const DeviceProof& proof, const DeviceClaims& claims, std::string_view expected_nonce,
                                int64_t now_ms);

}  // namespace clawexec::gateway
