// The safe-bin checks of the security audit (spec §10.1): interpreter-like safe bins without a
// user profile, bins with broad semantics (awk/sed families, jq), risky trusted directories,
// and - a clawexec addition - trusted directories that group or others may write (the runtime
// warning of spec §5.2, surfaced where an operator looks). Scopes are `tools.exec` and
// `agents.entries.<id>.tools.exec` for every agent with a string id.

#include <algorithm>

#include "base/strings.h"
#include "policy/audit.h"
#include "policy/audit_config.h"
#include "policy/safe_bins.h"
#include "shell/lexical_path.h"

namespace clawexec::policy {

namespace json = boost::json;

namespace {

const json::value* member(const json::object* object, std::string_view key) {
  if (object == nullptr) return nullptr;
  auto it = object->find(key);
  return it == object->end() ? nullptr : &it->value();
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// classifyRiskySafeBinTrustedDir: why a trusted directory is a weak trust boundary, or "".
std::string classify_risky_trusted_dir(std::string_view raw) {
  if (raw.empty()) return "";
  if (raw.front() != '/') return "relative path (trust boundary depends on process cwd)";
  std::string normalized = ascii_lower(shell::resolve_lexically("/", raw));
  std::replace(normalized.begin(), normalized.end(), '\\', '/');
  for (std::string_view tmp : {"/tmp", "/var/tmp", "/private/tmp"}) {
    if (normalized == tmp || starts_with(normalized, std::string(tmp) + "/")) {
      return "temporary directory is mutable and easy to poison";
    }
  }
  for (std::string_view pm : {"/usr/local/bin", "/opt/homebrew/bin", "/opt/local/bin", "/home/linuxbrew/.linuxbrew/bin"}) {
    if (normalized == pm) return "package-manager bin directory (often user-writable)";
  }
  bool home_scoped = starts_with(normalized, "/users/") || starts_with(normalized, "/home/") ||
                     normalized.find("/.local/bin") != std::string::npos;
  bool drive_users = normalized.size() > 9 && normalized[0] >= 'a' && normalized[0] <= 'z' && normalized[1] == ':' &&
                     normalized.compare(2, 7, "/users/") == 0;
  if (home_scoped || drive_users) return "home-scoped bin directory (typically user-writable)";
  return "";
}

struct Scope {
  std::string path;                 // "tools.exec" or "agents.entries.<id>.tools.exec"
  const json::object* exec;         // may be null
  const json::object* global_exec;  // for profile merging; null for the global scope
};

std::vector<Scope> audit_scopes(const json::value& config) {
  const json::object* global = global_exec_section(config);
  std::vector<Scope> scopes{{"tools.exec", global, nullptr}};
  for (const ConfiguredAgent& agent : list_configured_agents(config)) {
    if (!agent.has_string_id) continue;
    scopes.push_back({"agents.entries." + agent.id + ".tools.exec", agent_exec_section(agent), global});
  }
  return scopes;
}

void add_trusted_dir_findings(const std::vector<Scope>& scopes, const AuditFacts& facts, std::vector<AuditFinding>& out) {
  std::vector<std::string> risky;
  std::vector<std::string> writable;
  for (const Scope& scope : scopes) {
    for (const std::string& dir : normalize_configured_trusted_dirs(member(scope.exec, "safeBinTrustedDirs"))) {
      std::string reason = classify_risky_trusted_dir(dir);
      if (!reason.empty()) risky.push_back("- " + scope.path + ".safeBinTrustedDirs: " + dir + " (" + reason + ")");
      auto mode = facts.trusted_dir_modes.find(dir);
      if (mode != facts.trusted_dir_modes.end() && (mode->second & 022u) != 0) {
        std::string kind = (mode->second & 002u) != 0 ? "world-writable" : "group-writable";
        writable.push_back("- " + scope.path + ".safeBinTrustedDirs: " + dir + " (" + kind + ")");
      }
    }
  }
  if (!risky.empty()) {
    std::vector<std::string> shown(risky.begin(), risky.begin() + std::min<size_t>(risky.size(), 10));
    std::string detail = "Detected risky safeBinTrustedDirs entries:\n" + join(shown, "\n");
    if (risky.size() > 10) detail += "\n- +" + std::to_string(risky.size() - 10) + " more entries.";
    out.push_back({"tools.exec.safe_bin_trusted_dirs_risky", AuditSeverity::kWarn,
                   "safeBinTrustedDirs includes risky mutable directories", detail,
                   "Prefer root-owned immutable bins, keep default trust dirs (/bin, /usr/bin), and avoid trusting "
                   "temporary/home/package-manager paths unless tightly controlled."});
  }
  if (!writable.empty()) {
    out.push_back({"tools.exec.safe_bin_trusted_dirs_writable", AuditSeverity::kWarn,
                   "safeBinTrustedDirs includes group- or world-writable directories",
                   "Detected writable safeBinTrustedDirs entries:\n" + join(writable, "\n") +
                       "\nAnyone who can write there can plant a binary that runs as a trusted safe bin.",
                   "Remove trust for these directories or tighten their permissions (for example chmod 755)."});
  }
}

}  // namespace

void check_exec_audit_safe_bins(const json::value& config, const AuditFacts& facts, std::vector<AuditFinding>& out) {
  std::vector<Scope> scopes = audit_scopes(config);
  std::vector<std::string> interpreter_hits;
  std::vector<std::string> risky_hits;
  for (const Scope& scope : scopes) {
    std::vector<std::string> bins = normalize_configured_safe_bins(member(scope.exec, "safeBins"));
    if (bins.empty()) continue;
    auto profiles = scope.global_exec == nullptr ? merged_profile_names(scope.exec, nullptr)
                                                 : merged_profile_names(scope.global_exec, scope.exec);
    std::vector<std::string> interpreters;
    for (std::string& bin : list_interpreter_like_safe_bins(bins)) {
      if (profiles.count(bin) == 0) interpreters.push_back(std::move(bin));
    }
    if (!interpreters.empty()) interpreter_hits.push_back("- " + scope.path + ".safeBins: " + join(interpreters, ", "));
    for (const RiskySafeBin& hit : list_risky_configured_safe_bins(bins)) {
      risky_hits.push_back("- " + scope.path + ".safeBins: " + hit.bin + " (" + hit.warning + ")");
    }
  }
  if (!interpreter_hits.empty()) {
    out.push_back({"tools.exec.safe_bins_interpreter_unprofiled", AuditSeverity::kWarn,
                   "safeBins includes interpreter/runtime binaries without explicit profiles",
                   "Detected interpreter-like safeBins entries missing explicit profiles:\n" + join(interpreter_hits, "\n") +
                       "\nThese entries can turn safeBins into a broad execution surface when used with permissive "
                       "argv profiles.",
                   "Remove interpreter/runtime bins from safeBins (prefer allowlist entries) or define hardened "
                   "tools.exec.safeBinProfiles.<bin> rules."});
  }
  if (!risky_hits.empty()) {
    out.push_back({"tools.exec.safe_bins_broad_behavior", AuditSeverity::kWarn,
                   "safeBins includes binaries with broader semantics than low-risk stream filters",
                   "Detected risky safeBins entries:\n" + join(risky_hits, "\n") +
                       "\nThese tools expose semantics that do not fit the low-risk stdin-filter fast path.",
                   "Remove these binaries from safeBins and prefer explicit allowlist entries or approval-gated "
                   "execution."});
  }
  add_trusted_dir_findings(scopes, facts, out);
}

std::vector<std::string> audit_trusted_dirs_to_inspect(const json::value& config) {
  std::vector<std::string> out;
  for (const Scope& scope : audit_scopes(config)) {
    for (std::string& dir : normalize_configured_trusted_dirs(member(scope.exec, "safeBinTrustedDirs"))) {
      if (std::find(out.begin(), out.end(), dir) == out.end()) out.push_back(std::move(dir));
    }
  }
  return out;
}

}  // namespace clawexec::policy
