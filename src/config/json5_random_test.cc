// Seeded randomized tests for the JSON5 reader: random value trees written in randomly chosen
// JSON5 spellings must parse back to the same value, and random or mutated inputs must
// always come back as a value or a well-formed error (never a crash or a hang; the suite runs
// under ASan/UBSan in CI). Seeds are fixed so failures reproduce.

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <random>
#include <string>

#include "base/utf.h"
#include "config/json5.h"

namespace clawexec::config {
namespace {

namespace json = boost::json;

class RandomDocs {
 public:
  explicit RandomDocs(uint64_t seed) : rng_(seed) {}

  size_t below(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }
  bool chance(int percent) { return below(100) < static_cast<size_t>(percent); }

  char32_t random_code_point() {
    switch (below(6)) {
      case 0:
        return static_cast<char32_t>(below(0x20));  // control characters
      case 1:
        return U"'\"\\/ \u2028\u2029"[below(8)];  // characters needing care
      case 2:
        return static_cast<char32_t>(0x80 + below(0x780));  // two-byte UTF-8
      case 3:
        return static_cast<char32_t>(0xE000 + below(0x2000));  // three-byte, no surrogates
      case 4:
        return static_cast<char32_t>(0x10000 + below(0x100000));  // astral
      default:
        return static_cast<char32_t>(0x20 + below(0x5F));  // printable ASCII
    }
  }

  std::string random_text(size_t max_len) {
    std::string s;
    size_t len = below(max_len + 1);
    for (size_t i = 0; i < len; ++i) append_utf8(s, random_code_point());
    return s;
  }

  json::value random_value(int depth) {
    size_t kind = depth >= 5 ? below(5) : below(7);
    switch (kind) {
      case 0:
        return nullptr;
      case 1:
        return chance(50);
      case 2:
        return static_cast<int64_t>(rng_()) >> below(64);
      case 3: {
        double d = std::uniform_real_distribution<double>(-1, 1)(rng_) *
                   std::pow(10.0, static_cast<int>(below(80)) - 40);
        return chance(5) ? (chance(50) ? HUGE_VAL : -HUGE_VAL) : d;
      }
      case 4:
        return json::string(random_text(12));
      case 5: {
        json::array a;
        for (size_t n = below(5); n > 0; --n) a.push_back(random_value(depth + 1));
        return a;
      }
      default: {
        json::object o;
        for (size_t n = below(5); n > 0; --n) {
          std::string key =
              chance(50) ? std::string(1, "abcxyz_$"[below(8)]) + random_text(3) : random_text(6);
          o.insert_or_assign(key, random_value(depth + 1));  // fresh keys only: duplicates tested elsewhere
        }
        return o;
      }
    }
  }

  // ---- writer: one random JSON5 spelling of a value ----

  void space(std::string& out) {
    switch (below(8)) {
      case 0:
        out += " ";
        break;
      case 1:
        out += "\n\t";
        break;
      case 2:
        out += "/* c */";
        break;
      case 3:
        out += "// line\n";
        break;
      case 4:
        out += "\xC2\xA0\r\n";
        break;  // NBSP and CRLF
      case 5:
        out += "\xE2\x80\xA8";
        break;  // U+2028
      default:
        break;
    }
  }

  void write_string(std::string& out, std::string_view text) {
    const char quote = chance(50) ? '\'' : '"';
    out += quote;
    for (size_t i = 0; i < text.size();) {
      char32_t cp;
      size_t n = decode_utf8(text.substr(i), cp);
      write_char(out, cp, text.substr(i, n), quote);
      i += n;
      if (chance(3)) out += chance(50) ? "\\\n" : "\\\r\n";  // line continuation: adds nothing
    }
    out += quote;
  }

  void write_char(std::string& out, char32_t cp, std::string_view raw, char quote) {
    char buf[16];
    const bool must_escape = cp == static_cast<char32_t>(quote) || cp == '\\' || cp == '\n' || cp == '\r';
    if (cp < 0x10000 && (must_escape || chance(20))) {
      if (cp < 0x100 && chance(50)) {
        std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned>(cp));
      } else {
        std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
      }
      out += buf;
    } else if (cp >= 0x10000 && chance(20)) {
      char32_t v = cp - 0x10000;
      std::snprintf(buf, sizeof buf, "\\u%04X\\u%04X", static_cast<unsigned>(0xD800 + (v >> 10)),
                    static_cast<unsigned>(0xDC00 + (v & 0x3FF)));
      out += buf;
    } else {
      out.append(raw);  // includes raw NUL and other control characters, which JSON5 allows
    }
  }

