#pragma once
// Allowlist argPattern matching (reference §4.2, matchArgPattern): a regular expression tested
// against the arguments after argv[0].

#include <string_view>

#include "policy/types.h"

namespace clawexec::policy {

/// The subject an argPattern is tested against: when the pattern contains a NUL character
/// (auto-generated patterns) the arguments joined with NUL plus a trailing NUL ("\0\0" for no
/// arguments), otherwise the arguments joined with single spaces.
std::string arg_pattern_subject(std::string_view arg_pattern, const Argv& argv);

/// Whether `arg_pattern` (ECMAScript-like regex, unanchored, via PCRE2 with UTF and JavaScript
/// \xHH / \uHHHH escapes) finds a match in the subject. An invalid pattern, a pattern starting
/// with "sha256:" (hashed patterns are never regexes) or a match that exceeds the match/depth
/// limits is no match. Compiled patterns are cached per thread.
bool match_arg_pattern(std::string_view arg_pattern, const Argv& argv);

/// Why `arg_pattern` is not a usable regular expression (PCRE2's message and the offset), or
/// nullopt when it compiles the way match_arg_pattern compiles it.
std::optional<std::string> arg_pattern_error(std::string_view arg_pattern);

}  // namespace clawexec::policy
