// Safe bins at run time: which names count, which directories are trusted, whether one argv
// is a safe-bin use, and the warnings operators get about risky configuration.
//
// Problem: a safe bin is only safe when the binary that runs is the system's own. The
// reference trusts /bin, /usr/bin and configured directories, plus the real directories that
// symlinks named after safe bins in those directories point to (package-manager farms). It
// reads the file system for that; policy code may not, so every question goes through FsView.
//
// Approach: the trusted set is computed once per policy resolution into a sorted vector
// (lookups are binary searches, no allocation); the usage check then costs one realpath
// question at most plus the argv validation. Paths are compared case-sensitively, as Linux
// file systems are.

#include "policy/safe_bins.h"

#include <algorithm>

#include "base/strings.h"
#include "base/utf.h"
#include "shell/executable.h"
#include "shell/lexical_path.h"

namespace clawexec::policy {
namespace {

// Trimmed, non-empty, first occurrence kept (normalizeTrustedSafeBinDirs).
std::vector<std::string> trimmed_unique(const std::vector<std::string>& entries) {
  std::vector<std::string> out;
  for (const std::string& entry : entries) {
    std::string trimmed(js_trim(entry));
    if (trimmed.empty() || std::find(out.begin(), out.end(), trimmed) != out.end()) continue;
    out.push_back(std::move(trimmed));
  }
  return out;
}

void sort_unique(std::vector<std::string>& values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
}

std::string resolve_dir(std::string_view dir) { return shell::resolve_lexically("/", dir); }

// Node's path.dirname for an absolute, normalised path.
std::string dirname_of(std::string_view path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string_view::npos) return ".";
  if (slash == 0) return "/";
  return std::string(path.substr(0, slash));
}

// normalizeSafeBins: lower-cased, trimmed, empty entries dropped.
std::vector<std::string> normalize_safe_bins(const std::vector<std::string>& entries) {
  std::vector<std::string> out;
  for (const std::string& entry : entries) {
    std::string name = shell::trim_lower(entry);
    if (!name.empty()) out.push_back(std::move(name));
  }
  sort_unique(out);
  return out;
}

std::vector<std::string> resolve_safe_bin_names(const SafeBinLayer& global,
                                                const SafeBinLayer& local) {
  if (local.safe_bins) return normalize_safe_bins(*local.safe_bins);
  if (global.safe_bins) return normalize_safe_bins(*global.safe_bins);
  // `local ?? global`: a null agent value falls through; only the global value decides
  // between "none" (null) and the defaults (absent).
  if (global.safe_bins_null) return {};
  return normalize_safe_bins(default_safe_bins());
}

std::optional<std::vector<std::string>> string_list(const boost::json::value& value) {
  if (!value.is_array()) return std::nullopt;
  std::vector<std::string> out;
  for (const boost::json::value& entry : value.get_array()) {
    if (entry.is_string()) out.emplace_back(entry.get_string());
  }
  return out;
}

// The executable's trust path: its resolved realpath, else the realpath (or the path itself)
// of the resolved file or of a raw token that names a path.
std::optional<std::string> trust_path_of(const ExecutableResolution& resolution, const FsView& fs,
                                         std::string_view cwd) {
  if (resolution.resolved_real_path) {
    std::string_view real = js_trim(*resolution.resolved_real_path);
    if (!real.empty()) return std::string(real);
  }
  std::string candidate;
  if (resolution.resolved_path && !resolution.resolved_path->empty()) {
    candidate = *resolution.resolved_path;
  } else {
    std::string_view raw = js_trim(resolution.raw_executable);
    if (raw.empty() || raw.find_first_of("/\\") == std::string_view::npos) return std::nullopt;
    candidate = shell::resolve_lexically(cwd.empty() ? "/" : cwd, raw);
  }
  if (fs.realpath) {
    if (std::optional<std::string> real = fs.realpath(candidate)) return real;
  }
  return candidate;
}

bool is_interpreter_versioned_name(std::string_view name) {
  for (std::string_view stem : {"python", "ruby", "perl", "php", "node"}) {
    if (name.substr(0, stem.size()) != stem) continue;
    std::string_view rest = name.substr(stem.size());
    size_t digits = 0;
    while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') ++digits;
    if (digits == 0) return false;
    if (digits == rest.size()) return true;
    if (rest[digits] != '.') return false;
    std::string_view fraction = rest.substr(digits + 1);
    return !fraction.empty() && std::all_of(fraction.begin(), fraction.end(),
                                            [](char c) { return c >= '0' && c <= '9'; });
  }
  return false;
}

}  // namespace

const std::vector<std::string>& default_safe_bins() {
  static const std::vector<std::string> bins = {"cut", "uniq", "head", "tail", "tr", "wc"};
  return bins;
}

