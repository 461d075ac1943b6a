// The structural half of the JSON5 reader. Recursion would tie the nesting depth of the input
// to the C++ stack, so the parser is a loop over an explicit stack of open arrays/objects:
// it reads one value (opening a container pushes a frame), then attaches finished values to
// the innermost open container, closing containers as their brackets arrive. Depth is capped
// at kJson5MaxDepth. Error offsets are turned into line:column only when an error happens.

#include "config/json5.h"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/string.hpp>
#include <string>
#include <vector>

#include "config/json5_scanner.h"

namespace clawexec::config {
namespace {

using json5_detail::Scanner;

struct LineColumn {
  size_t line = 1;
  size_t column = 1;
};

size_t code_point_length(unsigned char lead) {
  if (lead >= 0xF0) return 4;
  if (lead >= 0xE0) return 3;
  if (lead >= 0xC0) return 2;
  return 1;
}

LineColumn locate(std::string_view text, size_t offset) {
  LineColumn at;
  size_t i = 0;
  auto byte = [&](size_t k) { return k < text.size() ? static_cast<unsigned char>(text[k]) : 0; };
  while (i < offset && i < text.size()) {
    unsigned char c = byte(i);
    bool separator = c == 0xE2 && byte(i + 1) == 0x80 && (byte(i + 2) == 0xA8 || byte(i + 2) == 0xA9);
    if (c == '\n' || c == '\r' || separator) {
      i += separator ? 3 : (c == '\r' && byte(i + 1) == '\n') ? 2 : 1;
      ++at.line;
      at.column = 1;
      continue;
    }
    i += code_point_length(c);
    ++at.column;
  }
  return at;
}

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text), scanner_(text) {}

  Result<boost::json::value> run();

 private:
  struct Frame {
    boost::json::value container;
    std::string key;  // objects: the name of the member whose value is being read
  };

  Error error_at(size_t offset, std::string_view message) const {
    LineColumn at = locate(text_, offset);
    return Error::invalid("JSON5 parse error at " + std::to_string(at.line) + ":" +
                          std::to_string(at.column) + ": " + std::string(message));
  }
  Error scan_error() const { return error_at(scanner_.failure().offset, scanner_.failure().message); }
  Result<void> skip_space() {
    if (!scanner_.skip_space()) return scan_error();
    return {};
  }
  boost::json::value pop() {
    boost::json::value done = std::move(stack_.back().container);
    stack_.pop_back();
    return done;
  }

  Result<bool> open_or_read_scalar(boost::json::value& out);
  Result<void> read_scalar(boost::json::value& out);
  Result<void> read_member_name(std::string& key);
  Result<bool> attach_and_continue(boost::json::value& current);

  std::string_view text_;
  Scanner scanner_;
  std::vector<Frame> stack_;
};

Result<boost::json::value> Parser::run() {
  if (size_t bad = json5_detail::find_invalid_utf8(text_); bad != std::string_view::npos) {
    return error_at(bad, "invalid UTF-8");
  }
  TRY(skip_space());
  boost::json::value current;
  while (true) {
    // The cursor is where a value must start.
    bool have_value = TRY(open_or_read_scalar(current));
    if (!have_value) continue;  // a non-empty container was opened; read its first value
    // `current` is complete: hand it to the enclosing containers until one wants more.
    bool more = TRY(attach_and_continue(current));
    if (!more) return current;
  }
}

// Returns true with `out` set when a whole value was read (a scalar or an empty container),
// false when a container was opened and its first value comes next.
Result<bool> Parser::open_or_read_scalar(boost::json::value& out) {
  int c = scanner_.peek();
  if (c != '[' && c != '{') {
    TRY(read_scalar(out));
    return true;
  }
  if (stack_.size() >= kJson5MaxDepth) {
    return error_at(scanner_.offset(),
                    "arrays and objects nested deeper than " + std::to_string(kJson5MaxDepth) + " levels");
  }
  scanner_.advance();
  const bool is_object = c == '{';
  stack_.push_back(Frame{
      is_object ? boost::json::value(boost::json::object_kind) : boost::json::value(boost::json::array_kind),
      {}});
  TRY(skip_space());
  if (scanner_.peek() == (is_object ? '}' : ']')) {
    scanner_.advance();
    out = pop();
    return true;
  }
  if (is_object) TRY(read_member_name(stack_.back().key));
  return false;
}

// Adds `current` to the innermost open container and consumes what follows it. Returns
// true when another value must be read, false when the document is complete (`current` then
// holds the top-level value).
Result<bool> Parser::attach_and_continue(boost::json::value& current) {
  while (!stack_.empty()) {
    Frame& top = stack_.back();
    const bool is_object = top.container.is_object();
    if (is_object) {
      top.container.get_object().insert_or_assign(top.key, std::move(current));
    } else {
      top.container.get_array().push_back(std::move(current));
    }
    TRY(skip_space());
    const int close = is_object ? '}' : ']';
    int next = scanner_.peek();
    if (next == ',') {
      scanner_.advance();
      TRY(skip_space());
      next = scanner_.peek();
      if (next != close) {
        if (is_object) TRY(read_member_name(top.key));
        return true;
      }
    }
    if (next != close) {
      return error_at(scanner_.offset(), is_object ? "expected ',' or '}' after object member"
                                                   : "expected ',' or ']' after array element");
    }
    scanner_.advance();
    current = pop();
  }
  TRY(skip_space());
  if (!scanner_.at_end())
    return error_at(scanner_.offset(), "expected end of input after the top-level value");
  return false;
}

Result<void> Parser::read_scalar(boost::json::value& out) {
  const int c = scanner_.peek();
  if (c == '"' || c == '\'') {
    std::string text;
    if (!scanner_.scan_string(text)) return scan_error();
    out = boost::json::string(text);
    return {};
  }
  if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.' || c == 'I' || c == 'N') {
    if (!scanner_.scan_number(out)) return scan_error();
    return {};
  }
  if (scanner_.consume_word("true")) {
    out = true;
  } else if (scanner_.consume_word("false")) {
    out = false;
  } else if (scanner_.consume_word("null")) {
    out = nullptr;
  } else {
    return error_at(scanner_.offset(), "expected a value");
  }
  return {};
}

// Reads `name :` (quoted or identifier) and the white space after the colon.
Result<void> Parser::read_member_name(std::string& key) {
  key.clear();
  const int c = scanner_.peek();
  if (c == '"' || c == '\'') {
    if (!scanner_.scan_string(key)) return scan_error();
  } else if (scanner_.at_identifier_start()) {
    if (!scanner_.scan_identifier(key)) return scan_error();
  } else {
    return error_at(scanner_.offset(), "expected a property name or '}'");
  }
  TRY(skip_space());
  if (scanner_.peek() != ':') return error_at(scanner_.offset(), "expected ':' after property name");
  scanner_.advance();
  return skip_space();
}

}  // namespace

Result<boost::json::value> parse_json5(std::string_view text) { return Parser(text).run(); }

}  // namespace clawexec::config
