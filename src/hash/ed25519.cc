// Ed25519 key generation, signing and verification over raw keys: see ed25519.h.

#include "hash/ed25519.h"

#include <openssl/evp.h>

#include <memory>

namespace clawexec::hash {
namespace {

struct PkeyFree {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
struct MdCtxFree {
  void operator()(EVP_MD_CTX* p) const { EVP_MD_CTX_free(p); }
};
struct PkeyCtxFree {
  void operator()(EVP_PKEY_CTX* p) const { EVP_PKEY_CTX_free(p); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;

const unsigned char* bytes(std::string_view s) { return reinterpret_cast<const unsigned char*>(s.data()); }

Result<Pkey> private_key_of(std::string_view raw) {
  if (raw.size() != kEd25519KeySize) return Error::invalid("ed25519 private key: expected 32 bytes, got " + std::to_string(raw.size()));
  Pkey key(EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nullptr, bytes(raw), raw.size()));
  if (!key) return Error::invalid("ed25519 private key: OpenSSL refused it");
  return key;
}

}  // namespace

Result<Ed25519KeyPair> ed25519_generate() {
  std::unique_ptr<EVP_PKEY_CTX, PkeyCtxFree> ctx(EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nullptr));
  EVP_PKEY* raw = nullptr;
  if (!ctx || EVP_PKEY_keygen_init(ctx.get()) != 1 || EVP_PKEY_keygen(ctx.get(), &raw) != 1) {
    return Error::internal("ed25519 key generation failed (OpenSSL)");
  }
  Pkey key(raw);
  Ed25519KeyPair pair;
  pair.public_key.resize(kEd25519KeySize);
  pair.private_key.resize(kEd25519KeySize);
  size_t pub_len = kEd25519KeySize, priv_len = kEd25519KeySize;
  if (EVP_PKEY_get_raw_public_key(key.get(), reinterpret_cast<unsigned char*>(pair.public_key.data()), &pub_len) != 1 ||
      EVP_PKEY_get_raw_private_key(key.get(), reinterpret_cast<unsigned char*>(pair.private_key.data()), &priv_len) != 1 ||
      pub_len != kEd25519KeySize || priv_len != kEd25519KeySize) {
    return Error::internal("ed25519 key generation: could not read the raw keys (OpenSSL)");
  }
  return pair;
}

Result<std::string> ed25519_public_key(std::string_view private_key) {
  Pkey key = TRY(private_key_of(private_key));
  std::string out(kEd25519KeySize, '\0');
  size_t len = out.size();
  if (EVP_PKEY_get_raw_public_key(key.get(), reinterpret_cast<unsigned char*>(out.data()), &len) != 1 || len != kEd25519KeySize) {
    return Error::invalid("ed25519 private key: could not derive its public key (OpenSSL)");
  }
  return out;
}

Result<std::string> ed25519_sign(std::string_view private_key, std::string_view message) {
  Pkey key = TRY(private_key_of(private_key));
  std::unique_ptr<EVP_MD_CTX, MdCtxFree> ctx(EVP_MD_CTX_new());
  std::string signature(kEd25519SignatureSize, '\0');
  size_t len = signature.size();
  if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, nullptr, nullptr, key.get()) != 1 ||
      EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(signature.data()), &len, bytes(message), message.size()) != 1 ||
      len != kEd25519SignatureSize) {
    return Error::internal("ed25519 signing failed (OpenSSL)");
  }
  return signature;
}

bool ed25519_verify(std::string_view public_key, std::string_view message, std::string_view signature) {
  if (public_key.size() != kEd25519KeySize || signature.size() != kEd25519SignatureSize) return false;
  Pkey key(EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr, bytes(public_key), public_key.size()));
  if (!key) return false;
  std::unique_ptr<EVP_MD_CTX, MdCtxFree> ctx(EVP_MD_CTX_new());
  if (!ctx || EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, key.get()) != 1) return false;
  return EVP_DigestVerify(ctx.get(), bytes(signature), signature.size(), bytes(message), message.size()) == 1;
}

}  // namespace clawexec::hash
