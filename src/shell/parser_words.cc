// Bash parsing, part 3: words, quoting and expansions.
//
// Problem: a word is where most of the shell's hiding places are. Quotes change which
// characters are operators; $(...), `...`, <(...), ${...}, $((...)) and unquoted heredoc
// bodies can all run commands; and the command name itself may be assembled from pieces.
//
// Approach: read_word walks one word and records it as parts (see word.h). Whenever a part
// can contain commands, the body is parsed right there with the same parser (or, for `...`,
// a sub-parser over the raw text between the backquotes, which is what tree-sitter-bash
// parses too), so nested commands land in Script::commands with their context. Constructs
// that only need to be skipped (arithmetic, ${...}) are scanned with their own quoting rules
// and still descend into any substitution inside them.

#include <utility>

#include "shell/parser_internal.h"

namespace clawexec::shell::detail {
namespace {

bool is_name_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9'); }
bool is_special_parameter(char c) {
  return c == '@' || c == '*' || c == '#' || c == '?' || c == '$' || c == '!' || c == '-';
}

WordPart make_part(WordPartKind kind, std::string_view text, bool expansion) {
  WordPart part;
  part.kind = kind;
  part.text = std::string(text);
  part.value = part.text;
  part.has_expansion = expansion;
  return part;
}

}  // namespace

bool Parser::dollar_expansion_at(size_t i, bool in_double_quotes) const {
  if (i + 1 >= src_.size()) return false;
  char next = src_[i + 1];
  if (next == '(' || next == '{' || next == '[') return true;
  // $'...' and $"..." are bash's; dash reads a literal "$" before an ordinary quote.
  if (next == '\'' || next == '"') return !in_double_quotes && dialect_ == ShellDialect::kBash;
  return is_name_start(next) || (next >= '0' && next <= '9') || is_special_parameter(next);
}

Result<Word> Parser::read_word() {
  Word word;
  size_t start = pos_;
  word.offset = base_ + start;
  size_t run_start = std::string_view::npos;
  auto flush = [&] {
    if (run_start == std::string_view::npos) return;
    word.parts.push_back(
        make_part(WordPartKind::kUnquoted, src_.substr(run_start, pos_ - run_start), false));
    run_start = std::string_view::npos;
  };
  while (!at_end()) {
    char c = peek();
    // bash's and dash's metacharacters (besides < and >, handled below): CR, VT and FF are
    // ordinary word characters for both shells.
    if (c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|' || c == '(' || c == ')') {
      break;
    }
    if (c == '<' || c == '>') {
      if (peek(1) != '(' || pos_ != start) break;
      word.parts.push_back(TRY(read_process_substitution()));
      continue;
    }
    if (c == '\\') {
      if (run_start == std::string_view::npos) run_start = pos_;
      if (pos_ + 1 >= src_.size()) {
        quirk("backslash at end of input");  // bash keeps it as a literal backslash
        ++pos_;
        continue;
      }
      pos_ += 2;
      continue;
    }
    if (c == '\'' || c == '"' || c == '`' || (c == '$' && dollar_expansion_at(pos_, false))) {
      flush();
      word.parts.push_back(TRY(c == '\''  ? read_single_quoted()
                               : c == '"' ? read_double_quoted()
                               : c == '`' ? read_backquote()
                                          : read_dollar()));
      continue;
    }
    if (run_start == std::string_view::npos) run_start = pos_;
    ++pos_;
  }
  flush();
  if (word.parts.empty()) return fail("expected a word");
  word.text = std::string(src_.substr(start, pos_ - start));
  finish_word(word);
  return word;
}

Result<WordPart> Parser::read_single_quoted() {
  size_t close = src_.find('\'', pos_ + 1);
  if (close == std::string_view::npos) return fail("unterminated single quote");
  WordPart part =
      make_part(WordPartKind::kSingleQuoted, src_.substr(pos_, close + 1 - pos_), false);
  part.value = std::string(src_.substr(pos_ + 1, close - pos_ - 1));
  pos_ = close + 1;
  return part;
}

Result<WordPart> Parser::read_process_substitution() {
  size_t start = pos_;
  pos_ += 2;
  TRY(parse_substitution_body(CommandContext::kProcessSubstitution));
  out_.features.add(ScriptFeature::kProcessSubstitution);
  out_.substitutions.push_back({base_ + start, base_ + pos_, true});
  count(3);
  return make_part(WordPartKind::kProcessSubstitution, src_.substr(start, pos_ - start), true);
}

Result<WordPart> Parser::read_double_quoted() {
  TRY(enter());
  size_t start = pos_;
  ++pos_;
  bool expansion = false;
  struct Restore {
    bool& flag;
    bool saved;
    ~Restore() { flag = saved; }
  } restore{in_double_quotes_, in_double_quotes_};
  in_double_quotes_ = true;
  while (true) {
    if (at_end()) return fail("unterminated double quote");
    char c = peek();
    if (c == '"') {
      ++pos_;
      break;
    }
    if (c == '\\') {
      if (pos_ + 1 >= src_.size()) return fail("unterminated double quote");
      pos_ += 2;
    } else if (c == '`') {
      TRY(read_backquote());
      expansion = true;
    } else if (c == '$' && dollar_expansion_at(pos_, true)) {
      TRY(read_dollar());
      expansion = true;
    } else {
      ++pos_;
    }
  }
  leave();
  std::string_view text = src_.substr(start, pos_ - start);
  WordPart part = make_part(WordPartKind::kDoubleQuoted, text, expansion);
  part.value = decode_double_quoted(text);
  count(text.size() > 2 ? 4 : 3);
  return part;
}

Result<WordPart> Parser::read_dollar() {
  TRY(enter());
  Result<WordPart> part = read_dollar_unguarded();
  if (part) leave();
  return part;
}

Result<WordPart> Parser::read_dollar_unguarded() {
  size_t start = pos_;
  char next = peek(1);
  auto finish = [&](WordPartKind kind, bool expansion, ScriptFeature feature, size_t nodes) {
    out_.features.add(feature);
    count(nodes);
    return make_part(kind, src_.substr(start, pos_ - start), expansion);
  };
  if (next == '(' && peek(2) == '(') {
    pos_ += 3;
    TRY(skip_arithmetic("))"));
    return finish(WordPartKind::kArithmetic, true, ScriptFeature::kArithmetic, 3);
  }
  if (next == '(') {
    pos_ += 2;
    TRY(parse_substitution_body(CommandContext::kCommandSubstitution));
    out_.substitutions.push_back({base_ + start, base_ + pos_, false});
    return finish(WordPartKind::kCommandSubstitution, true, ScriptFeature::kCommandSubstitution, 3);
  }
  if (next == '[') {
    pos_ += 2;
    TRY(skip_arithmetic("]"));
    return finish(WordPartKind::kArithmetic, true, ScriptFeature::kArithmetic, 3);
  }
  if (next == '{') {
    pos_ += 2;
    TRY(skip_braced_parameter());
    return finish(WordPartKind::kParameter, true, ScriptFeature::kParameterExpansion, 4);
  }
  if (next == '\'') {
    size_t i = pos_ + 2;
    while (i < src_.size() && src_[i] != '\'') i += src_[i] == '\\' ? 2 : 1;
    if (i >= src_.size()) return fail("unterminated $'...' string");
    pos_ = i + 1;
    count(1);
    WordPart part = make_part(WordPartKind::kAnsiC, src_.substr(start, pos_ - start), false);
    AnsiCValue decoded = decode_ansi_c_value(part.text);
    part.value = std::move(decoded.value);
    part.locale_dependent = decoded.locale_dependent;
    return part;
  }
  if (next == '"') {
    ++pos_;
    WordPart quoted = TRY(read_double_quoted());
    count(1);
    WordPart part =
        make_part(WordPartKind::kLocalized, src_.substr(start, pos_ - start), quoted.has_expansion);
    part.value = std::move(quoted.value);
    part.locale_dependent = true;  // translated through the locale's message catalog
    return part;
  }
  pos_ += 2;
  if (is_name_start(next)) {
    while (!at_end() && is_name_char(peek())) ++pos_;
  }
  return finish(WordPartKind::kParameter, true, ScriptFeature::kParameterExpansion, 3);
}

Result<WordPart> Parser::read_backquote() {
  size_t start = pos_;
  size_t i = pos_ + 1;
  while (i < src_.size() && src_[i] != '`') i += src_[i] == '\\' ? 2 : 1;
  if (i >= src_.size()) return fail("unterminated backquote");
  TRY(enter());
  Parser inner(src_.substr(start + 1, i - start - 1), base_ + start + 1, out_,
               CommandContext::kCommandSubstitution, nesting_, dialect_);
  inner.compound_depth_ = compound_depth_;
  Result<void> parsed = inner.parse_program();
  if (!parsed) {
    error_ = inner.error();
    return std::move(parsed).error();
  }
  quirks_ += inner.quirks_;
  // tree-sitter-bash lets a comment inside `...` run over the closing backquote.
  if (inner.comments_ > 0) quirk("comment inside backquotes");
  leave();
  pos_ = i + 1;
  out_.features.add(ScriptFeature::kCommandSubstitution);
  out_.substitutions.push_back({base_ + start, base_ + pos_, false});
  count(3);
  return make_part(WordPartKind::kCommandSubstitution, src_.substr(start, pos_ - start), true);
}

Result<void> Parser::parse_substitution_body(CommandContext context) {
  TRY(enter());
  {
    ContextScope scope(*this, context);
    struct Restore {
      bool& flag;
      bool saved;
      ~Restore() { flag = saved; }
    } restore{in_double_quotes_, in_double_quotes_};
    in_double_quotes_ = false;
    TRY(parse_list(kStopParen, false));
  }
  if (peek() != ')') return fail("unterminated substitution");
  ++pos_;
  leave();
  return {};
}

size_t Parser::count_word_nodes(const Word& word) const {
  // Expansions and quoted strings were counted while reading; add the plain-text pieces.
  // tree-sitter-bash makes each { } [ ] its own word inside a concatenation.
  size_t pieces = 0, nodes = 0;
  for (const WordPart& part : word.parts) {
    if (part.kind == WordPartKind::kUnquoted) {
      size_t part_pieces = 0;
      bool in_segment = false;
      for (char c : part.text) {
        bool bracket = c == '{' || c == '}' || c == '[' || c == ']';
        if (bracket || !in_segment) ++part_pieces;
        in_segment = !bracket;
      }
      nodes += part_pieces;
      pieces += part_pieces;
    } else {
      if (part.kind == WordPartKind::kSingleQuoted) ++nodes;
      ++pieces;
    }
  }
  return nodes + (pieces > 1 ? 1 : 0);
}

}  // namespace clawexec::shell::detail
