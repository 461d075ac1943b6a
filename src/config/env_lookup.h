#pragma once
// Environment access for configuration, injected so tests never touch the real environment,
// plus the reference's strict integer parsing for numeric environment overrides.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace clawexec::config {

/// Returns the value of an environment variable, nullopt when it is not set.
using EnvLookup = std::function<std::optional<std::string>(std::string_view name)>;

/// Looks names up in this process's environment (getenv).
EnvLookup process_env();

/// Looks names up in a fixed map (for tests and for environments built by callers).
EnvLookup env_from_map(std::map<std::string, std::string, std::less<>> vars);

/// The reference's parseStrictInteger for strings: after trimming JavaScript white space the
/// text must be an optional sign followed by ASCII digits only ("+15", "007", " 42 " pass;
/// "1e3", "0x10", "1.0", "12abc", "" do not), and the value must be a safe integer
/// (|n| <= 2^53 - 1). Anything else yields nullopt.
std::optional<int64_t> parse_strict_integer(std::string_view text);

/// The reference's readEnvInt: the value of `name`, or of `legacy_name` when `name` is unset
/// or empty, parsed with parse_strict_integer. A set but invalid value yields nullopt (it
/// does not fall back to the legacy name).
std::optional<int64_t> read_env_integer(const EnvLookup& env, std::string_view name,
                                        std::string_view legacy_name = {});

}  // namespace clawexec::config
