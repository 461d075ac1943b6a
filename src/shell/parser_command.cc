// Bash parsing, part 2: simple commands, assignments, redirections and heredoc bodies.
//
// Problem: a simple command mixes assignments, words and redirections in one run, and which
// of them form the program's argv is what the guards and the policy reason about. Heredoc
// bodies sit on the lines after the command and can still run commands ($(...) in an unquoted
// body).
//
// Approach: one loop per simple command classifies the next item (redirection operator,
// NAME=value before the command name, or a word). As in tree-sitter-bash, the words that
// follow a file redirection written after the command name are further redirection targets,
// not arguments ("cmd a > f b" runs cmd with argv [cmd, a] as far as the reference is
// concerned). Heredoc operators are queued and their bodies read at the next newline token;
// unquoted bodies are scanned for substitutions, and the delimiter line may continue the
// command (tree-sitter-bash's reading). Valid bash that tree-sitter-bash rejects (`<>`, a
// second heredoc on one line, a heredoc before the command name, assignments with only a
// redirection) is recorded as a quirk.

#include <algorithm>
#include <utility>

#include "shell/parser_internal.h"

namespace clawexec::shell::detail {
namespace {

// Assignment names as tree-sitter-bash reads them: word characters (non-ASCII letters
// included), digits allowed first, but "_" alone is the special parameter, not a name.
bool is_assignment_name_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

// tree-sitter-bash cannot read a command name that starts with a letter, continues with
// word characters and then has '#' ("e#cho", "ab1_#x"); "/a#b", "_#x" and "1#2" are fine.
bool starts_with_identifier_hash(std::string_view text) {
  if (text.empty()) return false;
  unsigned char first = static_cast<unsigned char>(text[0]);
  if (!((first >= 'A' && first <= 'Z') || (first >= 'a' && first <= 'z') || first >= 0x80))
    return false;
  size_t i = 1;
  while (i < text.size() && is_assignment_name_char(text[i])) ++i;
  return i < text.size() && text[i] == '#';
}

bool is_declaration_name(const Word& word) {
  if (word.parts.size() != 1 || word.parts[0].kind != WordPartKind::kUnquoted) return false;
  const std::string& v = word.value;
  return v == "declare" || v == "typeset" || v == "export" || v == "readonly" || v == "local";
}

// The reference ignores a command whose text starts with a run of non-blank characters that
// ends in a line continuation ("cmd\<newline>..."), and one whose name contains one.
bool starts_with_spliced_word(std::string_view text) {
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n') return i > 0 && text[i - 1] == '\\';
    if (c == ' ' || c == '\t') return false;
  }
  return false;
}

bool contains_line_continuation(std::string_view text) {
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    if (text[i] == '\\' && text[i + 1] == '\n') return true;
    if (text[i] == '\\') ++i;
  }
  return false;
}

// Length of "NAME=", "NAME+=" or "NAME[subscript]=" at the start of text, 0 if none.
// `subscript_end` receives the offset of the closing ']' (0 without a subscript).
size_t assignment_prefix_length(std::string_view text, size_t* subscript_end = nullptr) {
  size_t i = 0;
  while (i < text.size() && is_assignment_name_char(text[i])) ++i;
  if (i == 0 || text.substr(0, i) == "_") return 0;
  if (subscript_end) *subscript_end = 0;
  if (i < text.size() && text[i] == '[') {
    size_t close = text.find(']', i + 1);
    if (close == std::string_view::npos) return 0;
    for (size_t k = i + 1; k < close; ++k) {
      char c = text[k];
      if (c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|') return 0;
    }
    if (subscript_end) *subscript_end = close;
    i = close + 1;
  }
  if (i < text.size() && text[i] == '+') ++i;
  return i < text.size() && text[i] == '=' ? i + 1 : 0;
}

bool is_heredoc_op(std::string_view op) { return op == "<<" || op == "<<-"; }

}  // namespace

