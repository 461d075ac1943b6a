// Word values: quote removal and escape decoding for the shell's word forms.
//
// Problem: the analyzer compares command names and arguments by the text the shell would pass,
// not by how they were written ('/approve' and \/approve are the same program), yet it must not
// expand anything (no environment, no file system). It also has to know which characters were
// quoted, because quoting turns operators and patterns into plain text.
//
// Approach: the parser splits a word into parts (unquoted runs, '...', "...", $'...', $"...",
// expansions); each part is decoded on its own and the word's value is their concatenation.
// Expansions keep their source text and make the word non-literal. The decoders follow bash's
// rules for each quoting form (and the reference explainer's, which are the same for the forms
// it decodes).

#include "shell/word.h"

#include <cstdint>

#include "base/utf.h"

namespace clawexec::shell {
namespace {

bool is_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

// Appends a code point decoded from an escape; values that are not Unicode scalar values
// (lone surrogates) become U+FFFD because UTF-8 cannot hold them.
void append_code_point(std::string& out, uint32_t cp) {
  if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;
  append_utf8(out, static_cast<char32_t>(cp));
}

char simple_ansi_escape(char c, bool& found) {
  found = true;
  switch (c) {
    case '\'':
      return '\'';
    case '"':
      return '"';
    case '?':
      return '?';
    case '\\':
      return '\\';
    case 'a':
      return '\x07';
    case 'b':
      return '\b';
    case 'e':
    case 'E':
      return '\x1B';
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
    default:
      found = false;
      return 0;
  }
}

// Decodes the escape starting at body[i] == '\\' (i + 1 < size); returns the index of the
// last character consumed.
size_t decode_ansi_escape(std::string_view body, size_t i, std::string& out) {
  char next = body[i + 1];
  bool found = false;
  char simple = simple_ansi_escape(next, found);
  if (found) {
    out += simple;
    return i + 1;
  }
  if (next == 'x' || next == 'u' || next == 'U') {
    size_t max_digits = next == 'x' ? 2 : next == 'u' ? 4 : 8;
    size_t start = i + 2, end = start;
    while (end < body.size() && end - start < max_digits && is_hex(body[end])) ++end;
    if (end > start) {
      uint64_t cp = 0;
      for (size_t k = start; k < end; ++k) cp = cp * 16 + static_cast<uint64_t>(hex_value(body[k]));
      if (cp > 0x10FFFF) {
        out += '\\';
        out.append(body.substr(i + 1, end - i - 1));
      } else {
        append_code_point(out, static_cast<uint32_t>(cp));
      }
      return end - 1;
    }
  }
  if (next >= '0' && next <= '7') {
    size_t end = i + 1;
    uint32_t cp = 0;
    while (end < body.size() && end - (i + 1) < 3 && body[end] >= '0' && body[end] <= '7') {
      cp = cp * 8 + static_cast<uint32_t>(body[end] - '0');
      ++end;
    }
    append_code_point(out, cp);
    return end - 1;
  }
  out += next;  // unknown escape: the character itself
  return i + 1;
}

void append_unquoted(std::string_view text, std::string& value, std::vector<bool>& quoted) {
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\\' && i + 1 < text.size()) {
      char next = text[i + 1];
      if (next == '\r' && i + 2 < text.size() && text[i + 2] == '\n') {
        i += 2;
        continue;
      }
      if (next == '\n' || next == '\r') {
        ++i;
        continue;
      }
      value += next;
      quoted.push_back(true);
      ++i;
      continue;
    }
    value += c;
    quoted.push_back(false);
  }
}

}  // namespace

std::string decode_unquoted(std::string_view text) {
  std::string value;
  std::vector<bool> quoted;
  append_unquoted(text, value, quoted);
  return value;
}

std::string decode_double_quoted(std::string_view text) {
  std::string_view body = text;
  if (!text.empty() && text.front() == '"' && text.back() == '"') {
    body = text.size() >= 2 ? text.substr(1, text.size() - 2) : std::string_view{};
  }
  std::string out;
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c == '\\' && i + 1 < body.size()) {
      char next = body[i + 1];
      if (next == '\r' && i + 2 < body.size() && body[i + 2] == '\n') {
        i += 2;
        continue;
      }
      if (next == '\\' || next == '"' || next == '$' || next == '`' || next == '\n' ||
          next == '\r') {
        if (next != '\n' && next != '\r') out += next;
        ++i;
        continue;
      }
    }
    out += c;
  }
  return out;
}

std::string decode_ansi_c(std::string_view text) {
  std::string_view body = text;
  if (text.size() >= 3 && text.substr(0, 2) == "$'" && text.back() == '\'') {
    body = text.substr(2, text.size() - 3);
  }
  std::string out;
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '\\') {
      out += body[i];
    } else if (i + 1 >= body.size()) {
      out += '\\';
    } else {
      i = decode_ansi_escape(body, i, out);
    }
  }
  return out;
}

bool has_unescaped_pattern(std::string_view text) {
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\\') {
      ++i;
      continue;
    }
    if (c == '*' || c == '?') return true;
    if (c == '[' || c == '{') {
      size_t close = text.find(c == '[' ? ']' : '}', i + 1);
      if (close != std::string_view::npos && close > i + 1) return true;
    }
  }
  return false;
}

bool Word::has_expansion() const {
  for (const WordPart& part : parts) {
    if (part.has_expansion) return true;
  }
  return false;
}

bool Word::is_literal() const {
  if (has_expansion()) return false;
  // Patterns count in unquoted text only, except that a word mixing several parts is
  // tested as a whole (the reference's rule; quoted '*' next to other text counts too).
  bool textual_pattern_test =
      parts.size() > 1 || (parts.size() == 1 && parts[0].kind == WordPartKind::kUnquoted);
  return !(textual_pattern_test && has_unescaped_pattern(text));
}

void finish_word(Word& word) {
  word.value.clear();
  word.quoted.clear();
  for (const WordPart& part : word.parts) {
    switch (part.kind) {
      case WordPartKind::kUnquoted:
        append_unquoted(part.text, word.value, word.quoted);
        break;
      case WordPartKind::kSingleQuoted:
      case WordPartKind::kDoubleQuoted:
      case WordPartKind::kAnsiC:
      case WordPartKind::kLocalized:
        word.value += part.value;
        word.quoted.insert(word.quoted.end(), part.value.size(), true);
        break;
      default:
        word.value += part.value;
        word.quoted.insert(word.quoted.end(), part.value.size(), false);
        break;
    }
  }
}

}  // namespace clawexec::shell
