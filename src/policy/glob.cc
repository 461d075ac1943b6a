// Allowlist glob matching.
//
// Problem: every policy decision matches the resolved executable against each allowlist entry,
// so a 1000-entry allowlist must be decided in tens of microseconds, and the glob dialect is a
// tiny one (`**`, `*`, `?`, everything else literal) that must never behave like a regex or a
// shell glob (no classes, no braces).
//
// Approach: patterns without a wildcard are compared as strings. Wildcard patterns are compiled
// once into a list of steps plus their literal head and tail (cached per thread, so no lock),
// which reject most targets with two memcmp calls; the remainder is a state-set (NFA)
// simulation over the steps, linear in pattern x target and immune to backtracking blow-ups.

#include "policy/glob.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "base/utf.h"

namespace clawexec::policy {
namespace {

constexpr size_t kGlobCacheLimit = 8192;  // above any realistic allowlist, so a decision never recompiles

enum class StepKind : uint8_t { kChar, kAnyOne, kStarSegment, kStarAny };

struct Step {
  StepKind kind;
  char ch;
};

struct CompiledGlob {
  std::string head;  // literal text before the first wildcard
  std::string tail;  // literal text after the last wildcard
  std::vector<Step> steps;  // the part between head and tail
};

bool has_wildcard(std::string_view s) {
  for (char c : s) {
    if (c == '*' || c == '?') return true;
  }
  return false;
}

bool has_backslash(std::string_view s) {
  for (char c : s) {
    if (c == '\\') return true;
  }
  return false;
}

// POSIX normalizeMatchTarget: "\\" (two backslashes) -> "/".
std::string replace_double_backslash(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '\\') {
      out += '/';
      ++i;
    } else {
      out += s[i];
    }
  }
  return out;
}

bool has_dot_segment(std::string_view s) {
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find_first_of("/\\", start);
    if (end == std::string_view::npos) end = s.size();
    std::string_view seg = s.substr(start, end - start);
    if (seg == "." || seg == "..") return true;
    start = end + 1;
  }
  return false;
}

CompiledGlob compile_glob(std::string_view pattern) {
  std::vector<Step> all;
  for (size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (c == '*' && i + 1 < pattern.size() && pattern[i + 1] == '*') {
      all.push_back({StepKind::kStarAny, 0});
      ++i;
    } else if (c == '*') {
      all.push_back({StepKind::kStarSegment, 0});
    } else if (c == '?') {
      all.push_back({StepKind::kAnyOne, 0});
    } else {
      all.push_back({StepKind::kChar, c});
    }
  }
  CompiledGlob out;
  size_t first = 0;
  while (first < all.size() && all[first].kind == StepKind::kChar) out.head += all[first++].ch;
  size_t last = all.size();
  while (last > first && all[last - 1].kind == StepKind::kChar) --last;
  for (size_t i = last; i < all.size(); ++i) out.tail += all[i].ch;
  out.steps.assign(all.begin() + static_cast<std::ptrdiff_t>(first),
                   all.begin() + static_cast<std::ptrdiff_t>(last));
  return out;
}

// Follows the empty-match edges of star steps from every live state.
void close_over_stars(const std::vector<Step>& steps, std::vector<uint8_t>& live) {
  for (size_t p = 0; p < steps.size(); ++p) {
    if (live[p] && steps[p].kind != StepKind::kChar && steps[p].kind != StepKind::kAnyOne) {
      live[p + 1] = 1;
    }
  }
}

bool run_steps(const std::vector<Step>& steps, std::string_view text) {
  const size_t n = steps.size();
  std::vector<uint8_t> live(n + 1, 0), next(n + 1, 0);
  live[0] = 1;
  close_over_stars(steps, live);
  for (char c : text) {
    std::fill(next.begin(), next.end(), 0);
    bool any = false;
    for (size_t p = 0; p < n; ++p) {
      if (!live[p]) continue;
      const Step& s = steps[p];
      switch (s.kind) {
        case StepKind::kChar:
          if (s.ch == c) next[p + 1] = 1, any = true;
          break;
        case StepKind::kAnyOne:
          if (c != '/') next[p + 1] = 1, any = true;
          break;
        case StepKind::kStarSegment:
          if (c != '/') next[p] = 1, any = true;
          break;
        case StepKind::kStarAny:
          next[p] = 1, any = true;
          break;
      }
    }
    if (!any) return false;
    live.swap(next);
    close_over_stars(steps, live);
  }
  return live[n] != 0;
}

bool glob_matches(const CompiledGlob& glob, std::string_view target) {
  if (target.size() < glob.head.size() + glob.tail.size()) return false;
  if (target.compare(0, glob.head.size(), glob.head) != 0) return false;
  if (target.compare(target.size() - glob.tail.size(), glob.tail.size(), glob.tail) != 0)
    return false;
  return run_steps(glob.steps, target.substr(glob.head.size(), target.size() - glob.head.size() -
                                                                   glob.tail.size()));
}

