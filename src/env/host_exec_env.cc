// Host-exec environment assembly: filter what the server passes on, judge what the caller asks
// for, and explain a refusal in the reference's exact words.
//
// Problem: a host command inherits the server's environment plus per-call overrides, and both
// directions are attack surfaces with different rules (host_env_policy.h). The reference also
// has a few value rewrites (git protocol hardening, "no pager" requests) and reports rejected
// keys sorted the way JavaScript sorts strings (UTF-16 code units).
//
// Approach: one pass over each list in order, assigning into an EnvList so JavaScript object
// semantics (first position wins, last value wins) carry over; rejected keys are collected and
// sorted/de-duplicated once at the end. Refusal texts are built from the two key lists only.

#include "env/host_exec_env.h"

#include <algorithm>
#include <array>

#include "base/strings.h"
#include "base/utf.h"
#include "env/host_env_policy.h"

namespace clawexec::env {
namespace {

constexpr std::string_view kGitAllowProtocol = "GIT_ALLOW_PROTOCOL";
constexpr std::string_view kGitProtocolFromUser = "GIT_PROTOCOL_FROM_USER";
constexpr std::string_view kGitProtocolFromUserDisabled = "0";

// Withheld names in match form, empties dropped.
class WithheldKeys {
 public:
  explicit WithheldKeys(const std::vector<std::string>& keys) {
    for (const auto& key : keys) {
      std::string_view trimmed = js_trim(key);
      if (!trimmed.empty()) upper_.push_back(match_form(trimmed));
    }
  }
  bool contains(std::string_view raw_key) const {
    if (upper_.empty()) return false;
    std::string_view key = js_trim(raw_key);
    if (key.empty()) return false;
    return std::find(upper_.begin(), upper_.end(), match_form(key)) != upper_.end();
  }

 private:
  std::vector<std::string> upper_;
};

std::u16string to_utf16_units(std::string_view utf8) {
  std::u16string out;
  while (!utf8.empty()) {
    char32_t cp = 0;
    size_t n = decode_utf8(utf8, cp);
    if (n == 0) break;
    utf8.remove_prefix(n);
    if (cp >= 0x10000) {
      cp -= 0x10000;
      out += static_cast<char16_t>(0xD800 + (cp >> 10));
      out += static_cast<char16_t>(0xDC00 + (cp & 0x3FF));
    } else {
      out += static_cast<char16_t>(cp);
    }
  }
  return out;
}

// JavaScript's [...new Set(keys)].sort(): unique, in UTF-16 code-unit order.
std::vector<std::string> sort_unique_js(std::vector<std::string> keys) {
  std::sort(keys.begin(), keys.end(), [](const std::string& a, const std::string& b) {
    return to_utf16_units(a) < to_utf16_units(b);
  });
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

bool is_no_pager_override(std::string_view key, std::string_view value) {
  std::string upper = match_form(key);
  return (upper == "GIT_PAGER" || upper == "PAGER") && (value.empty() || value == "cat");
}

bool is_all_digits(std::string_view s, bool zeros_only) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [&](char c) {
    return zeros_only ? c == '0' : (c >= '0' && c <= '9');
  });
}

// true/yes/on, or an integer (optionally signed) that is not zero.
bool is_permissive_protocol_from_user(std::string_view value) {
  std::string lower = lower_trimmed(value);
  if (lower == "true" || lower == "yes" || lower == "on") return true;
  std::string_view digits = lower;
  if (!digits.empty() && (digits[0] == '+' || digits[0] == '-')) digits.remove_prefix(1);
  return is_all_digits(digits, /*zeros_only=*/false) && !is_all_digits(digits, /*zeros_only=*/true);
}

// Keeps only the protocols git always allows by default (git, http, https, ssh).
std::string reduce_git_allow_protocol(std::string_view value) {
  constexpr std::array<std::string_view, 4> kAlwaysAllowed = {"git", "http", "https", "ssh"};
  std::string_view trimmed = js_trim(value);
  if (trimmed.empty()) return {};
  std::vector<std::string> kept;
  for (std::string_view protocol : split(trimmed, ':')) {
    if (std::find(kAlwaysAllowed.begin(), kAlwaysAllowed.end(), protocol) != kAlwaysAllowed.end()) {
      kept.emplace_back(protocol);
    }
  }
  return join(kept, ":");
}

EnvList filter_inherited(const EnvList& inherited, const WithheldKeys& withheld) {
  EnvList out;
  out.reserve(inherited.size());
  for (const auto& [raw_key, value] : inherited) {
    std::string_view key = js_trim(raw_key);
    if (key.empty() || withheld.contains(key)) continue;
    std::string upper = match_form(key);
    if (upper == kGitAllowProtocol) {
      set_var(out, key, reduce_git_allow_protocol(value));
    } else if (upper == kGitProtocolFromUser) {
      set_var(out, key,
              is_permissive_protocol_from_user(value) ? std::string(kGitProtocolFromUserDisabled) : value);
    } else if (!is_dangerous_inherited_key(key)) {
      set_var(out, key, value);
    }
  }
  return out;
}

OverrideReview review(const EnvList& overrides, const HostEnvOptions& options,
                      const WithheldKeys& withheld) {
  OverrideReview result;
  for (const auto& [raw_key, value] : overrides) {
    std::optional<std::string_view> key = normalize_override_key(raw_key);
    if (!key) {
      std::string_view trimmed = js_trim(raw_key);
      result.invalid_keys.emplace_back(trimmed.empty() ? std::string_view(raw_key) : trimmed);
      continue;
    }
    std::string upper = match_form(*key);
    bool blocked = withheld.contains(upper) ||
                   (options.path_overrides == PathOverrides::kBlock && upper == "PATH");
    if (!blocked && is_no_pager_override(upper, value)) {
      set_var(result.accepted, *key, "");
      continue;
    }
    if (blocked || is_dangerous_override_key(upper)) {
      result.blocked_keys.push_back(std::move(upper));
      continue;
    }
    set_var(result.accepted, *key, value);
  }
  result.blocked_keys = sort_unique_js(std::move(result.blocked_keys));
  result.invalid_keys = sort_unique_js(std::move(result.invalid_keys));
  return result;
}

}  // namespace

