#pragma once
// Allowlist entries and matching one resolved executable against them (reference §4.2).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "policy/types.h"

namespace clawexec::policy {

/// One allowlist entry of the approvals document (reference §1.2).
struct AllowlistEntry {
  std::optional<std::string> id;
  std::string pattern;
  std::optional<std::string> source;  // "allow-always" for persisted approvals
  std::optional<std::string> arg_pattern;
  std::optional<int64_t> last_used_at;  // epoch milliseconds
  std::optional<std::string> last_used_command;
  std::optional<std::string> last_resolved_path;
};

/// matchAllowlist (POSIX): the entry that authorizes `resolution` (and, for argPattern
/// entries, `argv`), or nullptr.
///  1. An entry whose trimmed pattern is "*" without argPattern matches any non-null
///     resolution, resolved or not.
///  2. Otherwise the executable must have resolved; path entries (pattern contains / \ or ~)
///     match the trust path (resolved_real_path, else resolved_path); bare-name entries match
///     executable_name or basename(resolved_path), and never when the raw token has / \ or ~.
///  3. The first matching entry with an argPattern that matches argv wins at once; otherwise
///     the first matching entry without argPattern. argPattern entries need argv.
/// Entries with source "allow-always" match like any other (the 2026.7 rule of the spec).
const AllowlistEntry* match_allowlist(const std::vector<AllowlistEntry>& entries,
                                      const ExecutableResolution* resolution,
                                      const Argv* argv, std::string_view home);

/// An allowlist prepared for many lookups (one decision looks up every segment, often more
/// than once): patterns trimmed and classified once, with the literal text each must start
/// with, so most entries are rejected by one prefix comparison. `entries` must outlive it.
/// match() answers exactly as match_allowlist does.
class PreparedAllowlist {
 public:
  explicit PreparedAllowlist(const std::vector<AllowlistEntry>& entries);
  const AllowlistEntry* match(const ExecutableResolution* resolution, const Argv* argv, std::string_view home) const;
  const std::vector<AllowlistEntry>& entries() const { return *entries_; }

 private:
  struct Item {
    const AllowlistEntry* entry = nullptr;
    std::string_view pattern;  // trimmed
    bool path = false;         // matched against the trust path (has / \ or ~)
    bool bound = false;        // has an argPattern
    bool wildcard = false;
    std::optional<std::string_view> prefix;  // every match starts with this (when known)
  };
  const std::vector<AllowlistEntry>* entries_;
  std::vector<Item> items_;
  const AllowlistEntry* star_ = nullptr;  // the first "*" entry without argPattern
};

}  // namespace clawexec::policy
