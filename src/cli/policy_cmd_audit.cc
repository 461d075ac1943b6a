// `clawexec security audit` and `clawexec doctor [--fix]`: thin shells around
// operator_ops::security_audit and operator_ops::run_doctor (operator/security_audit.h), which
// gather the inputs and run the pure policy checks; this file prints the results.

#include <iostream>

#include "approvals/system_fs.h"
#include "cli/policy_cmd_common.h"
#include "cli/policy_cmd_internal.h"
#include "operator/security_audit.h"
#include "term/display_escape.h"

namespace clawexec::cli {

namespace op = operator_ops;

namespace {

int run_audit(bool as_json) {
  auto audit = op::security_audit(op::process_operator_env());
  if (!audit.ok()) return fail("security audit", audit.error().message);
  if (as_json) {
    print_json(op::to_json(*audit));
    return 0;
  }
  std::cout << "Exec security audit: " << audit->critical << " critical, " << audit->warn << " warn, " << audit->info
            << " info\n";
  for (const policy::AuditFinding& f : audit->findings) {
    std::cout << "\n[" << policy::to_string(f.severity) << "] " << f.check_id << ": " << f.title << "\n"
              << f.detail << "\nFix: " << f.remediation << "\n";
  }
  return 0;
}

int run_doctor(bool fix, bool as_json) {
  if (fix) {
    if (std::optional<int> refused = refuse_under_clawexec("doctor --fix")) return *refused;
  }
  auto report = op::run_doctor(op::process_operator_env(), fix ? op::DoctorMode::kFix : op::DoctorMode::kCheck,
                               approvals::system_fs_view());
  if (!report.ok()) return fail("doctor", report.error().message);
  if (as_json) {
    print_json(op::to_json(*report));
    return 0;
  }
  for (const std::string& line : report->sandbox) {
    std::cout << "sandbox: " << term::escape_for_display(line, term::DisplayStyle::kLines) << "\n";
  }
  if (report->coverage_warnings.empty() && report->trusted_dir_warnings.empty()) {
    std::cout << "safeBins: no problems found.\n";
  }
  for (const std::string& line : report->coverage_warnings) std::cout << line << "\n";
  for (const std::string& line : report->trusted_dir_warnings) std::cout << line << "\n";
  if (fix) {
    for (const std::string& line : report->repair.changes) std::cout << line << "\n";
    for (const std::string& line : report->repair.warnings) std::cout << line << "\n";
    std::cout << (report->config_written ? "Updated " + report->config_path + " (comments are not preserved)."
                                         : "No config changes.")
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

  auto* doctor = app.add_subcommand("doctor", "Check safeBins coverage, trusted dirs and sandbox support; --fix scaffolds profiles");
  auto doctor_flags = std::make_shared<std::pair<bool, bool>>(false, false);  // fix, json
  doctor->add_flag("--fix", doctor_flags->first, "Scaffold missing safeBinProfiles entries in the config");
  doctor->add_flag("--json", doctor_flags->second, "Output as JSON");
  doctor->callback([&exit_code, doctor_flags] { exit_code = run_doctor(doctor_flags->first, doctor_flags->second); });
}

}  // namespace clawexec::cli