const std::vector<std::string>& default_safe_bin_trusted_dirs() {
  static const std::vector<std::string> dirs = {"/bin", "/usr/bin"};
  return dirs;
}

SafeBinLayer safe_bin_layer_from_json(const boost::json::object& exec) {
  SafeBinLayer layer;
  if (const boost::json::value* bins = exec.if_contains("safeBins")) {
    layer.safe_bins_null = bins->is_null();
    layer.safe_bins = string_list(*bins);
  }
  if (const boost::json::value* dirs = exec.if_contains("safeBinTrustedDirs")) {
    layer.trusted_dirs = string_list(*dirs).value_or(std::vector<std::string>{});
  }
  if (const boost::json::value* profiles = exec.if_contains("safeBinProfiles")) {
    if (profiles->is_object()) layer.profiles = profiles->get_object();
  }
  return layer;
}

TrustedSafeBinDirs::TrustedSafeBinDirs(std::vector<std::string> dirs) : dirs_(std::move(dirs)) {
  sort_unique(dirs_);
}

bool TrustedSafeBinDirs::contains(std::string_view dir) const {
  return std::binary_search(dirs_.begin(), dirs_.end(), dir,
                            [](std::string_view a, std::string_view b) { return a < b; });
}

bool SafeBinPolicy::has_bin(std::string_view name) const {
  return std::binary_search(safe_bins.begin(), safe_bins.end(), name,
                            [](std::string_view a, std::string_view b) { return a < b; });
}

TrustedSafeBinDirs get_trusted_safe_bin_dirs(const std::vector<std::string>& base_dirs,
                                             const std::vector<std::string>& extra_dirs,
                                             const std::vector<std::string>& safe_bins,
                                             const FsView& fs) {
  std::vector<std::string> entries = trimmed_unique(base_dirs);
  for (std::string& extra : trimmed_unique(extra_dirs)) entries.push_back(std::move(extra));

  std::vector<std::string> dirs;
  for (const std::string& entry : entries) dirs.push_back(resolve_dir(entry));

  std::vector<std::string> bins;
  for (const std::string& bin : safe_bins) {
    std::string trimmed(js_trim(bin));
    if (!trimmed.empty() && trimmed.find_first_of("/\\") == std::string::npos) {
      bins.push_back(std::move(trimmed));
    }
  }
  sort_unique(bins);
  if (!bins.empty() && fs.is_executable_file && fs.realpath) {
    for (const std::string& entry : trimmed_unique(entries)) {
      std::string dir = resolve_dir(entry);
      for (const std::string& bin : bins) {
        std::string candidate = shell::join_lexically(dir, bin);
        if (!fs.is_executable_file(candidate)) continue;
        if (std::optional<std::string> real = fs.realpath(candidate)) {
          dirs.push_back(resolve_dir(dirname_of(*real)));
        }
      }
    }
  }
  return TrustedSafeBinDirs(std::move(dirs));
}

bool is_trusted_safe_bin_path(std::string_view resolved_path, const TrustedSafeBinDirs& trusted) {
  return trusted.contains(dirname_of(shell::resolve_lexically("/", resolved_path)));
}

SafeBinRuntimePolicy resolve_exec_safe_bin_runtime_policy(const SafeBinLayer& global,
                                                          const SafeBinLayer& local,
                                                          const FsView& fs) {
  SafeBinRuntimePolicy out;
  out.policy.safe_bins = resolve_safe_bin_names(global, local);

  SafeBinProfiles custom;
  if (global.profiles) custom = parse_safe_bin_profiles(*global.profiles);
  if (local.profiles) {
    for (auto& [name, profile] : parse_safe_bin_profiles(*local.profiles)) {
      custom.insert_or_assign(name, profile);
    }
  }
  out.policy.profiles =
      custom.empty() ? builtin_safe_bin_profiles() : merge_with_builtin_profiles(custom);

  for (const std::string& bin : out.policy.safe_bins) {
    if (out.policy.profiles.find(bin) == out.policy.profiles.end()) {
      out.unprofiled_safe_bins.push_back(bin);
    }
  }
  out.unprofiled_interpreter_safe_bins = list_interpreter_like_safe_bins(out.unprofiled_safe_bins);

  out.explicit_trusted_dirs = trimmed_unique(global.trusted_dirs);
  for (std::string& dir : trimmed_unique(local.trusted_dirs)) {
    out.explicit_trusted_dirs.push_back(std::move(dir));
  }
  out.trusted_dirs = get_trusted_safe_bin_dirs(default_safe_bin_trusted_dirs(),
                                               out.explicit_trusted_dirs, out.policy.safe_bins, fs);

  if (!out.unprofiled_safe_bins.empty()) {
    out.warnings.push_back("exec: ignoring unprofiled safeBins entries (" +
                           join(out.unprofiled_safe_bins, ", ") +
                           "); use allowlist or define tools.exec.safeBinProfiles.<bin>");
  }
  if (!out.unprofiled_interpreter_safe_bins.empty()) {
    out.warnings.push_back("exec: interpreter/runtime binaries in safeBins (" +
                           join(out.unprofiled_interpreter_safe_bins, ", ") +
                           ") are unsafe without explicit hardened profiles; prefer allowlist "
                           "entries");
  }
  return out;
}

