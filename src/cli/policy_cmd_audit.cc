// `clawexec security audit` and `clawexec doctor [--fix]`: thin shells around the pure
// policy::collect_exec_audit_findings and the policy/doctor.h scans. This file gathers the
// inputs those functions may not fetch themselves (the config document, the approvals file as
// the runtime would load it, directory permission bits, PATH), prints the results, and for
// `doctor --fix` writes the repaired config atomically.

#include <iostream>

#include "approvals/system_fs.h"
#include "cli/policy_cmd_common.h"
#include "cli/policy_cmd_internal.h"
#include "config/env_lookup.h"
#include "policy/audit.h"
#include "policy/doctor.h"
#include "sys/sys.h"

namespace clawexec::cli {

namespace bj = boost::json;

namespace {

int run_audit(bool as_json) {
  const char* command = "security audit";
  OperatorEnv env = operator_env();
  auto config = read_config_document(env.config_path);
  if (!config.ok()) return fail(command, config.error().message);
  // The approvals as the runtime enforces them: fail-closed when the file is invalid.
  approvals::Document approvals = open_store(env).load();
  policy::AuditFacts facts;
  for (const std::string& dir : policy::audit_trusted_dirs_to_inspect(config->document)) {
    if (auto mode = directory_mode(dir)) facts.trusted_dir_modes[dir] = *mode;
  }
  std::vector<policy::AuditFinding> findings = policy::collect_exec_audit_findings(config->document, approvals, facts);
  int64_t counts[3] = {0, 0, 0};
  bj::array list;
  for (const policy::AuditFinding& f : findings) {
    ++counts[static_cast<int>(f.severity)];
    list.push_back(policy::to_json(f));
  }
  if (as_json) {
    print_json(bj::object{{"configPath", env.config_path},
                          {"approvalsPath", env.approvals.file},
                          {"summary", {{"critical", counts[2]}, {"warn", counts[1]}, {"info", counts[0]}}},
                          {"findings", std::move(list)}});
    return 0;
  }
  std::cout << "Exec security audit: " << counts[2] << " critical, " << counts[1] << " warn, " << counts[0]
            << " info\n";
  for (const policy::AuditFinding& f : findings) {
    std::cout << "\n[" << policy::to_string(f.severity) << "] " << f.check_id << ": " << f.title << "\n"
              << f.detail << "\nFix: " << f.remediation << "\n";
  }
  return 0;
}

bj::array string_array(const std::vector<std::string>& lines) { return bj::array(lines.begin(), lines.end()); }

bj::array coverage_json(const std::vector<policy::SafeBinCoverageHit>& hits) {
  bj::array out;
  for (const auto& hit : hits) {
    bj::object o{{"scopePath", hit.scope_path}, {"bin", hit.bin}};
    if (hit.kind == policy::SafeBinCoverageKind::kMissingProfile) {
      o["kind"] = "missingProfile";
      o["isInterpreter"] = hit.is_interpreter;
    } else {
      o["kind"] = "riskySemantics";
      o["warning"] = hit.warning;
    }
    out.push_back(std::move(o));
  }
  return out;
}

int run_doctor(bool fix, bool as_json) {
  const char* command = "doctor";
  if (fix) {
    if (std::optional<int> refused = refuse_under_clawexec("doctor --fix")) return *refused;
  }
  OperatorEnv env = operator_env();
  auto config = read_config_document(env.config_path);
  if (!config.ok()) return fail(command, config.error().message);

  auto coverage = policy::scan_exec_safe_bin_coverage(config->document);
  auto coverage_warnings = policy::collect_exec_safe_bin_coverage_warnings(coverage, "clawexec doctor --fix");
  const policy::FsView& fs = approvals::system_fs_view();
  policy::ResolveContext resolve{sys::current_directory().value_or("/"), env.paths.env("PATH"),
                                 config::resolve_home_dir(env.paths), &fs};
  auto hints = policy::scan_exec_safe_bin_trusted_dir_hints(config->document, resolve);
  auto hint_warnings = policy::collect_exec_safe_bin_trusted_dir_hint_warnings(hints);
  bj::array hint_list;
  for (const auto& h : hints) {
    hint_list.push_back(bj::object{{"scopePath", h.scope_path}, {"bin", h.bin}, {"resolvedPath", h.resolved_path}});
  }
  bj::object out{{"configPath", env.config_path},
                 {"safeBinCoverage", {{"hits", coverage_json(coverage)}, {"warnings", string_array(coverage_warnings)}}},
                 {"trustedDirHints", {{"hits", std::move(hint_list)}, {"warnings", string_array(hint_warnings)}}}};
  policy::SafeBinProfileRepair repair;
  bool written = false;
  if (fix) {
    repair = policy::maybe_repair_exec_safe_bin_profiles(config->document);
    if (repair.config_changed) {
      auto w = write_config_document(env.config_path, repair.config);
      if (!w.ok()) return fail(command, w.error().message);
      written = true;
    }
    out["fix"] = bj::object{{"changes", string_array(repair.changes)},
                            {"warnings", string_array(repair.warnings)},
                            {"configWritten", written}};
  }
  if (as_json) {
    print_json(out);
    return 0;
  }
  if (coverage_warnings.empty() && hint_warnings.empty()) std::cout << "safeBins: no problems found.\n";
  for (const std::string& line : coverage_warnings) std::cout << line << "\n";
  for (const std::string& line : hint_warnings) std::cout << line << "\n";
  if (fix) {
    for (const std::string& line : repair.changes) std::cout << line << "\n";
    for (const std::string& line : repair.warnings) std::cout << line << "\n";
    std::cout << (written ? "Updated " + env.config_path + " (comments are not preserved)." : "No config changes.")
              << "\n";
  }
  return 0;
}

}  // namespace

void add_audit_commands(CLI::App& app, int& exit_code) {
  CLI::App* security = app.add_subcommand("security", "Security checks");
  security->require_subcommand(1);
  auto* audit = security->add_subcommand("audit", "Report risky exec configuration (OpenClaw audit check ids)");
  auto audit_json = std::make_shared<bool>(false);
  audit->add_flag("--json", *audit_json, "Output as JSON");
  audit->callback([&exit_code, audit_json] { exit_code = run_audit(*audit_json); });

  auto* doctor = app.add_subcommand("doctor", "Check safeBins coverage and trusted dirs; --fix scaffolds profiles");
  auto doctor_flags = std::make_shared<std::pair<bool, bool>>(false, false);  // fix, json
  doctor->add_flag("--fix", doctor_flags->first, "Scaffold missing safeBinProfiles entries in the config");
  doctor->add_flag("--json", doctor_flags->second, "Output as JSON");
  doctor->callback([&exit_code, doctor_flags] { exit_code = run_doctor(doctor_flags->first, doctor_flags->second); });
}

}  // namespace clawexec::cli
