#pragma once
// The JSON seam. Boost.JSON is the value type everywhere; this header adds what the reference
// behaviour needs on top of it: JavaScript's JSON.stringify (number formatting, escaping and
// 2-space indentation match Node exactly, because some result texts embed it) and small typed
// accessors.

#include <boost/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clawexec::json {

using Value = boost::json::value;
using Object = boost::json::object;
using Array = boost::json::array;

/// JavaScript's Number.prototype.toString() for a finite double ("1e+21", "0.1", "-0").
std::string js_number(double value);

/// JSON.stringify(value, null, indent): key order kept, JS escaping and number formatting.
std::string stringify(const Value& value, int indent = 0);

/// Compact serialization for the wire (same as stringify with indent 0).
inline std::string serialize(const Value& value) { return stringify(value, 0); }

/// Parses strict JSON; nullopt on any error.
std::optional<Value> parse(std::string_view text);

/// The numeric value of `v` as a double when it is a JSON number.
std::optional<double> as_number(const Value& v);

/// Member lookup that returns nullptr when `object` lacks `key`.
const Value* find(const Object& object, std::string_view key);

/// The string member `key` of `object`, or "" when it is absent or not a string.
std::string string_member(const Object& object, std::string_view key);
/// The integer member `key` (an integral double counts), or nullopt.
std::optional<int64_t> integer_member(const Object& object, std::string_view key);
/// The string elements of the array member `key` (other elements skipped; absent: none).
std::vector<std::string> strings_member(const Object& object, std::string_view key);
/// The object member `key`, or nullptr when it is absent or not an object.
const Object* object_member(const Object& object, std::string_view key);
/// A JSON array of strings.
Array string_array(const std::vector<std::string>& items);

}  // namespace clawexec::json
