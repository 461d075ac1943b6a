#include "node/identity.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>

#include "gateway/device_auth.h"
#include "hash/ed25519.h"

namespace clawexec::node {
namespace {

class IdentityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "node_identity_XXXXXX";
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    root_ = pattern;
    dir_ = root_ + "/node";
  }
  void TearDown() override { std::system(("rm -rf '" + root_ + "'").c_str()); }
  static unsigned mode_of(const std::string& path) {
    struct stat st {};
    EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
    return st.st_mode & 0777;
  }
  std::string root_, dir_;
};

TEST_F(IdentityTest, CreatesAKeyPairOnceAndReadsTheSameOneBack) {
  Result<NodeIdentity> first = load_or_create_identity(dir_);
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_EQ(first->public_key.size(), 32u);
  EXPECT_EQ(first->device_id, gateway::device_id_of(first->public_key));
  EXPECT_EQ(first->device_id.size(), 64u);
  EXPECT_FALSE(first->instance_id.empty());
  Result<NodeIdentity> again = load_or_create_identity(dir_);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->device_id, first->device_id);
  EXPECT_EQ(again->private_key, first->private_key);
  EXPECT_EQ(again->instance_id, first->instance_id);
  // The key signs what its public half verifies.
  Result<std::string> sig = hash::ed25519_sign(again->private_key, "hello");
  ASSERT_TRUE(sig.ok());
  EXPECT_TRUE(hash::ed25519_verify(first->public_key, "hello", *sig));
}

TEST_F(IdentityTest, KeyFileIs0600InA0700Directory) {
  ASSERT_TRUE(load_or_create_identity(dir_).ok());
  EXPECT_EQ(mode_of(dir_), 0700u);
  EXPECT_EQ(mode_of(dir_ + "/device.json"), 0600u);
}

TEST_F(IdentityTest, AKeyFileOthersCanReadIsRefusedNotUsed) {
  ASSERT_TRUE(load_or_create_identity(dir_).ok());
  ASSERT_EQ(::chmod((dir_ + "/device.json").c_str(), 0644), 0);
  Result<NodeIdentity> loose = load_or_create_identity(dir_);
  ASSERT_FALSE(loose.ok());
  EXPECT_NE(loose.error().message.find("readable by group or others"), std::string::npos) << loose.error().message;
  EXPECT_NE(loose.error().message.find(dir_ + "/device.json"), std::string::npos);
}

TEST_F(IdentityTest, ACorruptKeyFileIsAnErrorNamingItNotReplaced) {
  ASSERT_TRUE(load_or_create_identity(dir_).ok());
  { std::ofstream(dir_ + "/device.json") << "{not json"; }
  Result<NodeIdentity> id = load_or_create_identity(dir_);
  ASSERT_FALSE(id.ok());
  EXPECT_NE(id.error().message.find(dir_ + "/device.json"), std::string::npos) << id.error().message;
  std::ifstream in(dir_ + "/device.json");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "{not json");
}

TEST_F(IdentityTest, AKeyFileWhosePublicKeyIsNotItsOwnIsRefused) {
  ASSERT_TRUE(load_or_create_identity(dir_).ok());
  Result<hash::Ed25519KeyPair> other = hash::ed25519_generate();
  ASSERT_TRUE(other.ok());
  Result<std::optional<NodeIdentity>> loaded = load_identity(dir_);
  ASSERT_TRUE(loaded.ok() && *loaded);
  std::ifstream in(dir_ + "/device.json");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string good = (*loaded)->public_key_b64url();
  NodeIdentity fake;
  fake.public_key = other->public_key;
  text.replace(text.find(good), good.size(), fake.public_key_b64url());
  { std::ofstream(dir_ + "/device.json") << text; }
  Result<std::optional<NodeIdentity>> bad = load_identity(dir_);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("does not belong"), std::string::npos) << bad.error().message;
}

TEST_F(IdentityTest, DeviceTokensRoundTripPerEndpointAt0600) {
  Result<NodeIdentity> id = load_or_create_identity(dir_);
  ASSERT_TRUE(id.ok());
  Result<std::optional<std::string>> none = load_device_token(dir_, id->device_id, "127.0.0.1:18789");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  ASSERT_TRUE(save_device_token(dir_, id->device_id, "127.0.0.1:18789", "tok-a").ok());
  ASSERT_TRUE(save_device_token(dir_, id->device_id, "10.0.0.2:18789", "tok-b").ok());
  EXPECT_EQ(mode_of(dir_ + "/device-auth.json"), 0600u);
  EXPECT_EQ(load_device_token(dir_, id->device_id, "127.0.0.1:18789")->value_or(""), "tok-a");
  EXPECT_EQ(load_device_token(dir_, id->device_id, "10.0.0.2:18789")->value_or(""), "tok-b");
  // Another device's tokens are not this one's.
  EXPECT_FALSE(load_device_token(dir_, std::string(64, 'a'), "127.0.0.1:18789")->has_value());
  // An empty token forgets it.
  ASSERT_TRUE(save_device_token(dir_, id->device_id, "127.0.0.1:18789", "").ok());
  EXPECT_FALSE(load_device_token(dir_, id->device_id, "127.0.0.1:18789")->has_value());
  EXPECT_EQ(load_device_token(dir_, id->device_id, "10.0.0.2:18789")->value_or(""), "tok-b");
}

}  // namespace
}  // namespace clawexec::node
