#include "tools/tool_schema.h"

#include <gtest/gtest.h>

namespace clawexec::tools {
namespace {

json::Object coerce_exec(std::string_view args) {
  Result<json::Object> r = validate_arguments(exec_tool_spec(), boost::json::parse(args));
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? r.value() : json::Object();
}

std::string exec_error(std::string_view args) {
  Result<json::Object> r = validate_arguments(exec_tool_spec(), boost::json::parse(args));
  EXPECT_FALSE(r.ok());
  return r.ok() ? "" : r.error().message;
}

std::string process_error(std::string_view args) {
  Result<json::Object> r = validate_arguments(process_tool_spec(), boost::json::parse(args));
  EXPECT_FALSE(r.ok());
  return r.ok() ? "" : r.error().message;
}

TEST(ValidateArguments, CoercesModelStyleScalarsLikeTheAgentLoop) {
  EXPECT_EQ(json::serialize(coerce_exec(R"({"command":123})")), R"({"command":"123"})");
  EXPECT_EQ(json::serialize(coerce_exec(R"({"command":"x","yieldMs":"5000","background":"true"})")),
            R"({"command":"x","yieldMs":5000,"background":true})");
  EXPECT_EQ(json::serialize(coerce_exec(R"({"command":"x","env":{"A":1,"B":true,"C":null}})")),
            R"({"command":"x","env":{"A":"1","B":"true","C":"null"}})");
  EXPECT_EQ(json::serialize(coerce_exec(R"({"command":null})")), R"({"command":""})");
  EXPECT_EQ(json::serialize(coerce_exec(R"({"command":"x","timeoutSeconds":"0x10"})")),
            R"({"command":"x","timeoutSeconds":16})");
  EXPECT_EQ(json::serialize(coerce_exec(R"({"command":"x","yieldMs":" 12 ","pty":"0"})")),
            R"({"command":"x","yieldMs":12,"pty":false})");
  EXPECT_EQ(json::serialize(coerce_exec(R"({"command":1e21})")), R"({"command":"1e+21"})");
}

TEST(ValidateArguments, KeepsUnknownPropertiesSoToolsCanRejectThem) {
  EXPECT_EQ(json::serialize(coerce_exec(R"({"command":"x","timeout":5})")), R"({"command":"x","timeout":5})");
}

TEST(ValidateArguments, ReportsEveryMismatchWithTheReceivedArguments) {
  EXPECT_EQ(exec_error(R"({"pty":"yes"})"),
            "Validation failed for tool \"exec\":\n"
            "  - command: must have required properties command\n"
            "  - pty: must be boolean\n\n"
            "Received arguments:\n{\n  \"pty\": \"yes\"\n}");
  EXPECT_EQ(exec_error(R"({"command":[],"pty":"yes","host":1})"),
            "Validation failed for tool \"exec\":\n"
            "  - command: must be string\n"
            "  - pty: must be boolean\n"
            "  - host: must be equal to one of the allowed values\n\n"
            "Received arguments:\n{\n  \"command\": [],\n  \"pty\": \"yes\",\n  \"host\": 1\n}");
}

TEST(ValidateArguments, RejectsHostnamesAndWrongCaseHostsWithTheToolsOwnText) {
  EXPECT_EQ(exec_error(R"({"command":"x","host":"build-server.local"})"),
            "Invalid exec host \"build-server.local\". Allowed values: auto, sandbox, gateway, node.");
  EXPECT_EQ(exec_error(R"({"command":"x","host":"GATEWAY"})"),
            "Invalid exec host \"GATEWAY\". Allowed values: auto, sandbox, gateway, node.");
  // The tool's text wins over other mismatches in the same call.
  EXPECT_EQ(exec_error(R"({"pty":"yes","host":"example.com"})"),
            "Invalid exec host \"example.com\". Allowed values: auto, sandbox, gateway, node.");
}

TEST(ValidateArguments, RejectsNonObjectRootAndNonStringRecordValues) {
  EXPECT_EQ(exec_error("[1]"),
            "Validation failed for tool \"exec\":\n  - root: must be object\n\nReceived arguments:\n[\n  1\n]");
  EXPECT_NE(exec_error(R"({"command":"x","env":{"A":{"b":1}}})").find("  - env.A: must be string"),
            std::string::npos);
  EXPECT_NE(exec_error(R"({"command":"x","env":"x"})").find("  - env: must be object"), std::string::npos);
  EXPECT_NE(exec_error(R"({"command":"x","timeoutSeconds":"Infinity"})").find("timeoutSeconds: must be number"),
            std::string::npos);
}

TEST(ValidateArguments, ProcessActionsKeysAndTimeout) {
  Result<json::Object> ok = validate_arguments(
      process_tool_spec(), boost::json::parse(R"({"action":"send-keys","sessionId":"x","keys":"Enter","hex":[13]})"));
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(json::serialize(*ok), R"({"action":"send-keys","sessionId":"x","keys":["Enter"],"hex":["13"]})");
  EXPECT_EQ(process_error(R"({"action":"frob"})"),
            "Invalid process action. Expected one of: list, poll, log, write, send-keys, submit, paste, kill, clear, "
            "remove");
  EXPECT_NE(process_error(R"({"action":5})").find("  - action: must be equal to one of the allowed values"),
            std::string::npos);
  EXPECT_NE(process_error(R"({"action":"poll","timeout":-1,"offset":"x"})")
                .find("  - offset: must be number\n  - timeout: must be >= 0"),
            std::string::npos);
  EXPECT_NE(process_error(R"({"action":"send-keys","keys":[null,true,{"a":1}]})").find("  - keys.2: must be string"),
            std::string::npos);
  EXPECT_NE(process_error(R"({})").find("  - action: must have required properties action"), std::string::npos);
}

TEST(InputSchema, AdvertisesEveryParameterWithItsDescription) {
  json::Object schema = input_schema(exec_tool_spec());
  const json::Object& props = schema.at("properties").as_object();
  for (const char* name : {"command", "workdir", "env", "yieldMs", "background", "timeoutSeconds", "pty",
                           "elevated", "host", "security", "ask", "node"}) {
    EXPECT_TRUE(props.contains(name)) << name;
  }
  EXPECT_EQ(props.at("command").at("description").as_string(), "Shell command.");
  EXPECT_EQ(json::serialize(props.at("host").at("enum")), R"(["auto","sandbox","gateway","node"])");
  EXPECT_EQ(json::serialize(schema.at("required")), R"(["command"])");
  json::Object process = input_schema(process_tool_spec());
  EXPECT_EQ(process.at("properties").at("timeout").at("minimum").as_double(), 0.0);
}

}  // namespace
}  // namespace clawexec::tools
