#include "config/gateway_settings.h"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

namespace clawexec::config {
namespace {

Result<GatewaySettings> read(std::string_view document, std::map<std::string, std::string, std::less<>> env = {}) {
  return read_gateway_settings(boost::json::parse(document), env_from_map(std::move(env)), "/cfg/openclaw.json");
}

TEST(GatewaySettings, DefaultsAreOpenClawsLoopbackTokenGateway) {
  Result<GatewaySettings> r = read("{}");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->port, 18789);
  EXPECT_EQ(r->bind_address, "127.0.0.1");
  EXPECT_EQ(r->auth_mode, GatewayAuthMode::kToken);
  EXPECT_TRUE(r->token.empty());
  EXPECT_EQ(r->rate_limit.max_attempts, 10);
  EXPECT_TRUE(r->rate_limit.exempt_loopback);
  EXPECT_TRUE(r->auto_approve_local);
  EXPECT_EQ(r->mcp_session_idle_ms, 30 * 60 * 1000);
}

TEST(GatewaySettings, KeysAreRead) {
  Result<GatewaySettings> r = read(R"({"gateway":{"port":9000,"bind":"lan","auth":{"token":"t","rateLimit":{"maxAttempts":3,
    "exemptLoopback":false}},"controlUi":{"allowedOrigins":["https://a.example"]},"nodes":{"pairing":{"autoApproveLocal":false}}},
    "clawexec":{"gateway":{"mcpSessionIdleMs":5000}}})");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->port, 9000);
  EXPECT_EQ(r->bind_address, "0.0.0.0");
  EXPECT_EQ(r->token, "t");
  EXPECT_EQ(r->rate_limit.max_attempts, 3);
  EXPECT_FALSE(r->rate_limit.exempt_loopback);
  EXPECT_EQ(r->allowed_origins, std::vector<std::string>{"https://a.example"});
  EXPECT_FALSE(r->auto_approve_local);
  EXPECT_EQ(r->mcp_session_idle_ms, 5000);
}

TEST(GatewaySettings, EnvironmentWinsOverTheFile) {
  Result<GatewaySettings> r = read(R"({"gateway":{"port":9000,"auth":{"token":"file"}}})",
                                   {{"OPENCLAW_GATEWAY_PORT", "9100"}, {"OPENCLAW_GATEWAY_TOKEN", " env-token "}});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->port, 9100);
  EXPECT_EQ(r->token, "env-token");
  EXPECT_FALSE(read("{}", {{"OPENCLAW_GATEWAY_PORT", "70000"}}).ok());
}

TEST(GatewaySettings, BadValuesAreErrorsNamingTheKey) {
  EXPECT_EQ(read(R"({"gateway":{"port":"x"}})").error().message,
            "/cfg/openclaw.json: gateway.port: expected an integer from 1 to 65535, got \"x\"");
  EXPECT_NE(read(R"({"gateway":{"auth":{"mode":"none"}}})").error().message.find("gateway.auth.mode: expected \"token\" or \"password\""),
            std::string::npos);
  EXPECT_NE(read(R"({"gateway":{"auth":{"mode":"password"}}})").error().message.find("no gateway.auth.password"), std::string::npos);
  EXPECT_NE(read(R"({"gateway":{"auth":{"token":"a","password":"b"}}})").error().message.find("set gateway.auth.mode"),
            std::string::npos);
  EXPECT_NE(read(R"({"gateway":{"bind":"everywhere"}})").error().message.find("expected loopback, lan, auto, custom"),
            std::string::npos);
  EXPECT_NE(read(R"({"gateway":{"tls":{"enabled":true}}})").error().message.find("gateway.tls.certPath"), std::string::npos);
  EXPECT_NE(read(R"({"gateway":{"controlUi":{"allowedOrigins":[1]}}})").error().message.find("allowedOrigins[]"),
            std::string::npos);
}

TEST(GatewaySettings, BindModes) {
  EXPECT_EQ(*gateway_bind_address("loopback", ""), "127.0.0.1");
  EXPECT_EQ(*gateway_bind_address("auto", ""), "127.0.0.1");
  EXPECT_EQ(*gateway_bind_address("lan", ""), "0.0.0.0");
  EXPECT_EQ(*gateway_bind_address("custom", "192.0.2.2"), "192.0.2.2");
  EXPECT_EQ(*gateway_bind_address("::1", ""), "::1");
  EXPECT_FALSE(gateway_bind_address("custom", "").ok());
  EXPECT_FALSE(gateway_bind_address("custom", "host.example").ok());
}

TEST(GatewaySettings, PasswordModeWithAPassword) {
  Result<GatewaySettings> r = read(R"({"gateway":{"auth":{"mode":"password"}}})", {{"OPENCLAW_GATEWAY_PASSWORD", "pw"}});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->auth_mode, GatewayAuthMode::kPassword);
  EXPECT_EQ(r->password, "pw");
}

}  // namespace
}  // namespace clawexec::config
