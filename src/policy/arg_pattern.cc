// argPattern regex matching.
//
// Problem: allowlist entries may carry a hand-written or generated JavaScript regular
// expression that the arguments must satisfy. We must accept the JavaScript spellings that
// appear in practice (\xHH, \uHHHH, NUL characters in generated patterns), never hang on a
// hostile pattern (ReDoS), and treat anything we cannot compile as "no match" (fail closed).
//
// Approach: PCRE2 in UTF mode with ALT_BSUX (JavaScript \x/\u escapes) and DOLLAR_ENDONLY
// (JavaScript "$" does not match before a final newline), bounded by match and depth limits.
// Compiled codes (or the fact that a pattern is invalid) are cached per thread, at most 512,
// cleared when full.

#include "policy/arg_pattern.h"

#include "policy/bounded_regex.h"

#include <memory>
#include <unordered_map>

namespace clawexec::policy {
namespace {

using regex::CodePtr;

constexpr size_t kArgPatternCacheLimit = 512;

struct TransparentHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

constexpr uint32_t kCompileOptions = PCRE2_UTF | PCRE2_ALT_BSUX | PCRE2_DOLLAR_ENDONLY;

// nullptr when the pattern does not compile.
pcre2_code* cached_code(std::string_view pattern) {
  thread_local std::unordered_map<std::string, CodePtr, TransparentHash, std::equal_to<>> cache;
  auto it = cache.find(pattern);
  if (it != cache.end()) return it->second.get();
  if (cache.size() >= kArgPatternCacheLimit) cache.clear();
  int error = 0;
  PCRE2_SIZE offset = 0;
  pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                                   kCompileOptions, &error, &offset, nullptr);
  return cache.emplace(std::string(pattern), CodePtr(code)).first->second.get();
}

}  // namespace

std::string arg_pattern_subject(std::string_view arg_pattern, const Argv& argv) {
  const bool generated = arg_pattern.find('\0') != std::string_view::npos;
  std::string subject;
  if (generated && argv.size() <= 1) return std::string("\0\0", 2);
  for (size_t i = 1; i < argv.size(); ++i) {
    if (i > 1 && !generated) subject += ' ';
    subject += argv[i];
    if (generated) subject += '\0';
  }
  return subject;
}

bool match_arg_pattern(std::string_view arg_pattern, const Argv& argv) {
  if (arg_pattern.rfind("sha256:", 0) == 0) return false;
  pcre2_code* code = cached_code(arg_pattern);
  if (code == nullptr) return false;
  std::string subject = arg_pattern_subject(arg_pattern, argv);
  regex::MatchDataPtr data(pcre2_match_data_create_from_pattern(code, nullptr));
  int rc = pcre2_match(code, reinterpret_cast<PCRE2_SPTR>(subject.data()), subject.size(), 0, 0,
                       data.get(), regex::bounded_match_context());
  return rc >= 0;
}

std::optional<std::string> arg_pattern_error(std::string_view arg_pattern) {
  int error = 0;
  PCRE2_SIZE offset = 0;
  CodePtr code(pcre2_compile(reinterpret_cast<PCRE2_SPTR>(arg_pattern.data()), arg_pattern.size(), kCompileOptions,
                             &error, &offset, nullptr));
  if (code) return std::nullopt;
  PCRE2_UCHAR buffer[256];
  pcre2_get_error_message(error, buffer, sizeof buffer);
  return std::string(reinterpret_cast<const char*>(buffer)) + " at offset " + std::to_string(offset);
}

}  // namespace clawexec::policy
