// The lexical half of the JSON5 reader. The text is known to be valid UTF-8 (json5.cc checks
// it first), so multi-byte characters are decoded without further checks. Each token reader
// consumes exactly its token and reports the first offending byte on failure.
//
// Mapping decisions (see json5.h for the user-facing summary):
// * numbers without fraction or exponent become int64 (uint64 above INT64_MAX, double
//   beyond that), everything else a double; "-0" is the integer 0 like Boost.JSON's own
//   parser, Infinity/NaN are the IEEE doubles;
// * \uXXXX escapes are UTF-16 code units: a high/low pair becomes one code point, and a
//   lone surrogate becomes U+FFFD (what Node does when it writes such a string as UTF-8).

#include "config/json5_scanner.h"

#include <locale.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>

#include "base/utf.h"

namespace clawexec::config::json5_detail {
namespace {

bool is_digit(int c) { return c >= '0' && c <= '9'; }

int hex_value(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The character a single-character escape stands for, 0 if `c` is not one.
char simple_escape(int c) {
  switch (c) {
    case 'b':
      return '\b';
    case 'f':
      return '\f';
    case 'n':
      return '\n';
    case 'r':
      return '\r';
    case 't':
      return '\t';
    case 'v':
      return '\v';
    case '\'':
      return '\'';
    case '"':
      return '"';
    case '\\':
      return '\\';
    default:
      return 0;
  }
}

bool is_high_surrogate(char32_t u) { return u >= 0xD800 && u <= 0xDBFF; }
bool is_low_surrogate(char32_t u) { return u >= 0xDC00 && u <= 0xDFFF; }

// strtod in the "C" locale regardless of what the process set with setlocale().
double parse_decimal_double(const std::string& literal) {
  static locale_t c_locale = newlocale(LC_ALL_MASK, "C", static_cast<locale_t>(nullptr));
  return strtod_l(literal.c_str(), nullptr, c_locale);
}

// Hex digits beyond 64 bits: keep the leading 16 digits and fold every dropped non-zero digit
// into the lowest bit so the uint64 -> double conversion still rounds correctly.
double wide_hex_to_double(std::string_view digits) {
  uint64_t mantissa = 0;
  for (size_t i = 0; i < 16; ++i) mantissa = (mantissa << 4) | static_cast<uint64_t>(hex_value(digits[i]));
  bool sticky = false;
  for (size_t i = 16; i < digits.size(); ++i) sticky = sticky || digits[i] != '0';
  if (sticky) mantissa |= 1;
  return std::ldexp(static_cast<double>(mantissa), static_cast<int>(4 * (digits.size() - 16)));
}

boost::json::value integer_value(uint64_t magnitude, bool negative) {
  constexpr uint64_t kInt64Max = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (!negative) {
    if (magnitude <= kInt64Max) return static_cast<int64_t>(magnitude);
    return magnitude;
  }
  if (magnitude <= kInt64Max) return -static_cast<int64_t>(magnitude);
  if (magnitude == kInt64Max + 1) return std::numeric_limits<int64_t>::min();
  return -static_cast<double>(magnitude);
}

// Appends one UTF-16 code unit from a \uXXXX escape: pairs combine, lone surrogates become U+FFFD.
void append_utf16_unit(std::string& out, char32_t unit, char32_t& pending_high) {
  if (pending_high != 0 && is_low_surrogate(unit)) {
    append_utf8(out, 0x10000 + ((pending_high - 0xD800) << 10) + (unit - 0xDC00));
    pending_high = 0;
    return;
  }
  if (pending_high != 0) append_utf8(out, 0xFFFD);
  pending_high = 0;
  if (is_high_surrogate(unit)) {
    pending_high = unit;
  } else {
    append_utf8(out, is_low_surrogate(unit) ? char32_t{0xFFFD} : unit);
  }
}

// Exact value of a digit string if it fits 64 bits.
bool decimal_to_uint64(std::string_view digits, uint64_t& value) {
  value = 0;
  for (char c : digits) {
    uint64_t d = static_cast<uint64_t>(c - '0');
    if (value > (std::numeric_limits<uint64_t>::max() - d) / 10) return false;
    value = value * 10 + d;
  }
  return true;
}

}  // namespace

bool Scanner::consume_word(std::string_view word) {
  if (text_.substr(pos_, word.size()) != word) return false;
  pos_ += word.size();
  return true;
}

bool Scanner::skip_space() {
  while (!at_end()) {
    int c = peek();
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
      ++pos_;
    } else if (c == '/') {
      if (!skip_comment()) return false;
    } else if (c >= 0x80) {
      char32_t cp;
      size_t n = decode_utf8(text_.substr(pos_), cp);
      if (!is_js_whitespace(cp)) return true;
      pos_ += n;
    } else {
      return true;
    }
  }
  return true;
}

bool Scanner::skip_comment() {
  size_t start = pos_;
  if (peek(1) == '/') {
    pos_ += 2;
    while (!at_end()) {
      int c = peek();
      if (c == '\n' || c == '\r') return true;
      if (c == 0xE2 && peek(1) == 0x80 && (peek(2) == 0xA8 || peek(2) == 0xA9)) return true;
      ++pos_;
    }
    return true;
  }
  if (peek(1) == '*') {
    size_t end = text_.find("*/", pos_ + 2);
    if (end == std::string_view::npos) return fail(start, "unterminated block comment");
    pos_ = end + 2;
    return true;
  }
  return fail(start, "expected '//' or '/*' to start a comment");
}

bool Scanner::read_hex_units(size_t count, char32_t& value) {
  value = 0;
  for (size_t i = 0; i < count; ++i) {
    int h = hex_value(peek());
    if (h < 0) return false;
    value = (value << 4) | static_cast<char32_t>(h);
    ++pos_;
  }
  return true;
}

bool Scanner::scan_string(std::string& out) {
  const size_t start = pos_;
  const char quote = text_[pos_++];
  char32_t pending_high = 0;  // a \uD8xx escape waiting for its low half
  auto flush_pending = [&] {
    if (pending_high != 0) append_utf8(out, 0xFFFD);
    pending_high = 0;
  };
  while (true) {
    if (at_end()) return fail(start, "unterminated string");
    char c = text_[pos_];
    if (c == quote) {
      flush_pending();
      ++pos_;
      return true;
    }
    if (c == '\\') {
      if (!scan_escape(out, pending_high)) return false;
      continue;
    }
    if (c == '\n' || c == '\r') return fail(pos_, "unescaped line break in string");
    flush_pending();
    out.push_back(c);
    ++pos_;
  }
}

// Handles one backslash sequence; a \u escape may leave a high surrogate in pending_high.
bool Scanner::scan_escape(std::string& out, char32_t& pending_high) {
  const size_t start = pos_;
  ++pos_;                     // the backslash
  if (at_end()) return true;  // scan_string reports the unterminated string
  auto flush_pending = [&] {
    if (pending_high != 0) append_utf8(out, 0xFFFD);
    pending_high = 0;
  };
  int c = peek();
  if (char simple = simple_escape(c); simple != 0) {
    flush_pending();
    out.push_back(simple);
    ++pos_;
    return true;
  }
  if (c == '\n' || c == '\r') {  // line continuation: the break is dropped
    ++pos_;
    if (c == '\r' && peek() == '\n') ++pos_;
    return true;
  }
  if (c == 0xE2 && peek(1) == 0x80 && (peek(2) == 0xA8 || peek(2) == 0xA9)) {
    pos_ += 3;  // U+2028 / U+2029 continue the line too
    return true;
  }
  if (c == '0' && !is_digit(peek(1))) {
    flush_pending();
    out.push_back('\0');
    ++pos_;
    return true;
  }
  if (is_digit(c)) return fail(start, "octal and decimal escapes are not allowed in strings");
  if (c == 'x') {
    ++pos_;
    char32_t value;
    if (!read_hex_units(2, value)) return fail(start, "expected two hex digits after \\x");
    flush_pending();
    append_utf8(out, value);
    return true;
  }
  if (c == 'u') {
    ++pos_;
    char32_t unit;
    if (!read_hex_units(4, unit)) return fail(start, "expected four hex digits after \\u");
    append_utf16_unit(out, unit, pending_high);
    return true;
  }
  // Any other character escapes to itself (JSON5 NonEscapeCharacter).
  flush_pending();
  char32_t cp;
  size_t n = decode_utf8(text_.substr(pos_), cp);
  out.append(text_.substr(pos_, n));
  pos_ += n;
  return true;
}

bool Scanner::scan_number(boost::json::value& out) {
  const size_t start = pos_;
  bool negative = false;
  if (peek() == '+' || peek() == '-') {
    negative = peek() == '-';
    ++pos_;
  }
  if (consume_word("Infinity")) {
    out = negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    return true;
  }
  if (consume_word("NaN")) {
    out = std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X')) {
    pos_ += 2;
    return scan_hex_number(negative, out);
  }
  const size_t int_start = pos_;
  while (is_digit(peek())) ++pos_;
  const size_t int_digits = pos_ - int_start;
  if (int_digits > 1 && text_[int_start] == '0')
    return fail(int_start, "leading zeros are not allowed in numbers");
  if (int_digits == 0 && peek() != '.') {
    if (pos_ > start) return fail(pos_, std::string("expected a number after '") + text_[start] + "'");
    return fail(pos_, "expected a value");
  }
  bool integral = true;
  if (peek() == '.') {
    integral = false;
    ++pos_;
    size_t frac_start = pos_;
    while (is_digit(peek())) ++pos_;
    if (int_digits == 0 && pos_ == frac_start) return fail(pos_, "expected a digit after '.'");
  }
  if (peek() == 'e' || peek() == 'E') {
    integral = false;
    ++pos_;
    if (peek() == '+' || peek() == '-') ++pos_;
    if (!is_digit(peek())) return fail(pos_, "expected a digit in the exponent");
    while (is_digit(peek())) ++pos_;
  }
  uint64_t magnitude = 0;
  if (integral && decimal_to_uint64(text_.substr(int_start, pos_ - int_start), magnitude)) {
    out = integer_value(magnitude, negative);
    return true;
  }
  out = parse_decimal_double(std::string(text_.substr(start, pos_ - start)));
  return true;
}

bool Scanner::scan_hex_number(bool negative, boost::json::value& out) {
  const size_t digits_start = pos_;
  while (hex_value(peek()) >= 0) ++pos_;
  if (pos_ == digits_start) return fail(pos_, "expected a hex digit after '0x'");
  std::string_view digits = text_.substr(digits_start, pos_ - digits_start);
  while (digits.size() > 1 && digits.front() == '0') digits.remove_prefix(1);
  if (digits.size() <= 16) {
    uint64_t magnitude = 0;
    for (char d : digits) magnitude = (magnitude << 4) | static_cast<uint64_t>(hex_value(d));
    out = integer_value(magnitude, negative);
    return true;
  }
  double value = wide_hex_to_double(digits);
  out = negative ? -value : value;
  return true;
}

bool Scanner::at_identifier_start() const {
  int c = peek();
  if (c < 0) return false;
  if (c == '\\') return true;
  if (c < 0x80) return is_identifier_start(static_cast<char32_t>(c));
  char32_t cp;
  decode_utf8(text_.substr(pos_), cp);
  return is_identifier_start(cp);
}

bool Scanner::scan_identifier(std::string& out) {
  bool first = true;
  bool done = false;
  while (!done) {
    if (!scan_identifier_char(first, out, done)) return false;
    first = false;
  }
  return true;
}

// Reads one identifier character (raw or \uXXXX); sets `done` at the first character that
// cannot continue the name, without consuming it.
bool Scanner::scan_identifier_char(bool first, std::string& out, bool& done) {
  auto allowed = [first](char32_t cp) { return first ? is_identifier_start(cp) : is_identifier_part(cp); };
  const size_t start = pos_;
  if (peek() == '\\') {
    if (peek(1) != 'u') return fail(start, "expected \\u escape in property name");
    pos_ += 2;
    char32_t unit;
    if (!read_hex_units(4, unit)) return fail(start, "expected four hex digits after \\u");
    if (!allowed(unit)) return fail(start, "escaped character is not allowed in a property name");
    append_utf8(out, unit);
    return true;
  }
  if (at_end()) {
    done = true;
    return true;
  }
  char32_t cp;
  size_t n = decode_utf8(text_.substr(pos_), cp);
  if (!allowed(cp)) {
    if (first) return fail(start, "expected a property name");
    done = true;
    return true;
  }
  out.append(text_.substr(pos_, n));
  pos_ += n;
  return true;
}

}  // namespace clawexec::config::json5_detail
