#pragma once
// A strict JSON5 reader (https://spec.json5.org/, version 1.0.0) producing Boost.JSON values.
// OpenClaw's configuration file is JSON5; there is no Debian package for it, so this is ours.
//
// Accepted: everything JSON5 allows (comments, trailing commas, unquoted ECMAScript 5.1
// identifier keys with \uXXXX escapes, single-quoted strings, all escapes including line
// continuations, hex numbers, leading/trailing decimal points, explicit '+', Infinity, NaN).
// Rejected with "JSON5 parse error at <line>:<column>: <what was expected>": anything else,
// input that is not valid UTF-8, and nesting deeper than kJson5MaxDepth arrays/objects.
// Lines count LF, CR, CRLF, U+2028 and U+2029 as one break each; columns count code points;
// both start at 1.
//
// How JSON5 values map into boost::json::value:
// * integers written without fraction or exponent (decimal or hex) become int64, uint64 when
//   above INT64_MAX, and double when wider than 64 bits; "-0" is int64 0;
// * every other number is a double; Infinity, -Infinity and NaN are the IEEE doubles
//   (boost::json::serialize prints them as non-standard tokens; callers validate first);
// * \uXXXX surrogate pairs combine into one code point, a lone surrogate becomes U+FFFD;
// * duplicate keys: the last value wins and the key keeps its first position (as in JS).

#include <boost/json/value.hpp>
#include <string_view>

#include "base/result.h"

namespace clawexec::config {

/// Maximum nesting of arrays and objects; deeper input is an error, never a stack overflow.
inline constexpr size_t kJson5MaxDepth = 256;

/// Parses one JSON5 document (a single value surrounded by white space and comments).
Result<boost::json::value> parse_json5(std::string_view text);

}  // namespace clawexec::config
