// JSON.stringify, reproduced. Numbers follow ECMAScript Number::toString (shortest round-trip
// digits; exponent form below 1e-6 and from 1e21); strings escape ", \, the named control
// escapes and other C0 controls as \u00xx (lower-case), and lone surrogates cannot occur in our
// UTF-8 text. Integers stored as int64/uint64 print as plain digits.

#include "json/json.h"

#include "base/utf.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace clawexec::json {
namespace {

// Runs of characters that need no escape are copied in one append (command output is mostly
// such runs; a push_back per character made this the hot spot of streamed node output).
void append_escaped(std::string& out, std::string_view s) {
  out.push_back('"');
  size_t run = 0;  // start of the characters not yet copied
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default: {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out += buf;
      }
    }
  }
  out.append(s.data() + run, s.size() - run);
  out.push_back('"');
}

void newline(std::string& out, int indent, int depth) {
  out.push_back('\n');
  out.append(static_cast<size_t>(indent * depth), ' ');
}

void write(std::string& out, const Value& v, int indent, int depth) {
  switch (v.kind()) {
    case boost::json::kind::null: out += "null"; break;
    case boost::json::kind::bool_: out += v.get_bool() ? "true" : "false"; break;
    case boost::json::kind::int64: out += std::to_string(v.get_int64()); break;
    case boost::json::kind::uint64: out += std::to_string(v.get_uint64()); break;
    case boost::json::kind::double_: {
      double d = v.get_double();
      out += std::isfinite(d) ? js_number(d) : "null";
      break;
    }
    case boost::json::kind::string: append_escaped(out, v.get_string()); break;
    case boost::json::kind::array: {
      const Array& a = v.get_array();
      if (a.empty()) {
        out += "[]";
        break;
      }
      out.push_back('[');
      for (size_t i = 0; i < a.size(); ++i) {
        if (i) out.push_back(',');
        if (indent) newline(out, indent, depth + 1);
        write(out, a[i], indent, depth + 1);
      }
      if (indent) newline(out, indent, depth);
      out.push_back(']');
      break;
    }
    case boost::json::kind::object: {
      const Object& o = v.get_object();
      if (o.empty()) {
        out += "{}";
        break;
      }
      out.push_back('{');
      bool first = true;
      for (const auto& kv : o) {
        if (!first) out.push_back(',');
        first = false;
        if (indent) newline(out, indent, depth + 1);
        append_escaped(out, kv.key());
        out += indent ? ": " : ":";
        write(out, kv.value(), indent, depth + 1);
      }
      if (indent) newline(out, indent, depth);
      out.push_back('}');
      break;
    }
  }
}

}  // namespace

std::string js_number(double value) {
  if (value == 0) return "0";  // JS prints -0 as "0" too
  if (!std::isfinite(value)) return std::isnan(value) ? "NaN" : (value > 0 ? "Infinity" : "-Infinity");
  std::string out;
  if (value < 0) {
    out.push_back('-');
    value = -value;
  }
  // Shortest round-trip digits in scientific form: d[.ddd]e[+-]x
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
  std::string_view sci(buf, static_cast<size_t>(res.ptr - buf));
  size_t e_pos = sci.find('e');
  std::string digits;
  for (char c : sci.substr(0, e_pos)) {
    if (c != '.') digits.push_back(c);
  }
  int exponent = 0;
  std::from_chars(sci.data() + e_pos + 1 + (sci[e_pos + 1] == '+' ? 1 : 0), sci.data() + sci.size(),
                  exponent);
  int k = static_cast<int>(digits.size());
  int n = exponent + 1;  // ECMAScript's n: position of the decimal point
  if (k <= n && n <= 21) {
    out += digits;
    out.append(static_cast<size_t>(n - k), '0');
  } else if (0 < n && n <= 21) {
    out += digits.substr(0, static_cast<size_t>(n));
    out.push_back('.');
    out += digits.substr(static_cast<size_t>(n));
  } else if (-6 < n && n <= 0) {
    out += "0.";
    out.append(static_cast<size_t>(-n), '0');
    out += digits;
  } else {
    out.push_back(digits[0]);
    if (k > 1) {
      out.push_back('.');
      out += digits.substr(1);
    }
    out.push_back('e');
    out.push_back(n - 1 >= 0 ? '+' : '-');
    out += std::to_string(std::abs(n - 1));
  }
  return out;
}

