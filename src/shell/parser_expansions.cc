// Bash parsing, part 5: expansions that are skipped rather than recorded as words.
//
// Problem: arithmetic ($((...)), $[...], ((...))), ${...} and heredoc bodies are not
// commands, but substitutions inside them are; and tree-sitter-bash, whose verdict the
// reference relies on, is strict about arithmetic (operands must be separated by operators)
// yet reads "$((cmd ...))" inside arithmetic, ${...} and heredocs as "$(" plus a subshell.
//
// Approach: small scanners that honour each construct's quoting, descend into every
// substitution with the main parser, and report tree-sitter-only rejections as quirks.
// A failed arithmetic reading is retried as a substitution at most once per position.

#include <algorithm>
#include <utility>

#include "shell/parser_internal.h"

namespace clawexec::shell::detail {
namespace {

bool is_name_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

}  // namespace

Result<void> Parser::skip_arithmetic(std::string_view close) {
  ArithmeticScan scan;
  while (true) {
    if (at_end()) return fail("unterminated arithmetic expression");
    if (scan.depth == 0 && starts_with(close)) {
      pos_ += close.size();
      return {};
    }
    TRY(skip_arithmetic_token(scan));
  }
}

// Operands (names, numbers, expansions, quoted text, parenthesised groups) must be separated
// by operators: tree-sitter-bash rejects "$((a b))" (bash, too, fails to evaluate it).
Result<void> Parser::skip_arithmetic_token(ArithmeticScan& scan) {
  char c = peek();
  bool continues_operator = scan.in_operator;
  scan.in_operator = false;
  bool operand = is_name_char(c) || c == '\'' || c == '"' || c == '`' ||
                 (c == '$' && dollar_expansion_at(pos_, false));
  if (operand) {
    if (scan.after_operand) quirk("missing operator in arithmetic expression");
    scan.after_operand = true;
    count(1);
  }
  if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
    ++pos_;
  } else if (is_name_char(c)) {
    while (!at_end() && (is_name_char(peek()) || peek() == '#')) ++pos_;
    if (peek() == '[') {  // a[i]
      size_t close_bracket = src_.find(']', pos_);
      if (close_bracket == std::string_view::npos) return fail("unterminated subscript");
      ++pos_;
      TRY(scan_expansions_until(close_bracket));
      pos_ = close_bracket + 1;
    }
  } else if (c == '(' || c == ')') {
    if (c == ')' && scan.depth == 0) return fail("unbalanced parenthesis in arithmetic expression");
    scan.depth += c == '(' ? 1 : -1;
    scan.after_operand = c == ')';
    ++pos_;
  } else if (c == '\'') {
    size_t end = src_.find('\'', pos_ + 1);
    if (end == std::string_view::npos) return fail("unterminated single quote");
    pos_ = end + 1;
  } else if (c == '"') {
    TRY(read_double_quoted());
  } else if (c == '`') {
    TRY(read_backquote());
  } else if (operand) {
    TRY(read_dollar_lenient());
  } else {
    // Before an operand only unary operators may appear.
    if (!scan.after_operand && !continues_operator && c != '+' && c != '-' && c != '!' &&
        c != '~') {
      quirk("operator without a left operand in arithmetic expression");
    }
    if (c == '\\') quirk("backslash in arithmetic expression");
    if (!continues_operator) count(1);
    scan.after_operand = false;
    scan.in_operator = true;
    ++pos_;
  }
  return {};
}

Result<WordPart> Parser::read_dollar_lenient() {
  if (!starts_with("$((")) return read_dollar();
  // Positions already known not to be arithmetic are not tried again: without this, nested
  // "$((" would be explored twice per level (exponential time).
  bool known_not_arithmetic =
      std::find(not_arithmetic_.begin(), not_arithmetic_.end(), pos_) != not_arithmetic_.end();
  // Try arithmetic first; if that does not parse, read "$(" followed by a subshell. Undo
  // everything the failed attempt recorded.
  size_t saved_pos = pos_, saved_commands = out_.commands.size(), saved_nodes = out_.syntax_nodes;
  size_t saved_substitutions = out_.substitutions.size();
  ScriptFeatures saved_features = out_.features;
  std::vector<PendingHeredoc> saved_heredocs = heredocs_;
  unsigned saved_nesting = nesting_, saved_quirks = quirks_;
  std::string saved_reference_error = out_.reference_syntax_error;
  if (!known_not_arithmetic) {
    Result<WordPart> arithmetic = read_dollar();
    if (arithmetic && quirks_ == saved_quirks) return arithmetic;
    not_arithmetic_.push_back(saved_pos);
  }
  pos_ = saved_pos;
  quirks_ = saved_quirks;
  out_.reference_syntax_error = std::move(saved_reference_error);
  out_.commands.resize(saved_commands);
  out_.substitutions.resize(saved_substitutions);
  out_.syntax_nodes = saved_nodes;
  out_.features = saved_features;
  heredocs_ = std::move(saved_heredocs);
  nesting_ = saved_nesting;
  pos_ += 2;
  TRY(parse_substitution_body(CommandContext::kCommandSubstitution));
  out_.features.add(ScriptFeature::kCommandSubstitution);
  out_.substitutions.push_back({base_ + saved_pos, base_ + pos_, false});
  count(3);
  WordPart part;
  part.kind = WordPartKind::kCommandSubstitution;
  part.text = std::string(src_.substr(saved_pos, pos_ - saved_pos));
  part.value = part.text;
  part.has_expansion = true;
  return part;
}

Result<void> Parser::skip_braced_parameter() {
  while (true) {
    if (at_end()) return fail("unterminated ${...} expansion");
    char c = peek();
    if (c == '}') {
      ++pos_;
      return {};
    }
    if (c == '\\') {
      pos_ = std::min(pos_ + 2, src_.size());
    } else if (c == '\'' && !in_double_quotes_) {  // inside "...", a ' is an ordinary character
      size_t end = src_.find('\'', pos_ + 1);
      if (end == std::string_view::npos) return fail("unterminated single quote");
      pos_ = end + 1;
    } else if (c == '"') {
      TRY(read_double_quoted());
    } else if (c == '`') {
      TRY(read_backquote());
    } else if (c == '$' && dollar_expansion_at(pos_, false)) {
      TRY(read_dollar_lenient());
    } else {
      ++pos_;
    }
  }
}

Result<void> Parser::scan_expansions_until(size_t end, ExpansionScan mode) {
  while (pos_ < end) {
    char c = peek();
    if (c == '\\') {
      pos_ = std::min(pos_ + 2, end);
    } else if (mode == ExpansionScan::kHeredoc && starts_with("$((")) {
      size_t start = pos_;
      pos_ += 2;
      TRY(parse_substitution_body(CommandContext::kCommandSubstitution));
      out_.features.add(ScriptFeature::kCommandSubstitution);
      out_.substitutions.push_back({base_ + start, base_ + pos_, false});
      count(3);
    } else if (c == '`' && mode != ExpansionScan::kHeredoc) {  // tree-sitter-bash: not in heredocs
      TRY(read_backquote());
    } else if (c == '$' && dollar_expansion_at(pos_, true)) {
      TRY(read_dollar());
      if (mode == ExpansionScan::kHeredoc) count(1);  // the heredoc_content node after it
    } else {
      ++pos_;
    }
  }
  return {};
}

}  // namespace clawexec::shell::detail
