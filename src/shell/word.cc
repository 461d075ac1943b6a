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

#include <algorithm>
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

bool simple_ansi_escape(char c, char& out) {
  switch (c) {
    case 'a': out = '\x07'; return true;
    case 'b': out = '\b'; return true;
    case 'e':
    case 'E': out = '\x1B'; return true;
    case 'f': out = '\f'; return true;
    case 'n': out = '\n'; return true;
    case 'r': out = '\r'; return true;
    case 't': out = '\t'; return true;
    case 'v': out = '\v'; return true;
    case '\\': out = '\\'; return true;
    case '\'': out = '\''; return true;
    case '"': out = '"'; return true;
    case '?': out = '?'; return true;
    default: return false;
  }
}

// One escape of an ANSI-C string, as bash 5.2's ansicstr() decodes it: body[i] is the
// backslash and body[i + 1] exists. Appends the decoded bytes (a NUL byte for escapes that
// produce one) and returns the index of the last character consumed.
size_t decode_ansi_escape(std::string_view body, size_t i, std::string& out, bool& uncertain) {
  const char next = body[i + 1];
  if (char simple = 0; simple_ansi_escape(next, simple)) {
    out += simple;
    return i + 1;
  }
  if (next >= '0' && next <= '7') {  // up to three octal digits; the value is one byte
    size_t end = i + 1;
    unsigned value = 0;
    while (end < body.size() && end - (i + 1) < 3 && body[end] >= '0' && body[end] <= '7') {
      value = value * 8 + static_cast<unsigned>(body[end] - '0');
      ++end;
    }
    out += static_cast<char>(value & 0xFF);
    return end - 1;
  }
  if (next == 'x') {
    size_t start = i + 2;
    bool braced = start < body.size() && body[start] == '{';
    if (braced) ++start;
    size_t end = start;
    unsigned value = 0;  // only the low byte counts (bash keeps one byte)
    while (end < body.size() && (braced || end - start < 2) && is_hex(body[end])) {
      value = (value * 16 + static_cast<unsigned>(hex_value(body[end]))) & 0xFF;
      ++end;
    }
    if (braced) {  // "\x{" always yields a byte (NUL without digits); a "}" is consumed
      if (end < body.size() && body[end] == '}') ++end;
      out += static_cast<char>(value);
      return end - 1;
    }
    if (end == start) {  // "\x" without digits stays as written
      out += "\\x";
      return i + 1;
    }
    out += static_cast<char>(value);
    return end - 1;
  }
  if (next == 'u' || next == 'U') {
    size_t start = i + 2, end = start, max_digits = next == 'u' ? 4 : 8;
    uint64_t value = 0;
    while (end < body.size() && end - start < max_digits && is_hex(body[end])) {
      value = value * 16 + static_cast<uint64_t>(hex_value(body[end]));
      ++end;
    }
    if (end == start) {
      out += '\\';
      out += next;
      return i + 1;
    }
    if (value < 0x80) {
      out += static_cast<char>(value);
    } else {
      // bash converts to the locale's character set (UTF-8 here, "\uXXXX" text in the C
      // locale): the value depends on the environment the command runs in.
      uncertain = true;
      uint32_t cp = value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF) ? 0xFFFD : static_cast<uint32_t>(value);
      append_utf8(out, static_cast<char32_t>(cp));
    }
    return end - 1;
  }
  if (next == 'c') {
    if (i + 2 >= body.size()) {  // "\c" at the end stays as written
      out += "\\c";
      return i + 1;
    }
    size_t j = i + 2;
    if (body[j] == '\\' && j + 1 < body.size() && body[j + 1] == '\\') ++j;  // "\c\\" is control-backslash
    unsigned char c = static_cast<unsigned char>(body[j]);
    if (c >= 'a' && c <= 'z') c = static_cast<unsigned char>(c - 'a' + 'A');
    out += static_cast<char>(c == '?' ? 0x7F : (c & 0x1F));
    return j;
  }
  out += '\\';  // any other escape keeps its backslash
  out += next;
  return i + 1;
}

void append_unquoted(std::string_view text, std::string& value, std::vector<bool>& quoted) {
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\\' && i + 1 < text.size()) {
      char next = text[i + 1];
      if (next == '\n') {  // a line continuation (only LF; "\<CR>" is an escaped CR)
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
      if (next == '\\' || next == '"' || next == '$' || next == '`' || next == '\n') {
        if (next != '\n') out += next;
        ++i;
        continue;
      }
    }
    out += c;
  }
  return out;
}

