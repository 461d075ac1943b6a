#include "json/json.h"

#include <gtest/gtest.h>

#include <cmath>

namespace clawexec::json {
namespace {

TEST(JsNumber, MatchesJavaScriptToString) {
  EXPECT_EQ(js_number(0), "0");
  EXPECT_EQ(js_number(-0.0), "0");
  EXPECT_EQ(js_number(1), "1");
  EXPECT_EQ(js_number(1.5), "1.5");
  EXPECT_EQ(js_number(0.1), "0.1");
  EXPECT_EQ(js_number(100), "100");
  EXPECT_EQ(js_number(1e21), "1e+21");
  EXPECT_EQ(js_number(123456789012345680000.0), "123456789012345680000");
  EXPECT_EQ(js_number(0.000001), "0.000001");
  EXPECT_EQ(js_number(0.0000001), "1e-7");
  EXPECT_EQ(js_number(-2.5e-10), "-2.5e-10");
  EXPECT_EQ(js_number(1.7976931348623157e308), "1.7976931348623157e+308");
}

TEST(Stringify, IndentsLikeJsonStringifyWithTwoSpaces) {
  Value v = boost::json::parse(R"({"command":"x","env":{},"list":[],"n":[1,2.5]})");
  EXPECT_EQ(stringify(v, 2),
            "{\n  \"command\": \"x\",\n  \"env\": {},\n  \"list\": [],\n  \"n\": [\n    1,\n    2.5\n  ]\n}");
}

TEST(Stringify, EscapesControlCharactersLowerCase) {
  Value v = boost::json::string("a\x1b\"\\\n\t\x01é");
  EXPECT_EQ(stringify(v), "\"a\\u001b\\\"\\\\\\n\\t\\u0001é\"");
}

TEST(Stringify, EscapesAtBothEndsAndKeepsLongRunsWhole) {
  std::string run(5000, 'x');
  Value v = boost::json::string("\n" + run + "\"" + run + "\x7f\\");
  EXPECT_EQ(stringify(v), "\"\\n" + run + "\\\"" + run + "\x7f\\\\\"");
}

TEST(Stringify, CompactHasNoSpaces) {
  Value v = boost::json::parse(R"({"a":[1,{"b":null}],"c":true})");
  EXPECT_EQ(stringify(v), R"({"a":[1,{"b":null}],"c":true})");
}

TEST(Parse, AcceptsWhatJavaScriptAccepts) {
  // A lone surrogate escape is valid JSON; it becomes U+FFFD.
  std::optional<Value> lone = parse(R"({"a":"x\ud800y","b":"\udc00"})");
  ASSERT_TRUE(lone.has_value());
  EXPECT_EQ(lone->at("a").as_string(), "x\xEF\xBF\xBDy");
  EXPECT_EQ(lone->at("b").as_string(), "\xEF\xBF\xBD");
  // A proper pair and an escaped backslash before "u" are left alone.
  std::optional<Value> pair = parse(R"({"a":"\ud83d\ude00","b":"\\ud800","c":"\ud800"})");
  ASSERT_TRUE(pair.has_value());
  EXPECT_EQ(pair->at("a").as_string(), "😀");
  EXPECT_EQ(pair->at("b").as_string(), "\\ud800");
  // Invalid UTF-8 bytes are decoded with replacement characters, as a JavaScript reader does.
  std::optional<Value> bytes = parse("{\"a\":\"x\xFFy\"}");
  ASSERT_TRUE(bytes.has_value());
  EXPECT_EQ(bytes->at("a").as_string(), "x\xEF\xBF\xBDy");
}

TEST(Parse, RejectsMalformedText) {
  EXPECT_FALSE(parse("{\"a\":").has_value());
  EXPECT_TRUE(parse("{\"a\":1}").has_value());
}

}  // namespace
}  // namespace clawexec::json

TEST(Members, ReadTypedMembersAndIgnoreOtherTypes) {
  clawexec::json::Object o{{"s", "x"}, {"n", 3}, {"d", 4.0}, {"f", 4.5}, {"a", clawexec::json::Array{"p", 1, "q"}}};
  EXPECT_EQ(clawexec::json::string_member(o, "s"), "x");
  EXPECT_EQ(clawexec::json::string_member(o, "n"), "");
  EXPECT_EQ(clawexec::json::integer_member(o, "n"), 3);
  EXPECT_EQ(clawexec::json::integer_member(o, "d"), 4);
  EXPECT_EQ(clawexec::json::integer_member(o, "f"), std::nullopt);
  EXPECT_EQ(clawexec::json::integer_member(o, "s"), std::nullopt);
  EXPECT_EQ(clawexec::json::strings_member(o, "a"), (std::vector<std::string>{"p", "q"}));
  EXPECT_TRUE(clawexec::json::strings_member(o, "missing").empty());
  EXPECT_EQ(clawexec::json::serialize(clawexec::json::string_array({"a", "b"})), "[\"a\",\"b\"]");
}
