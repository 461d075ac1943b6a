// Corpus generation for the analyzer-vs-shell differential test (see corpus.h).

#include "corpus.h"

#include <array>
#include <string_view>

namespace clawexec::differential {
namespace {

// Unquoted word characters, the tricky ones included: CR/VT/FF and other control bytes,
// non-ASCII (valid and invalid UTF-8), '#' (a comment only at a word start), '~', '=' and ':'
// (tilde positions), '!', ']' and '}' (plain alone), and the glob/brace openers.
constexpr std::array<std::string_view, 51> kPlain = {
    "if", "then", "!", "{", "}", "[[", "]]",
    "a", "b", "Z", "0", "9", "_", "-", ".", ",", "/", "+", "%", "@", ":", "=", "^", "!", "]", "}", "#", "~",
    "*", "?", "[", "{", "\r", "\v", "\f", "\x01", "\x1b", "\x7f", "\xc3\xa9", "\xff", "\xe2\x80\xae", "x",
    "y", "-c", "--", "=", "e", "\x1c", "c", "%", "a"};

// Characters a backslash may escape outside quotes (a newline makes a line continuation).
constexpr std::array<std::string_view, 16> kEscaped = {"a", " ", "'", "\"", "$", "\\", "#", "\r", "\n", "*", "~",
                                                        ";", "|", "&", "{", "!"};

constexpr std::array<std::string_view, 48> kAnsiEscapes = {
    "\\n",     "\\t",      "\\r",   "\\a",     "\\b",     "\\e",      "\\E",     "\\f",      "\\v",  "\\\\",
    "\\'",     "\\\"",     "\\?",   "\\q",     "\\8",     "\\x41",    "\\x4",    "\\xg",     "\\x",  "\\x{63}",
    "\\x{4142}", "\\x{}",  "\\x{41zz}", "\\0",  "\\101",   "\\0101",   "\\777",   "\\cA",     "\\ca", "\\c?",
    "\\c[",    "\\c\\\\",  "\\c",   "\\u0041", "\\u00e9", "\\U0001F600", "\\u",   "\\U",      "\\x2d", "\\x{2d}",
    "\\143",   "\\x63",    "\\c@",  "\\x27",   "\\u002d", " ",        "-",       "\\x{0000000063}"};

constexpr std::array<std::string_view, 10> kExpansions = {"$x", "${x}", "${x:-a}", "$(p)", "`p`", "$((1))",
                                                           "\"$x\"", "${y:-$(p z)}", "$1", "$@"};

}  // namespace

std::string CorpusGenerator::plain_char() { return std::string(kPlain[below(kPlain.size())]); }

std::string CorpusGenerator::ansi_c() {
  std::string out = "$'";
  size_t n = below(4);
  for (size_t i = 0; i < n; ++i) {
    if (chance(60)) {
      out += kAnsiEscapes[below(kAnsiEscapes.size())];
    } else {
      std::string c = plain_char();
      if (c != "\\") out += c;
    }
  }
  return out + "'";
}

std::string CorpusGenerator::double_quoted() {
  static constexpr std::array<std::string_view, 16> kInside = {
      "a", " ", "'", "\\\\", "\\\"", "\\$", "\\`", "\\a", "\\\n", "$%", "$,", "#", "*", "~", "\r", "\xc3\xa9"};
  std::string out = "\"";
  size_t n = below(4);
  for (size_t i = 0; i < n; ++i) out += kInside[below(kInside.size())];
  if (chance(5)) out += "$";  // a lone $ before the closing quote stays a $
  return out + "\"";
}

std::string CorpusGenerator::word_piece() {
  switch (below(20)) {
    case 0:
    case 1:
    case 2:
    case 3: {
      std::string s;
      size_t n = 1 + below(3);
      for (size_t i = 0; i < n; ++i) s += plain_char();
      return s;
    }
    case 4:
    case 5:
      return "\\" + std::string(kEscaped[below(kEscaped.size())]);
    case 6:
    case 7:
    case 8: {
      static constexpr std::array<std::string_view, 12> kInside = {"a", " ", "\"", "\\", "$x", "`", "\n", "\t",
                                                                   ";&|", "#", "\r", "\xff"};
      std::string s = "'";
      size_t n = below(4);
      for (size_t i = 0; i < n; ++i) s += kInside[below(kInside.size())];
      return s + "'";
    }
    case 9:
    case 10:
      return double_quoted();
    case 11:
    case 12:
    case 13:
      return ansi_c();
    case 14:
      return "$\"a" + plain_char() + "\"";
    case 15:
      return chance(50) ? "{a,b}" : "[ab]";
    case 16:
      return std::string(kExpansions[below(kExpansions.size())]);
    case 17:
      return "$";  // a literal dollar sign, unless what follows makes it an expansion
    default:
      return plain_char();
  }
}

std::string CorpusGenerator::word() {
  std::string out;
  size_t n = 1 + below(3);
  for (size_t i = 0; i < n; ++i) out += word_piece();
  return out;
}

std::string CorpusGenerator::simple_command(bool last) {
  std::string out;
  if (chance(8)) out += "x=" + word() + " ";
  switch (below(17)) {
    case 14: out += "time "; break;     // a bash keyword, GNU time for dash
    case 15: out += "coproc "; break;   // a bash keyword
    case 16: out += "{ "; break;        // a group opener (or, glued, a word)
    case 0: out += "env "; break;
    case 1: out += "nice -n 1 "; break;
    case 2: out += "timeout 5 "; break;
    case 3: out += "command "; break;
    case 4:
      if (last) out += "exec ";
      break;
    default: break;
  }
  switch (below(8)) {
    case 0: out += "'p'"; break;
    case 1: out += "\"q\""; break;
    case 2: out += "\\p"; break;
    case 3: out += "$'q'"; break;
    default: out += chance(50) ? "p" : "q"; break;
  }
  size_t n = below(5);
  for (size_t i = 0; i < n; ++i) {
    out += chance(85) ? " " : "\t";
    out += word();
  }
  return out;
}

std::string CorpusGenerator::pipeline(bool last) {
  std::string out;
  if (chance(8)) out += "! ";
  out += simple_command(last);
  if (chance(20)) {
    out += chance(80) ? " | " : " |& ";
    out += simple_command(last);
  }
  return out;
}

std::string CorpusGenerator::command() {
  static constexpr std::array<std::string_view, 8> kOps = {" ; ", " && ", " || ", "\n", "\r\n", ";", "&&", "\n\n"};
  std::string out;
  if (chance(5)) out += "x=" + word() + "; ";  // a standalone assignment (never analysed through)
  size_t n = 1 + below(3);
  for (size_t i = 0; i < n; ++i) {
    if (i) out += kOps[below(kOps.size())];
    out += pipeline(i + 1 == n);
  }
  switch (below(12)) {
    case 0: out += " # " + word(); break;   // a comment
    case 1: out += "\r#" + word(); break;   // CR is a word character: not a comment
    case 2: out += " #&& p c"; break;       // operators inside a comment
    case 3: out += ";"; break;
    default: break;
  }
  return out;
}

}  // namespace clawexec::differential