Result<size_t> Parser::parse_simple_command(bool negated) {
  size_t index = out_.commands.size();
  out_.commands.emplace_back();
  command_at(index).context = context_;
  command_at(index).compound_depth = compound_depth_;
  command_at(index).begin = base_ + pos_;
  command_at(index).negated = negated;
  size_t begin = pos_;
  count(1);
  bool have_name = false;
  bool swallow_words = false;  // after a file redirection that follows the name
  while (true) {
    TRY(skip_blanks());
    if (at_end() || peek() == '#') break;
    Op op = peek_op();
    if (op == Op::kRedirect) {
      size_t fd_len = 0;
      size_t len = redirect_length_at(pos_, &fd_len);
      std::string_view op_text = src_.substr(pos_ + fd_len, len - fd_len);
      bool file_redirect = !is_heredoc_op(op_text) && op_text != "<<<";
      if (!have_name && is_heredoc_op(op_text)) quirk("heredoc before the command name");
      if (swallow_words && op_text == "<<<") quirk("here-string after a file redirection");
      TRY(parse_redirect(index));
      if (have_name && file_redirect) swallow_words = true;
      continue;
    }
    if (op == Op::kOpenParen && have_name && command_at(index).words.size() == 1 &&
        command_at(index).assignments.empty() && command_at(index).redirects.empty() &&
        index + 1 == out_.commands.size()) {
      if (negated) quirk("function definition after '!'");
      return parse_after_name_paren(index);
    }
    if (op != Op::kNone) break;
    bool declaration = command_at(index).form == CommandForm::kDeclaration;
    if ((!have_name || declaration) && assignment_prefix_length(src_.substr(pos_)) > 0) {
      Word assignment = TRY(parse_assignment());
      if (have_name) {
        command_at(index).words.push_back(std::move(assignment));
      } else {
        command_at(index).assignments.push_back(std::move(assignment));
      }
      continue;
    }
    Word word = TRY(read_word());
    count(count_word_nodes(word));
    if (!have_name) {
      have_name = true;
      note_command_name(index, word, begin);
    } else if (swallow_words) {
      command_at(index).redirects.back().targets.push_back(std::move(word));
      continue;
    }
    command_at(index).words.push_back(std::move(word));
  }
  Command& command = command_at(index);
  if (command.words.empty() && command.assignments.empty() && command.redirects.empty()) {
    return fail("expected a command");
  }
  if (!negated && command.words.empty() && !command.assignments.empty() &&
      !command.redirects.empty()) {
    quirk("redirection of assignments without a command");
  }
  command.end = base_ + pos_;
  return index;
}

void Parser::note_command_name(size_t index, const Word& name, size_t command_start) {
  count(1);
  if (starts_with_identifier_hash(name.text)) quirk("'#' after a name-like command prefix");
  if (is_declaration_name(name)) command_at(index).form = CommandForm::kDeclaration;
  // bash's coproc keyword runs the rest asynchronously; nothing here follows it.
  if (dialect_ == ShellDialect::kBash && name.text == "coproc") quirk("the coproc keyword");
  // The run of non-blank characters the reference looks at lies within the command's first
  // word (an assignment or the name): bounding the scan there keeps it linear.
  const Command& command = command_at(index);
  const Word& first = command.assignments.empty() ? name : command.assignments.front();
  size_t first_end = first.offset - base_ + first.text.size();
  if (contains_line_continuation(name.text) ||
      starts_with_spliced_word(src_.substr(command_start, first_end - std::min(first_end, command_start)))) {
    command_at(index).name_has_line_continuation = true;
  }
}

Result<size_t> Parser::parse_after_name_paren(size_t index) {
  size_t paren = pos_;
  ++pos_;
  TRY(skip_blanks());
  if (peek() != ')') {
    // Not valid bash; tree-sitter-bash reads on, so read "( ..." as a subshell.
    quirk("'(' after a command name");
    pos_ = paren;
    command_at(index).end = base_ + pos_;
    TRY(parse_subshell());
    return index;
  }
  // NAME ( ) compound-command: a function definition, not a command.
  out_.commands.pop_back();
  ++pos_;
  TRY(parse_function_body());
  return kNoCommand;
}

Result<Word> Parser::parse_assignment() {
  size_t start = pos_;
  size_t subscript_end = 0;
  size_t prefix = assignment_prefix_length(src_.substr(pos_), &subscript_end);
  Word word;
  word.offset = base_ + start;
  word.parts.push_back(
      WordPart{WordPartKind::kUnquoted, std::string(src_.substr(pos_, prefix)), {}, false});
  if (subscript_end > 0) {  // a[$(cmd)]=x: the subscript is evaluated
    pos_ = src_.find('[', start) + 1;
    TRY(scan_expansions_until(start + subscript_end));
  }
  pos_ = start + prefix;
  size_t nodes = 3;
  if (peek() == '(') {
    out_.features.add(ScriptFeature::kArrayAssignment);
    word.parts.push_back(WordPart{WordPartKind::kUnquoted, "(", {}, false});
    ++pos_;
    bool first = true;
    while (true) {
      TRY(skip_linebreaks());
      if (peek() == ')') break;
      if (at_end() || peek_op() != Op::kNone) return fail("unterminated array assignment");
      Word element = TRY(read_word());
      nodes += count_word_nodes(element);
      if (!first) word.parts.push_back(WordPart{WordPartKind::kUnquoted, " ", {}, false});
      first = false;
      for (WordPart& part : element.parts) word.parts.push_back(std::move(part));
    }
    ++pos_;
    word.parts.push_back(WordPart{WordPartKind::kUnquoted, ")", {}, false});
    nodes += 3;
  } else if (!is_delimiter_at(pos_)) {
    Word value = TRY(read_word());
    nodes += count_word_nodes(value);
    for (WordPart& part : value.parts) word.parts.push_back(std::move(part));
  }
  count(nodes);
  word.text = std::string(src_.substr(start, pos_ - start));
  finish_word(word);
  return word;
}

