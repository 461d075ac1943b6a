// Unicode text work of the auto-reviewer: recognising reviewer-directed text in a request
// (the pre-screen) and cleaning a rationale before a human reads it.
//
// Problem: both must give OpenClaw's answers, and OpenClaw states them as JavaScript regular
// expressions over UTF-16 strings: NFKC normalisation, toLowerCase, \p{Cc}\p{Cf}\p{P}\p{S}
// classes, \s, ASCII \b, and its own stripAnsi for escape sequences.
// Approach: ICU does NFKC, full lower-casing and the punctuation/symbol categories; format
// characters (Cf) use term's table, generated from Node 24's own Unicode data; the regular
// expressions run in PCRE2's UTF mode without UCP, where \b is ASCII as in JavaScript and "."
// matches a code point (no line terminator survives normalisation). Escape sequences are
// removed by OpenClaw's stripAnsi grammar (strip_ansi below).

#include <unicode/locid.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>

#include <array>
#include <memory>
#include <set>

#include "base/utf.h"
#include "policy/auto_review.h"
#include "policy/bounded_regex.h"
#include "term/unicode_format.h"

namespace clawexec::policy {
namespace {

constexpr size_t kMaxReviewInputUnits = 16000;
constexpr size_t kMaxRationaleUnits = 500;
using regex::CodePtr;

constexpr std::array<std::string_view, 4> kDirectivePatterns = {
    R"(\b(ignore|disregard|override)\b.{0,80}\b(instruction|system|developer|prompt|policy)\b)",
    R"(\b(return|respond|output|say|print)\b.{0,80}\bdecision\b.{0,80}\b(allow|allow-once)\b)",
    R"(\b(exec\s+)?reviewer\b.{0,80}\b(decision|allow|risk|rationale)\b)",
    R"(\buntrusted (?:exec|widget) request json end\b)",
};

// The patterns are constants; a failure to compile one is a bug caught by the tests (the
// code is then null and nothing matches).
CodePtr compile(std::string_view pattern) {
  int error = 0;
  PCRE2_SIZE offset = 0;
  return CodePtr(pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                               PCRE2_UTF | PCRE2_NO_UTF_CHECK | PCRE2_DOLLAR_ENDONLY, &error, &offset, nullptr));
}

// Start and end byte offsets of the first match at or after `from`, or nullopt.
std::optional<std::pair<size_t, size_t>> find(const pcre2_code* code, std::string_view subject, size_t from) {
  if (code == nullptr) return std::nullopt;
  regex::MatchDataPtr data(pcre2_match_data_create_from_pattern(code, nullptr));
  int rc = pcre2_match(code, reinterpret_cast<PCRE2_SPTR>(subject.data()), subject.size(), from, PCRE2_NO_UTF_CHECK,
                       data.get(), regex::bounded_match_context());
  if (rc < 0) return std::nullopt;
  const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(data.get());
  return std::make_pair(static_cast<size_t>(ovector[0]), static_cast<size_t>(ovector[1]));
}

constexpr char32_t kBel = 0x07;
constexpr char32_t kEsc = 0x1B;
constexpr char32_t kCsi8 = 0x9B;
constexpr char32_t kSt8 = 0x9C;
constexpr char32_t kOsc8 = 0x9D;

char32_t code_point_at(std::string_view text, size_t pos, size_t& length) {
  char32_t cp = 0;
  length = pos < text.size() ? decode_utf8(text.substr(pos), cp) : 0;
  return length == 0 ? 0 : cp;
}

// Length of the terminated OSC string at `pos` ((ESC ']' | U+009D) [^BEL ESC U+009C]*
// (ESC '\' | BEL | U+009C)), or 0.
size_t osc_length(std::string_view text, size_t pos) {
  size_t n = 0;
  char32_t cp = code_point_at(text, pos, n);
  size_t cursor = pos + n;
  if (cp == kEsc && cursor < text.size() && text[cursor] == ']') {
    ++cursor;
  } else if (cp != kOsc8) {
    return 0;
  }
  while (cursor < text.size()) {
    cp = code_point_at(text, cursor, n);
    if (cp == kBel || cp == kSt8) return cursor + n - pos;
    if (cp == kEsc) return cursor + 1 < text.size() && text[cursor + 1] == '\\' ? cursor + 2 - pos : 0;
    cursor += n;
  }
  return 0;
}

// The CSI at `pos` (ESC '[' or U+009B): parameter and intermediate bytes up to a final byte
// (0x40-0x7E, kept in the sequence), CAN/SUB (cancel, consumed), ESC/U+009B (not consumed),
// a non-ASCII character (not consumed) or the end. C0 controls and DEL inside it are kept as
// text. Returns the end of the sequence, or `pos` when there is no CSI here.
size_t scan_csi(std::string_view text, size_t pos, std::string& controls) {
  size_t n = 0;
  const char32_t intro = code_point_at(text, pos, n);
  size_t cursor = pos + n;
  if (intro == kEsc && cursor < text.size() && text[cursor] == '[') {
    ++cursor;
  } else if (intro != kCsi8) {
    return pos;
  }
  while (cursor < text.size()) {
    const char32_t cp = code_point_at(text, cursor, n);
    if (cp == 0x18 || cp == 0x1A) return cursor + n;
    if (cp == kEsc || cp == kCsi8 || cp >= 0x80) return cursor;
    if (cp <= 0x1F || cp == 0x7F) {
      append_utf8(controls, cp);
    } else if (cp >= 0x40) {
      return cursor + n;
    }
    cursor += n;
  }
  return cursor;
}

// OpenClaw's stripAnsi (its own parser in the default, non-compatibility grammar): terminated
// OSC strings and CSI sequences go, a lone ESC stays (the caller drops it as a control).
// term::AnsiStripper cannot stand in: it is the streaming compatibility grammar, which also
// removes ESC '(' 'B' and the like and swallows unterminated OSC strings.
std::string strip_ansi(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t copied = 0;
  for (size_t pos = 0; pos < text.size();) {
    size_t n = 0;
    const char32_t cp = code_point_at(text, pos, n);
    if (cp != kEsc && cp != kCsi8 && cp != kOsc8) {
      pos += n;
      continue;
    }
    std::string controls;
    size_t end = pos + osc_length(text, pos);
    if (end == pos) end = scan_csi(text, pos, controls);
    if (end == pos) {
      pos += n;
      continue;
    }
    out.append(text.substr(copied, pos - copied)).append(controls);
    pos = copied = end;
  }
  out.append(text.substr(copied));
  return out;
}

bool is_control(char32_t cp) { return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F); }

