// Bash parsing, part 4: compound commands.
//
// Problem: commands inside if/while/until/for/select/case bodies, groups, subshells and
// function definitions run just like top-level ones (or, for functions, whenever the function
// is called), so the analyzer must find them; and the words that are not commands (a for
// loop's list, case patterns, [[ ]] operands) must not be mistaken for commands.
//
// Approach: one function per construct, each consuming its keywords and delegating the bodies
// to parse_list with the tokens that may end them. Reserved words are recognised only where
// the grammar expects them, so `fi` or `then` elsewhere in command position is an ordinary
// command name (as tree-sitter-bash treats them). Function bodies are parsed in the
// kFunctionBody context.

#include <utility>

#include "shell/parser_internal.h"

namespace clawexec::shell::detail {
namespace {

// A compound-command scope: counts depth for Command::compound_depth.
class DepthScope {
 public:
  explicit DepthScope(unsigned& depth) : depth_(depth) { ++depth_; }
  ~DepthScope() { --depth_; }
  DepthScope(const DepthScope&) = delete;
  DepthScope& operator=(const DepthScope&) = delete;

 private:
  unsigned& depth_;
};

}  // namespace

Result<void> Parser::expect_keyword(std::string_view keyword) {
  if (!at_keyword(keyword)) return fail("expected '" + std::string(keyword) + "'");
  pos_ += keyword.size();
  return {};
}

Result<void> Parser::parse_if() {
  DepthScope depth(compound_depth_);
  out_.features.add(ScriptFeature::kControlFlow);
  out_.features.add(ScriptFeature::kIf);
  pos_ += 2;
  count(4);
  TRY(parse_list(kStopThen, true));
  TRY(expect_keyword("then"));
  TRY(parse_list(kStopElif | kStopElse | kStopFi, true));
  while (at_keyword("elif")) {
    pos_ += 4;
    count(3);
    TRY(parse_list(kStopThen, true));
    TRY(expect_keyword("then"));
    TRY(parse_list(kStopElif | kStopElse | kStopFi, true));
  }
  if (at_keyword("else")) {
    pos_ += 4;
    count(2);
    TRY(parse_list(kStopFi, true));
  }
  return expect_keyword("fi");
}

Result<void> Parser::parse_while_until() {
  DepthScope depth(compound_depth_);
  out_.features.add(ScriptFeature::kControlFlow);
  out_.features.add(ScriptFeature::kWhile);
  pos_ += 5;  // "while" and "until" have the same length
  count(5);
  TRY(parse_list(kStopDo, true));
  TRY(expect_keyword("do"));
  TRY(parse_list(kStopDone, true));
  return expect_keyword("done");
}

Result<void> Parser::parse_for() {
  DepthScope depth(compound_depth_);
  out_.features.add(ScriptFeature::kControlFlow);
  out_.features.add(ScriptFeature::kFor);
  bool select = at_keyword("select");
  pos_ += select ? 6 : 3;
  count(6);
  TRY(skip_blanks());
  if (!select && starts_with("((")) {
    pos_ += 2;
    TRY(skip_arithmetic("))"));
  } else {
    Word name = TRY(read_word());
    if (!name.is_literal()) return fail("expected a loop variable name");
    TRY(skip_blanks());
    bool has_in = at_keyword("in");
    bool stray_words = !has_in && !at_end() && !at_newline() && peek() != ';' && !at_keyword("do");
    if (stray_words) quirk("words after the loop variable without 'in'");  // read as the list
    if (has_in || stray_words) {
      if (has_in) pos_ += 2;
      size_t values = 0;
      while (true) {
        TRY(skip_blanks());
        if (at_end() || at_newline() || peek() == ';') break;
        if (peek_op() != Op::kNone || peek() == '#') return fail("unexpected token in loop list");
        Word value = TRY(read_word());
        count(count_word_nodes(value));
        ++values;
      }
      if (values == 0) quirk("empty loop list");
    } else if (at_keyword("do")) {
      quirk("'do' right after the loop variable");
    }
  }
  TRY(skip_blanks());
  size_t separator = 0;
  Op op = peek_op(&separator);
  if (op == Op::kSemicolon || op == Op::kCaseBreak) pos_ += separator;  // ";;" too, as tree-sitter
  TRY(skip_linebreaks());
  TRY(expect_keyword("do"));
  TRY(parse_list(kStopDone, true));
  return expect_keyword("done");
}

Result<void> Parser::parse_case() {
  DepthScope depth(compound_depth_);
  out_.features.add(ScriptFeature::kControlFlow);
  out_.features.add(ScriptFeature::kCase);
  pos_ += 4;
  count(4);
  TRY(skip_blanks());
  if (at_end() || peek_op() != Op::kNone) return fail("expected a case subject");
  Word subject = TRY(read_word());
  count(count_word_nodes(subject));
  TRY(skip_linebreaks());
  TRY(expect_keyword("in"));
  while (true) {
    TRY(skip_linebreaks());
    if (at_keyword("esac")) break;
    if (at_end()) return fail("expected 'esac'");
    if (peek() == '(') ++pos_;
    while (true) {
      TRY(skip_blanks());
      if (at_end() || peek_op() != Op::kNone) return fail("expected a case pattern");
      Word pattern = TRY(read_word());
      count(count_word_nodes(pattern));
      TRY(skip_blanks());
      if (peek() == '|' && peek(1) != '|') {
        ++pos_;
        continue;
      }
      break;
    }
    if (peek() != ')') return fail("expected ')' after a case pattern");
    ++pos_;
    count(3);
    TRY(parse_list(kStopCaseItem | kStopEsac, false));
    size_t len = 0;
    if (peek_op(&len) == Op::kCaseBreak) {
      bool fallthrough = src_[pos_ + len - 1] == '&';
      pos_ += len;
      TRY(skip_linebreaks());
      // tree-sitter-bash wants another item after ;& and ;;&.
      if (fallthrough && at_keyword("esac")) quirk("';&' before 'esac'");
      continue;
    }
    if (!at_keyword("esac")) return fail("expected ';;' or 'esac'");
  }
  return expect_keyword("esac");
}

Result<void> Parser::parse_group() {
  DepthScope depth(compound_depth_);
  out_.features.add(ScriptFeature::kGroup);
  ++pos_;
  count(3);
  TRY(parse_list(kStopBrace, true));
  return expect_keyword("}");
}

Result<void> Parser::parse_subshell() {
  DepthScope depth(compound_depth_);
  out_.features.add(ScriptFeature::kSubshell);
  ++pos_;
  count(3);
  TRY(parse_list(kStopParen, true));
  if (peek() != ')') return fail("expected ')'");
  ++pos_;
  return {};
}

Result<void> Parser::parse_test_command() {
  out_.features.add(ScriptFeature::kTestCommand);
  size_t index = out_.commands.size();
  out_.commands.emplace_back();
  Command& command = command_at(index);
  command.form = CommandForm::kTest;
  command.context = context_;
  command.compound_depth = compound_depth_;
  command.begin = base_ + pos_;
  Word opener;
  opener.text = "[[";
  opener.offset = base_ + pos_;
  opener.parts.push_back(WordPart{WordPartKind::kUnquoted, "[[", {}, false});
  finish_word(opener);
  command.words.push_back(std::move(opener));
  pos_ += 2;
  count(3);
  int parens = 0;
  while (true) {
    TRY(skip_linebreaks());
    if (at_end()) return fail("expected ']]'");
    if (starts_with("]]") && is_delimiter_at(pos_ + 2)) {
      pos_ += 2;
      break;
    }
    size_t len = 0;
    Op op = peek_op(&len);
    if (op == Op::kOpenParen) ++parens;
    if (op == Op::kCloseParen && parens-- == 0) return fail("unbalanced ')' in [[ ]]");
    if (op != Op::kNone) {
      // Inside [[ ]], && || ! ( ) < > are expression operators, not shell syntax.
      bool comparison = op == Op::kRedirect && (peek() == '<' || peek() == '>') && len == 1;
      if (op == Op::kSemicolon || op == Op::kAmp || op == Op::kCaseBreak ||
          (op == Op::kRedirect && !comparison)) {
        return fail("unexpected token in [[ ]]");
      }
      pos_ += op == Op::kRedirect ? 1 : len;
      count(2);
      continue;
    }
    Word word = TRY(read_word());
    count(count_word_nodes(word));
    command_at(index).words.push_back(std::move(word));
  }
  command_at(index).end = base_ + pos_;
  return {};
}

Result<void> Parser::parse_arithmetic_command() {
  out_.features.add(ScriptFeature::kArithmetic);
  out_.features.add(ScriptFeature::kControlFlow);
  pos_ += 2;
  count(3);
  return skip_arithmetic("))");
}

Result<void> Parser::parse_function_keyword() {
  pos_ += 8;
  TRY(skip_blanks());
  if (at_end() || peek_op() != Op::kNone) return fail("expected a function name");
  Word name = TRY(read_word());
  count(2);
  TRY(skip_blanks());
  if (peek() == '(') {
    ++pos_;
    TRY(skip_blanks());
    if (peek() != ')') return fail("expected ')' in function definition");
    ++pos_;
    count(2);
  }
  return parse_function_body();
}

Result<void> Parser::parse_function_body() {
  out_.features.add(ScriptFeature::kFunction);
  count(1);
  TRY(skip_linebreaks());
  bool compound = peek() == '(' || at_keyword("{") || at_keyword("if") || at_keyword("while") ||
                  at_keyword("until") || at_keyword("for") || at_keyword("select") ||
                  at_keyword("case") || at_keyword("[[");
  if (!compound) quirk("function body that is not a compound command");  // read it anyway
  ContextScope scope(*this, CommandContext::kFunctionBody);
  TRY(parse_command(true));
  return {};
}

}  // namespace clawexec::shell::detail
