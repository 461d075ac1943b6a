#include "gateway/device_auth.h"

#include <gtest/gtest.h>

#include "hash/base64url.h"
#include "hash/ed25519.h"

namespace clawexec::gateway {
namespace {

// Two connects of OpenClaw 2026.9.6's node host, from ../shared/reference's transcript:
// connection 6 signs with the shared token, connection 37 with its device token.
DeviceProof transcript_proof(int conn) {
  DeviceProof p;
  p.id = "d259fcb1ecc503606f55488e8ea34bf42c58f5f1caf3fba62ecadbe84e300983";
  p.public_key = "jdKc3rZng1iEUPemg0NpSKATu9oI_186_9rLIEYZvNc";
  if (conn == 6) {
    p.signature = "EOMKPwSAH9q9PLYWdMHTRYV88H3FUHxuk1YX6vFidwwPay_8lm8dQMxOCoIWkwga2GdCtTOVmlruxaXdgKV5AA";
    p.signed_at = 1796151196983;
    p.nonce = "4f9d4666-e6de-4bfc-a6a2-5cc6f3c5ebc5";
  } else {
    p.signature = "ItJwQvRL2ZALutMDHQkcBO0QTwb2Odl-N6ocvTXUMFtlDujMdHrAR9HqlZ_xHVb8kCKINsWG4vLwFt1vvYqXCg";
    p.signed_at = 1796151806795;
    p.nonce = "34161933-bd59-48f9-90d4-54e86145f646";
  }
  return p;
}

DeviceClaims node_claims(std::string token) {
  return {"node-host", "node", "node", {}, std::move(token), "linux", "Linux"};
}

TEST(DeviceAuth, AcceptsOpenClawsNodeHostSignaturesAsV3) {
  DeviceProof p6 = transcript_proof(6);
  DeviceCheck c6 = verify_device_proof(p6, node_claims("tok-clawexec-test-0123456789abcdef"), p6.nonce, *p6.signed_at + 5);
  ASSERT_TRUE(c6.ok) << c6.message;
  EXPECT_EQ(c6.version, 3);
  EXPECT_EQ(c6.public_key_b64url, p6.public_key);
  DeviceProof p37 = transcript_proof(37);
  DeviceCheck c37 = verify_device_proof(p37, node_claims("_C6VLZLjD8_k9pJBYTVJowYuvmEihr2IUGCAu2Az230"), p37.nonce, *p37.signed_at);
  ASSERT_TRUE(c37.ok) << c37.message;
  EXPECT_EQ(c37.version, 3);
}

TEST(DeviceAuth, TheSignatureBindsEveryClaim) {
  DeviceProof p = transcript_proof(6);
  const int64_t now = *p.signed_at;
  DeviceClaims good = node_claims("tok-clawexec-test-0123456789abcdef");
  std::vector<DeviceClaims> altered(7, good);
  altered[0].client_id = "cli";
  altered[1].client_mode = "cli";
  altered[2].role = "operator";
  altered[3].scopes = {"operator.admin"};
  altered[4].token = "another-token";
  altered[5].platform = "darwin";
  altered[6].device_family = "Mac";
  for (const DeviceClaims& c : altered) {
    DeviceCheck r = verify_device_proof(p, c, p.nonce, now);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.code, "DEVICE_AUTH_SIGNATURE_INVALID");
    EXPECT_EQ(r.message, "device signature invalid");
  }
  // Case and surrounding blanks of platform/family are not part of what is signed.
  DeviceClaims spaced = good;
  spaced.platform = " LINUX ";
  EXPECT_TRUE(verify_device_proof(p, spaced, p.nonce, now).ok);
}

TEST(DeviceAuth, ChecksIdSkewAndNonceInTheReferencesOrder) {
  DeviceProof p = transcript_proof(6);
  DeviceClaims c = node_claims("tok-clawexec-test-0123456789abcdef");
  const int64_t t = *p.signed_at;
  DeviceProof wrong_id = p;
  wrong_id.id[0] = 'e';
  wrong_id.signed_at = 0;  // also stale: the id is checked first
  EXPECT_EQ(verify_device_proof(wrong_id, c, p.nonce, t).code, "DEVICE_AUTH_DEVICE_ID_MISMATCH");
  DeviceProof bad_key = p;
  bad_key.public_key = "not base64!";
  EXPECT_EQ(verify_device_proof(bad_key, c, p.nonce, t).message, "device identity mismatch");
  EXPECT_TRUE(verify_device_proof(p, c, p.nonce, t + kDeviceSignatureSkewMs).ok);
  EXPECT_TRUE(verify_device_proof(p, c, p.nonce, t - kDeviceSignatureSkewMs).ok);
  EXPECT_EQ(verify_device_proof(p, c, p.nonce, t + kDeviceSignatureSkewMs + 1).code, "DEVICE_AUTH_SIGNATURE_EXPIRED");
  EXPECT_EQ(verify_device_proof(p, c, p.nonce, t - kDeviceSignatureSkewMs - 1).reason, "device-signature-stale");
  DeviceProof no_time = p;
  no_time.signed_at.reset();
  EXPECT_EQ(verify_device_proof(no_time, c, p.nonce, t).code, "DEVICE_AUTH_SIGNATURE_EXPIRED");
  DeviceProof no_nonce = p;
  no_nonce.nonce = "  ";
  EXPECT_EQ(verify_device_proof(no_nonce, c, p.nonce, t).code, "DEVICE_AUTH_NONCE_REQUIRED");
  // A signature replayed on another connection carries that connection's nonce, not ours.
  DeviceCheck replay = verify_device_proof(p, c, "11111111-2222-4333-8444-555555555555", t);
  EXPECT_EQ(replay.code, "DEVICE_AUTH_NONCE_MISMATCH");
  EXPECT_EQ(replay.message, "device nonce mismatch");
}

TEST(DeviceAuth, AcceptsV2AsTheControlUiSignsIt) {
  hash::Ed25519KeyPair key = *hash::ed25519_generate();
  DeviceProof p;
  p.public_key = hash::base64url_encode(key.public_key);
  p.id = device_id_of(key.public_key);
  p.signed_at = 1800000000000;
  p.nonce = "n-1";
  DeviceClaims c{"openclaw-control-ui", "ui", "operator", {"operator.read", "operator.approvals"}, "", "Linux x86_64", ""};
  EXPECT_EQ(device_signature_payload(2, p, c), "v2|" + p.id + "|openclaw-control-ui|ui|operator|operator.read,operator.approvals|1800000000000||n-1");
  EXPECT_EQ(device_signature_payload(3, p, c),
            "v3|" + p.id + "|openclaw-control-ui|ui|operator|operator.read,operator.approvals|1800000000000||n-1|linux x86_64|");
  p.signature = hash::base64url_encode(*hash::ed25519_sign(key.private_key, device_signature_payload(2, p, c)));
  DeviceCheck r = verify_device_proof(p, c, "n-1", *p.signed_at);
  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_EQ(r.version, 2);
  // v1 (no nonce) is not accepted.
  std::string v1 = "v1|" + p.id + "|openclaw-control-ui|ui|operator|operator.read,operator.approvals|1800000000000|";
  p.signature = hash::base64url_encode(*hash::ed25519_sign(key.private_key, v1));
  EXPECT_EQ(verify_device_proof(p, c, "n-1", *p.signed_at).code, "DEVICE_AUTH_SIGNATURE_INVALID");
}

}  // namespace
}  // namespace clawexec::gateway
