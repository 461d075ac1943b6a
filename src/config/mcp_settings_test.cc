#include "config/mcp_settings.h"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

namespace clawexec::config {
namespace {

Result<McpSettings> read(std::string_view document, std::map<std::string, std::string, std::less<>> env = {}) {
  return read_mcp_settings(boost::json::parse(document), env_from_map(std::move(env)), "/cfg/openclaw.json");
}

TEST(McpSettings, StructuredContentIsOffWithoutKeyOrVariable) {
  Result<McpSettings> r = read(R"({"tools":{"exec":{}}})");
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->structured_content);
  EXPECT_FALSE(read_mcp_settings(boost::json::parse("{}"), EnvLookup(), "")->structured_content);
}

TEST(McpSettings, TheConfigKeyTurnsStructuredContentOn) {
  EXPECT_TRUE(read(R"({"clawexec":{"mcp":{"structuredContent":true}}})")->structured_content);
  EXPECT_FALSE(read(R"({"clawexec":{"mcp":{"structuredContent":false}}})")->structured_content);
}

TEST(McpSettings, ANonBooleanKeyIsAnErrorNamingFileAndKey) {
  Result<McpSettings> r = read(R"({"clawexec":{"mcp":{"structuredContent":"yes"}}})");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "/cfg/openclaw.json: clawexec.mcp.structuredContent: expected true or false, got \"yes\"");
}

TEST(McpSettings, TheVariableWinsOverTheFileWhenSet) {
  EXPECT_TRUE(read("{}", {{"CLAWEXEC_MCP_STRUCTURED_CONTENT", "1"}})->structured_content);
  EXPECT_TRUE(read("{}", {{"CLAWEXEC_MCP_STRUCTURED_CONTENT", " TRUE "}})->structured_content);
  EXPECT_FALSE(read(R"({"clawexec":{"mcp":{"structuredContent":true}}})", {{"CLAWEXEC_MCP_STRUCTURED_CONTENT", "off"}})
                   ->structured_content);
  EXPECT_TRUE(read(R"({"clawexec":{"mcp":{"structuredContent":true}}})", {{"CLAWEXEC_MCP_STRUCTURED_CONTENT", ""}})
                  ->structured_content);
}

TEST(McpSettings, AnUnknownVariableValueIsAnErrorNamingTheVariable) {
  Result<McpSettings> r = read("{}", {{"CLAWEXEC_MCP_STRUCTURED_CONTENT", "maybe"}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "CLAWEXEC_MCP_STRUCTURED_CONTENT: expected 1/true/yes/on or 0/false/no/off, got \"maybe\"");
}

TEST(McpSettings, ElicitationDefaultsToElicit) {
  EXPECT_EQ(read("{}")->elicitation, Elicitation::kElicit);
  EXPECT_EQ(read(R"({"clawexec":{"mcp":{"structuredContent":true}}})")->elicitation, Elicitation::kElicit);
}

TEST(McpSettings, TheConfigKeyAndTheVariableChooseElicitation) {
  EXPECT_EQ(read(R"({"clawexec":{"mcp":{"elicitation":"off"}}})")->elicitation, Elicitation::kOff);
  EXPECT_EQ(read(R"({"clawexec":{"mcp":{"elicitation":"Elicit"}}})")->elicitation, Elicitation::kElicit);
  EXPECT_EQ(read("{}", {{"CLAWEXEC_MCP_ELICITATION", " OFF "}})->elicitation, Elicitation::kOff);
  // The variable wins over the file; empty counts as unset.
  EXPECT_EQ(read(R"({"clawexec":{"mcp":{"elicitation":"off"}}})", {{"CLAWEXEC_MCP_ELICITATION", "elicit"}})->elicitation,
            Elicitation::kElicit);
  EXPECT_EQ(read(R"({"clawexec":{"mcp":{"elicitation":"off"}}})", {{"CLAWEXEC_MCP_ELICITATION", ""}})->elicitation,
            Elicitation::kOff);
}

TEST(McpSettings, ABadElicitationValueIsAnErrorNamingTheKeyOrVariable) {
  Result<McpSettings> key = read(R"({"clawexec":{"mcp":{"elicitation":"never"}}})");
  ASSERT_FALSE(key.ok());
  EXPECT_EQ(key.error().message, R"(/cfg/openclaw.json: clawexec.mcp.elicitation: expected "elicit" or "off", got "never")");
  Result<McpSettings> type = read(R"({"clawexec":{"mcp":{"elicitation":false}}})");
  ASSERT_FALSE(type.ok());
  EXPECT_EQ(type.error().message, R"(/cfg/openclaw.json: clawexec.mcp.elicitation: expected "elicit" or "off", got false)");
  Result<McpSettings> var = read("{}", {{"CLAWEXEC_MCP_ELICITATION", "ask"}});
  ASSERT_FALSE(var.ok());
  EXPECT_EQ(var.error().message, R"(CLAWEXEC_MCP_ELICITATION: expected "elicit" or "off", got "ask")");
}

}  // namespace
}  // namespace clawexec::config
