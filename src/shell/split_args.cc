// split_shell_args: the reference's light-weight argv splitter.
//
// Problem: several checks need "the words of this string" without full shell semantics, and
// must agree with the reference on exactly which words those are (including its quirks: a
// word starting with '#' ends the input even after an empty quoted word, empty words vanish,
// and white space means JavaScript's \s, so U+00A0 or U+3000 separate words too).
//
// Approach: one pass over code points with three states (escaped, single-quoted,
// double-quoted).

#include "shell/split_args.h"

#include "base/utf.h"

namespace clawexec::shell {
namespace {

bool is_double_quote_escape(char c) {
  return c == '\\' || c == '"' || c == '$' || c == '`' || c == '\n' || c == '\r';
}

}  // namespace

std::optional<Argv> split_shell_args(std::string_view raw) {
  Argv tokens;
  std::string buf;
  bool in_single = false, in_double = false, escaped = false;
  size_t i = 0;
  while (i < raw.size()) {
    char32_t cp = 0;
    size_t len = decode_utf8(raw.substr(i), cp);
    if (len == 0) len = 1;
    std::string_view ch = raw.substr(i, len);
    i += len;
    if (escaped) {
      buf += ch;
      escaped = false;
    } else if (in_single) {
      if (ch == "'")
        in_single = false;
      else
        buf += ch;
    } else if (in_double) {
      if (ch == "\\" && i < raw.size() && is_double_quote_escape(raw[i])) {
        buf += raw[i];
        ++i;
      } else if (ch == "\"") {
        in_double = false;
      } else {
        buf += ch;
      }
    } else if (ch == "\\") {
      escaped = true;
    } else if (ch == "'") {
      in_single = true;
    } else if (ch == "\"") {
      in_double = true;
    } else if (ch == "#" && buf.empty()) {
      break;
    } else if (is_js_whitespace(cp)) {
      if (!buf.empty()) tokens.push_back(std::move(buf));
      buf.clear();
    } else {
      buf += ch;
    }
  }
  if (escaped || in_single || in_double) return std::nullopt;
  if (!buf.empty()) tokens.push_back(std::move(buf));
  return tokens;
}

}  // namespace clawexec::shell
