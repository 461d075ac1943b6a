// libFuzzer target: arbitrary bytes through the JSON5 reader (config/json5.h).
//
// Problem: the reader takes user-edited configuration; no input may crash it, hang it or
// exhaust the stack, and every rejection must tell the user where: "JSON5 parse error at
// <line>:<column>: <what>" with both numbers at least 1.
//
// Approach: parse; on error check the message shape. On success serialise the value as
// standard JSON (a subset of JSON5) and parse that again: the result must be the same value.
// Values holding NaN or an infinity are skipped for the round trip, since JSON cannot spell
// them.

#include <boost/json.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "config/json5.h"

namespace {

namespace json = boost::json;

bool all_finite(const json::value& v) {
  switch (v.kind()) {
    case json::kind::double_: return std::isfinite(v.get_double());
    case json::kind::array:
      for (const json::value& x : v.get_array()) {
        if (!all_finite(x)) return false;
      }
      return true;
    case json::kind::object:
      for (const auto& kv : v.get_object()) {
        if (!all_finite(kv.value())) return false;
      }
      return true;
    default: return true;
  }
}

// "JSON5 parse error at L:C: ..." with L, C >= 1.
bool well_formed_error(const std::string& message) {
  unsigned line = 0, column = 0;
  int consumed = 0;
  if (message.rfind("JSON5 parse error at ", 0) != 0) return false;
  if (std::sscanf(message.c_str(), "JSON5 parse error at %u:%u: %n", &line, &column, &consumed) != 2) return false;
  return line >= 1 && column >= 1 && consumed > 0 && static_cast<size_t>(consumed) < message.size();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  clawexec::Result<json::value> parsed = clawexec::config::parse_json5(text);
  if (!parsed.ok()) {
    if (!well_formed_error(parsed.error().message)) {
      std::fprintf(stderr, "\n*** JSON5 error without line/column: [%s]\n", parsed.error().message.c_str());
      __builtin_trap();
    }
    return 0;
  }
  const json::value& value = parsed.value();
  if (!all_finite(value)) return 0;
  std::string serialized = json::serialize(value);
  clawexec::Result<json::value> again = clawexec::config::parse_json5(serialized);
  if (!again.ok() || again.value() != value) {
    std::fprintf(stderr, "\n*** JSON5 round trip changed the value\n  serialized: %s\n  reparsed: %s\n",
                 serialized.c_str(), again.ok() ? json::serialize(again.value()).c_str() : again.error().message.c_str());
    __builtin_trap();
  }
  return 0;
}