Result<void> Parser::parse_redirect(size_t command_index) {
  size_t fd_len = 0;
  size_t len = redirect_length_at(pos_, &fd_len);
  Redirect redirect;
  redirect.fd = std::string(src_.substr(pos_, fd_len));
  redirect.op = std::string(src_.substr(pos_ + fd_len, len - fd_len));
  if (redirect.op == "<>") quirk("redirection <>");
  pos_ += len;
  out_.features.add(ScriptFeature::kRedirect);
  TRY(skip_linebreaks());  // tree-sitter-bash lets the target follow on a later line
  if (at_end() || peek_op() != Op::kNone || peek() == '#')
    return fail("missing redirection target");
  Word target = TRY(read_word());  // may append nested commands: look the command up after
  count(2 + (fd_len > 0 ? 1 : 0) + count_word_nodes(target));
  bool keep = command_index != kNoCommand;  // redirections of compound commands are not kept
  std::vector<Redirect> discarded;
  std::vector<Redirect>& list = keep ? command_at(command_index).redirects : discarded;
  if (is_heredoc_op(redirect.op)) {
    out_.features.add(ScriptFeature::kHeredoc);
    if (!heredocs_.empty()) quirk("several heredocs on one line");
    bool quoted = target.text.find_first_of("'\"\\") != std::string::npos;
    heredocs_.push_back(PendingHeredoc{command_index, keep ? list.size() : kNoCommand, target.value,
                                       redirect.op == "<<-", quoted});
    redirect.heredoc_quoted = quoted;
    count(3);
  } else if (redirect.op == "<<<") {
    out_.features.add(ScriptFeature::kHereString);
  }
  redirect.targets.push_back(std::move(target));
  list.push_back(std::move(redirect));
  return {};
}

Result<void> Parser::parse_trailing_redirects(size_t command_index, bool herestring_ok) {
  bool any = false;
  while (true) {
    TRY(skip_blanks());
    if (peek_op() == Op::kRedirect) {
      if (!herestring_ok && starts_with("<<<")) quirk("here-string on a compound command");
      TRY(parse_redirect(command_index));
      any = true;
      continue;
    }
    if (!any || at_end() || peek_op() != Op::kNone || peek() == '#') break;
    Word extra = TRY(read_word());  // further targets of the last redirection
    count(count_word_nodes(extra));
  }
  if (any) count(1);
  return {};
}

// tree-sitter-bash ends a heredoc at a line that starts (after blanks) with the delimiter
// followed by the end of the line, a blank or an operator; the rest of that line continues
// the command that opened the heredoc. Returns the delimiter's end offset, or npos.
size_t Parser::heredoc_terminator_end(size_t line_start, size_t line_end,
                                      std::string_view delimiter) const {
  size_t i = line_start;
  while (i < line_end && (src_[i] == ' ' || src_[i] == '\t')) ++i;
  if (delimiter.empty() || src_.substr(i, delimiter.size()) != delimiter)
    return std::string_view::npos;
  size_t after = i + delimiter.size();
  if (after > line_end) return std::string_view::npos;
  if (after == line_end ||
      std::string_view(" \t\r;&|)<>").find(src_[after]) != std::string_view::npos) {
    return after;
  }
  return std::string_view::npos;
}

// What may follow the delimiter on its line, as tree-sitter-bash accepts it: operators,
// redirections other than <<<, a comment; not a word.
Result<void> Parser::check_after_heredoc_delimiter(size_t line_end) {
  size_t i = pos_;
  while (i < line_end && (src_[i] == ' ' || src_[i] == '\t' || src_[i] == '\r')) ++i;
  if (i >= line_end || src_[i] == '#') return {};
  if (src_.substr(i, 3) == "<<<") return fail("here-string after a heredoc delimiter");
  if (redirect_length_at(i) > 0 ||
      std::string_view(";&|)").find(src_[i]) != std::string_view::npos) {
    return {};
  }
  return fail("text after a heredoc delimiter");
}

Result<void> Parser::read_heredoc_bodies() {
  std::vector<PendingHeredoc> pending = std::move(heredocs_);
  heredocs_.clear();
  for (const PendingHeredoc& heredoc : pending) {
    size_t body_start = pos_;
    bool found = false;
    while (!at_end()) {
      size_t line_start = pos_;
      size_t eol = src_.find('\n', pos_);
      size_t line_end = eol == std::string_view::npos ? src_.size() : eol;
      size_t next_line = eol == std::string_view::npos ? src_.size() : eol + 1;
      size_t terminator = heredoc_terminator_end(line_start, line_end, heredoc.delimiter);
      if (terminator != std::string_view::npos) {
        if (heredoc.command_index != kNoCommand && heredoc.redirect_index != kNoCommand) {
          command_at(heredoc.command_index).redirects[heredoc.redirect_index].heredoc_body =
              std::string(src_.substr(body_start, line_start - body_start));
        }
        pos_ = terminator;
        found = true;
        TRY(check_after_heredoc_delimiter(line_end));
        break;
      }
      if (!heredoc.quoted) TRY(scan_expansions_until(line_end, ExpansionScan::kHeredoc));
      if (pos_ <= line_end) pos_ = next_line;
    }
    if (!found) return fail("unterminated heredoc");
  }
  return {};
}

}  // namespace clawexec::shell::detail
