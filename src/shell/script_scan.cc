// Checking a script's text for shell variables (reference §3.8 B).
//
// Problem: an agent that writes `payload = $DM_JSON` into a Python file expected a shell to
// substitute the value; the interpreter will not. The check must flag such code but leave
// `print("$HOME")` (a literal the author wanted) and `# $X` comments alone, which needs a small
// Python lexer: string prefixes (f/fr/rf make replacement fields live code), triple quotes,
// backslash escapes, `{{`/`}}`, nested brackets and format specs inside `{...}`, and `lambda`
// (whose `:` does not start a format spec). Node scripts get the reference's plain pattern
// search plus a check for a first line that is really a shell command (`NODE_...=` aside).
//
// Approach: one pass over the bytes with a stack of lexical contexts (code, string, format
// spec); every character that matters is ASCII, so UTF-8 needs no decoding except for the
// identifier test around `lambda`. Line numbers count \r\n, \r and \n as one break each.

#include <vector>

#include "base/utf.h"
#include "shell/script_inspection.h"

namespace clawexec::shell {
namespace {

struct ShellVariableHit {
  size_t offset = 0;
  std::string token;  // "$NAME"
};

bool is_upper_or_underscore(char c) { return (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_upper_digit_or_underscore(char c) { return is_upper_or_underscore(c) || (c >= '0' && c <= '9'); }
bool is_ascii_word(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

// `count` copies of `c` start at `at`.
bool repeated_at(std::string_view text, size_t at, char c, size_t count) {
  if (at + count > text.size()) return false;
  for (size_t k = 0; k < count; ++k) {
    if (text[at + k] != c) return false;
  }
  return true;
}

// The "$NAME" starting at `at` (NAME at least `min_name` characters long), or empty.
std::string shell_variable_at(std::string_view text, size_t at, size_t min_name) {
  if (at + 1 >= text.size() || text[at] != '$' || !is_upper_or_underscore(text[at + 1])) return {};
  size_t end = at + 2;
  while (end < text.size() && is_upper_digit_or_underscore(text[end])) ++end;
  if (end - at - 1 < min_name) return {};
  return std::string(text.substr(at, end - at));
}

// Whether the UTF-16 unit next to a position is a Python identifier character (the reference
// tests \p{ID_Continue} on one unit). ASCII is exact; other BMP characters count as identifier
// characters unless they are white space (close enough for the rare non-ASCII neighbour of
// `lambda`); a neighbouring astral character is a lone surrogate there, which never matches.
bool identifier_code_point(char32_t cp) {
  if (cp < 0x80) return is_ascii_word(static_cast<char>(cp));
  return cp < 0x10000 && !is_js_whitespace(cp);
}

bool identifier_before(std::string_view text, size_t at) {
  if (at == 0) return false;
  size_t start = at - 1;
  while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
  char32_t cp = 0;
  decode_utf8(text.substr(start, at - start), cp);
  return identifier_code_point(cp);
}

bool identifier_at(std::string_view text, size_t at) {
  if (at >= text.size()) return false;
  char32_t cp = 0;
  decode_utf8(text.substr(at), cp);
  return identifier_code_point(cp);
}

// A quote at `quote` opens an f-string when the prefix before it is f, fr or rf (any case) and
// that prefix is not the tail of a longer name.
bool opens_formatted_string(std::string_view text, size_t quote) {
  auto is_f = [](char c) { return c == 'f' || c == 'F'; };
  auto is_r = [](char c) { return c == 'r' || c == 'R'; };
  auto starts_word = [&](size_t prefix_start) { return prefix_start == 0 || !is_ascii_word(text[prefix_start - 1]); };
  if (quote >= 1 && is_f(text[quote - 1]) && starts_word(quote - 1)) return true;
  if (quote >= 2) {
    char a = text[quote - 2], b = text[quote - 1];
    if (((is_f(a) && is_r(b)) || (is_r(a) && is_f(b))) && starts_word(quote - 2)) return true;
  }
  return false;
}

struct LexContext {
  enum class Kind { kCode, kString, kFormatSpec };
  Kind kind = Kind::kCode;
  // kCode inside a replacement field: the closers still expected, outermost "}" first.
  bool in_field = false;
  std::vector<char> closers;
  bool lambda_pending = false;
  // kString:
  char quote = '"';
  bool triple = false;
  bool formatted = false;
};

LexContext field_code() {
  LexContext c;
  c.in_field = true;
  c.closers.push_back('}');
  return c;
}

// Advances past one character of a string literal; pops the context when the string ends.
size_t step_string(std::string_view text, size_t i, std::vector<LexContext>& stack) {
  const LexContext s = stack.back();
  const size_t delimiter = s.triple ? 3 : 1;
  char c = text[i];
  char next = i + 1 < text.size() ? text[i + 1] : '\0';
  if (repeated_at(text, i, s.quote, delimiter)) {
    stack.pop_back();
    return i + delimiter;
  }
  if (s.formatted && c == '\\' && next == '{') return i + 1;  // the brace is then read normally
  if (c == '\\') return i + ((next == '\r' && i + 2 < text.size() && text[i + 2] == '\n') ? 3 : 2);
  if (!s.triple && (c == '\n' || c == '\r')) {  // an unterminated one-line string ends here
    stack.pop_back();
    return i + 1;
  }
  if (s.formatted && ((c == '{' && next == '{') || (c == '}' && next == '}'))) return i + 2;
  if (s.formatted && c == '{') stack.push_back(field_code());
  return i + 1;
}

// Tracks brackets, `lambda` and the format-spec colon inside a replacement field.
void step_field_code(std::string_view text, size_t i, std::vector<LexContext>& stack) {
  LexContext& code = stack.back();
  char c = text[i];
  if (code.closers.size() == 1 && !identifier_before(text, i) && text.compare(i, 6, "lambda") == 0 &&
      !identifier_at(text, i + 6)) {
    code.lambda_pending = true;
  }
  char closer = c == '(' ? ')' : c == '[' ? ']' : c == '{' ? '}' : '\0';
  if (closer != '\0') {
    code.closers.push_back(closer);
  } else if (code.closers.back() == c) {
    code.closers.pop_back();
    if (code.closers.empty()) stack.pop_back();
  } else if (c == ':' && code.closers.size() == 1) {
    if (code.lambda_pending) {
      code.lambda_pending = false;
    } else {
      LexContext spec;
      spec.kind = LexContext::Kind::kFormatSpec;
      stack.back() = spec;
    }
  }
}

std::optional<ShellVariableHit> find_python_shell_variable(std::string_view text) {
  std::vector<LexContext> stack(1);
  size_t i = 0;
  while (i < text.size()) {
    LexContext& top = stack.back();
    char c = text[i];
    if (top.kind == LexContext::Kind::kString) {
      i = step_string(text, i, stack);
      continue;
    }
    if (top.kind == LexContext::Kind::kFormatSpec) {
      if (c == '{') {
        stack.push_back(field_code());
      } else if (c == '}') {
        stack.pop_back();
      }
      ++i;
      continue;
    }
    if (c == '#') {  // a comment runs to the end of its line; the break is skipped too
      size_t eol = text.find_first_of("\r\n", i + 1);
      i = eol == std::string_view::npos ? text.size() : eol + 1;
      continue;
    }
    if (c == '\'' || c == '"') {
      LexContext s;
      s.kind = LexContext::Kind::kString;
      s.quote = c;
      s.triple = repeated_at(text, i, c, 3);
      s.formatted = opens_formatted_string(text, i);
      i += s.triple ? 3 : 1;
      stack.push_back(s);
      continue;
    }
    if (top.in_field) step_field_code(text, i, stack);
    if (c == '$') {
      std::string token = shell_variable_at(text, i, 1);
      if (!token.empty()) return ShellVariableHit{i, std::move(token)};
    }
    ++i;
  }
  return std::nullopt;
}

std::optional<ShellVariableHit> find_node_shell_variable(std::string_view text) {
  for (size_t i = text.find('$'); i != std::string_view::npos; i = text.find('$', i + 1)) {
    std::string token = shell_variable_at(text, i, 2);
    if (!token.empty()) return ShellVariableHit{i, std::move(token)};
  }
  return std::nullopt;
}

size_t line_of(std::string_view text, size_t offset) {
  size_t line = 1;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 >= offset || text[i + 1] != '\n'))) ++line;
  }
  return line;
}

std::string injection_message(ScriptLanguage language, const ShellVariableHit& hit, std::string_view text,
                              std::string_view display_name) {
  const bool python = language == ScriptLanguage::kPython;
  const std::string name = hit.token.substr(1);
  std::string message = "exec preflight: detected likely shell variable injection (" + hit.token + ") in ";
  message += python ? "python" : "node";
  message += " script: ";
  message += display_name;
  message += ":" + std::to_string(line_of(text, hit.offset)) + ".\n";
  if (python) {
    message += "In Python, use os.environ.get(\"" + name + "\") instead of raw " + hit.token + ".\n";
  } else {
    message += "In Node.js, use process.env[\"" + name + "\"] instead of raw " + hit.token + ".\n";
  }
  message += "(If this is inside a string literal on purpose, escape it or restructure the code.)";
  return message;
}

// The first line (split at \n, a \r before it dropped) that is not blank, trimmed.
std::string_view first_non_blank_line(std::string_view text) {
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = js_trim(text.substr(start, end - start));
    if (!line.empty()) return line;
    start = end + 1;
  }
  return {};
}

bool starts_with_node_word(std::string_view line) {
  return line.substr(0, 4) == "NODE" && (line.size() == 4 || !is_ascii_word(line[4]));
}

}  // namespace

std::optional<std::string> scan_script_content(ScriptLanguage language, std::string_view content,
                                               std::string_view display_name) {
  const std::string text = to_valid_utf8(content);
  std::optional<ShellVariableHit> hit =
      language == ScriptLanguage::kPython ? find_python_shell_variable(text) : find_node_shell_variable(text);
  if (hit) return injection_message(language, *hit, text, display_name);
  if (language == ScriptLanguage::kNode) {
    std::string_view line = first_non_blank_line(text);
    if (starts_with_node_word(line)) {
      return "exec preflight: JS file starts with shell syntax (" + std::string(line) +
             "). This looks like a shell command, not JavaScript.";
    }
  }
  return std::nullopt;
}

}  // namespace clawexec::shell
