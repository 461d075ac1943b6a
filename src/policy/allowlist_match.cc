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

// The bare-name targets: executable_name and basename(resolved_path), prepared once.
struct BareNameTargets {
  std::optional<GlobTarget> name;
  std::optional<GlobTarget> base;
};

bool has_arg_pattern(const AllowlistEntry& entry) {
  return entry.arg_pattern.has_value() && !entry.arg_pattern->empty();
}

}  // namespace

PreparedAllowlist::PreparedAllowlist(const std::vector<AllowlistEntry>& entries) : entries_(&entries) {
  items_.reserve(entries.size());
  for (const AllowlistEntry& entry : entries) {
    Item item;
    item.entry = &entry;
    item.pattern = fast_trim(entry.pattern);
    item.bound = has_arg_pattern(entry);
    if (item.pattern == "*" && !item.bound && star_ == nullptr) star_ = &entry;
    if (item.pattern.empty()) continue;
    // One pass: path selectors, the first wildcard, and whether the text is usable verbatim
    // ("~" expands and "\\" is rewritten before matching, so then no prefix is known).
    size_t wild = std::string_view::npos;
    bool verbatim = true;
    for (size_t i = 0; i < item.pattern.size(); ++i) {
      char c = item.pattern[i];
      if (c == '/' || c == '\\' || c == '~') item.path = true;
      if (c == '\\' || c == '~') verbatim = false;
      if ((c == '*' || c == '?') && wild == std::string_view::npos) wild = i;
    }
    item.wildcard = wild != std::string_view::npos;
    if (verbatim) item.prefix = item.pattern.substr(0, wild);
    items_.push_back(item);
  }
}

const AllowlistEntry* PreparedAllowlist::match(const ExecutableResolution* resolution, const Argv* argv,
                                               std::string_view home) const {
  if (entries_->empty() || resolution == nullptr) return nullptr;
  if (star_ != nullptr) return star_;
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
  auto can_start = [](const Item& item, const GlobTarget& target) {
    if (!item.prefix) return true;
    return (item.wildcard ? target.for_wildcards() : target.plain()).starts_with(*item.prefix);
  };

  const AllowlistEntry* path_only = nullptr;
  for (const Item& item : items_) {
    bool matched = false;
    if (item.path) {
      matched = can_start(item, trust_target) && matches_exec_allowlist_pattern(item.pattern, trust_target, home);
    } else if (bare_names_apply && item.pattern != "*") {
      matched = (bare.name && can_start(item, *bare.name) && matches_exec_allowlist_pattern(item.pattern, *bare.name, home)) ||
                (bare.base && can_start(item, *bare.base) && matches_exec_allowlist_pattern(item.pattern, *bare.base, home));
    }
    if (!matched) continue;
    if (!item.bound) {
      if (path_only == nullptr) path_only = item.entry;
      continue;
    }
    if (argv != nullptr && match_arg_pattern(*item.entry->arg_pattern, *argv)) return item.entry;
  }
  return path_only;
}

const AllowlistEntry* match_allowlist(const std::vector<AllowlistEntry>& entries,
                                      const ExecutableResolution* resolution,
                                      const Argv* argv, std::string_view home) {
  return PreparedAllowlist(entries).match(resolution, argv, home);
}

}  // namespace clawexec::policy