bool is_safe_bin_usage(const Argv& argv, const ExecutableResolution& resolution,
                       const SafeBinPolicy& policy, const TrustedSafeBinDirs& trusted,
                       const FsView& fs, std::string_view cwd) {
  if (policy.safe_bins.empty() || argv.empty()) return false;
  std::string name = shell::trim_lower(resolution.executable_name);
  if (name.empty() || !policy.has_bin(name)) return false;
  std::optional<std::string> trust_path = trust_path_of(resolution, fs, cwd);
  if (!trust_path || !is_trusted_safe_bin_path(*trust_path, trusted)) return false;
  auto profile = policy.profiles.find(name);
  if (profile == policy.profiles.end()) return false;
  return validate_safe_bin_argv(std::span<const std::string>(argv).subspan(1), *profile->second,
                                name);
}

std::vector<std::string> explicit_trusted_dirs_to_check(const std::vector<std::string>& entries) {
  std::vector<std::string> dirs;
  for (const std::string& entry : trimmed_unique(entries)) dirs.push_back(resolve_dir(entry));
  sort_unique(dirs);
  return dirs;
}

std::optional<std::string> writable_trusted_dir_warning(std::string_view dir, unsigned mode) {
  bool group_writable = (mode & 020u) != 0;
  bool world_writable = (mode & 002u) != 0;
  if (!group_writable && !world_writable) return std::nullopt;
  std::string scope = world_writable ? "world-writable" : "group-writable";
  return "exec: safeBinTrustedDirs includes " + scope + " directory '" + std::string(dir) +
         "'; remove trust or tighten permissions (for example chmod 755).";
}

bool is_interpreter_like_safe_bin(std::string_view raw) {
  std::string name = normalize_safe_bin_name(raw);
  if (name.empty()) return false;
  static constexpr std::string_view kNames[] = {
      "ash",  "awk",    "bash",       "busybox",        "bun",    "cmd",    "cmd.exe",
      "cscript", "dash", "deno",      "fish",           "gawk",   "gsed",   "ksh",
      "lua",  "mawk",   "nawk",       "node",           "nodejs", "perl",   "php",
      "powershell", "powershell.exe", "pypy",           "pwsh",   "pwsh.exe", "python",
      "python2", "python3", "ruby",   "sed",            "sh",     "toybox", "wscript",
      "zsh"};
  for (std::string_view known : kNames) {
    if (name == known) return true;
  }
  return is_interpreter_versioned_name(name);
}

std::vector<std::string> list_interpreter_like_safe_bins(const std::vector<std::string>& entries) {
  std::vector<std::string> out;
  for (const std::string& entry : entries) {
    std::string name = normalize_safe_bin_name(entry);
    if (!name.empty() && is_interpreter_like_safe_bin(name)) out.push_back(std::move(name));
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<RiskySafeBin> list_risky_configured_safe_bins(const std::vector<std::string>& entries) {
  static const std::string kAwk =
      "awk-family interpreters can execute commands, access ENVIRON, and write files, so prefer "
      "explicit allowlist entries or approval-gated runs instead of safeBins.";
  static const std::string kJq =
      "jq can read environment data and load jq code from modules or startup files, so prefer "
      "explicit allowlist entries or approval-gated runs instead of safeBins.";
  static const std::string kSed =
      "sed scripts can execute commands and write files, so prefer explicit allowlist entries or "
      "approval-gated runs instead of safeBins.";
  std::vector<RiskySafeBin> out;
  for (const std::string& entry : entries) {
    std::string name = normalize_safe_bin_name(entry);
    if (name.empty()) continue;
    if (std::any_of(out.begin(), out.end(), [&](const RiskySafeBin& r) { return r.bin == name; })) {
      continue;
    }
    const std::string* warning = nullptr;
    if (name == "jq") warning = &kJq;
    if (name == "awk" || name == "gawk" || name == "mawk" || name == "nawk") warning = &kAwk;
    if (name == "sed" || name == "gsed") warning = &kSed;
    if (warning != nullptr) out.push_back({std::move(name), *warning});
  }
  std::sort(out.begin(), out.end(),
            [](const RiskySafeBin& a, const RiskySafeBin& b) { return a.bin < b.bin; });
  return out;
}

}  // namespace clawexec::policy