std::string stringify(const Value& value, int indent) {
  std::string out;
  write(out, value, indent, 0);
  return out;
}

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The code unit of a "\uXXXX" escape starting at `p`, or -1.
int escape_unit(std::string_view text, size_t p) {
  if (p + 6 > text.size() || text[p] != '\\' || text[p + 1] != 'u') return -1;
  int unit = 0;
  for (size_t k = 2; k < 6; ++k) {
    int h = hex_value(text[p + k]);
    if (h < 0) return -1;
    unit = unit * 16 + h;
  }
  return unit;
}

// JSON lets a string escape a lone surrogate ("\ud800"), which JavaScript accepts and Boost.JSON
// rejects. Replaces each unpaired surrogate escape inside strings with \ufffd (what such a
// string becomes once encoded as UTF-8 anyway).
std::string replace_lone_surrogate_escapes(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (!in_string) {
      in_string = c == '"';
      out.push_back(c);
      continue;
    }
    if (c == '"') {
      in_string = false;
      out.push_back(c);
      continue;
    }
    if (c != '\\') {
      out.push_back(c);
      continue;
    }
    int unit = escape_unit(text, i);
    if (unit >= 0xD800 && unit <= 0xDBFF) {
      int next = escape_unit(text, i + 6);
      if (next >= 0xDC00 && next <= 0xDFFF) {
        out.append(text.substr(i, 12));
        i += 11;
        continue;
      }
    }
    if (unit >= 0xD800 && unit <= 0xDFFF) {
      out += "\\ufffd";
      i += 5;
      continue;
    }
    out.push_back(c);  // some other escape: copy it and the escaped character
    if (i + 1 < text.size()) out.push_back(text[++i]);
  }
  return out;
}

}  // namespace

std::optional<Value> parse(std::string_view text) {
  boost::system::error_code ec;
  Value v = boost::json::parse(text, ec);
  if (!ec) return v;
  // What JavaScript would still accept: invalid UTF-8 (decoded with replacement characters)
  // and escaped lone surrogates.
  std::string repaired = replace_lone_surrogate_escapes(to_valid_utf8(text));
  if (repaired == text) return std::nullopt;
  ec.clear();
  v = boost::json::parse(repaired, ec);
  if (ec) return std::nullopt;
  return v;
}

std::optional<double> as_number(const Value& v) {
  switch (v.kind()) {
    case boost::json::kind::int64: return static_cast<double>(v.get_int64());
    case boost::json::kind::uint64: return static_cast<double>(v.get_uint64());
    case boost::json::kind::double_: return v.get_double();
    default: return std::nullopt;
  }
}

const Value* find(const Object& object, std::string_view key) {
  auto it = object.find(key);
  return it == object.end() ? nullptr : &it->value();
}

std::string string_member(const Object& object, std::string_view key) {
  const Value* v = find(object, key);
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

std::optional<int64_t> integer_member(const Object& object, std::string_view key) {
  const Value* v = find(object, key);
  if (v && v->is_int64()) return v->get_int64();
  if (v && v->is_uint64() && v->get_uint64() <= static_cast<uint64_t>(INT64_MAX)) return static_cast<int64_t>(v->get_uint64());
  if (v && v->is_double() && v->get_double() == static_cast<double>(static_cast<int64_t>(v->get_double()))) {
    return static_cast<int64_t>(v->get_double());
  }
  return std::nullopt;
}

std::vector<std::string> strings_member(const Object& object, std::string_view key) {
  std::vector<std::string> out;
  if (const Value* v = find(object, key); v && v->is_array()) {
    for (const Value& s : v->get_array()) {
      if (s.is_string()) out.emplace_back(s.get_string());
    }
  }
  return out;
}

const Object* object_member(const Object& object, std::string_view key) {
  const Value* v = find(object, key);
  return v && v->is_object() ? &v->get_object() : nullptr;
}

Array string_array(const std::vector<std::string>& items) {
  Array out;
  for (const std::string& s : items) out.emplace_back(s);
  return out;
}

}  // namespace clawexec::json