struct TransparentHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

struct CacheSlot {
  std::string home;  // the home a "~" pattern was expanded with
  CompiledGlob glob;
};

// Keyed by the trimmed pattern as written; "~" patterns are recompiled when the home changes.
const CompiledGlob& cached_glob(std::string_view pattern, std::string_view home) {
  thread_local std::unordered_map<std::string, CacheSlot, TransparentHash, std::equal_to<>> cache;
  const bool tilde = pattern[0] == '~';
  auto it = cache.find(pattern);
  if (it != cache.end() && (!tilde || it->second.home == home)) return it->second.glob;
  std::string expanded = tilde ? expand_home_prefix(pattern, home) : std::string(pattern);
  if (has_backslash(expanded)) expanded = replace_double_backslash(expanded);
  CacheSlot slot{tilde ? std::string(home) : std::string(), compile_glob(expanded)};
  if (it != cache.end()) {
    it->second = std::move(slot);
    return it->second.glob;
  }
  if (cache.size() >= kGlobCacheLimit) cache.clear();
  return cache.emplace(std::string(pattern), std::move(slot)).first->second.glob;
}

// A pattern without wildcards compared with the target, "~" and "\\" handled.
bool literal_matches(std::string_view pattern, std::string_view target, std::string_view home) {
  if (has_backslash(pattern)) {
    std::string expanded = replace_double_backslash(expand_home_prefix(pattern, home));
    return expanded == target;
  }
  if (pattern[0] == '~' && !home.empty() && (pattern.size() == 1 || pattern[1] == '/')) {
    return target.size() == home.size() + pattern.size() - 1 && target.substr(0, home.size()) == home &&
           target.substr(home.size()) == pattern.substr(1);
  }
  return pattern == target;
}

}  // namespace

std::string expand_home_prefix(std::string_view input, std::string_view home) {
  if (input.empty() || input[0] != '~' || home.empty()) return std::string(input);
  if (input.size() > 1 && input[1] != '/' && input[1] != '\\') return std::string(input);
  std::string out(home);
  out.append(input.substr(1));
  return out;
}

std::string_view fast_trim(std::string_view s) {
  auto plain = [](unsigned char c) { return c > ' ' && c < 0x80; };
  if (!s.empty() && plain(static_cast<unsigned char>(s.front())) &&
      plain(static_cast<unsigned char>(s.back()))) {
    return s;  // allowlist patterns are nearly always plain ASCII
  }
  return js_trim(s);
}

std::string normalize_posix_path(std::string_view path) {
  if (path.empty()) return ".";
  const bool absolute = path[0] == '/';
  const bool trailing = path.back() == '/';
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    std::string_view seg = path.substr(start, end - start);
    start = end + 1;
    if (seg.empty() || seg == ".") continue;
    if (seg == "..") {
      if (!parts.empty() && parts.back() != "..") {
        parts.pop_back();
      } else if (!absolute) {
        parts.push_back(seg);
      }
      continue;
    }
    parts.push_back(seg);
  }
  std::string out = absolute ? "/" : "";
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += '/';
    out.append(parts[i]);
  }
  if (out.empty()) return absolute ? "/" : ".";
  if (trailing && out != "/") out += '/';
  return out;
}

std::string_view posix_basename(std::string_view path) {
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  if (path == "/") return "";
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

GlobTarget::GlobTarget(std::string_view target)
    : plain_(has_backslash(target) ? replace_double_backslash(target) : std::string(target)),
      has_dot_segments_(has_dot_segment(plain_)) {
  if (has_dot_segments_) dot_normalized_ = replace_double_backslash(normalize_posix_path(plain_));
}

bool matches_exec_allowlist_pattern(std::string_view pattern, const GlobTarget& target,
                                    std::string_view home) {
  std::string_view trimmed = fast_trim(pattern);
  if (trimmed.empty()) return false;
  // "~" expansion cannot add a wildcard unless the home holds one.
  const bool wildcard = has_wildcard(trimmed) || (trimmed[0] == '~' && has_wildcard(home));
  if (!wildcard) return literal_matches(trimmed, target.plain(), home);
  // The compiled glob is anchored, so the literal text before the first wildcard must start the
  // target: checking that first skips the cache lookup for almost every entry of a long
  // allowlist (exact as long as the prefix is used verbatim: no "~" expansion, no "\\").
  if (trimmed[0] != '~' && trimmed.find('\\') == std::string_view::npos) {
    std::string_view prefix = trimmed.substr(0, trimmed.find_first_of("*?"));
    if (!target.for_wildcards().starts_with(prefix)) return false;
  }
  return glob_matches(cached_glob(trimmed, home), target.for_wildcards());
}

bool matches_exec_allowlist_pattern(std::string_view pattern, std::string_view target,
                                    std::string_view home) {
  return matches_exec_allowlist_pattern(pattern, GlobTarget(target), home);
}

}  // namespace clawexec::policy