OverrideReview review_overrides(const EnvList& overrides, const HostEnvOptions& options) {
  return review(overrides, options, WithheldKeys(options.withheld_keys));
}

EnvList filter_inherited_env(const EnvList& inherited, const HostEnvOptions& options) {
  return filter_inherited(inherited, WithheldKeys(options.withheld_keys));
}

namespace {

// The accepted overrides and the CLI marker over `base` (the filtered inherited environment).
SanitizedHostEnv sanitize_over(EnvList base, const EnvList& overrides, const HostEnvOptions& options,
                               const WithheldKeys& withheld) {
  SanitizedHostEnv result;
  result.env = std::move(base);
  OverrideReview verdict = review(overrides, options, withheld);
  for (auto& [key, value] : verdict.accepted) set_var(result.env, key, std::move(value));
  set_var(result.env, kCliMarkerKey, std::string(kCliMarkerValue));
  result.blocked_keys = std::move(verdict.blocked_keys);
  result.invalid_keys = std::move(verdict.invalid_keys);
  return result;
}

Result<EnvList> rejected_or_env(SanitizedHostEnv sanitized) {
  if (!sanitized.blocked_keys.empty() || !sanitized.invalid_keys.empty()) {
    return Error::rejected(security_violation_message(sanitized.blocked_keys, sanitized.invalid_keys));
  }
  return std::move(sanitized.env);
}

}  // namespace

SanitizedHostEnv sanitize_host_exec_env(const EnvList& inherited, const EnvList& overrides,
                                        const HostEnvOptions& options) {
  WithheldKeys withheld(options.withheld_keys);
  return sanitize_over(filter_inherited(inherited, withheld), overrides, options, withheld);
}

std::string override_rejection_details(const std::vector<std::string>& blocked_keys,
                                       const std::vector<std::string>& invalid_keys) {
  std::vector<std::string> parts;
  if (!blocked_keys.empty()) parts.push_back("blocked override keys: " + join(blocked_keys, ", "));
  if (!invalid_keys.empty()) {
    std::vector<std::string> shown;
    for (const std::string& key : invalid_keys) shown.push_back(visible_key(key));
    parts.push_back("invalid non-portable override keys: " + join(shown, ", "));
  }
  return join(parts, "; ");
}

std::string security_violation_message(const std::vector<std::string>& blocked_keys,
                                       const std::vector<std::string>& invalid_keys) {
  constexpr std::string_view kPathForbidden =
      "Security Violation: Custom 'PATH' variable is forbidden during host execution";
  bool path_blocked = std::find(blocked_keys.begin(), blocked_keys.end(), "PATH") != blocked_keys.end();
  if (blocked_keys.size() == 1 && invalid_keys.empty()) {
    if (path_blocked) return std::string(kPathForbidden) + ".";
    return "Security Violation: Environment variable '" + blocked_keys.front() +
           "' is forbidden during host execution.";
  }
  std::string details = override_rejection_details(blocked_keys, invalid_keys);
  if (path_blocked) return std::string(kPathForbidden) + " (" + details + ").";
  return "Security Violation: " + details + ".";
}

Result<EnvList> build_host_exec_env(const EnvList& inherited, const EnvList& overrides,
                                    const HostEnvOptions& options) {
  return rejected_or_env(sanitize_host_exec_env(inherited, overrides, options));
}

Result<EnvList> build_host_exec_env_over_filtered(const EnvList& filtered, const EnvList& overrides,
                                                  const HostEnvOptions& options) {
  WithheldKeys withheld(options.withheld_keys);
  EnvList base;
  base.reserve(filtered.size() + overrides.size() + 1);
  for (const auto& [key, value] : filtered) {
    if (!withheld.contains(key)) base.emplace_back(key, value);
  }
  return rejected_or_env(sanitize_over(std::move(base), overrides, options, withheld));
}

EnvList filter_shell_wrapper_overrides(const EnvList& overrides, const HostEnvOptions& options) {
  WithheldKeys withheld(options.withheld_keys);
  EnvList out;
  for (const auto& [raw_key, value] : overrides) {
    std::string_view key = js_trim(raw_key);
    if (!is_portable_env_key(key)) continue;
    if (is_no_pager_override(key, value) && !withheld.contains(key)) {
      set_var(out, key, "");
    } else if (is_shell_wrapper_allowed_key(key)) {
      set_var(out, key, value);
    }
  }
  return out;
}

}  // namespace clawexec::env
