#pragma once
// The recursive-descent bash parser behind parse_script (script.h). Internal to the shell
// module: parser.cc holds the lexical helpers, lists and pipelines; parser_command.cc simple
// commands, assignments, redirections and heredocs; parser_words.cc words, quoting and
// substitutions; parser_expansions.cc arithmetic, ${...} and heredoc-body scanning;
// parser_compound.cc the compound commands (if, loops, case, groups, subshells, [[ ]], (( )),
// functions).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "shell/script.h"

namespace clawexec::shell::detail {

/// Tokens that end a command list, as bit flags.
enum StopToken : uint32_t {
  kStopEof = 1u << 0,
  kStopParen = 1u << 1,  // )
  kStopBrace = 1u << 2,  // }
  kStopThen = 1u << 3,
  kStopElif = 1u << 4,
  kStopElse = 1u << 5,
  kStopFi = 1u << 6,
  kStopDo = 1u << 7,
  kStopDone = 1u << 8,
  kStopEsac = 1u << 9,
  kStopCaseItem = 1u << 10,  // ;;  ;&  ;;&
};

enum class Op {
  kNone,
  kSemicolon,   // ;
  kCaseBreak,   // ;;  ;&  ;;&
  kAmp,         // &
  kAnd,         // &&
  kOr,          // ||
  kPipe,        // |
  kPipeAmp,     // |&
  kOpenParen,   // (
  kCloseParen,  // )
  kNewline,
  kRedirect,  // any redirection operator (with its optional descriptor)
};

/// How scan_expansions_until reads "$((": as arithmetic, or (in heredoc bodies, as
/// tree-sitter-bash does) as a command substitution whose body starts with a subshell.
enum class ExpansionScan { kPlain, kHeredoc };

/// Deepest nesting of substitutions and compound commands the parser follows.
inline constexpr unsigned kMaxNesting = 200;

// All members are public: the parser is spread over the parser*.cc files and used only there.
class Parser {
 public:
  Parser(std::string_view source, size_t base_offset, Script& out, CommandContext context,
         unsigned nesting, ShellDialect dialect);

  /// Parses the whole source as a program.
  Result<void> parse_program();
  const ParseError& error() const { return error_; }

  // ---- parser.cc: lists, pipelines, command dispatch ----
  Result<void> parse_list(uint32_t stops, bool require_command);
  Result<size_t> parse_and_or();
  Result<size_t> parse_pipeline();
  Result<size_t> parse_command(bool function_body = false);
  bool at_stop(uint32_t stops) const;
  Result<void> consume_newline();

  // ---- parser_command.cc: simple commands, redirections, heredocs ----
  Result<size_t> parse_simple_command(bool negated);
  void note_command_name(size_t index, const Word& name, size_t command_start);
  Result<size_t> parse_after_name_paren(size_t index);
  Result<Word> parse_assignment();
  Result<void> parse_redirect(size_t command_index);
  Result<void> parse_trailing_redirects(size_t command_index, bool herestring_ok);
  Result<void> read_heredoc_bodies();
  size_t heredoc_terminator_end(size_t line_start, size_t line_end,
                                std::string_view delimiter) const;
  Result<void> check_after_heredoc_delimiter(size_t line_end);

  // ---- parser_words.cc: words, quoting, substitutions ----
  Result<Word> read_word();
  /// Whether the "$" at src_[i] starts an expansion (else it is a literal dollar sign).
  bool dollar_expansion_at(size_t i, bool in_double_quotes) const;
  Result<WordPart> read_single_quoted();
  Result<WordPart> read_double_quoted();
  Result<WordPart> read_dollar();
  Result<WordPart> read_dollar_unguarded();
  Result<WordPart> read_backquote();
  Result<WordPart> read_process_substitution();
  Result<void> parse_substitution_body(CommandContext context);
  size_t count_word_nodes(const Word& word) const;

