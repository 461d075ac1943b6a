// Environment lookups for configuration and the strict integer parser the reference applies
// to numeric environment overrides (see env_lookup.h for the accepted forms).

#include "config/env_lookup.h"

#include <cstdlib>

#include "base/utf.h"

namespace clawexec::config {

EnvLookup process_env() {
  return [](std::string_view name) -> std::optional<std::string> {
    const char* value = std::getenv(std::string(name).c_str());
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  };
}

EnvLookup env_from_map(std::map<std::string, std::string, std::less<>> vars) {
  return [vars = std::move(vars)](std::string_view name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

std::optional<int64_t> parse_strict_integer(std::string_view text) {
  constexpr uint64_t kMaxSafeInteger = (uint64_t{1} << 53) - 1;
  std::string_view s = js_trim(text);
  bool negative = false;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return std::nullopt;
  uint64_t magnitude = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    magnitude = magnitude * 10 + static_cast<uint64_t>(c - '0');
    if (magnitude > kMaxSafeInteger) return std::nullopt;  // stays exact: checked every digit
  }
  int64_t value = static_cast<int64_t>(magnitude);
  return negative ? -value : value;
}

std::optional<int64_t> read_env_integer(const EnvLookup& env, std::string_view name,
                                        std::string_view legacy_name) {
  if (!env) return std::nullopt;
  std::optional<std::string> raw = env(name);
  if ((!raw || raw->empty()) && !legacy_name.empty()) raw = env(legacy_name);
  if (!raw) return std::nullopt;
  return parse_strict_integer(*raw);
}

}  // namespace clawexec::config
