#include "config/json5.h"

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <cmath>
#include <limits>
#include <string>

namespace clawexec::config {
namespace {

namespace json = boost::json;

json::value parse_ok(std::string_view text) {
  auto result = parse_json5(text);
  EXPECT_TRUE(result.ok()) << "input: " << text << "\nerror: " << (result.ok() ? "" : result.error().message);
  return result.ok() ? *result : json::value();
}

std::string parse_error(std::string_view text) {
  auto result = parse_json5(text);
  EXPECT_FALSE(result.ok()) << "input unexpectedly parsed: " << text;
  if (result.ok()) return "";
  EXPECT_EQ(result.error().code, ErrorCode::kInvalidArgument);
  return result.error().message;
}

TEST(Json5, ParsesPlainJson) {
  json::value v = parse_ok(R"({"a": [1, -2, 3.5, true, false, null, "x"], "b": {"c": {}}})");
  EXPECT_EQ(v, json::parse(R"({"a": [1, -2, 3.5, true, false, null, "x"], "b": {"c": {}}})"));
}

TEST(Json5, AcceptsLineAndBlockCommentsAnywhereWhiteSpaceIs) {
  json::value v =
      parse_ok("// head\n/* a */{/* b */a/* c */:/* d */1/* e */,// f\n b: [/**/2/***/,/* x */]}// tail");
  EXPECT_EQ(v, json::parse(R"({"a": 1, "b": [2]})"));
  EXPECT_EQ(parse_ok("1 // comment without newline at end"), json::value(1));
  EXPECT_EQ(parse_ok("/* not /* nested */ 1"), json::value(1));
}

TEST(Json5, RejectsUnterminatedAndMalformedComments) {
  EXPECT_EQ(parse_error("[1,\n  /* open"), "JSON5 parse error at 2:3: unterminated block comment");
  EXPECT_EQ(parse_error("1 / 2"), "JSON5 parse error at 1:3: expected '//' or '/*' to start a comment");
  EXPECT_EQ(parse_error("// only a comment"), "JSON5 parse error at 1:18: expected a value");
}

TEST(Json5, AcceptsTrailingCommasButNotEmptyElements) {
  EXPECT_EQ(parse_ok("[1, 2,]"), json::parse("[1, 2]"));
  EXPECT_EQ(parse_ok("{a: 1,}"), json::parse(R"({"a": 1})"));
  EXPECT_EQ(parse_error("[1,,2]"), "JSON5 parse error at 1:4: expected a value");
  EXPECT_EQ(parse_error("[,]"), "JSON5 parse error at 1:2: expected a value");
  EXPECT_EQ(parse_error("{a: 1,,}"), "JSON5 parse error at 1:7: expected a property name or '}'");
  EXPECT_EQ(parse_error("{,}"), "JSON5 parse error at 1:2: expected a property name or '}'");
}

TEST(Json5, AcceptsIdentifierKeysIncludingReservedWordsAndUnicode) {
  json::value v =
      parse_ok("{$: 1, _: 2, a1: 3, true: 4, null: 5, if: 6, ünï: 7, 日本: 8, a\u203Fb: 9, x\u0663: 10}");
  const json::object& o = v.as_object();
  EXPECT_EQ(o.at("$"), json::value(1));
  EXPECT_EQ(o.at("_"), json::value(2));
  EXPECT_EQ(o.at("a1"), json::value(3));
  EXPECT_EQ(o.at("true"), json::value(4));
  EXPECT_EQ(o.at("null"), json::value(5));
  EXPECT_EQ(o.at("if"), json::value(6));
  EXPECT_EQ(o.at("ünï"), json::value(7));
  EXPECT_EQ(o.at("日本"), json::value(8));
  EXPECT_EQ(o.at("a\u203Fb"), json::value(9));  // connector punctuation continues a name
  EXPECT_EQ(o.at("x\u0663"), json::value(10));  // Arabic-Indic digit continues a name
  EXPECT_EQ(parse_ok("{𝑎: 1}").as_object().at("𝑎"), json::value(1));  // astral letter
}

TEST(Json5, DecodesUnicodeEscapesInIdentifierKeys) {
  EXPECT_EQ(parse_ok(R"({\u0061bc: 1, x\u0079: 2, \u0024: 3, a\u200Cb: 4})"),
            json::parse(R"({"abc": 1, "xy": 2, "$": 3, "a\u200Cb": 4})"));
  EXPECT_EQ(parse_error(R"({\u0031: 1})"),
            "JSON5 parse error at 1:2: escaped character is not allowed in a property name");
  EXPECT_EQ(parse_error(R"({a\u0020b: 1})"),
            "JSON5 parse error at 1:3: escaped character is not allowed in a property name");
  EXPECT_EQ(parse_error(R"({\x61: 1})"), "JSON5 parse error at 1:2: expected \\u escape in property name");
  EXPECT_EQ(parse_error(R"({\u00G1: 1})"), "JSON5 parse error at 1:2: expected four hex digits after \\u");
}

TEST(Json5, RejectsKeysThatAreNotIdentifiers) {
  EXPECT_EQ(parse_error("{1a: 1}"), "JSON5 parse error at 1:2: expected a property name or '}'");
  EXPECT_EQ(parse_error("{a-b: 1}"), "JSON5 parse error at 1:3: expected ':' after property name");
  EXPECT_EQ(parse_error("{€: 1}"), "JSON5 parse error at 1:2: expected a property name or '}'");
  EXPECT_EQ(parse_error("{a·b: 1}"), "JSON5 parse error at 1:3: expected ':' after property name");
  EXPECT_EQ(parse_error("{a 1}"), "JSON5 parse error at 1:4: expected ':' after property name");
}

TEST(Json5, ReadsSingleAndDoubleQuotedStrings) {
  EXPECT_EQ(parse_ok(R"('it"s')"), json::value("it\"s"));
  EXPECT_EQ(parse_ok(R"("it's")"), json::value("it's"));
  EXPECT_EQ(parse_ok(R"('\'')"), json::value("'"));
  EXPECT_EQ(parse_ok("{'a b': 1}").as_object().at("a b"), json::value(1));
  EXPECT_EQ(parse_ok("'tab\there\x01'"), json::value("tab\there\x01"));
  EXPECT_EQ(parse_ok("'\xE2\x80\xA8'"), json::value("\xE2\x80\xA8"));  // raw U+2028 is allowed
}

TEST(Json5, DecodesEveryEscape) {
  EXPECT_EQ(parse_ok(R"("\b\f\n\r\t\v\0\\\/\"")"), json::value(std::string("\b\f\n\r\t\v\0\\/\"", 10)));
  EXPECT_EQ(parse_ok(R"("\x41\x7a\xe9")"), json::value("Az\xC3\xA9"));
  EXPECT_EQ(parse_ok(R"("\u0041\u00e9\u20AC")"), json::value("Aé€"));
  EXPECT_EQ(parse_ok(R"("\a\c\q\€")"), json::value("acq€"));  // other characters escape to themselves
  EXPECT_EQ(parse_ok(R"('\0a')"), json::value(std::string("\0a", 2)));
}

TEST(Json5, CombinesSurrogatePairsAndReplacesLoneSurrogates) {
  EXPECT_EQ(parse_ok(R"("\uD83D\uDE00")"), json::value("😀"));
  EXPECT_EQ(parse_ok("\"\\uD83D\\\n\\uDE00\""), json::value("😀"));  // a continuation between halves
  EXPECT_EQ(parse_ok(R"("\uD83D")"), json::value("\uFFFD"));
  EXPECT_EQ(parse_ok(R"("\uDE00x")"), json::value("\uFFFDx"));
  EXPECT_EQ(parse_ok(R"("\uD83Dx")"), json::value("\uFFFDx"));
  EXPECT_EQ(parse_ok(R"("\uDE00\uD83D")"), json::value("\uFFFD\uFFFD"));
}

TEST(Json5, LineContinuationsRemoveTheLineBreak) {
  EXPECT_EQ(parse_ok("'a\\\nb'"), json::value("ab"));
  EXPECT_EQ(parse_ok("'a\\\r\nb'"), json::value("ab"));
  EXPECT_EQ(parse_ok("'a\\\rb'"), json::value("ab"));
  EXPECT_EQ(parse_ok("'a\\\xE2\x80\xA8"
                     "b'"),
            json::value("ab"));
  EXPECT_EQ(parse_ok("'a\\\xE2\x80\xA9"
                     "b'"),
            json::value("ab"));
}

TEST(Json5, RejectsBadStrings) {
  EXPECT_EQ(parse_error("'line\nbreak'"), "JSON5 parse error at 1:6: unescaped line break in string");
  EXPECT_EQ(parse_error("{a: 'open"), "JSON5 parse error at 1:5: unterminated string");
  EXPECT_EQ(parse_error("'ends with backslash\\"), "JSON5 parse error at 1:1: unterminated string");
  EXPECT_EQ(parse_error(R"("\1")"),
            "JSON5 parse error at 1:2: octal and decimal escapes are not allowed in strings");
  EXPECT_EQ(parse_error(R"("\01")"),
            "JSON5 parse error at 1:2: octal and decimal escapes are not allowed in strings");
  EXPECT_EQ(parse_error(R"("ab\x4")"), "JSON5 parse error at 1:4: expected two hex digits after \\x");
  EXPECT_EQ(parse_error(R"("\u12")"), "JSON5 parse error at 1:2: expected four hex digits after \\u");
  EXPECT_EQ(parse_error(R"("\u{41}")"), "JSON5 parse error at 1:2: expected four hex digits after \\u");
}

TEST(Json5, ReadsJson5NumberForms) {
  EXPECT_EQ(parse_ok("0x1F"), json::value(31));
  EXPECT_EQ(parse_ok("0XaBc"), json::value(0xABC));
  EXPECT_EQ(parse_ok("-0x10"), json::value(-16));
  EXPECT_EQ(parse_ok("+0x10"), json::value(16));
  EXPECT_EQ(parse_ok(".5"), json::value(0.5));
  EXPECT_EQ(parse_ok("5."), json::value(5.0));
  EXPECT_EQ(parse_ok("+.5"), json::value(0.5));
  EXPECT_EQ(parse_ok("-.5e1"), json::value(-5.0));
  EXPECT_EQ(parse_ok("5.e3"), json::value(5000.0));
  EXPECT_EQ(parse_ok("+1"), json::value(1));
  EXPECT_EQ(parse_ok("1E-2"), json::value(0.01));
}

TEST(Json5, MapsInfinityAndNaNToIeeeDoubles) {
  EXPECT_EQ(parse_ok("Infinity").as_double(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(parse_ok("+Infinity").as_double(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(parse_ok("-Infinity").as_double(), -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(parse_ok("NaN").as_double()));
  EXPECT_TRUE(std::isnan(parse_ok("-NaN").as_double()));
  EXPECT_EQ(parse_ok("1e400").as_double(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(parse_ok("1e-400").as_double(), 0.0);
}

TEST(Json5, MapsIntegersToInt64ThenUint64ThenDouble) {
  EXPECT_TRUE(parse_ok("9223372036854775807").is_int64());
  EXPECT_EQ(parse_ok("-9223372036854775808"), json::value(std::numeric_limits<int64_t>::min()));
  EXPECT_EQ(parse_ok("9223372036854775808"), json::value(uint64_t{9223372036854775808u}));
  EXPECT_EQ(parse_ok("0xFFFFFFFFFFFFFFFF"), json::value(std::numeric_limits<uint64_t>::max()));
  EXPECT_EQ(parse_ok("18446744073709551616"), json::value(18446744073709551616.0));
  EXPECT_EQ(parse_ok("-9223372036854775809"), json::value(-9223372036854775809.0));
  EXPECT_EQ(parse_ok("0x10000000000000000"), json::value(18446744073709551616.0));
  // 2^64 + 2^11 + 1 rounds up (the dropped low digits break the tie); 2^64 + 2^11 rounds to even.
  EXPECT_EQ(parse_ok("0x10000000000000801"), json::value(18446744073709555712.0));
  EXPECT_EQ(parse_ok("0x10000000000000800"), json::value(18446744073709551616.0));
  EXPECT_TRUE(parse_ok("1.0").is_double());
  json::value negative_zero = parse_ok("-0");
  EXPECT_TRUE(negative_zero.is_int64());
  EXPECT_EQ(negative_zero.as_int64(), 0);
  EXPECT_TRUE(std::signbit(parse_ok("-0.0").as_double()));
}

TEST(Json5, RejectsMalformedNumbers) {
  EXPECT_EQ(parse_error("01"), "JSON5 parse error at 1:1: leading zeros are not allowed in numbers");
  EXPECT_EQ(parse_error("[-007]"), "JSON5 parse error at 1:3: leading zeros are not allowed in numbers");
  EXPECT_EQ(parse_error("1e"), "JSON5 parse error at 1:3: expected a digit in the exponent");
  EXPECT_EQ(parse_error("1e+"), "JSON5 parse error at 1:4: expected a digit in the exponent");
  EXPECT_EQ(parse_error(".e3"), "JSON5 parse error at 1:2: expected a digit after '.'");
  EXPECT_EQ(parse_error("0x"), "JSON5 parse error at 1:3: expected a hex digit after '0x'");
  EXPECT_EQ(parse_error("--1"), "JSON5 parse error at 1:2: expected a number after '-'");
  EXPECT_EQ(parse_error("+ 1"), "JSON5 parse error at 1:2: expected a number after '+'");
  EXPECT_EQ(parse_error("Inf"), "JSON5 parse error at 1:1: expected a value");
  EXPECT_EQ(parse_error("0x1.5"),
            "JSON5 parse error at 1:4: expected end of input after the top-level value");
  EXPECT_EQ(parse_error("1_000"),
            "JSON5 parse error at 1:2: expected end of input after the top-level value");
}

TEST(Json5, DuplicateKeysLastValueWinsAtFirstPosition) {
  json::value v = parse_ok("{a: 1, b: 2, a: {x: 1}, a: 3}");
  const json::object& o = v.as_object();
  ASSERT_EQ(o.size(), 2u);
  EXPECT_EQ(o.begin()->key(), "a");
  EXPECT_EQ(o.at("a"), json::value(3));
  EXPECT_EQ(o.at("b"), json::value(2));
  EXPECT_EQ(parse_ok("{__proto__: 1}").as_object().at("__proto__"), json::value(1));
}

TEST(Json5, ErrorsNameLineAndColumnOfTheOffendingToken) {
  EXPECT_EQ(parse_error("{\n  a: 1,\n  b: 2 c: 3\n}"),
            "JSON5 parse error at 3:8: expected ',' or '}' after object member");
  EXPECT_EQ(parse_error("[1 2]"), "JSON5 parse error at 1:4: expected ',' or ']' after array element");
  EXPECT_EQ(parse_error("{a 1}"), "JSON5 parse error at 1:4: expected ':' after property name");
  EXPECT_EQ(parse_error("1 2"), "JSON5 parse error at 1:3: expected end of input after the top-level value");
  EXPECT_EQ(parse_error("undefined"), "JSON5 parse error at 1:1: expected a value");
  EXPECT_EQ(parse_error("[tru]"), "JSON5 parse error at 1:2: expected a value");
  EXPECT_EQ(parse_error(""), "JSON5 parse error at 1:1: expected a value");
  EXPECT_EQ(parse_error("  \n  "), "JSON5 parse error at 2:3: expected a value");
  EXPECT_EQ(parse_error("{a: [1,"), "JSON5 parse error at 1:8: expected a value");
}

TEST(Json5, ColumnsCountCodePointsAndAllLineBreakKinds) {
  EXPECT_EQ(parse_error("{é日𝑎: 1 x}"), "JSON5 parse error at 1:9: expected ',' or '}' after object member");
  EXPECT_EQ(parse_error("[1,\r\n2 3]"), "JSON5 parse error at 2:3: expected ',' or ']' after array element");
  EXPECT_EQ(parse_error("[1,\r2,\n3 4]"),
            "JSON5 parse error at 3:3: expected ',' or ']' after array element");
  EXPECT_EQ(parse_error("[1,\xE2\x80\xA8"
                        "2 3]"),
            "JSON5 parse error at 2:3: expected ',' or ']' after array element");
  EXPECT_EQ(parse_error("[1,\xE2\x80\xA9"
                        "2 3]"),
            "JSON5 parse error at 2:3: expected ',' or ']' after array element");
}

TEST(Json5, TreatsUnicodeSpaceSeparatorsAndBomAsWhiteSpace) {
  EXPECT_EQ(parse_ok("\xEF\xBB\xBF{}"), json::value(json::object_kind));
  EXPECT_EQ(parse_ok("\u00A0\u1680\u2000\u200A\u202F\u205F\u3000\v\f 1"), json::value(1));
  EXPECT_EQ(parse_error("\u200B1"), "JSON5 parse error at 1:1: expected a value");  // ZWSP is not a space
}

TEST(Json5, RejectsInvalidUtf8WithItsPosition) {
  EXPECT_EQ(parse_error("{a: 'ok',\n b: '\xC3('}"), "JSON5 parse error at 2:6: invalid UTF-8");
  EXPECT_EQ(parse_error("\xC0\x80"), "JSON5 parse error at 1:1: invalid UTF-8");            // overlong
  EXPECT_EQ(parse_error("'\xED\xA0\x80'"), "JSON5 parse error at 1:2: invalid UTF-8");      // surrogate
  EXPECT_EQ(parse_error("'\xF4\x90\x80\x80'"), "JSON5 parse error at 1:2: invalid UTF-8");  // > U+10FFFF
  EXPECT_EQ(parse_error("'\xE2\x82'"), "JSON5 parse error at 1:2: invalid UTF-8");          // truncated
}

TEST(Json5, AcceptsNulBytesOnlyInsideStrings) {
  EXPECT_EQ(parse_ok(std::string_view("'a\0b'", 5)), json::value(std::string("a\0b", 3)));
  EXPECT_EQ(parse_error(std::string_view("1\0", 2)),
            "JSON5 parse error at 1:2: expected end of input after the top-level value");
}

TEST(Json5, AllowsNestingUpToTheDepthLimit) {
  std::string ok(kJson5MaxDepth, '[');
  ok += std::string(kJson5MaxDepth, ']');
  json::value v = parse_ok(ok);
  size_t depth = 0;
  for (const json::value* p = &v; p->is_array(); p = p->as_array().empty() ? nullptr : &p->as_array()[0]) {
    ++depth;
    if (p->as_array().empty()) break;
  }
  EXPECT_EQ(depth, kJson5MaxDepth);

  std::string too_deep(kJson5MaxDepth + 1, '[');
  too_deep += std::string(kJson5MaxDepth + 1, ']');
  EXPECT_EQ(parse_error(too_deep),
            "JSON5 parse error at 1:257: arrays and objects nested deeper than 256 levels");
}

TEST(Json5, HugeNestingFailsCleanlyWithoutRecursion) {
  std::string deep;
  for (int i = 0; i < 200000; ++i) deep += (i % 2) ? "{a:" : "[";
  EXPECT_FALSE(parse_json5(deep).ok());
  EXPECT_FALSE(parse_json5(std::string(1000000, '[')).ok());
}

TEST(Json5, ParsesARealisticConfigFile) {
  constexpr std::string_view kText = R"(// OpenClaw configuration
{
  tools: {
    exec: {
      host: 'gateway',
      timeoutSeconds: 600,       // ten minutes
      backgroundMs: 0x2710,
      pathPrepend: ['~/bin', "/opt/tools/bin",],
      applyPatch: { enabled: true, },
    },
  },
  agents: { entries: { main: { tools: { exec: { mode: 'ask' } } } } },
}
)";
  json::value v = parse_ok(kText);
  EXPECT_EQ(
      v, json::parse(R"({"tools": {"exec": {"host": "gateway", "timeoutSeconds": 600, "backgroundMs": 10000,
      "pathPrepend": ["~/bin", "/opt/tools/bin"], "applyPatch": {"enabled": true}}},
      "agents": {"entries": {"main": {"tools": {"exec": {"mode": "ask"}}}}}})"));
}

}  // namespace
}  // namespace clawexec::config
