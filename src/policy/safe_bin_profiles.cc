// Safe-bin argv profiles: the built-in table, profiles from configuration, and the check
// that an argv fits a profile.
//
// Problem: a safe bin may run unapproved only when its argv cannot make it read files, run
// programs or expand anything. Each bin therefore has a profile of the flags it may take
// (some with values), the flags it must never take, and how many positionals it accepts;
// long options may be abbreviated the way getopt_long allows, so an abbreviation has to be
// mapped to the one flag it can stand for before it is judged.
//
// Approach: profiles are plain flag lists (a dozen entries at most, so linear scans beat any
// index). The validator walks argv once, classifying each token, consuming option values,
// and rejecting the first token that does not fit; abbreviations are resolved by scanning the
// profile's long flags for a unique match. Nothing here allocates per token.

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/utf.h"
#include "policy/safe_bins.h"
#include "shell/executable.h"

namespace clawexec::policy {
namespace {

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool has_flag(const std::vector<std::string>& flags, std::string_view flag) {
  return std::find(flags.begin(), flags.end(), flag) != flags.end();
}

SafeBinProfile make_profile(std::optional<int64_t> min, std::optional<int64_t> max,
                            std::vector<std::string> value_flags,
                            std::vector<std::string> boolean_flags,
                            std::vector<std::string> denied_flags) {
  SafeBinProfile profile;
  profile.min_positional = min;
  profile.max_positional = max;
  profile.allowed_value_flags = std::move(value_flags);
  profile.allowed_boolean_flags = std::move(boolean_flags);
  profile.denied_flags = std::move(denied_flags);
  profile.index_long_flags();
  return profile;
}

SafeBinProfiles build_builtin_profiles() {
  SafeBinProfiles out;
  auto add = [&out](const char* name, SafeBinProfile profile) {
    out.emplace(name, std::make_shared<const SafeBinProfile>(std::move(profile)));
  };
  add("jq", make_profile(std::nullopt, 1, {"--arg", "--argjson", "--argstr"}, {},
                         {"--argfile", "--rawfile", "--slurpfile", "--from-file", "--library-path",
                          "-L", "-f"}));
  add("grep", make_profile(std::nullopt, 0,
                           {"--regexp", "--max-count", "--after-context", "--before-context",
                            "--context", "--devices", "--binary-files", "--exclude", "--include",
                            "--label", "-e", "-m", "-A", "-B", "-C", "-D"},
                           {},
                           {"--file", "--exclude-from", "--dereference-recursive", "--directories",
                            "--recursive", "-f", "-d", "-r", "-R"}));
  add("cut", make_profile(std::nullopt, 0,
                          {"--bytes", "--characters", "--fields", "--delimiter",
                           "--output-delimiter", "-b", "-c", "-f", "-d"},
                          {"--complement", "--only-delimited", "--zero-terminated", "-n", "-s",
                           "-z"},
                          {}));
  add("sort", make_profile(std::nullopt, 0,
                           {"--key", "--field-separator", "--buffer-size", "--parallel",
                            "--batch-size", "-k", "-t", "-S"},
                           {},
                           {"--compress-program", "--files0-from", "--output", "--random-source",
                            "--temporary-directory", "-T", "-o"}));
  add("uniq", make_profile(std::nullopt, 0,
                           {"--skip-fields", "--skip-chars", "--check-chars", "--group", "-f",
                            "-s", "-w"},
                           {"--count", "--repeated", "--unique", "--ignore-case",
                            "--zero-terminated", "-c", "-d", "-u", "-i", "-z"},
                           {}));
  add("head", make_profile(std::nullopt, 0, {"--lines", "--bytes", "-n", "-c"},
                           {"--quiet", "--silent", "--verbose", "--zero-terminated", "-q", "-v",
                            "-z"},
                           {}));
  add("tail", make_profile(std::nullopt, 0,
                           {"--lines", "--bytes", "--sleep-interval", "--max-unchanged-stats",
                            "--pid", "-n", "-c"},
                           {"--quiet", "--silent", "--verbose", "--zero-terminated", "-q", "-v",
                            "-z"},
                           {"--follow", "--retry", "-F", "-f"}));
  add("tr", make_profile(1, 2, {},
                         {"--complement", "--delete", "--squeeze-repeats", "--truncate-set1",
                          "-C", "-c", "-d", "-s", "-t"},
                         {}));
  add("wc", make_profile(std::nullopt, 0, {},
                         {"--bytes", "--chars", "--lines", "--max-line-length", "--words", "-L",
                          "-c", "-l", "-m", "-w"},
                         {"--files0-from"}));
  return out;
}

// A configured limit: a finite number truncated towards zero; negatives are dropped.
std::optional<int64_t> fixture_limit(const boost::json::value* value) {
  if (value == nullptr) return std::nullopt;
  double number = 0;
  if (value->is_int64()) {
    number = static_cast<double>(value->get_int64());
  } else if (value->is_uint64()) {
    number = static_cast<double>(value->get_uint64());
  } else if (value->is_double()) {
    number = value->get_double();
  } else {
    return std::nullopt;
  }
  if (!std::isfinite(number)) return std::nullopt;
  number = std::trunc(number);
  if (number < 0) return std::nullopt;
  if (number >= 9.2e18) return std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(number);
}

// Approximates JavaScript's localeCompare for flag names: letters compare case-insensitively
// first, and a lower-case letter sorts before its upper-case form.
bool flag_order(const std::string& a, const std::string& b) {
  auto fold = [](const std::string& s) {
    std::string out = s;
    for (char& c : out) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return out;
  };
  std::string fa = fold(a);
  std::string fb = fold(b);
  if (fa != fb) return fa < fb;
  return a > b;  // same letters: lower case ('a' > 'A' in ASCII) first
}

std::vector<std::string> fixture_flags(const boost::json::value* value) {
  std::vector<std::string> out;
  if (value == nullptr || !value->is_array()) return out;
  for (const boost::json::value& entry : value->get_array()) {
    if (!entry.is_string()) continue;
    std::string flag(js_trim(std::string_view(entry.get_string())));
    if (!flag.empty() && !has_flag(out, flag)) out.push_back(std::move(flag));
  }
  std::sort(out.begin(), out.end(), flag_order);
  return out;
}

SafeBinProfile profile_from_fixture(const boost::json::object& fixture) {
  std::optional<int64_t> min = fixture_limit(fixture.if_contains("minPositional"));
  std::optional<int64_t> max = fixture_limit(fixture.if_contains("maxPositional"));
  if (min && max && *max < *min) max = min;
  return make_profile(min, max, fixture_flags(fixture.if_contains("allowedValueFlags")), {},
                      fixture_flags(fixture.if_contains("deniedFlags")));
}

// A token used as an option's value: it must exist, be non-empty and be a safe literal.
bool is_valid_value_token(std::span<const std::string> args, size_t index) {
  return index < args.size() && !args[index].empty() && is_safe_literal_token(args[index]);
}

constexpr size_t kReject = std::numeric_limits<size_t>::max();

// Consumes a long option at `index`; returns the index after it (and its value) or kReject.
size_t consume_long_option(std::span<const std::string> args, size_t index,
                           const ExecArgvToken& token, const SafeBinProfile& profile) {
  std::optional<std::string_view> canonical = canonical_long_flag(profile, token.flag);
  if (!canonical || has_flag(profile.denied_flags, *canonical)) return kReject;
  bool takes_value = has_flag(profile.allowed_value_flags, *canonical);
  if (token.inline_value) {
    return takes_value && is_safe_literal_token(*token.inline_value) ? index + 1 : kReject;
  }
  if (!takes_value) return index + 1;
  return is_valid_value_token(args, index + 1) ? index + 2 : kReject;
}

// Consumes a short cluster ("-xyz") at `index`: every letter must be allowed; a value flag
// takes the rest of the cluster, or the next token when nothing remains.
size_t consume_short_cluster(std::span<const std::string> args, size_t index,
                             std::string_view cluster, const SafeBinProfile& profile) {
  std::string flag;
  size_t offset = 0;
  while (offset < cluster.size()) {
    char32_t code_point = 0;
    size_t length = decode_utf8(cluster.substr(offset), code_point);
    if (length == 0) return kReject;
    flag.assign("-");
    flag.append(cluster.substr(offset, length));
    offset += length;
    if (has_flag(profile.denied_flags, flag)) return kReject;
    if (has_flag(profile.allowed_value_flags, flag)) {
      std::string_view rest = cluster.substr(offset);
      if (!rest.empty()) return is_safe_literal_token(rest) ? index + 1 : kReject;
      return is_valid_value_token(args, index + 1) ? index + 2 : kReject;
    }
    if (!has_flag(profile.allowed_boolean_flags, flag)) return kReject;
  }
  return index + 1;
}

// Counts the positionals of args, or nullopt when any token is rejected.
std::optional<int64_t> count_positionals(std::span<const std::string> args,
                                         const SafeBinProfile& profile) {
  int64_t positional = 0;
  size_t i = 0;
  while (i < args.size()) {
    ExecArgvToken token = parse_exec_argv_token(args[i]);
    switch (token.kind) {
      case ArgvTokenKind::kEmpty:
      case ArgvTokenKind::kStdin:
        ++i;
        continue;
      case ArgvTokenKind::kTerminator:
        for (size_t j = i + 1; j < args.size(); ++j) {
          if (args[j].empty() || args[j] == "-") continue;
          if (!is_safe_literal_token(args[j])) return std::nullopt;
          ++positional;
        }
        return positional;
      case ArgvTokenKind::kPositional:
        if (!is_safe_literal_token(token.raw)) return std::nullopt;
        ++positional;
        ++i;
        continue;
      case ArgvTokenKind::kOption:
        break;
    }
    i = token.style == OptionStyle::kLong ? consume_long_option(args, i, token, profile)
                                          : consume_short_cluster(args, i, token.cluster, profile);
    if (i == kReject) return std::nullopt;
  }
  return positional;
}

bool is_glob_char(char c) { return c == '*' || c == '?' || c == '[' || c == ']'; }

// "$" followed by a parameter name character, "{", "(" or "[".
bool has_shell_expansion(std::string_view value) {
  for (size_t i = 0; i + 1 < value.size(); ++i) {
    if (value[i] != '$') continue;
    char next = value[i + 1];
    bool alnum = (next >= 'A' && next <= 'Z') || (next >= 'a' && next <= 'z') ||
                 (next >= '0' && next <= '9');
    if (alnum || std::string_view("_@*?!$#-{([").find(next) != std::string_view::npos) return true;
  }
  return false;
}

bool is_path_like(std::string_view value) {
  std::string_view trimmed = js_trim(value);
  if (trimmed.empty() || trimmed == "-") return false;
  if (starts_with(trimmed, "./") || starts_with(trimmed, "../") || starts_with(trimmed, "~") ||
      starts_with(trimmed, "/")) {
    return true;
  }
  bool drive_letter = trimmed.size() >= 3 && ((trimmed[0] >= 'A' && trimmed[0] <= 'Z') ||
                                              (trimmed[0] >= 'a' && trimmed[0] <= 'z'));
  return drive_letter && trimmed[1] == ':' && (trimmed[2] == '\\' || trimmed[2] == '/');
}

}  // namespace

ExecArgvToken parse_exec_argv_token(std::string_view raw) {
  ExecArgvToken token;
  token.raw = raw;
  if (raw.empty()) return token;
  if (raw == "--") {
    token.kind = ArgvTokenKind::kTerminator;
  } else if (raw == "-") {
    token.kind = ArgvTokenKind::kStdin;
  } else if (raw[0] != '-') {
    token.kind = ArgvTokenKind::kPositional;
  } else if (starts_with(raw, "--")) {
    token.kind = ArgvTokenKind::kOption;
    token.style = OptionStyle::kLong;
    size_t eq = raw.find('=');
    token.flag = raw.substr(0, eq);
    if (eq != std::string_view::npos) token.inline_value = raw.substr(eq + 1);
  } else {
    token.kind = ArgvTokenKind::kOption;
    token.style = OptionStyle::kShortCluster;
    token.cluster = raw.substr(1);
  }
  return token;
}

std::vector<std::string> short_cluster_flags(const ExecArgvToken& token) {
  std::vector<std::string> flags;
  std::string_view cluster = token.cluster;
  size_t offset = 0;
  while (offset < cluster.size()) {
    char32_t code_point = 0;
    size_t length = std::max<size_t>(1, decode_utf8(cluster.substr(offset), code_point));
    flags.push_back("-" + std::string(cluster.substr(offset, length)));
    offset += length;
  }
  return flags;
}

void SafeBinProfile::index_long_flags() {
  known_long_flags.clear();
  for (const auto* list : {&allowed_value_flags, &allowed_boolean_flags, &denied_flags}) {
    for (const std::string& flag : *list) {
      if (starts_with(flag, "--") && !has_flag(known_long_flags, flag)) {
        known_long_flags.push_back(flag);
      }
    }
  }
}

std::optional<std::string_view> canonical_long_flag(const SafeBinProfile& profile,
                                                    std::string_view flag) {
  if (!starts_with(flag, "--") || flag.size() <= 2) return std::nullopt;
  std::optional<std::string_view> match;
  for (const std::string& known : profile.known_long_flags) {
    if (known == flag) return std::string_view(known);  // exact names win over prefixes
  }
  for (const std::string& known : profile.known_long_flags) {
    if (!starts_with(known, flag)) continue;
    if (match) return std::nullopt;  // ambiguous
    match = known;
  }
  return match;
}

const SafeBinProfiles& builtin_safe_bin_profiles() {
  static const SafeBinProfiles profiles = build_builtin_profiles();
  return profiles;
}

SafeBinProfiles parse_safe_bin_profiles(const boost::json::object& fixtures) {
  SafeBinProfiles out;
  for (const auto& member : fixtures) {
    std::string name = shell::trim_lower(member.key());
    if (name.empty()) continue;
    static const boost::json::object kEmpty;
    const boost::json::object& fixture =
        member.value().is_object() ? member.value().get_object() : kEmpty;
    out.insert_or_assign(std::move(name),
                         std::make_shared<const SafeBinProfile>(profile_from_fixture(fixture)));
  }
  return out;
}

SafeBinProfiles merge_with_builtin_profiles(const SafeBinProfiles& custom) {
  SafeBinProfiles merged = builtin_safe_bin_profiles();
  for (const auto& [name, profile] : custom) merged.insert_or_assign(name, profile);
  return merged;
}

bool is_safe_literal_token(std::string_view value) {
  if (value.empty() || value == "-") return true;
  if (std::any_of(value.begin(), value.end(), is_glob_char)) return false;
  return !has_shell_expansion(value) && !is_path_like(value);
}

bool validate_safe_bin_argv(std::span<const std::string> args, const SafeBinProfile& profile,
                            std::string_view bin_name) {
  std::optional<int64_t> positional = count_positionals(args, profile);
  if (!positional) return false;
  if (*positional < profile.min_positional.value_or(0)) return false;
  if (profile.max_positional && *positional > *profile.max_positional) return false;
  return validate_safe_bin_semantics(bin_name);
}

std::string normalize_safe_bin_name(std::string_view raw) {
  std::string name = shell::trim_lower(raw);
  size_t separator = name.find_last_of("/\\");
  if (separator != std::string::npos) name.erase(0, separator + 1);
  for (std::string_view suffix : {".exe", ".cmd", ".bat", ".com"}) {
    if (name.size() >= suffix.size() &&
        std::string_view(name).substr(name.size() - suffix.size()) == suffix) {
      name.resize(name.size() - suffix.size());
      break;
    }
  }
  return name;
}

bool validate_safe_bin_semantics(std::string_view bin_name) {
  if (bin_name.empty()) return true;
  std::string name = normalize_safe_bin_name(bin_name);
  for (std::string_view denied : {"jq", "awk", "gawk", "mawk", "nawk", "sed", "gsed"}) {
    if (name == denied) return false;
  }
  return true;
}

}  // namespace clawexec::policy