  // ---- parser_expansions.cc: arithmetic, ${...}, heredoc bodies ----
  /// read_dollar, except that a "$((" that is not arithmetic is read as "$(" + subshell
  /// (tree-sitter-bash does so inside arithmetic and ${...}).
  Result<WordPart> read_dollar_lenient();
  Result<void> skip_arithmetic(std::string_view close);
  struct ArithmeticScan {
    int depth = 0;               // open parentheses
    bool after_operand = false;  // the last token was an operand
    bool in_operator = false;    // inside a run of operator characters ("**", "<<=")
  };
  Result<void> skip_arithmetic_token(ArithmeticScan& scan);
  Result<void> skip_braced_parameter();
  /// Descends into the substitutions in src_[pos_, end), other text being literal (heredoc
  /// lines, array subscripts).
  Result<void> scan_expansions_until(size_t end, ExpansionScan mode = ExpansionScan::kPlain);

  // ---- parser_compound.cc ----
  Result<void> parse_if();
  Result<void> parse_while_until();
  Result<void> parse_for();
  Result<void> parse_case();
  Result<void> parse_group();
  Result<void> parse_subshell();
  Result<void> parse_test_command();
  Result<void> parse_arithmetic_command();
  Result<void> parse_function_keyword();
  Result<void> parse_function_body();
  Result<void> expect_keyword(std::string_view keyword);

  // ---- lexical helpers (parser.cc) ----
  bool at_end() const { return pos_ >= src_.size(); }
  char peek(size_t ahead = 0) const {
    return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0';
  }
  bool starts_with(std::string_view s) const { return src_.substr(pos_, s.size()) == s; }
  /// Only LF ends a line for bash and dash; a CR is an ordinary word character.
  bool at_newline() const { return peek() == '\n'; }
  /// Skips blanks and line continuations; a newline while heredocs are pending is spliced
  /// out together with the heredoc bodies (tree-sitter-bash continues the command line after
  /// the delimiter, as in `cat <<EOF` ... `EOF | wc`).
  Result<void> skip_blanks();
  bool skip_comment();
  Result<void> skip_blanks_and_comment();
  Result<void> skip_linebreaks();
  /// The operator at the current position and its length (0 when none).
  Op peek_op(size_t* length = nullptr) const;
  /// True when the unquoted reserved word `keyword` is at the current position.
  bool at_keyword(std::string_view keyword) const;
  bool is_delimiter_at(size_t index) const;
  size_t redirect_length_at(size_t index, size_t* fd_length = nullptr) const;

  Error fail(std::string message, ParseFailure kind = ParseFailure::kSyntax);
  /// Records syntax that bash accepts but tree-sitter-bash rejects, and goes on parsing.
  void quirk(std::string_view message);
  Result<void> enter();  // nesting guard; pair with leave()
  void leave() { --nesting_; }
  void count(size_t nodes) { out_.syntax_nodes += nodes; }
  Command& command_at(size_t index) { return out_.commands[index]; }

  struct PendingHeredoc {
    size_t command_index;
    size_t redirect_index;
    std::string delimiter;
    bool strip_tabs;
    bool quoted;
  };

  std::string_view src_;
  size_t base_;
  size_t pos_ = 0;
  Script& out_;
  CommandContext context_;
  unsigned nesting_;
  ShellDialect dialect_;
  unsigned compound_depth_ = 0;
  /// Inside "..." (reset inside $(...)): there, ${x:-'...'} quotes are ordinary characters.
  bool in_double_quotes_ = false;
  unsigned comments_ = 0;
  unsigned quirks_ = 0;
  std::vector<PendingHeredoc> heredocs_;
  std::vector<size_t> not_arithmetic_;  // "$((" positions that did not read as arithmetic
  ParseError error_;
};

inline constexpr size_t kNoCommand = static_cast<size_t>(-1);

/// Sets the parser's context for a nested construct and restores it on scope exit.
class ContextScope {
 public:
  ContextScope(Parser& parser, CommandContext context) : parser_(parser), saved_(parser.context_) {
    parser_.context_ = context;
  }
  ~ContextScope() { parser_.context_ = saved_; }
  ContextScope(const ContextScope&) = delete;
  ContextScope& operator=(const ContextScope&) = delete;

 private:
  Parser& parser_;
  CommandContext saved_;
};

}  // namespace clawexec::shell::detail
