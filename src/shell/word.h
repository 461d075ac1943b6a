#pragma once
// Shell words as the analyzer sees them: the source text, the parts it is made of (unquoted
// runs, quoted strings, expansions) and the value the shell would pass after quote removal,
// with a per-byte record of which characters were quoted. Expansions are never performed:
// they stay in the value verbatim ("$HOME/x" stays "$HOME/x") and mark the word non-literal.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clawexec::shell {

enum class WordPartKind {
  kUnquoted,             // plain text; backslash escapes still in `text`
  kSingleQuoted,         // '...'
  kDoubleQuoted,         // "..." (may hold expansions, see WordPart::has_expansion)
  kAnsiC,                // $'...'
  kLocalized,            // $"..."
  kParameter,            // $name, $1, $@, ${...}
  kCommandSubstitution,  // $(...) or `...`
  kArithmetic,           // $((...)) or $[...]
  kProcessSubstitution,  // <(...) or >(...)
};

struct WordPart {
  WordPartKind kind = WordPartKind::kUnquoted;
  std::string text;            // as written, delimiters included
  std::string value;           // quotes removed and escapes resolved; expansions keep their text
  bool has_expansion = false;  // the part is, or (inside double quotes) contains, an expansion
  /// The analyzer cannot know the value exactly: it depends on the locale of the shell that runs
  /// it ($"..." translation, $'\u..' beyond ASCII) or on bash's internal quoting bytes (a raw
  /// 0x01 or 0x7f inside $'...', which bash 5.2 mangles after some escapes).
  bool uncertain = false;
};

struct Word {
  std::string text;   // as written in the source
  size_t offset = 0;  // byte offset of `text` in the parsed source
  std::vector<WordPart> parts;
  std::string value;         // concatenated part values
  std::vector<bool> quoted;  // one entry per byte of `value`: quoted or backslash-escaped

  /// True when any part is or contains an expansion ($x, ${x}, $(..), `..`, $((..)), <(..)).
  bool has_expansion() const;
  /// True when the word holds no expansion, no locale-dependent part and no unescaped glob or
  /// brace pattern (the reference's test for a literal word).
  bool is_literal() const;
};

/// The exact argument the shell passes for this word, whatever the environment, the file
/// system, the locale and the POSIX shell (bash, dash, zsh, ksh) that runs it: nullopt when the
/// word has an expansion or a locale-dependent part, or an unquoted character any of those
/// shells may expand (* ?, a [ or { with a ] or } after it, a leading ~ or =, a ~ after an unquoted = or :). A word
/// with an exact value can be rendered single-quoted without changing what runs.
std::optional<std::string> exact_word_value(const Word& word);

/// Builds `value` and `quoted` from `parts` (call after the parts are complete).
void finish_word(Word& word);

/// The value of unquoted text: a backslash escapes the next character, and backslash-newline
/// (a line continuation) disappears. A trailing lone backslash is kept.
std::string decode_unquoted(std::string_view text);
/// The value of a double-quoted string ("..." with or without its quotes): backslash escapes
/// only \ " $ ` and newline; expansions are kept as written.
std::string decode_double_quoted(std::string_view text);
/// The value of an ANSI-C string ($'...' with or without the $' ') exactly as bash 5.2 decodes
/// it: the C escapes, \xHH (1-2 digits), \x{H...} (one byte), octal (1-3 digits, one byte),
/// \uHHHH / \UHHHHHHHH, \cX control characters; an unknown escape keeps its backslash; a
/// decoded NUL byte ends the string (bash drops the rest).
struct AnsiCValue {
  std::string value;
  bool uncertain = false;  // \u or \U beyond ASCII (encoded as UTF-8 here), or a raw 0x01/0x7f byte
  bool truncated = false;         // a NUL byte cut the string short
};
AnsiCValue decode_ansi_c_value(std::string_view text);
std::string decode_ansi_c(std::string_view text);

/// `text` in single quotes, each ' written as '\'': every POSIX shell (bash, dash, zsh, ksh)
/// reads the result as exactly one word whose value is `text` (which must not hold a NUL byte).
std::string single_quote(std::string_view text);

/// `text` as is when it only holds [A-Za-z0-9_@%+=:,./-] (and is not empty), else
/// single_quote(text): how the reference writes argv words in messages, and how the CLI joins
/// its own argv into a command.
std::string quote_if_needed(std::string_view text);

/// OpenClaw's formatExecCommand (and formatShellWrapperArgv, the same rule): how a node run's
/// argv is shown (`commandText`) and a shell wrapper's canonical text. Words joined by spaces; a
/// word with white space (JavaScript's \s, Unicode included) or `"` is double-quoted (inner `"`
/// escaped), an empty word is `""`.
std::string format_exec_command(const std::vector<std::string>& argv);

/// True when text contains an unescaped *, ?, [..] or {..} (quotes are not considered:
/// this is a textual test, as the reference performs it).
bool has_unescaped_pattern(std::string_view text);

}  // namespace clawexec::shell
