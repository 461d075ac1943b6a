// Matching a resolved executable against the allowlist.
//
// Problem: an allowlist mixes path globs (matched against the realpath, so a symlink cannot be
// used to reach another binary), bare names (matched only for PATH-resolved commands), argv
// regexes and the "*" wildcard, with precedence rules between them; the check runs for every
// command and must stay cheap for large allowlists.
//
// Approach: one pass over the entries in order, remembering the first path-only match and
// returning at once on an argPattern match; globs go through the cached glob matcher.

#include "policy/allowlist_match.h"

#include "base/utf.h"
#include "policy/arg_pattern.h"
#include "policy/glob.h"

namespace clawexec::policy {
namespace {

bool has_path_selector(std::string_view s) {
  for (char c : s) {
    if (c == '/' || c == '\\' || c == '~') return true;
  }
  return false;
}

// JavaScript trim with an ASCII fast path.
std::string_view fast_trim(std::string_view s) {
  auto plain = [](unsigned char c) { return c > ' ' && c < 0x80; };
  if (!s.empty() && plain(static_cast<unsigned char>(s.front())) &&
      plain(static_cast<unsigned char>(s.back()))) {
    return s;
  }
  return js_trim(s);
}

// The bare-name targets: executable_name and basename(resolved_path), prepared once.
struct BareNameTargets {
  std::optional<GlobTarget> name;
  std::optional<GlobTarget> base;
};

bool matches_bare_name(std::string_view pattern, const BareNameTargets& targets,
                       std::string_view home) {
  if (targets.name && matches_exec_allowlist_pattern(pattern, *targets.name, home)) return true;
  return targets.base && matches_exec_allowlist_pattern(pattern, *targets.base, home);
}

bool has_arg_pattern(const AllowlistEntry& entry) {
  return entry.arg_pattern.has_value() && !entry.arg_pattern->empty();
}

}  // namespace

const AllowlistEntry* match_allowlist(const std::vector<AllowlistEntry>& entries,
                                      const ExecutableResolution* resolution,
                                      const Argv* argv, std::string_view home) {
  if (entries.empty() || resolution == nullptr) return nullptr;
  for (const AllowlistEntry& entry : entries) {
    if (fast_trim(entry.pattern) == "*" && !has_arg_pattern(entry)) return &entry;
  }
  if (!resolution->resolved_path || resolution->resolved_path->empty()) return nullptr;
  std::string_view real = resolution->resolved_real_path ? js_trim(*resolution->resolved_real_path)
                                                         : std::string_view();
  std::string_view trust_path = real.empty() ? std::string_view(*resolution->resolved_path) : real;

  const GlobTarget trust_target(trust_path);
  BareNameTargets bare;  // bare names only trust PATH-resolved commands
  if (!has_path_selector(resolution->raw_executable)) {
    if (!resolution->executable_name.empty()) bare.name.emplace(resolution->executable_name);
    std::string_view base = posix_basename(*resolution->resolved_path);
    if (base != resolution->executable_name) bare.base.emplace(base);
  }
  const bool bare_names_apply = bare.name || bare.base;

  const AllowlistEntry* path_only = nullptr;
  for (const AllowlistEntry& entry : entries) {
    std::string_view pattern = fast_trim(entry.pattern);
    if (pattern.empty()) continue;
    bool matched = has_path_selector(pattern)
                       ? matches_exec_allowlist_pattern(pattern, trust_target, home)
                       : bare_names_apply && pattern != "*" && matches_bare_name(pattern, bare, home);
    if (!matched) continue;
    if (!has_arg_pattern(entry)) {
      if (path_only == nullptr) path_only = &entry;
      continue;
    }
    if (argv != nullptr && match_arg_pattern(*entry.arg_pattern, *argv)) return &entry;
  }
  return path_only;
}

}  // namespace clawexec::policy