bool is_punctuation_or_symbol(char32_t cp) {
  switch (u_charType(static_cast<UChar32>(cp))) {
    case U_DASH_PUNCTUATION:
    case U_START_PUNCTUATION:
    case U_END_PUNCTUATION:
    case U_CONNECTOR_PUNCTUATION:
    case U_OTHER_PUNCTUATION:
    case U_INITIAL_PUNCTUATION:
    case U_FINAL_PUNCTUATION:
    case U_MATH_SYMBOL:
    case U_CURRENCY_SYMBOL:
    case U_MODIFIER_SYMBOL:
    case U_OTHER_SYMBOL:
      return true;
    default:
      return false;
  }
}

// Appends `cp` unless it is white space; a white-space run becomes one space, none at the
// start (the caller drops a trailing one): JavaScript's .replace(/\s+/gu, " ").trim().
void append_collapsed(std::string& out, char32_t cp) {
  if (is_js_whitespace(cp)) {
    if (!out.empty() && out.back() != ' ') out.push_back(' ');
    return;
  }
  append_utf8(out, cp);
}

void drop_trailing_space(std::string& out) {
  if (!out.empty() && out.back() == ' ') out.pop_back();
}

// NFKC, lower case, control/format/punctuation/symbol runs and white space to one space, trimmed.
std::string normalize_for_directives(std::string_view text) {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfkc = icu::Normalizer2::getNFKCInstance(status);
  icu::UnicodeString unicode =
      icu::UnicodeString::fromUTF8(icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  if (U_SUCCESS(status)) unicode = nfkc->normalize(unicode, status);
  unicode.toLower(icu::Locale::getRoot());
  std::string utf8;
  unicode.toUTF8String(utf8);
  std::string out;
  out.reserve(utf8.size());
  for (size_t i = 0; i < utf8.size();) {
    char32_t cp = 0;
    i += decode_utf8(std::string_view(utf8).substr(i), cp);
    const bool blank = is_control(cp) || term::is_format_code_point(cp) || is_punctuation_or_symbol(cp);
    append_collapsed(out, blank ? U' ' : cp);
  }
  drop_trailing_space(out);
  return out;
}

bool has_directive_token_set(std::string_view normalized) {
  std::set<std::string_view> tokens;
  for (size_t start = 0;;) {
    size_t end = normalized.find(' ', start);
    tokens.insert(normalized.substr(start, end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return tokens.count("decision") && tokens.count("allow") && tokens.count("risk") && tokens.count("low");
}

}  // namespace

bool looks_like_reviewer_directive(std::string_view text) {
  static const std::array<CodePtr, kDirectivePatterns.size()> codes = [] {
    std::array<CodePtr, kDirectivePatterns.size()> compiled;
    for (size_t i = 0; i < kDirectivePatterns.size(); ++i) compiled[i] = compile(kDirectivePatterns[i]);
    return compiled;
  }();
  const std::string normalized = normalize_for_directives(to_valid_utf8(text));
  for (size_t i = 0; i < 3; ++i) {
    if (find(codes[i].get(), normalized, 0)) return true;
  }
  return has_directive_token_set(normalized) || find(codes[3].get(), normalized, 0).has_value();
}

std::optional<ReviewAnswer> prescreen(const ReviewInput& input) {
  if (utf16_length(review_request_json(input)) > kMaxReviewInputUnits) {
    return ReviewAnswer{ReviewDecision::kAsk, ReviewLevel::kUnknown,
                        "exec reviewer deferred because the request exceeds review input limits", std::nullopt};
  }
  auto directive = [](std::string_view value) { return !value.empty() && looks_like_reviewer_directive(value); };
  bool found =
      directive(input.command) || directive(input.resolved_path.value_or("")) || directive(input.cwd.value_or(""));
  for (const auto* list : {&input.argv, &input.env_keys}) {
    if (found || !*list) continue;
    for (const std::string& value : **list) found = found || directive(value);
  }
  if (!found) return std::nullopt;
  return ReviewAnswer{ReviewDecision::kAsk, ReviewLevel::kMedium,
                      "exec reviewer deferred because the command contains reviewer-directed text", std::nullopt};
}

std::string clean_rationale(std::string_view text, std::string_view fallback) {
  const std::string valid = to_valid_utf8(text);
  std::string_view trimmed = js_trim(valid);
  const std::string stripped = strip_ansi(trimmed.empty() ? fallback : trimmed);
  std::string out;
  out.reserve(stripped.size());
  for (size_t i = 0; i < stripped.size();) {
    char32_t cp = 0;
    i += decode_utf8(std::string_view(stripped).substr(i), cp);
    if (cp == '\r' || cp == '\n' || cp == '\t') {
      out.append(cp == '\r' ? "\\r" : cp == '\n' ? "\\n" : "\\t");
    } else if (!is_control(cp) && !term::is_format_code_point(cp) && cp != 0x2028 && cp != 0x2029) {
      append_collapsed(out, cp);
    }
  }
  drop_trailing_space(out);
  return std::string(utf16_prefix(out.empty() ? fallback : std::string_view(out), kMaxRationaleUnits));
}

}  // namespace clawexec::policy
