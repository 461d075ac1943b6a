#pragma once
// Internal to the JSON5 reader (json5.cc): the lexical layer. The Scanner walks UTF-8 text
// that has already been validated and reads white space, comments, strings, numbers and
// property names. On failure a method returns false and leaves the byte offset and a short
// "what was expected" message in failure(); json5.cc turns the offset into line:column.

#include <boost/json/value.hpp>
#include <cstddef>
#include <string>
#include <string_view>

#include "base/utf.h"

namespace clawexec::config::json5_detail {

/// True for code points that may start a JSON5 (ECMAScript 5.1) identifier.
bool is_identifier_start(char32_t cp);
/// True for code points that may continue a JSON5 identifier.
bool is_identifier_part(char32_t cp);

/// Byte offset of the first byte that is not part of well-formed UTF-8 (base/utf.h).
using ::clawexec::find_invalid_utf8;

struct ScanFailure {
  size_t offset = 0;
  std::string message;
};

class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  size_t offset() const { return pos_; }
  bool at_end() const { return pos_ >= text_.size(); }
  /// The byte at the cursor (or `ahead` bytes further), -1 past the end.
  int peek(size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? static_cast<unsigned char>(text_[pos_ + ahead]) : -1;
  }
  void advance() { ++pos_; }
  const ScanFailure& failure() const { return failure_; }

  /// Skips white space (JSON5's set, including Unicode Zs) and comments.
  bool skip_space();
  /// Consumes `word` if the text at the cursor starts with it.
  bool consume_word(std::string_view word);
  /// Reads a single- or double-quoted string; the cursor is on the opening quote.
  bool scan_string(std::string& out);
  /// Reads a number (decimal, hex, Infinity, NaN, optionally signed) at the cursor.
  bool scan_number(boost::json::value& out);
  /// True if the cursor is on something that can start an unquoted property name.
  bool at_identifier_start() const;
  /// Reads an unquoted property name (with \uXXXX escapes decoded).
  bool scan_identifier(std::string& out);

 private:
  bool fail(size_t offset, std::string message) {
    failure_ = {offset, std::move(message)};
    return false;
  }
  bool skip_comment();
  bool scan_escape(std::string& out, char32_t& pending_high);
  bool scan_hex_number(bool negative, boost::json::value& out);
  bool read_hex_units(size_t count, char32_t& value);
  bool scan_identifier_char(bool first, std::string& out, bool& done);

  std::string_view text_;
  size_t pos_ = 0;
  ScanFailure failure_;
};

}  // namespace clawexec::config::json5_detail
