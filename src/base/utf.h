#pragma once
// UTF-8 text measured the way the reference measures it. OpenClaw is JavaScript, so every
// length, cap and slice in its behaviour (200 000-char aggregate, 2 000-char tail, 180-char
// summaries...) counts UTF-16 code units. We keep text as UTF-8 and count units on the fly:
// a code point below U+10000 is one unit, anything above is two (a surrogate pair).
// All functions assume valid UTF-8 (the output sanitizer guarantees it) and never split a
// code point; where the reference would split a surrogate pair, we drop the half instead.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace clawexec {

/// Number of UTF-16 code units the UTF-8 text would occupy.
size_t utf16_length(std::string_view utf8);

/// Byte offset of the first code point that starts at or after UTF-16 unit `units`
/// (clamped to the text's size).
size_t utf16_offset_to_bytes(std::string_view utf8, size_t units);

/// The first `units` UTF-16 units (fewer if that would split a surrogate pair).
std::string_view utf16_prefix(std::string_view utf8, size_t units);

/// The last `units` UTF-16 units (fewer if that would split a surrogate pair).
std::string_view utf16_suffix(std::string_view utf8, size_t units);

/// Appends the UTF-8 encoding of `code_point` (must be a scalar value).
void append_utf8(std::string& out, char32_t code_point);

/// Decodes one code point from the front of valid UTF-8 text; returns its byte length.
size_t decode_utf8(std::string_view utf8, char32_t& code_point);

/// Replaces every invalid UTF-8 sequence with U+FFFD (like a TextDecoder without fatal).
std::string to_valid_utf8(std::string_view bytes);

/// Byte offset of the first invalid UTF-8 sequence (overlong forms, surrogates and values above
/// U+10FFFF are invalid), or npos when the text is valid.
size_t find_invalid_utf8(std::string_view bytes);

/// JavaScript's String.prototype.trim(): strips ASCII and Unicode white space
/// (including U+00A0, U+2028, U+FEFF...) from both ends.
std::string_view js_trim(std::string_view utf8);
std::string_view js_trim_end(std::string_view utf8);
std::string_view js_trim_start(std::string_view utf8);

/// True for the code points JavaScript's \s matches.
bool is_js_whitespace(char32_t code_point);

}  // namespace clawexec
