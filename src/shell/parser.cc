// Bash parsing, part 1: lexical helpers, command lists, pipelines and command dispatch.
//
// Problem: policy and guards must see every command a line would run, including ones hidden
// in pipelines, lists, compound commands and substitutions, without running a shell. The
// grammar is bash's, but the reference decides with tree-sitter-bash, so its reading matters
// too: where tree-sitter-bash reads valid syntax differently and that changes which argv a
// command has, we read it its way (e.g. words after a file redirection are more targets,
// `;;` outside case is a separator); where it rejects valid bash ("cmd <<EOF; next",
// "for x do"), we parse on and record a quirk (Script::reference_syntax_error), so callers
// can reproduce the reference's verdict and still see every command.
//
// Approach: a hand-written recursive-descent parser over the source bytes (no token stream:
// what is a keyword or an operator depends on the position). Each simple command is appended
// to Script::commands when it starts, so an enclosing command precedes the commands found in
// its words. Nothing is expanded. The parser also estimates the syntax-tree size the reference
// would count, so callers can apply the same work limit. Nesting is bounded (kMaxNesting);
// the deepest input uses about 250 KB of stack.

#include <utility>

#include "shell/parser_internal.h"

namespace clawexec::shell {
namespace detail {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

Parser::Parser(std::string_view source, size_t base_offset, Script& out, CommandContext context,
               unsigned nesting, ShellDialect dialect)
    : src_(source), base_(base_offset), out_(out), context_(context), nesting_(nesting), dialect_(dialect) {}

Error Parser::fail(std::string message, ParseFailure kind) {
  error_ = ParseError{kind, base_ + pos_, message, {}};
  return Error::invalid("parse shell command: " + message + " at offset " +
                        std::to_string(base_ + pos_));
}

void Parser::quirk(std::string_view message) {
  ++quirks_;
  if (out_.reference_syntax_error.empty()) {
    out_.reference_syntax_error =
        std::string(message) + " at offset " + std::to_string(base_ + pos_);
  }
}

Result<void> Parser::enter() {
  if (++nesting_ > kMaxNesting) return fail("nesting too deep", ParseFailure::kTooDeep);
  return {};
}

Result<void> Parser::parse_program() {
  TRY(parse_list(kStopEof, false));
  if (!at_end()) return fail("unexpected text");
  if (!heredocs_.empty()) return fail("heredoc without a body");
  return {};
}

// ---- lexical helpers -------------------------------------------------------------------

Result<void> Parser::skip_blanks() {
  while (!at_end()) {
    char c = peek();
    if (c == ' ' || c == '\t') {  // bash's and dash's only blanks
      ++pos_;
    } else if (c == '\\' && peek(1) == '\n') {
      pos_ += 2;
      out_.features.add(ScriptFeature::kLineContinuation);
    } else if (!heredocs_.empty() && at_newline()) {
      TRY(consume_newline());
    } else {
      break;
    }
  }
  return {};
}

bool Parser::skip_comment() {
  if (peek() != '#') return false;
  while (!at_end() && peek() != '\n') ++pos_;
  out_.features.add(ScriptFeature::kComment);
  ++comments_;
  count(1);
  return true;
}

Result<void> Parser::skip_blanks_and_comment() {
  TRY(skip_blanks());
  if (skip_comment()) TRY(skip_blanks());
  return {};
}

Result<void> Parser::skip_linebreaks() {
  while (true) {
    TRY(skip_blanks());
    if (skip_comment()) continue;
    if (at_newline()) {
      TRY(consume_newline());
      continue;
    }
    return {};
  }
}

Result<void> Parser::consume_newline() {
  ++pos_;
  if (!heredocs_.empty()) TRY(read_heredoc_bodies());
  return {};
}

bool Parser::is_delimiter_at(size_t index) const {
  if (index >= src_.size()) return true;
  switch (src_[index]) {
    case ' ':
    case '\t':
    case '\n':
    case ';':
    case '&':
    case '|':
    case '(':
    case ')':
    case '<':
    case '>':
      return true;
    default:
      return false;
  }
}

bool Parser::at_keyword(std::string_view keyword) const {
  if (!starts_with(keyword)) return false;
  if (keyword == "{") return true;  // tree-sitter-bash opens a group even when "{" is glued
  return is_delimiter_at(pos_ + keyword.size());
}

size_t Parser::redirect_length_at(size_t index, size_t* fd_length) const {
  size_t j = index;
  while (j < src_.size() && is_digit(src_[j])) ++j;
  size_t fd = j - index;
  if (fd_length) *fd_length = fd;
  std::string_view rest = src_.substr(j);
  if (rest.empty() || (rest[0] != '<' && rest[0] != '>' && rest[0] != '&')) return 0;
  static constexpr std::string_view kOps[] = {"&>>", "&>", "<<<", "<<-", "<<", "<>",
                                              "<&",  ">>", ">&",  ">|",  "<",  ">"};
  for (std::string_view op : kOps) {
    if (rest.substr(0, op.size()) != op) continue;
    if (op[0] == '&' && (fd > 0 || dialect_ == ShellDialect::kDash)) return 0;  // dash: "&" then ">"
    if (op.size() == 1 && rest.size() > 1 && rest[1] == '(') return 0;   // <( >( substitution
    if (op == "<<" && rest.size() > 2 && rest[2] == '(') return fd + 1;  // "<<(x)": < <(x)
    return fd + op.size();
  }
  return 0;
}

Op Parser::peek_op(size_t* length) const {
  auto result = [length](Op op, size_t len) {
    if (length) *length = len;
    return op;
  };
  switch (peek()) {
    case '\n':
      return result(Op::kNewline, 1);
    case ';':
      if (peek(1) == ';') return result(Op::kCaseBreak, peek(2) == '&' ? 3 : 2);
      if (peek(1) == '&') return result(Op::kCaseBreak, 2);
      return result(Op::kSemicolon, 1);
    case '&':
      if (peek(1) == '&') return result(Op::kAnd, 2);
      if (peek(1) == '>' && dialect_ == ShellDialect::kBash) return result(Op::kRedirect, redirect_length_at(pos_));
      return result(Op::kAmp, 1);
    case '|':
      if (peek(1) == '|') return result(Op::kOr, 2);
      if (peek(1) == '&' && dialect_ == ShellDialect::kBash) return result(Op::kPipeAmp, 2);
      return result(Op::kPipe, 1);
    case '(':
      return result(Op::kOpenParen, 1);
    case ')':
      return result(Op::kCloseParen, 1);
    default: {
      size_t len = redirect_length_at(pos_);
      return result(len > 0 ? Op::kRedirect : Op::kNone, len);
    }
  }
}

bool Parser::at_stop(uint32_t stops) const {
  if ((stops & kStopEof) && at_end()) return true;
  if ((stops & kStopParen) && peek() == ')') return true;
  if ((stops & kStopCaseItem) && peek_op() == Op::kCaseBreak) return true;
  static constexpr std::pair<uint32_t, std::string_view> kKeywords[] = {
      {kStopBrace, "}"}, {kStopThen, "then"}, {kStopElif, "elif"}, {kStopElse, "else"},
      {kStopFi, "fi"},   {kStopDo, "do"},     {kStopDone, "done"}, {kStopEsac, "esac"}};
  for (const auto& [flag, keyword] : kKeywords) {
    if ((stops & flag) && at_keyword(keyword)) return true;
  }
  return false;
}

// ---- lists -----------------------------------------------------------------------------

Result<void> Parser::parse_list(uint32_t stops, bool require_command) {
  size_t commands = 0;
  while (true) {
    TRY(skip_linebreaks());
    if (at_stop(stops)) break;
    if (at_end()) return fail("unexpected end of input");
    size_t last = TRY(parse_and_or());
    ++commands;
    TRY(skip_blanks_and_comment());
    size_t len = 0;
    Op op = peek_op(&len);
    Separator sep = Separator::kNone;
    if (op == Op::kNewline) {
      if (last != kNoCommand) command_at(last).next = Separator::kNewline;
      TRY(consume_newline());
      continue;
    }
    if (op == Op::kSemicolon || (op == Op::kCaseBreak && !(stops & kStopCaseItem))) {
      // ";;" outside case: tree-sitter-bash reads a separator, bash and dash a syntax error.
      if (op == Op::kCaseBreak) quirk("';;' outside case");
      sep = Separator::kSequence;
    } else if (op == Op::kAmp) {
      sep = Separator::kBackground;
      out_.features.add(ScriptFeature::kBackground);
    } else if (at_stop(stops) || at_end()) {
      break;
    } else {
      return fail("unexpected token");
    }
    // tree-sitter-bash rejects ; and & on the line that opened a heredoc.
    if (!heredocs_.empty()) quirk("separator after a heredoc operator");
    if (last != kNoCommand) command_at(last).next = sep;
    pos_ += len;
    count(1);
  }
  if (require_command && commands == 0) return fail("empty command list");
  return {};
}

Result<size_t> Parser::parse_and_or() {
  size_t last = TRY(parse_pipeline());
  while (true) {
    TRY(skip_blanks());
    Op op = peek_op();
    if (op != Op::kAnd && op != Op::kOr) return last;
    if (last != kNoCommand)
      command_at(last).next = op == Op::kAnd ? Separator::kAnd : Separator::kOr;
    pos_ += 2;
    count(2);
    TRY(skip_linebreaks());
    last = TRY(parse_pipeline());
  }
}

Result<size_t> Parser::parse_pipeline() {
  size_t last = TRY(parse_command());
  bool piped = false;
  while (true) {
    TRY(skip_blanks());
    size_t len = 0;
    Op op = peek_op(&len);
    if (op != Op::kPipe && op != Op::kPipeAmp) break;
    if (last != kNoCommand) {
      command_at(last).next = op == Op::kPipe ? Separator::kPipe : Separator::kPipeStderr;
    }
    pos_ += len;
    count(1);
    piped = true;
    TRY(skip_linebreaks());
    last = TRY(parse_command());
  }
  if (piped) count(1);
  return last;
}

Result<size_t> Parser::parse_command(bool function_body) {
  TRY(enter());
  TRY(skip_blanks());
  // "! cmd". tree-sitter-bash accepts it before any command of a pipeline, and after it
  // recognises only ( and [[ as compound commands: "! { a; }" is the command "{ a" and "}".
  bool negated = false;
  if (starts_with("!") && is_delimiter_at(pos_ + 1)) {
    ++pos_;
    negated = true;
    out_.features.add(ScriptFeature::kNegation);
    count(2);
    TRY(skip_blanks());
  }
  Result<void> compound;
  // tree-sitter-bash accepts <<< after if/while/until and function bodies only.
  bool herestring_ok =
      function_body || at_keyword("if") || at_keyword("while") || at_keyword("until");
  if (negated && peek() != '(' && !at_keyword("[[")) {
    // bash (and dash) negate the compound command itself; tree-sitter-bash reads its keyword as
    // a command name. Neither reading is followed: the line is unanalyzable.
    for (std::string_view keyword : {"{", "if", "while", "until", "for", "select", "case", "function"}) {
      if (at_keyword(keyword)) quirk("compound command after '!'");
    }
    size_t index = TRY(parse_simple_command(true));
    leave();
    return index;
  }
  if (peek() == '(') {
    compound = peek(1) == '(' ? parse_arithmetic_command() : parse_subshell();
  } else if (at_keyword("if")) {
    compound = parse_if();
  } else if (at_keyword("while") || at_keyword("until")) {
    compound = parse_while_until();
  } else if (at_keyword("for") || at_keyword("select")) {
    compound = parse_for();
  } else if (at_keyword("case")) {
    compound = parse_case();
  } else if (at_keyword("function")) {
    compound = parse_function_keyword();
  } else if (at_keyword("[[")) {
    compound = parse_test_command();
  } else if (at_keyword("{")) {
    compound = parse_group();
  } else {
    size_t index = TRY(parse_simple_command(false));
    leave();
    return index;
  }
  if (!compound) return std::move(compound).error();
  TRY(parse_trailing_redirects(kNoCommand, herestring_ok));
  leave();
  return kNoCommand;
}

}  // namespace detail

Result<Script> parse_script(std::string_view source, CommandContext context, ParseError* error,
                            ShellDialect dialect) {
  Script script;
  script.syntax_nodes = 1;  // the program node
  detail::Parser parser(source, 0, script, context, 0, dialect);
  Result<void> parsed = parser.parse_program();
  if (!parsed) {
    if (error) {
      *error = parser.error();
      error->partial = std::move(script);
    }
    return std::move(parsed).error();
  }
  return script;
}

}  // namespace clawexec::shell