  void write_number(std::string& out, const json::value& v) {
    char buf[40];
    if (v.is_int64()) {
      int64_t i = v.as_int64();
      if (i >= 0 && chance(30)) {
        std::snprintf(buf, sizeof buf, "%s0x%llX", chance(30) ? "+" : "", static_cast<unsigned long long>(i));
      } else {
        std::snprintf(buf, sizeof buf, "%s%lld", i >= 0 && chance(20) ? "+" : "", static_cast<long long>(i));
      }
      out += buf;
      return;
    }
    double d = v.as_double();
    if (std::isinf(d)) {
      out += d > 0 ? (chance(50) ? "+Infinity" : "Infinity") : "-Infinity";
      return;
    }
    std::snprintf(buf, sizeof buf, "%.17g", d);
    std::string s = buf;
    if (s.find_first_of(".e") == std::string::npos) s += chance(50) ? ".0" : ".";
    if (s.rfind("0.", 0) == 0 && chance(50)) s.erase(0, 1);  // leading decimal point
    out += s;
  }

  void write(std::string& out, const json::value& v) {
    space(out);
    switch (v.kind()) {
      case json::kind::null:
        out += "null";
        break;
      case json::kind::bool_:
        out += v.as_bool() ? "true" : "false";
        break;
      case json::kind::string:
        write_string(out, v.as_string());
        break;
      case json::kind::array: {
        out += '[';
        const json::array& a = v.as_array();
        for (size_t i = 0; i < a.size(); ++i) {
          write(out, a[i]);
          if (i + 1 < a.size() || chance(30)) out += ',';
        }
        space(out);
        out += ']';
        break;
      }
      case json::kind::object: {
        out += '{';
        size_t i = 0;
        for (const auto& member : v.as_object()) {
          space(out);
          write_key(out, member.key());
          space(out);
          out += ':';
          write(out, member.value());
          if (++i < v.as_object().size() || chance(30)) out += ',';
        }
        space(out);
        out += '}';
        break;
      }
      default:
        write_number(out, v);
        break;
    }
    space(out);
  }

  void write_key(std::string& out, std::string_view key) {
    bool identifier = !key.empty();
    for (char c : key) {
      identifier = identifier && ((c >= 'a' && c <= 'z') || c == '_' || c == '$');
    }
    if (identifier && chance(70)) {
      if (chance(20)) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04X", static_cast<unsigned>(key[0]));
        out += buf;
        out.append(key.substr(1));
      } else {
        out.append(key);
      }
    } else {
      write_string(out, key);
    }
  }

 private:
  std::mt19937_64 rng_;
};

TEST(Json5Random, GeneratedDocumentsParseToTheValueTheyWereWrittenFrom) {
  RandomDocs gen(0x5eed0001);
  for (int round = 0; round < 3000; ++round) {
    json::value expected = gen.random_value(0);
    std::string text;
    gen.write(text, expected);
    auto parsed = parse_json5(text);
    ASSERT_TRUE(parsed.ok()) << "round " << round << ": " << parsed.error().message << "\ninput:\n" << text;
    ASSERT_EQ(*parsed, expected) << "round " << round << "\ninput:\n" << text;
  }
}

void expect_well_formed_outcome(std::string_view input) {
  auto result = parse_json5(input);
  if (result.ok()) return;
  const std::string& message = result.error().message;
  ASSERT_EQ(message.rfind("JSON5 parse error at ", 0), 0u) << message;
  unsigned line = 0, column = 0;
  ASSERT_EQ(std::sscanf(message.c_str(), "JSON5 parse error at %u:%u:", &line, &column), 2) << message;
  EXPECT_GE(line, 1u);
  EXPECT_GE(column, 1u);
  EXPECT_LE(column, input.size() + 1) << message;
}

TEST(Json5Random, RandomBytesNeverCrash) {
  RandomDocs gen(0x5eed0002);
  const std::string alphabet = "{}[]:,'\"\\/*+-.0123456789eExXuabINfnt \n\r\t";
  for (int round = 0; round < 20000; ++round) {
    std::string input;
    for (size_t n = gen.below(48); n > 0; --n) {
      input += gen.chance(70) ? alphabet[gen.below(alphabet.size())] : static_cast<char>(gen.below(256));
    }
    expect_well_formed_outcome(input);
  }
}

TEST(Json5Random, MutatedDocumentsNeverCrash) {
  RandomDocs gen(0x5eed0003);
  const std::string tokens[] = {
      "{",   "}",  "[",        "]",   ":", ",", "'", "\"", "\\", "/*",           "//",   "*/", "\\u",
      "\\x", "0x", "Infinity", "NaN", "-", "+", ".", "e",  "\n", "\xE2\x80\xA8", "\xC3", "\0"};
  for (int round = 0; round < 5000; ++round) {
    std::string text;
    gen.write(text, gen.random_value(0));
    for (size_t edits = 1 + gen.below(4); edits > 0 && !text.empty(); --edits) {
      size_t at = gen.below(text.size());
      switch (gen.below(3)) {
        case 0:
          text.erase(at, 1 + gen.below(3));
          break;
        case 1:
          text.insert(at, tokens[gen.below(std::size(tokens))]);
          break;
        default:
          text[at] = static_cast<char>(gen.below(256));
          break;
      }
    }
    expect_well_formed_outcome(text);
  }
}

}  // namespace
}  // namespace clawexec::config
