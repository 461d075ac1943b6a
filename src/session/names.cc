// Session ids and command-derived session names.
//
// Ids: agents read and retype them, so they are two friendly words rather than a UUID. The
// collision strategy (numbered variants, then three words, then random and time suffixes)
// is the reference's, so ids look alike in both implementations; the word lists are ours.
// Randomness and the "taken" check are injected: this file does no I/O.
//
// Names: the reference tokenizes the command with a regular expression,
//   (?:[^\s"']+ | "(?:\\.|[^"\\])*" | '[^']*')+   (global, JavaScript semantics).
// We run the same match by hand over code points. Only one alternative can start at a given
// character (plain, '"' or '\''), and no backtracking can rescue a failed quoted part, so a
// single forward scan reproduces the regex: a token is a maximal run of such parts, and where
// no part matches (white space, an unterminated quote) the scan moves on one character.
//
// Unlike the reference, the name describes the first command only: the text is cut at the
// first command separator outside quotes (`;`, `&&`, `||`, `|`, `&`, a newline), so
// "sleep 1; echo done" is named "sleep 1", not "sleep 1;".

#include "session/names.h"

#include <array>
#include <vector>

#include "base/strings.h"
#include "base/utf.h"

namespace clawexec::session {
namespace {

constexpr std::array<std::string_view, 40> kAdjectives = {
    "agile",  "bold",   "bright", "busy",   "cheery", "clever", "cozy",  "curly",
    "dapper", "eager",  "fair",   "fancy",  "fluffy", "frosty", "fuzzy", "golden",
    "happy",  "hardy",  "honest", "jolly",  "jumpy",  "lively", "loyal", "merry",
    "misty",  "noble",  "peppy",  "perky",  "plucky", "polite", "proud", "rosy",
    "rustic", "shiny",  "silky",  "snowy",  "sunny",  "sturdy", "witty", "zesty",
};

constexpr std::array<std::string_view, 50> kNouns = {
    "acorn",  "anchor",  "badger",  "beacon", "birch",  "bramble", "brook",   "button",
    "candle", "clover",  "cobble",  "cricket", "dingo", "falls",   "fern",    "finch",
    "gecko",  "hazel",   "heron",   "island", "jasper", "kettle",  "kite",    "lantern",
    "lark",   "lily",    "mango",   "maple",  "marble", "meteor",  "moss",    "nutmeg",
    "orchid", "panda",   "pebble",  "pepper", "plum",   "puffin",  "quartz",  "raven",
    "robin",  "saffron", "sparrow", "spruce", "thistle", "tulip",  "walnut",  "wren",
    "yak",    "zebra",
};

constexpr std::string_view kSuffixAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
constexpr std::string_view kBase36Digits = "0123456789abcdefghijklmnopqrstuvwxyz";
constexpr int kBaseAttempts = 12;
constexpr int kLastNumberedSuffix = 12;

template <size_t N>
std::string_view pick(const std::array<std::string_view, N>& words, const UniformSource& random) {
  uint32_t i = random(static_cast<uint32_t>(N));
  return words[i < N ? i : N - 1];
}

std::string slug_base(int words, const UniformSource& random) {
  std::string base(pick(kAdjectives, random));
  for (int i = 1; i < words; ++i) {
    base += '-';
    base += pick(kNouns, random);
  }
  return base;
}

std::optional<std::string> available_slug(int words, const UniformSource& random,
                                          const IsTaken& is_taken) {
  for (int attempt = 0; attempt < kBaseAttempts; ++attempt) {
    std::string base = slug_base(words, random);
    if (!is_taken(base)) return base;
    for (int n = 2; n <= kLastNumberedSuffix; ++n) {
      std::string candidate = base + '-' + std::to_string(n);
      if (!is_taken(candidate)) return candidate;
    }
  }
  return std::nullopt;
}

// Number.prototype.toString(36).
std::string base36(int64_t value) {
  if (value == 0) return "0";
  bool negative = value < 0;
  uint64_t v = negative ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  std::string digits;
  while (v > 0) {
    digits.insert(digits.begin(), kBase36Digits[v % 36]);
    v /= 36;
  }
  return negative ? "-" + digits : digits;
}

// --- deriveSessionName ---------------------------------------------------------------------

bool is_line_terminator(char32_t c) {
  return c == '\n' || c == '\r' || c == 0x2028 || c == 0x2029;
}

char32_t code_point_at(std::string_view s, size_t pos, size_t& length) {
  char32_t cp = 0;
  length = decode_utf8(s.substr(pos), cp);
  if (length == 0) length = 1;
  return cp;
}

// End of the quoted part "(?:\\.|[^"\\])*" starting at the '"' at `pos`, or npos.
size_t match_double_quoted(std::string_view s, size_t pos) {
  size_t i = pos + 1;
  while (i < s.size()) {
    size_t length = 0;
    char32_t c = code_point_at(s, i, length);
    if (c == '"') return i + 1;
    if (c == '\\') {
      if (i + 1 >= s.size()) return std::string_view::npos;
      size_t next_length = 0;
      if (is_line_terminator(code_point_at(s, i + 1, next_length))) return std::string_view::npos;
      i += 1 + next_length;
      continue;
    }
    i += length;
  }
  return std::string_view::npos;
}

// End of the token starting at `pos` (== pos when none starts there).
size_t match_token(std::string_view s, size_t pos) {
  size_t i = pos;
  while (i < s.size()) {
    size_t length = 0;
    char32_t c = code_point_at(s, i, length);
    if (c == '"') {
      size_t end = match_double_quoted(s, i);
      if (end == std::string_view::npos) break;
      i = end;
    } else if (c == '\'') {
      size_t close = s.find('\'', i + 1);
      if (close == std::string_view::npos) break;
      i = close + 1;
    } else if (is_js_whitespace(c)) {
      break;
    } else {
      i += length;
    }
  }
  return i;
}

// stripQuotes: trim, then remove one pair of matching surrounding quotes.
std::string_view strip_quotes(std::string_view value) {
  std::string_view trimmed = js_trim(value);
  if (trimmed.empty()) return trimmed;
  char first = trimmed.front();
  if ((first == '"' || first == '\'') && trimmed.back() == first) {
    return trimmed.size() < 2 ? std::string_view() : trimmed.substr(1, trimmed.size() - 2);
  }
  return trimmed;
}

std::vector<std::string_view> tokenize(std::string_view command) {
  std::vector<std::string_view> tokens;
  size_t pos = 0;
  while (pos < command.size()) {
    size_t end = match_token(command, pos);
    if (end == pos) {
      size_t length = 0;
      code_point_at(command, pos, length);
      pos += length;
      continue;
    }
    std::string_view token = strip_quotes(command.substr(pos, end - pos));
    if (!token.empty()) tokens.push_back(token);
    pos = end;
  }
  return tokens;
}

// The first command of `command`: the text before the first `;`, `|` (so also `||`), `&`
// (so also `&&`; not the `&` of a redirection like `2>&1` or `&>`) or line break outside
// quotes. Quotes are recognised as the tokenizer does; a backslash outside them escapes the
// next character (`find . -exec rm {} \;`).
std::string_view first_command(std::string_view command) {
  size_t i = 0;
  while (i < command.size()) {
    char c = command[i];
    if (c == '"' || c == '\'') {
      size_t end = c == '"' ? match_double_quoted(command, i) : command.find('\'', i + 1);
      if (end != std::string_view::npos) {
        i = c == '"' ? end : end + 1;
        continue;
      }
    } else if (c == '\\') {
      i += 2;
      continue;
    } else if (c == ';' || c == '|' || c == '\n' || c == '\r') {
      return command.substr(0, i);
    } else if (c == '&') {
      bool redirection = (i > 0 && (command[i - 1] == '>' || command[i - 1] == '<')) ||
                         (i + 1 < command.size() && command[i + 1] == '>');
      if (!redirection) return command.substr(0, i);
    }
    ++i;
  }
  return command;
}

}  // namespace

std::string_view slug_adjective(size_t index) { return kAdjectives.at(index); }
std::string_view slug_noun(size_t index) { return kNouns.at(index); }
size_t slug_adjective_count() { return kAdjectives.size(); }
size_t slug_noun_count() { return kNouns.size(); }

std::string create_session_slug(const UniformSource& random, const IsTaken& is_taken,
                                int64_t now_ms) {
  if (auto slug = available_slug(2, random, is_taken)) return *slug;
  if (auto slug = available_slug(3, random, is_taken)) return *slug;
  std::string fallback = slug_base(3, random) + '-';
  for (int i = 0; i < 3; ++i) {
    uint32_t k = random(static_cast<uint32_t>(kSuffixAlphabet.size()));
    fallback += kSuffixAlphabet[k < kSuffixAlphabet.size() ? k : 0];
  }
  if (!is_taken(fallback)) return fallback;
  return fallback + '-' + base36(now_ms);
}

std::optional<std::string> derive_session_name(std::string_view command) {
  std::vector<std::string_view> tokens = tokenize(first_command(command));
  // A command line that starts with a separator: name it by its words as the reference does.
  if (tokens.empty()) tokens = tokenize(command);
  if (tokens.empty()) return std::nullopt;
  std::string_view verb = tokens[0];
  std::string_view target;
  bool have_target = false;
  for (size_t i = 1; i < tokens.size(); ++i) {
    if (tokens[i].front() != '-') {
      target = tokens[i];
      have_target = true;
      break;
    }
  }
  if (!have_target && tokens.size() > 1) {
    target = tokens[1];
    have_target = true;
  }
  if (!have_target) return std::string(verb);
  // The reference strips quotes a second time here (so '"x"' loses both layers).
  std::string name(strip_quotes(verb));
  name += ' ';
  name += truncate_middle(strip_quotes(target), 48);
  return name;
}

}  // namespace clawexec::session
