// Escaping text for a human reader (display_escape.h).
//
// Problem: a terminal or chat client interprets some characters instead of showing them: ESC
// sequences erase lines and move the cursor, CR returns to the line start, bidi overrides
// reorder what follows, zero-width and other ignorable characters vanish, invalid UTF-8
// becomes U+FFFD or worse. An agent that controls a command's text can use any of them to
// make an approval prompt show something other than what runs.
//
// Approach: one pass over the bytes with the WHATWG decoder step of the output sanitizer;
// every character in the deceptive classes becomes a visible escape, and a literal backslash
// is doubled exactly where it could otherwise be read as the start of one, so the escaped text
// decodes back to the original unambiguously.

#include "term/display_escape.h"

#include <cstdio>

#include "term/text_scan.h"
#include "term/unicode_format.h"
#include "term/unicode_marks.h"

namespace clawexec::term {
namespace {

using internal::decode_utf8_step;
using internal::Utf8Step;

// Default-ignorable code points that are not Cf (rendered as nothing by most fonts), the line
// and paragraph separators, and the space separators other than U+0020 (they look like a word
// break to a reader, but the shell does not split on them).
bool is_invisible_or_separator(char32_t cp) {
  switch (cp) {
    case 0x00A0: case 0x034F: case 0x115F: case 0x1160: case 0x1680: case 0x17B4: case 0x17B5:
    case 0x2028: case 0x2029: case 0x202F: case 0x205F: case 0x3000: case 0x3164: case 0xFFA0:
      return true;
    default:
      break;
  }
  return (cp >= 0x180B && cp <= 0x180F) || (cp >= 0x2000 && cp <= 0x200A) || (cp >= 0xFFF0 && cp <= 0xFFF8) ||
         (cp >= 0xE0000 && cp <= 0xE00FF) || (cp >= 0xE01F0 && cp <= 0xE0FFF);
}

bool is_variation_selector(char32_t cp) { return (cp >= 0xFE00 && cp <= 0xFE0F) || (cp >= 0xE0100 && cp <= 0xE01EF); }

// A variation selector only changes how the character before it is drawn (emoji or text
// style, an ideographic variant); it stays after a character that can have variants (any
// non-ASCII character, or a keycap base 0-9 # *) and is shown escaped anywhere else, where it
// would only make two different strings look the same.
bool selects_a_variant_of(char32_t previous) {
  return previous >= 0x80 || (previous >= '0' && previous <= '9') || previous == '#' || previous == '*';
}

// Combining marks shown in a row after one character. Real text stacks two or three (Vietnamese
// tone over a vowel mark, Tibetan stacks); a longer stack is drawn far above or below its line
// and can cover what the operator needs to read, so the marks past this many are escaped.
constexpr int kMaxStackedMarks = 4;

bool is_escaped_code_point(char32_t cp, DisplayStyle style) {
  if (cp == '\n') return style == DisplayStyle::kField;
  if (cp < 0x20 || cp == 0x7F) return true;
  if (cp < 0x80) return false;
  return cp <= 0x9F || is_format_code_point(cp) || is_invisible_or_separator(cp);
}

struct Step {
  Utf8Step::Kind kind;
  size_t length;
  char32_t cp;
};

// One character, or one invalid maximal subpart (a sequence cut by the end is invalid too).
Step step_at(std::string_view text, size_t i) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data()) + i;
  const auto* end = reinterpret_cast<const unsigned char*>(text.data()) + text.size();
  Utf8Step s = decode_utf8_step(p, end);
  if (s.kind == Utf8Step::Kind::kIncomplete) return {Utf8Step::Kind::kInvalid, static_cast<size_t>(end - p), 0};
  return {s.kind, s.length, s.cp};
}

// Whether a backslash right before position `i` must be doubled to stay itself.
bool backslash_needs_doubling(std::string_view text, size_t i, DisplayStyle style) {
  if (style == DisplayStyle::kJsonText || i >= text.size()) return false;
  switch (text[i]) {
    case '\\': case 'e': case 'n': case 'r': case 't': case 'x': case 'u':
      return true;
    default:
      break;
  }
  Step next = step_at(text, i);
  return next.kind == Utf8Step::Kind::kInvalid || is_escaped_code_point(next.cp, style);
}

void append_hex_byte(std::string& out, unsigned char byte) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\x";
  out += kHex[byte >> 4];
  out += kHex[byte & 0xF];
}

void append_escape(std::string& out, char32_t cp) {
  switch (cp) {
    case '\t': out += "\\t"; return;
    case '\n': out += "\\n"; return;
    case '\r': out += "\\r"; return;
    case 0x1B: out += "\\e"; return;
    default:
      break;
  }
  if (cp < 0x80) return append_hex_byte(out, static_cast<unsigned char>(cp));
  char buf[16];
  std::snprintf(buf, sizeof buf, "\\u{%04X}", static_cast<unsigned>(cp));
  out += buf;
}

}  // namespace

std::string escape_for_display(std::string_view text, DisplayStyle style) {
  std::string out;
  out.reserve(text.size());
  char32_t shown_before = 0;  // the previous character if it was shown as itself, else 0
  int stacked_marks = 0;      // combining marks shown since that character's base
  size_t i = 0;
  while (i < text.size()) {
    const unsigned char byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x20 && byte < 0x7F) {
      out += static_cast<char>(byte);
      if (byte == '\\' && backslash_needs_doubling(text, i + 1, style)) out += '\\';
      shown_before = byte;
      stacked_marks = 0;
      ++i;
      continue;
    }
    Step s = step_at(text, i);
    if (s.kind == Utf8Step::Kind::kInvalid) {
      for (size_t k = 0; k < s.length; ++k) append_hex_byte(out, static_cast<unsigned char>(text[i + k]));
      shown_before = 0;
      stacked_marks = 0;
    } else if (is_escaped_code_point(s.cp, style) ||
               (is_variation_selector(s.cp) && !selects_a_variant_of(shown_before)) ||
               // a mark with no base shown before it would be drawn over the text around the
               // value (a quote, the previous escape); one past the stack limit over its line
               (is_combining_mark(s.cp) && !is_variation_selector(s.cp) &&
                (shown_before == 0 || stacked_marks >= kMaxStackedMarks))) {
      append_escape(out, s.cp);
      shown_before = 0;
      stacked_marks = 0;
    } else {
      out.append(text.substr(i, s.length));
      shown_before = s.cp;
      stacked_marks = is_combining_mark(s.cp) ? stacked_marks + 1 : 0;
    }
    i += s.length;
  }
  return out;
}

bool is_display_safe(std::string_view text) { return escape_for_display(text) == text; }

}  // namespace clawexec::term
