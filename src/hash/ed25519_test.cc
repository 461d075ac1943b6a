#include "hash/ed25519.h"

#include <gtest/gtest.h>

#include "hash/base64url.h"
#include "hash/sha256.h"

namespace clawexec::hash {
namespace {

// A node host's connect captured from OpenClaw 2026.9.6 (../shared/reference's transcript,
// connection 6): its public key, the v3 payload it signed and the signature it sent.
constexpr std::string_view kPublicKey = "jdKc3rZng1iEUPemg0NpSKATu9oI_186_9rLIEYZvNc";
constexpr std::string_view kDeviceId = "d259fcb1ecc503606f55488e8ea34bf42c58f5f1caf3fba62ecadbe84e300983";
constexpr std::string_view kPayload =
    "v3|d259fcb1ecc503606f55488e8ea34bf42c58f5f1caf3fba62ecadbe84e300983|node-host|node|node||1796151196983|"
    "tok-clawexec-test-0123456789abcdef|4f9d4666-e6de-4bfc-a6a2-5cc6f3c5ebc5|linux|linux";
constexpr std::string_view kSignature = "EOMKPwSAH9q9PLYWdMHTRYV88H3FUHxuk1YX6vFidwwPay_8lm8dQMxOCoIWkwga2GdCtTOVmlruxaXdgKV5AA";

TEST(Ed25519, VerifiesASignatureOpenClawMade) {
  std::string key = *base64url_decode(kPublicKey);
  std::string signature = *base64url_decode(kSignature);
  EXPECT_EQ(sha256_hex(key), kDeviceId);
  EXPECT_TRUE(ed25519_verify(key, kPayload, signature));
  std::string tampered(kPayload);
  tampered.back() = 'X';  // "linux" becomes "linuX"
  EXPECT_FALSE(ed25519_verify(key, tampered, signature));
  signature[0] = static_cast<char>(signature[0] ^ 1);
  EXPECT_FALSE(ed25519_verify(key, kPayload, signature));
}

TEST(Ed25519, SignsWhatVerifiesAndNothingElse) {
  Result<Ed25519KeyPair> pair = ed25519_generate();
  ASSERT_TRUE(pair.ok()) << pair.error().message;
  EXPECT_EQ(pair->public_key.size(), kEd25519KeySize);
  EXPECT_EQ(*ed25519_public_key(pair->private_key), pair->public_key);
  Result<std::string> sig = ed25519_sign(pair->private_key, "hello");
  ASSERT_TRUE(sig.ok());
  EXPECT_EQ(sig->size(), kEd25519SignatureSize);
  EXPECT_TRUE(ed25519_verify(pair->public_key, "hello", *sig));
  EXPECT_FALSE(ed25519_verify(pair->public_key, "hellO", *sig));
  Ed25519KeyPair other = *ed25519_generate();
  EXPECT_NE(other.public_key, pair->public_key);
  EXPECT_FALSE(ed25519_verify(other.public_key, "hello", *sig));
}

TEST(Ed25519, WrongSizesAreRefusedNotTrusted) {
  EXPECT_FALSE(ed25519_verify(std::string(31, 'a'), "m", std::string(64, 's')));
  EXPECT_FALSE(ed25519_verify(std::string(32, 'a'), "m", std::string(63, 's')));
  EXPECT_FALSE(ed25519_verify("", "m", ""));
  Result<std::string> sig = ed25519_sign("short", "m");
  ASSERT_FALSE(sig.ok());
  EXPECT_NE(sig.error().message.find("ed25519 private key"), std::string::npos);
}

}  // namespace
}  // namespace clawexec::hash
