// Device proof verification for the gateway's connect: see device_auth.h.

#include "gateway/device_auth.h"

#include "base/strings.h"
#include "hash/base64url.h"
#include "hash/ed25519.h"
#include "hash/sha256.h"

namespace clawexec::gateway {
namespace {

std::string lower_trimmed(std::string_view s) { return ascii_lower(trim_ascii(s)); }

std::string join(const std::vector<std::string>& items, char sep) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out.push_back(sep);
    out += items[i];
  }
  return out;
}

DeviceCheck fail(std::string reason, std::string code, std::string message) {
  DeviceCheck c;
  c.reason = std::move(reason);
  c.code = std::move(code);
  c.message = std::move(message);
  return c;
}

}  // namespace

std::string device_id_of(std::string_view raw_public_key) { return hash::sha256_hex(raw_public_key); }

std::string device_signature_payload(int version, const DeviceProof& proof, const DeviceClaims& claims) {
  std::string out = "v" + std::to_string(version);
  for (std::string_view part : {std::string_view(proof.id), std::string_view(claims.client_id), std::string_view(claims.client_mode),
                                std::string_view(claims.role)}) {
    out.push_back('|');
    out += part;
  }
  out += "|" + join(claims.scopes, ',') + "|" + std::to_string(proof.signed_at.value_or(0)) + "|" + claims.token + "|" + proof.nonce;
  if (version >= 3) out += "|" + lower_trimmed(claims.platform) + "|" + lower_trimmed(claims.device_family);
  return out;
}

DeviceCheck verify_device_proof(const DeviceProof& proof, const DeviceClaims& claims, std::string_view expected_nonce,
                                int64_t now_ms) {
  std::optional<std::string> key = hash::base64url_decode(trim_ascii(proof.public_key));
  if (!key || key->size() != hash::kEd25519KeySize || device_id_of(*key) != proof.id) {
    return fail("device-id-mismatch", "DEVICE_AUTH_DEVICE_ID_MISMATCH", "device identity mismatch");
  }
  if (!proof.signed_at || *proof.signed_at - now_ms > kDeviceSignatureSkewMs || now_ms - *proof.signed_at > kDeviceSignatureSkewMs) {
    return fail("device-signature-stale", "DEVICE_AUTH_SIGNATURE_EXPIRED", "device signature expired");
  }
  std::string_view nonce = trim_ascii(proof.nonce);
  if (nonce.empty()) return fail("device-nonce-missing", "DEVICE_AUTH_NONCE_REQUIRED", "device nonce required");
  if (nonce != expected_nonce) return fail("device-nonce-mismatch", "DEVICE_AUTH_NONCE_MISMATCH", "device nonce mismatch");
  std::optional<std::string> signature = hash::base64url_decode(trim_ascii(proof.signature));
  DeviceProof bound = proof;
  bound.nonce = std::string(nonce);
  for (int version : {3, 2}) {
    if (signature && hash::ed25519_verify(*key, device_signature_payload(version, bound, claims), *signature)) {
      DeviceCheck ok;
      ok.ok = true;
      ok.version = version;
      ok.public_key_b64url = hash::base64url_encode(*key);
      ok.public_key_raw = std::move(*key);
      return ok;
    }
  }
  return fail("device-signature", "DEVICE_AUTH_SIGNATURE_INVALID", "device signature invalid");
}

}  // namespace clawexec::gateway
