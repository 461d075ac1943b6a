#pragma once
// Safe bins (reference §5): small stream filters (cut, head, wc, ...) that may run without an
// allowlist entry when their argv has a known, literal shape and the binary lives in a
// trusted directory. This header covers the argv-shape profiles, the configuration they come
// from, the trusted-directory set and the final usage check, plus the operator warnings.

#include <boost/json/object.hpp>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "policy/types.h"

namespace clawexec::policy {

// ---------------------------------------------------------------------------------------------
// Argv tokens (parseExecArgvToken)

enum class ArgvTokenKind { kEmpty, kTerminator, kStdin, kPositional, kOption };
enum class OptionStyle { kNone, kLong, kShortCluster };

/// One argv entry classified as the safe-bin validator sees it. The views point into the
/// token that was parsed.
struct ExecArgvToken {
  ArgvTokenKind kind = ArgvTokenKind::kEmpty;
  OptionStyle style = OptionStyle::kNone;
  std::string_view raw;
  std::string_view flag;                         // long options: "--name" (before any '=')
  std::optional<std::string_view> inline_value;  // long options: the text after the first '='
  std::string_view cluster;                      // short clusters: the letters after '-'
};

/// "" empty, "--" terminator, "-" stdin, no leading '-' positional, "--x[=v]" long option,
/// "-abc" short cluster.
ExecArgvToken parse_exec_argv_token(std::string_view raw);

/// The flags of a short cluster, one per character: "-abc" -> {"-a", "-b", "-c"}.
std::vector<std::string> short_cluster_flags(const ExecArgvToken& token);

// ---------------------------------------------------------------------------------------------
// Profiles

/// What argv a safe bin accepts. Built-in profiles may declare boolean flags; profiles from
/// configuration cannot (so every boolean flag is rejected under them).
struct SafeBinProfile {
  std::optional<int64_t> min_positional;
  std::optional<int64_t> max_positional;
  std::vector<std::string> allowed_value_flags;
  std::vector<std::string> allowed_boolean_flags;
  std::vector<std::string> denied_flags;
  std::vector<std::string> known_long_flags;  // every "--" flag above, without duplicates

  /// Fills known_long_flags from the three flag lists.
  void index_long_flags();
};

/// The flag a long option names: the flag itself when known, else the one known long flag it
/// is a prefix of (prefixes of at least three characters, "--" included). nullopt when it is
/// unknown or ambiguous. This is the reference's longFlagPrefixMap lookup.
std::optional<std::string_view> canonical_long_flag(const SafeBinProfile& profile,
                                                    std::string_view flag);

using SafeBinProfiles = std::map<std::string, std::shared_ptr<const SafeBinProfile>, std::less<>>;

/// The built-in table (jq grep cut sort uniq head tail tr wc).
const SafeBinProfiles& builtin_safe_bin_profiles();

/// `tools.exec.safeBinProfiles` normalised (§5.1): names trimmed and lower-cased (empty names
/// dropped), limits truncated to integers with negatives dropped, max raised to min, flag
/// lists trimmed, de-duplicated and sorted. Unknown keys and wrongly typed values are ignored.
SafeBinProfiles parse_safe_bin_profiles(const boost::json::object& fixtures);

/// Built-ins overlaid with `custom` (a custom profile replaces the built-in of its name).
SafeBinProfiles merge_with_builtin_profiles(const SafeBinProfiles& custom);

/// True when args (argv without argv[0]) fit the profile (§5.3) and the bin's semantics
/// allow safe-bin use at all (never for jq, awk, gawk, mawk, nawk, sed, gsed).
bool validate_safe_bin_argv(std::span<const std::string> args, const SafeBinProfile& profile,
                            std::string_view bin_name = {});

/// A value or positional that cannot expand or name a path: empty, "-", or free of glob
/// characters, "$" expansions and path-like prefixes.
bool is_safe_literal_token(std::string_view value);

/// Always false for jq and the awk and sed families (name normalised to its lower-case base
/// name without a Windows suffix); true otherwise.
bool validate_safe_bin_semantics(std::string_view bin_name);

/// A configured safe-bin entry as the semantics and warnings compare it: trimmed, lower-cased,
/// the text after the last / or \, one .exe/.cmd/.bat/.com suffix removed.
std::string normalize_safe_bin_name(std::string_view raw);

// ---------------------------------------------------------------------------------------------
// Runtime policy (resolveExecSafeBinRuntimePolicy)

/// The safe-bin keys of one `tools.exec` object (global or agent).
struct SafeBinLayer {
  /// `safeBins`: nullopt when absent; an empty list for [].
  std::optional<std::vector<std::string>> safe_bins;
  /// `safeBins: null`. The names come from `local ?? global`, so a null agent value falls
  /// through to the global one; a null global value means "no safe bins".
  bool safe_bins_null = false;
  std::vector<std::string> trusted_dirs;       // `safeBinTrustedDirs`
  std::optional<boost::json::object> profiles;  // `safeBinProfiles`
};

/// Reads the safe-bin keys from a `tools.exec` JSON object (wrongly typed values are ignored).
SafeBinLayer safe_bin_layer_from_json(const boost::json::object& exec);

/// The set of trusted directories (§5.2), compared case-sensitively (Linux).
class TrustedSafeBinDirs {
 public:
  TrustedSafeBinDirs() = default;
  explicit TrustedSafeBinDirs(std::vector<std::string> dirs);  // sorts and de-duplicates
  bool contains(std::string_view dir) const;
  const std::vector<std::string>& dirs() const { return dirs_; }

