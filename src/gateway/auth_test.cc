#include "gateway/auth.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "gateway/http_front.h"

namespace clawexec::gateway {
namespace {

TEST(GatewayAuth, SecretsCompareByContent) {
  EXPECT_TRUE(secret_equals("abc", "abc"));
  EXPECT_FALSE(secret_equals("abc", "abd"));
  EXPECT_FALSE(secret_equals("abc", "abcd"));
  EXPECT_FALSE(secret_equals("", "abc"));
  GatewayCredential none;
  EXPECT_FALSE(none.accepts(""));  // an empty secret never matches
}

TEST(GatewayAuth, BearerHeaders) {
  EXPECT_EQ(bearer_token("Bearer abc"), "abc");
  EXPECT_EQ(bearer_token("bearer  abc "), "abc");
  EXPECT_FALSE(bearer_token("Basic abc"));
  EXPECT_FALSE(bearer_token("Bearer "));
  EXPECT_FALSE(bearer_token("abc"));
}

TEST(GatewayAuth, TheLimiterLocksOutAfterMaxAttemptsWithinTheWindow) {
  AuthLimiter limiter({3, 1000, 5000, true});
  limiter.record_failure("192.0.2.9", false, 0);
  limiter.record_failure("192.0.2.9", false, 10);
  EXPECT_FALSE(limiter.blocked_for("192.0.2.9", false, 20));
  limiter.record_failure("192.0.2.9", false, 30);
  EXPECT_EQ(limiter.blocked_for("192.0.2.9", false, 1030), 4000);
  EXPECT_FALSE(limiter.blocked_for("192.0.2.10", false, 1030));  // per address
  EXPECT_FALSE(limiter.blocked_for("192.0.2.9", false, 5031));
  // Failures spread wider than the window never lock out.
  AuthLimiter spread({3, 100, 5000, true});
  for (int i = 0; i < 10; ++i) spread.record_failure("a", false, i * 200);
  EXPECT_FALSE(spread.blocked_for("a", false, 2000));
}

TEST(GatewayAuth, LoopbackIsExemptUnlessConfigured) {
  AuthLimiter exempt({1, 1000, 5000, true});
  exempt.record_failure("127.0.0.1", true, 0);
  EXPECT_FALSE(exempt.blocked_for("127.0.0.1", true, 1));
  AuthLimiter strict({1, 1000, 5000, false});
  strict.record_failure("127.0.0.1", true, 0);
  EXPECT_TRUE(strict.blocked_for("127.0.0.1", true, 1));
  strict.record_success("127.0.0.1");
  EXPECT_FALSE(strict.blocked_for("127.0.0.1", true, 2));
}

TEST(GatewayAuth, TheTokenFileIsMadeOnceAndMustBePrivate) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / ("clawexec-auth-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  Result<std::string> first = load_or_create_token(dir.string());
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_EQ(first->size(), 32u);
  struct stat st {};
  ASSERT_EQ(::stat(token_file_path(dir.string()).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(*load_or_create_token(dir.string()), *first);
  ::chmod(token_file_path(dir.string()).c_str(), 0644);
  Result<std::string> loose = load_or_create_token(dir.string());
  ASSERT_FALSE(loose.ok());
  EXPECT_NE(loose.error().message.find("readable by group or others"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(GatewayFront, LoopbackHostsAndOrigins) {
  EXPECT_TRUE(is_loopback_host("127.0.0.1:18789"));
  EXPECT_TRUE(is_loopback_host("localhost"));
  EXPECT_TRUE(is_loopback_host("[::1]:80"));
  EXPECT_FALSE(is_loopback_host("evil.example:18789"));
  EXPECT_FALSE(is_loopback_host("127.0.0.1.evil.example"));
  EXPECT_TRUE(is_loopback_origin("http://localhost:3000"));
  EXPECT_TRUE(is_loopback_origin("https://127.0.0.1"));
  EXPECT_FALSE(is_loopback_origin("http://localhost@evil.example"));
  EXPECT_FALSE(is_loopback_origin("null"));
  EXPECT_FALSE(is_loopback_origin("file://localhost"));
}

TEST(GatewayFront, AHostWhosePortIsNotAPortIsNotLoopback) {
  EXPECT_FALSE(is_loopback_host("localhost:evil.com"));
  EXPECT_FALSE(is_loopback_host("[::1].evil.com:18789"));
  EXPECT_FALSE(is_loopback_host("[::1]evil:18789"));
  EXPECT_FALSE(is_loopback_host("localhost:123456"));
  EXPECT_FALSE(is_loopback_host("localhost:"));
  EXPECT_FALSE(is_loopback_host("local host"));
  EXPECT_FALSE(is_loopback_origin("http://localhost:18789.evil.com"));
  EXPECT_TRUE(is_loopback_host("LOCALHOST:18789"));
  EXPECT_TRUE(is_loopback_host("[::1]"));
}

TEST(SameOrigin, TheRequestsOwnSchemeAndHostOnly) {
  EXPECT_TRUE(is_same_origin("http://10.0.0.5:18789", "10.0.0.5:18789", false));
  EXPECT_TRUE(is_same_origin("https://[fe80::1]:18789", "[FE80::1]:18789", true));
  EXPECT_TRUE(is_same_origin("http://10.0.0.5", "10.0.0.5:80", false));
  EXPECT_TRUE(is_same_origin("http://localhost:18789", "localhost:18789", false));
  // A name could be rebound to the gateway by its owner: only gateway.controlUi.allowedOrigins admits one.
  EXPECT_FALSE(is_same_origin("https://gw.example:18789", "GW.example:18789", true));
  EXPECT_FALSE(is_same_origin("http://rebind.attacker.example:18789", "rebind.attacker.example:18789", false));
  EXPECT_FALSE(is_same_origin("http://10.0.0.5:18789.evil", "10.0.0.5:18789.evil", false));
  EXPECT_FALSE(is_same_origin("https://10.0.0.5:18789", "10.0.0.5:18789", false));
  EXPECT_FALSE(is_same_origin("http://10.0.0.5:18790", "10.0.0.5:18789", false));
  EXPECT_FALSE(is_same_origin("http://evil.example:18789", "10.0.0.5:18789", false));
  EXPECT_FALSE(is_same_origin("http://10.0.0.5:18789", "", false));
  EXPECT_FALSE(is_same_origin("null", "10.0.0.5:18789", false));
}

}  // namespace
}  // namespace clawexec::gateway
