#pragma once
// Allowlist globs (reference §4.1): `**` crosses "/", `*` and `?` do not, every other character
// is literal, matching is case-sensitive (POSIX semantics), and a leading "~" in the pattern is
// the home directory. Also the small trim and POSIX path helpers the policy code shares.

#include <string>
#include <string_view>

namespace clawexec::policy {

/// matchesExecAllowlistPattern on Linux: the trimmed pattern (empty never matches) with "~"
/// expanded against `home`, both sides with "\\" (two backslashes) turned into "/", and the
/// target's "." / ".." segments collapsed only when the pattern has a wildcard. Compiled
/// patterns are cached per thread (at most 8192, cleared when full).
bool matches_exec_allowlist_pattern(std::string_view pattern, std::string_view target,
                                    std::string_view home);

/// A match target prepared once for many patterns: "\\" turned into "/", and the variant with
/// "." / ".." segments collapsed that wildcard patterns are matched against.
class GlobTarget {
 public:
  explicit GlobTarget(std::string_view target);
  std::string_view plain() const { return plain_; }
  std::string_view for_wildcards() const { return has_dot_segments_ ? dot_normalized_ : plain_; }

 private:
  std::string plain_;
  std::string dot_normalized_;
  bool has_dot_segments_ = false;
};

/// matches_exec_allowlist_pattern for a prepared target (the allowlist's hot path).
bool matches_exec_allowlist_pattern(std::string_view pattern, const GlobTarget& target,
                                    std::string_view home);

/// A leading "~" followed by the end, "/" or "\" replaced by `home` (unchanged when `home` is
/// empty or the "~" names another user).
std::string expand_home_prefix(std::string_view input, std::string_view home);

/// JavaScript's String.prototype.trim (base/utf.h js_trim) with a fast path: a string whose
/// first and last bytes are printable ASCII is returned as is.
std::string_view fast_trim(std::string_view s);

/// Node's path.posix.normalize: repeated "/" and "." segments dropped, ".." applied, a
/// trailing "/" kept, "" -> ".".
std::string normalize_posix_path(std::string_view path);

/// Node's path.posix.basename: the last segment, trailing "/" ignored.
std::string_view posix_basename(std::string_view path);

}  // namespace clawexec::policy