AnsiCValue decode_ansi_c_value(std::string_view text) {
  std::string_view body = text;
  if (text.size() >= 3 && text.substr(0, 2) == "$'" && text.back() == '\'') {
    body = text.substr(2, text.size() - 3);
  }
  AnsiCValue out;
  // bash marks its own quoting with the bytes 0x01 and 0x7f and, after some escapes, passes a
  // raw one on doubled or changed; such a string's value is not predicted.
  if (body.find_first_of("\x01\x7f") != std::string_view::npos) out.uncertain = true;
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '\\') {
      out.value += body[i];
    } else if (i + 1 >= body.size()) {
      out.value += '\\';
    } else {
      i = decode_ansi_escape(body, i, out.value, out.uncertain);
    }
    // bash ends the string at a decoded NUL byte: the rest of $'...' is dropped.
    size_t nul = out.value.find('\0');
    if (nul != std::string::npos) {
      out.value.resize(nul);
      out.truncated = true;
      break;
    }
  }
  return out;
}

std::string decode_ansi_c(std::string_view text) { return decode_ansi_c_value(text).value; }

std::string single_quote(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '\'';
  for (char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  out += '\'';
  return out;
}

std::string format_exec_command(const std::vector<std::string>& argv) {
  std::string out;
  for (size_t i = 0; i < argv.size(); ++i) {
    if (i > 0) out += ' ';
    const std::string& a = argv[i];
    if (a.empty()) {
      out += "\"\"";
      continue;
    }
    // JavaScript's /\s|"/: any Unicode white space (U+00A0, U+2028, ...), not only ASCII.
    bool quote = a.find('"') != std::string::npos;
    for (size_t k = 0; !quote && k < a.size();) {
      char32_t cp = 0;
      size_t n = decode_utf8(std::string_view(a).substr(k), cp);
      if (is_js_whitespace(cp)) quote = true;
      k += n == 0 ? 1 : n;
    }
    if (!quote) {
      out += a;
      continue;
    }
    out += '"';
    for (char ch : a) {
      if (ch == '"') out += '\\';
      out += ch;
    }
    out += '"';
  }
  return out;
}

std::string quote_if_needed(std::string_view text) {
  bool bare = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '@' ||
           c == '%' || c == '+' || c == '=' || c == ':' || c == ',' || c == '.' || c == '/' || c == '-';
  });
  return bare ? std::string(text) : single_quote(text);
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
  for (const WordPart& part : parts) {
    if (part.uncertain) return false;
  }
  // Patterns count in unquoted text only, except that a word mixing several parts is
  // tested as a whole (the reference's rule; quoted '*' next to other text counts too).
  bool textual_pattern_test =
      parts.size() > 1 || (parts.size() == 1 && parts[0].kind == WordPartKind::kUnquoted);
  return !(textual_pattern_test && has_unescaped_pattern(text));
}

std::optional<std::string> exact_word_value(const Word& word) {
  for (const WordPart& part : word.parts) {
    if (part.has_expansion || part.uncertain) return std::nullopt;
  }
  if (word.quoted.size() != word.value.size()) return std::nullopt;
  bool after_assignment_char = false;  // an unquoted = or : came before (tilde after them)
  for (size_t i = 0; i < word.value.size(); ++i) {
    char c = word.value[i];
    if (c == '\0') return std::nullopt;
    if (word.quoted[i]) continue;
    switch (c) {
      case '*':
      case '?':
        return std::nullopt;  // pathname expansion
      case '[':  // a bracket pattern or a brace expansion needs its closing character later
      case '{':  // in the word (quoted or not, to stay on the safe side); alone it is plain text
        if (word.value.find(c == '[' ? ']' : '}', i + 1) != std::string::npos) return std::nullopt;
        break;
      case '~':
        if (i == 0 || after_assignment_char) return std::nullopt;  // tilde expansion
        break;
      case '=':
        if (i == 0) return std::nullopt;  // zsh's =command expansion
        after_assignment_char = true;
        break;
      case ':':
        after_assignment_char = true;
        break;
      default:
        break;
    }
  }
  return word.value;
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
