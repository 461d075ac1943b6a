#include "mcp/elicitation_schema.h"

#include <gtest/gtest.h>

namespace clawexec::mcp {
namespace {

exec::ElicitForm form() {
  return {"Approve this command?", "decision", "Decision", "Pick one",
          {{"allow-once", "Allow once"}, {"allow-always", "Always allow"}, {"deny", "Deny"}}};
}

TEST(ElicitationSchema, From2025_11_25TitledChoicesAreOneOfConstAndTitle) {
  json::Object schema = elicitation_schema(form(), "2025-11-25");
  json::Object expected{
      {"type", "object"},
      {"properties",
       json::Object{{"decision", json::Object{{"type", "string"},
                                              {"title", "Decision"},
                                              {"description", "Pick one"},
                                              {"oneOf", json::Array{json::Object{{"const", "allow-once"}, {"title", "Allow once"}},
                                                                    json::Object{{"const", "allow-always"}, {"title", "Always allow"}},
                                                                    json::Object{{"const", "deny"}, {"title", "Deny"}}}}}}}},
      {"required", json::Array{"decision"}}};
  EXPECT_EQ(schema, expected) << json::serialize(schema);
  EXPECT_FALSE(elicitation_schema(form(), "2026-01-01")["properties"].as_object()["decision"].as_object().contains("enum"));
}

TEST(ElicitationSchema, OlderVersionsKeepEnumAndEnumNames) {
  for (std::string_view version : {"2025-06-18", "2025-03-26", "2024-11-05"}) {
    SCOPED_TRACE(version);
    json::Object schema = elicitation_schema(form(), version);
    const json::Object& decision = schema["properties"].as_object()["decision"].as_object();
    EXPECT_EQ(decision.at("enum"), (json::Array{"allow-once", "allow-always", "deny"}));
    EXPECT_EQ(decision.at("enumNames"), (json::Array{"Allow once", "Always allow", "Deny"}));
    EXPECT_FALSE(decision.contains("oneOf"));
    EXPECT_EQ(schema.at("required"), (json::Array{"decision"}));
  }
}

}  // namespace
}  // namespace clawexec::mcp