 private:
  std::vector<std::string> dirs_;
};

/// The names and profiles the usage check consults.
struct SafeBinPolicy {
  std::vector<std::string> safe_bins;  // normalised names, sorted, unique
  SafeBinProfiles profiles;            // built-ins overlaid with configured profiles
  bool has_bin(std::string_view name) const;
};

struct SafeBinRuntimePolicy {
  SafeBinPolicy policy;
  TrustedSafeBinDirs trusted_dirs;
  std::vector<std::string> unprofiled_safe_bins;              // sorted
  std::vector<std::string> unprofiled_interpreter_safe_bins;  // sorted
  std::vector<std::string> explicit_trusted_dirs;  // configured dirs, global then agent
  /// The two log lines of §5.1 (unprofiled entries, then unprofiled interpreters), when due.
  std::vector<std::string> warnings;
};

/// Names: agent `safeBins` ?? global `safeBins` (DEFAULT when both absent, none for null or
/// []), lower-cased and trimmed. Profiles: built-ins overlaid with global+agent profiles
/// (agent wins per name). Trusted dirs: /bin, /usr/bin, global+agent `safeBinTrustedDirs`,
/// and the realpath directories of <dir>/<bin> found through `fs`.
SafeBinRuntimePolicy resolve_exec_safe_bin_runtime_policy(const SafeBinLayer& global,
                                                          const SafeBinLayer& local,
                                                          const FsView& fs);

/// DEFAULT_SAFE_BINS: cut uniq head tail tr wc.
const std::vector<std::string>& default_safe_bins();

/// The trusted set (getTrustedSafeBinDirs): `base_dirs` (normally /bin and /usr/bin) and
/// `extra_dirs`, trimmed and resolved, plus for each of them and each bare safe-bin name the
/// directory of realpath(<dir>/<bin>) when that is an executable file. Relative directories
/// are resolved against "/" (policy code has no process cwd).
TrustedSafeBinDirs get_trusted_safe_bin_dirs(const std::vector<std::string>& base_dirs,
                                             const std::vector<std::string>& extra_dirs,
                                             const std::vector<std::string>& safe_bins,
                                             const FsView& fs);

/// /bin and /usr/bin.
const std::vector<std::string>& default_safe_bin_trusted_dirs();

/// Whether the directory of `resolved_path` (resolved lexically) is trusted.
bool is_trusted_safe_bin_path(std::string_view resolved_path, const TrustedSafeBinDirs& trusted);

/// isSafeBinUsage (§5.2, Linux): the resolved executable name is a configured safe bin, its
/// trust path (resolved_real_path, else realpath of the candidate path) lies in a trusted
/// directory, it has a profile, and argv[1..] passes validate_safe_bin_argv. `cwd` resolves a
/// relative raw executable when nothing was resolved.
bool is_safe_bin_usage(const Argv& argv, const ExecutableResolution& resolution,
                       const SafeBinPolicy& policy, const TrustedSafeBinDirs& trusted,
                       const FsView& fs, std::string_view cwd = "/");

// ---------------------------------------------------------------------------------------------
// Warnings

/// The explicitly configured trusted dirs as they are checked for permissions: trimmed,
/// resolved (against "/"), sorted, unique.
std::vector<std::string> explicit_trusted_dirs_to_check(const std::vector<std::string>& entries);

/// The warning for a trusted directory with permission bits `mode` (st_mode & 0777), or
/// nullopt when neither group nor others may write it.
std::optional<std::string> writable_trusted_dir_warning(std::string_view dir, unsigned mode);

/// Interpreters and shells (§5.6) by normalised name, including python3.12, node20, ...
bool is_interpreter_like_safe_bin(std::string_view raw);

/// The normalised interpreter-like entries, sorted.
std::vector<std::string> list_interpreter_like_safe_bins(const std::vector<std::string>& entries);

struct RiskySafeBin {
  std::string bin;
  std::string warning;
};

/// listRiskyConfiguredSafeBins: one entry per normalised name of the awk family, jq and the
/// sed family, sorted by name.
std::vector<RiskySafeBin> list_risky_configured_safe_bins(const std::vector<std::string>& entries);

}  // namespace clawexec::policy
