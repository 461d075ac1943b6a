// UTF-16 unit accounting over UTF-8 strings, plus the few decoding helpers the rest of the
// project needs. Continuation bytes (10xxxxxx) contribute no unit; a 4-byte lead contributes
// two (the surrogate pair); every other lead byte contributes one.

#include "base/utf.h"

namespace clawexec {
namespace {

bool is_continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

size_t units_of_lead(unsigned char c) {
  if (is_continuation(c)) return 0;
  return c >= 0xF0 ? 2 : 1;
}

}  // namespace

size_t utf16_length(std::string_view utf8) {
  size_t units = 0;
  for (unsigned char c : utf8) units += units_of_lead(c);
  return units;
}

size_t utf16_offset_to_bytes(std::string_view utf8, size_t units) {
  size_t seen = 0;
  for (size_t i = 0; i < utf8.size(); ++i) {
    size_t u = units_of_lead(static_cast<unsigned char>(utf8[i]));
    if (u == 0) continue;
    if (seen >= units) return i;
    seen += u;
  }
  return utf8.size();
}

std::string_view utf16_prefix(std::string_view utf8, size_t units) {
  size_t seen = 0;
  for (size_t i = 0; i < utf8.size(); ++i) {
    size_t u = units_of_lead(static_cast<unsigned char>(utf8[i]));
    if (u == 0) continue;
    if (seen + u > units) return utf8.substr(0, i);
    seen += u;
  }
  return utf8;
}

std::string_view utf16_suffix(std::string_view utf8, size_t units) {
  size_t seen = 0;
  size_t i = utf8.size();
  while (i > 0) {
    size_t j = i - 1;
    while (j > 0 && is_continuation(static_cast<unsigned char>(utf8[j]))) --j;
    size_t u = units_of_lead(static_cast<unsigned char>(utf8[j]));
    if (seen + u > units) break;
    seen += u;
    i = j;
  }
  return utf8.substr(i);
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

size_t decode_utf8(std::string_view s, char32_t& cp) {
  auto b = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  if (s.empty()) {
    cp = 0;
    return 0;
  }
  unsigned char c = b(0);
  if (c < 0x80) {
    cp = c;
    return 1;
  }
  size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
  if (len > s.size()) len = s.size();
  char32_t v = len == 4 ? (c & 0x07) : len == 3 ? (c & 0x0F) : (c & 0x1F);
  for (size_t i = 1; i < len; ++i) v = (v << 6) | (b(i) & 0x3F);
  cp = v;
  return len;
}

namespace {

// One step of UTF-8 validation at `i`: the length of the valid sequence there, or, when it is
// invalid, how many bytes form the invalid part (its "maximal subpart", at least 1).
struct Utf8Step {
  bool valid;
  size_t length;
};

Utf8Step utf8_step(std::string_view in, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(in[k]); };
  unsigned char c = byte(i);
  if (c < 0x80) return {true, 1};
  size_t need = 0;
  char32_t cp = 0;
  char32_t min = 0;
  if (c >= 0xC2 && c <= 0xDF) {
    need = 1, cp = c & 0x1F, min = 0x80;
  } else if (c >= 0xE0 && c <= 0xEF) {
    need = 2, cp = c & 0x0F, min = 0x800;
  } else if (c >= 0xF0 && c <= 0xF4) {
    need = 3, cp = c & 0x07, min = 0x10000;
  } else {
    return {false, 1};
  }
  size_t k = 1;
  for (; k <= need && i + k < in.size() && is_continuation(byte(i + k)); ++k) {
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  if (k <= need || cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return {false, k};
  return {true, need + 1};
}

}  // namespace

std::string to_valid_utf8(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  size_t i = 0;
  while (i < in.size()) {
    Utf8Step step = utf8_step(in, i);
    if (step.valid) {
      out.append(in.substr(i, step.length));
    } else {
      append_utf8(out, 0xFFFD);
    }
    i += step.length;
  }
  return out;
}

size_t find_invalid_utf8(std::string_view bytes) {
  for (size_t i = 0; i < bytes.size();) {
    Utf8Step step = utf8_step(bytes, i);
    if (!step.valid) return i;
    i += step.length;
  }
  return std::string_view::npos;
}

bool is_js_whitespace(char32_t cp) {
  switch (cp) {
    case 0x09: case 0x0A: case 0x0B: case 0x0C: case 0x0D: case 0x20:
    case 0xA0: case 0x1680: case 0x2028: case 0x2029: case 0x202F:
    case 0x205F: case 0x3000: case 0xFEFF:
      return true;
    default:
      return cp >= 0x2000 && cp <= 0x200A;
  }
}

std::string_view js_trim_start(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    char32_t cp;
    size_t n = decode_utf8(s.substr(i), cp);
    if (!is_js_whitespace(cp)) break;
    i += n;
  }
  return s.substr(i);
}

std::string_view js_trim_end(std::string_view s) {
  size_t end = s.size();
  while (end > 0) {
    size_t j = end - 1;
    while (j > 0 && is_continuation(static_cast<unsigned char>(s[j]))) --j;
    char32_t cp;
    decode_utf8(s.substr(j, end - j), cp);
    if (!is_js_whitespace(cp)) break;
    end = j;
  }
  return s.substr(0, end);
}

std::string_view js_trim(std::string_view s) { return js_trim_end(js_trim_start(s)); }

}  // namespace clawexec
