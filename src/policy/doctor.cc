// Doctor's safe-bin checks (spec §10.2). The reference builds one "scope" per `tools.exec`
// object that lists safe bins and runs three passes over them: coverage (which bins lack a
// user profile, which are risky), trusted-directory hints (bins found on PATH outside the
// trusted dirs) and the repair (empty scaffold profiles for plain custom bins). Here the scope
// list is computed once per pass from the JSON document; the repair works on a copy and
// navigates to each scope's `tools.exec` object by path, so the caller's document is never
// touched.

#include "policy/doctor.h"

#include <algorithm>
#include <boost/json/object.hpp>
#include <set>

#include "policy/audit_config.h"
#include "policy/safe_bins.h"

namespace clawexec::policy {

namespace json = boost::json;

namespace {

struct DoctorScope {
  std::string scope_path;
  std::vector<std::string> safe_bins;  // normalised, sorted, non-empty
  std::set<std::string, std::less<>> profile_names;
  std::vector<std::string> extra_trusted_dirs;
  // Where the scope's tools.exec object lives: nullopt = the global one, else the agent index
  // in list_configured_agents order.
  std::optional<size_t> agent_index;
};

const json::value* member(const json::object* object, std::string_view key) {
  if (object == nullptr) return nullptr;
  auto it = object->find(key);
  return it == object->end() ? nullptr : &it->value();
}

std::vector<DoctorScope> collect_scopes(const json::value& config) {
  std::vector<DoctorScope> scopes;
  const json::object* global = global_exec_section(config);
  std::vector<std::string> global_dirs = normalize_configured_trusted_dirs(member(global, "safeBinTrustedDirs"));
  if (global != nullptr) {
    std::vector<std::string> bins = normalize_configured_safe_bins(member(global, "safeBins"));
    if (!bins.empty()) {
      scopes.push_back({"tools.exec", std::move(bins), merged_profile_names(global, nullptr), global_dirs, std::nullopt});
    }
  }
  std::vector<ConfiguredAgent> agents = list_configured_agents(config);
  for (size_t i = 0; i < agents.size(); ++i) {
    const json::object* exec = agent_exec_section(agents[i]);
    if (exec == nullptr) continue;
    std::vector<std::string> bins = normalize_configured_safe_bins(member(exec, "safeBins"));
    if (bins.empty()) continue;
    std::vector<std::string> dirs = global_dirs;
    for (std::string& dir : normalize_configured_trusted_dirs(member(exec, "safeBinTrustedDirs"))) {
      dirs.push_back(std::move(dir));
    }
    scopes.push_back({agents[i].doctor_scope_path, std::move(bins), merged_profile_names(global, exec), std::move(dirs), i});
  }
  return scopes;
}

std::set<std::string, std::less<>> risky_names(const std::vector<RiskySafeBin>& risky) {
  std::set<std::string, std::less<>> names;
  for (const RiskySafeBin& hit : risky) names.insert(hit.bin);
  return names;
}

// Bins without a user profile whose normalised name is not risky, in scope order.
std::vector<std::string> missing_bins(const DoctorScope& scope, const std::set<std::string, std::less<>>& risky) {
  std::vector<std::string> out;
  for (const std::string& bin : scope.safe_bins) {
    if (scope.profile_names.count(bin) != 0 || risky.count(normalize_safe_bin_name(bin)) != 0) continue;
    out.push_back(bin);
  }
  return out;
}

// Appends up to five lines of `items`, then the overflow line when there are more.
void add_capped(std::vector<std::string>& out, const std::vector<std::string>& items, const std::string& overflow_suffix) {
  for (size_t i = 0; i < items.size() && i < 5; ++i) out.push_back(items[i]);
  if (items.size() > 5) out.push_back("- " + std::to_string(items.size() - 5) + overflow_suffix);
}

}  // namespace

std::vector<SafeBinCoverageHit> scan_exec_safe_bin_coverage(const json::value& config) {
  std::vector<SafeBinCoverageHit> hits;
  for (const DoctorScope& scope : collect_scopes(config)) {
    std::vector<std::string> interpreters = list_interpreter_like_safe_bins(scope.safe_bins);
    std::vector<RiskySafeBin> risky = list_risky_configured_safe_bins(scope.safe_bins);
    for (const std::string& bin : missing_bins(scope, risky_names(risky))) {
      bool interpreter = std::find(interpreters.begin(), interpreters.end(), bin) != interpreters.end();
      hits.push_back({scope.scope_path, bin, SafeBinCoverageKind::kMissingProfile, interpreter, ""});
    }
    for (const RiskySafeBin& hit : risky) {
      hits.push_back({scope.scope_path, hit.bin, SafeBinCoverageKind::kRiskySemantics, false, hit.warning});
    }
  }
  return hits;
}

std::vector<std::string> collect_exec_safe_bin_coverage_warnings(const std::vector<SafeBinCoverageHit>& hits,
                                                                 std::string_view doctor_fix_command) {
  std::vector<std::string> interpreter_lines;
  std::vector<std::string> custom_lines;
  std::vector<std::string> risky_lines;
  for (const SafeBinCoverageHit& hit : hits) {
    std::string scope = sanitize_for_log(hit.scope_path);
    std::string bin = sanitize_for_log(hit.bin);
    if (hit.kind == SafeBinCoverageKind::kRiskySemantics) {
      std::string warning =
          hit.warning.empty() ? "prefer explicit allowlist entries or approval-gated runs." : hit.warning;
      risky_lines.push_back("- " + scope + ".safeBins includes '" + bin + "': " + sanitize_for_log(warning));
    } else if (hit.is_interpreter) {
      interpreter_lines.push_back("- " + scope + ".safeBins includes interpreter/runtime '" + bin + "' without profile.");
    } else {
      custom_lines.push_back("- " + scope + ".safeBins entry '" + bin + "' is missing safeBinProfiles." + bin + ".");
    }
  }
  std::vector<std::string> out;
  add_capped(out, interpreter_lines, " more interpreter/runtime safeBins entries are missing profiles.");
  add_capped(out, custom_lines, " more custom safeBins entries are missing profiles.");
  add_capped(out, risky_lines, " more safeBins entries should not use the low-risk safeBins fast path.");
  if (!custom_lines.empty()) {
    out.push_back("- Run \"" + std::string(doctor_fix_command) + "\" to scaffold missing custom safeBinProfiles entries.");
  }
  return out;
}

std::vector<SafeBinTrustedDirHint> scan_exec_safe_bin_trusted_dir_hints(const json::value& config,
                                                                        const ResolveContext& resolve) {
  std::vector<SafeBinTrustedDirHint> hits;
  if (resolve.fs == nullptr) return hits;
  for (const DoctorScope& scope : collect_scopes(config)) {
    TrustedSafeBinDirs trusted =
        get_trusted_safe_bin_dirs(default_safe_bin_trusted_dirs(), scope.extra_trusted_dirs, {}, *resolve.fs);
    for (const std::string& bin : scope.safe_bins) {
      std::optional<CommandResolution> resolution = resolve_command_resolution_from_argv(Argv{bin}, resolve);
      if (!resolution || !resolution->execution.resolved_path) continue;
      const std::string& path = *resolution->execution.resolved_path;
      if (is_trusted_safe_bin_path(path, trusted)) continue;
      hits.push_back({scope.scope_path, bin, path});
    }
  }
  return hits;
}

std::vector<std::string> collect_exec_safe_bin_trusted_dir_hint_warnings(const std::vector<SafeBinTrustedDirHint>& hits) {
  std::vector<std::string> out;
  if (hits.empty()) return out;
  std::vector<std::string> lines;
  for (const SafeBinTrustedDirHint& hit : hits) {
    lines.push_back("- " + sanitize_for_log(hit.scope_path) + ".safeBins entry '" + sanitize_for_log(hit.bin) +
                    "' resolves to '" + sanitize_for_log(hit.resolved_path) + "' outside trusted safe-bin dirs.");
  }
  add_capped(out, lines, " more safeBins entries resolve outside trusted safe-bin dirs.");
  out.push_back("- If intentional, add the binary directory to tools.exec.safeBinTrustedDirs (global or agent scope).");
  return out;
}

namespace {

// The mutable `tools.exec` object of a scope inside the copy (same shape as the original, so
// the lookups cannot fail for a scope collect_scopes produced).
json::object* mutable_exec_section(json::value& config, const DoctorScope& scope) {
  json::object& root = config.as_object();
  if (!scope.agent_index) return &root["tools"].as_object()["exec"].as_object();
  json::object& agents = root["agents"].as_object();
  auto entries = agents.find("entries");
  json::value* entry = nullptr;
  if (entries != agents.end() && !entries->value().is_null()) {
    size_t index = 0;
    for (auto& m : entries->value().as_object()) {
      if (!m.value().is_object()) continue;
      if (index++ == *scope.agent_index) entry = &m.value();
    }
  } else {
    size_t index = 0;
    for (json::value& item : agents["list"].as_array()) {
      if (!item.is_object()) continue;
      if (index++ == *scope.agent_index) entry = &item;
    }
  }
  return &entry->as_object()["tools"].as_object()["exec"].as_object();
}

}  // namespace

SafeBinProfileRepair maybe_repair_exec_safe_bin_profiles(const json::value& config) {
  SafeBinProfileRepair repair{config, {}, {}, false};
  for (const DoctorScope& scope : collect_scopes(config)) {
    std::vector<std::string> interpreters = list_interpreter_like_safe_bins(scope.safe_bins);
    std::vector<RiskySafeBin> risky = list_risky_configured_safe_bins(scope.safe_bins);
    for (const RiskySafeBin& hit : risky) {
      repair.warnings.push_back("- " + scope.scope_path + ".safeBins includes '" + hit.bin + "': " + hit.warning);
    }
    std::vector<std::string> missing = missing_bins(scope, risky_names(risky));
    if (missing.empty()) continue;
    json::object* exec = mutable_exec_section(repair.config, scope);
    json::value& holder = (*exec)["safeBinProfiles"];
    if (!holder.is_object()) holder = json::object();
    json::object& profiles = holder.as_object();
    for (const std::string& bin : missing) {
      if (std::find(interpreters.begin(), interpreters.end(), bin) != interpreters.end()) {
        repair.warnings.push_back("- " + scope.scope_path + ".safeBins includes interpreter/runtime '" + bin +
                                  "' without profile; remove it from safeBins or use explicit allowlist entries.");
        continue;
      }
      if (profiles.contains(bin)) continue;
      profiles[bin] = json::object();
      repair.changes.push_back("- " + scope.scope_path + ".safeBinProfiles." + bin +
                               ": added scaffold profile {} (review and tighten flags/positionals).");
    }
  }
  if (repair.changes.empty() && repair.warnings.empty()) {
    repair.config = config;
    return repair;
  }
  repair.config_changed = repair.config != config;
  return repair;
}

}  // namespace clawexec::policy
