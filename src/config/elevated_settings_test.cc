// tools.elevated: reading, the allowFrom match and the gates in the reference's order.

#include "config/elevated_settings.h"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

namespace clawexec::config {
namespace {

Result<ElevatedSettings> read(std::string_view document, std::string_view agent = "main") {
  return read_elevated_settings(boost::json::parse(document).as_object(), agent);
}

TEST(ElevatedSettings, EnabledUnlessSetFalseButNothingIsAllowedWithoutAnAllowFrom) {
  Result<ElevatedSettings> s = read("{}");
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(s->enabled());
  ElevatedPermission p = elevated_permission(*s, {"mcp", ""});
  EXPECT_TRUE(p.enabled);
  EXPECT_FALSE(p.allowed);
}

TEST(ElevatedSettings, EitherEnabledFalseClosesTheGate) {
  EXPECT_FALSE(read(R"({"tools":{"elevated":{"enabled":false}}})")->enabled());
  EXPECT_FALSE(read(R"({"agents":{"entries":{"main":{"tools":{"elevated":{"enabled":false}}}}}})")->enabled());
  EXPECT_TRUE(read(R"({"agents":{"entries":{"other":{"tools":{"elevated":{"enabled":false}}}}}})")->enabled());
  ElevatedPermission p =
      elevated_permission(*read(R"({"tools":{"elevated":{"enabled":false,"allowFrom":{"mcp":["*"]}}}})"), {"mcp", ""});
  EXPECT_FALSE(p.enabled);
  EXPECT_FALSE(p.allowed);
}

TEST(ElevatedSettings, AllowFromIsPerProvider) {
  ElevatedSettings s = *read(R"({"tools":{"elevated":{"allowFrom":{"telegram":["123", "id:456"], "MCP":["*"]}}}})");
  EXPECT_TRUE(elevated_permission(s, {"mcp", ""}).allowed);
  EXPECT_TRUE(elevated_permission(s, {"telegram", "123"}).allowed);
  EXPECT_TRUE(elevated_permission(s, {"telegram", "telegram:456"}).allowed);
  EXPECT_FALSE(elevated_permission(s, {"telegram", "789"}).allowed);
  EXPECT_FALSE(elevated_permission(s, {"telegram", ""}).allowed);
  EXPECT_FALSE(elevated_permission(s, {"discord", "123"}).allowed);
  EXPECT_FALSE(elevated_permission(s, {"", "123"}).allowed);  // no provider: no gate passes
}

TEST(ElevatedSettings, AnAgentsAllowFromMustAlsoApprove) {
  const std::string_view doc = R"({"tools":{"elevated":{"allowFrom":{"telegram":["*"]}}},
      "agents":{"entries":{"work":{"tools":{"elevated":{"allowFrom":{"telegram":["bob"]}}}}}}})";
  EXPECT_TRUE(elevated_permission(*read(doc, "main"), {"telegram", "alice"}).allowed);
  EXPECT_FALSE(elevated_permission(*read(doc, "work"), {"telegram", "alice"}).allowed);
  EXPECT_TRUE(elevated_permission(*read(doc, "work"), {"telegram", "BOB"}).allowed);
}

TEST(ElevatedSettings, SenderMatching) {
  EXPECT_TRUE(sender_approved({"*"}, ""));
  EXPECT_FALSE(sender_approved({}, "x"));
  EXPECT_FALSE(sender_approved({" "}, "x"));
  EXPECT_TRUE(sender_approved({"telegram:42"}, "42"));
  EXPECT_TRUE(sender_approved({"42"}, "user:42"));
  EXPECT_FALSE(sender_approved({"4"}, "42"));
  EXPECT_FALSE(sender_approved({"name:bob"}, "bob"));  // fields we do not know never match an id
}

TEST(ElevatedSettings, DefaultLevelElevatedDefaultWinsThenOurOlderKey) {
  EXPECT_EQ(read("{}")->default_level, std::nullopt);  // the caller's "on"
  EXPECT_EQ(read(R"({"tools":{"elevated":{"defaultLevel":"ask"}},
                    "agents":{"entries":{"main":{"tools":{"elevated":{"defaultLevel":"full"}}}}}})")
                ->default_level,
            "full");
  const std::string_view doc = R"({"tools":{"elevated":{"defaultLevel":"full"}},
      "agents":{"defaults":{"elevatedDefault":"off"},"entries":{"work":{"elevatedDefault":"ask"}}}})";
  EXPECT_EQ(read(doc, "main")->default_level, "off");
  EXPECT_EQ(read(doc, "work")->default_level, "ask");
  EXPECT_EQ(read(R"({"agents":{"defaults":{"elevatedDefault":"sometimes"}}})").error().message,
            "agents.defaults.elevatedDefault: expected one of \"off\", \"on\", \"ask\", \"full\", got \"sometimes\"");
}

TEST(ElevatedSettings, FailuresNameTheGateAndKey) {
  using Failures = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(elevated_permission(*read(R"({"tools":{"elevated":{"enabled":false}}})"), {"mcp", ""}).failures,
            (Failures{{"enabled", "tools.elevated.enabled"}}));
  EXPECT_EQ(elevated_permission(*read("{}"), {"mcp", ""}).failures, (Failures{{"allowFrom", "tools.elevated.allowFrom.mcp"}}));
  EXPECT_EQ(elevated_permission(*read("{}"), {"", ""}).failures, (Failures{{"provider", "ctx.Provider"}}));
  EXPECT_TRUE(elevated_permission(*read(R"({"tools":{"elevated":{"allowFrom":{"mcp":["*"]}}}})"), {"mcp", ""}).failures.empty());
}

TEST(ElevatedSettings, BadValuesAreErrorsNamingTheKey) {
  Result<ElevatedSettings> s = read(R"({"tools":{"elevated":{"enabled":"yes","defaultLevel":"max",
      "allowFrom":{"telegram":"123","slack":[true]}}}})");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message,
            "tools.elevated.enabled: expected a boolean, got \"yes\"\n"
            "tools.elevated.defaultLevel: expected one of \"off\", \"on\", \"ask\", \"full\", got \"max\"\n"
            "tools.elevated.allowFrom.telegram: expected an array of strings, got \"123\"\n"
            "tools.elevated.allowFrom.slack[0]: expected a string, got true");
  EXPECT_EQ(read(R"({"agents":{"entries":{"w":{"tools":{"elevated":{"allowFrom":3}}}}}})").error().message,
            "agents.entries.w.tools.elevated.allowFrom: expected an object, got 3");
}

}  // namespace
}  // namespace clawexec::config
