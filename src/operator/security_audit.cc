// The audit and doctor operations: inputs gathered here, judgement in policy/ (pure).

#include "operator/security_audit.h"

#include "config/paths.h"
#include "operator/config_document.h"
#include "operator/sandbox_ops.h"
#include "policy/audit_config.h"
#include "sys/file_system.h"
#include "sys/sys.h"

namespace clawexec::operator_ops {

namespace bj = boost::json;

namespace {

// Permission bits (st_mode & 0777) of `path` (symlinks followed); nullopt if it cannot be read.
std::optional<unsigned> directory_mode(const std::string& path) {
  auto real = sys::real_path(path);
  if (!real.ok()) return std::nullopt;
  auto info = sys::lstat_path(*real);
  if (!info.ok() || !*info) return std::nullopt;
  return (*info)->mode & 0777;
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

}  // namespace

bj::object to_json(const SecurityAudit& audit) {
  bj::array list;
  for (const policy::AuditFinding& f : audit.findings) list.push_back(policy::to_json(f));
  return bj::object{{"configPath", audit.config_path},
                    {"approvalsPath", audit.approvals_path},
                    {"summary", {{"critical", audit.critical}, {"warn", audit.warn}, {"info", audit.info}}},
                    {"findings", std::move(list)}};
}

Result<SecurityAudit> security_audit(const OperatorEnv& env) {
  ConfigDocument config = TRY(read_config_document(env.config_path));
  // The approvals as the runtime enforces them: fail-closed when the file is invalid.
  approvals::Document approvals = open_store(env).load();
  policy::AuditFacts facts;
  for (const std::string& dir : policy::audit_trusted_dirs_to_inspect(config.document)) {
    if (auto mode = directory_mode(dir)) facts.trusted_dir_modes[dir] = *mode;
  }
  SecurityAudit out;
  out.config_path = env.config_path;
  out.approvals_path = env.approvals.file;
  out.findings = policy::collect_exec_audit_findings(config.document, approvals, facts);
  for (policy::AuditFinding& f : collect_sandbox_audit_findings(env, config.document)) out.findings.push_back(std::move(f));
  for (const policy::AuditFinding& f : out.findings) {
    switch (f.severity) {
      case policy::AuditSeverity::kCritical: ++out.critical; break;
      case policy::AuditSeverity::kWarn: ++out.warn; break;
      case policy::AuditSeverity::kInfo: ++out.info; break;
    }
  }
  return out;
}

bj::object to_json(const DoctorReport& report) {
  bj::array hint_list;
  for (const auto& h : report.trusted_dir_hints) {
    hint_list.push_back(bj::object{{"scopePath", h.scope_path}, {"bin", h.bin}, {"resolvedPath", h.resolved_path}});
  }
  bj::object out{
      {"configPath", report.config_path},
      {"sandbox", string_array(report.sandbox)},
      {"safeBinCoverage", {{"hits", coverage_json(report.coverage)}, {"warnings", string_array(report.coverage_warnings)}}},
      {"trustedDirHints", {{"hits", std::move(hint_list)}, {"warnings", string_array(report.trusted_dir_warnings)}}}};
  if (report.mode == DoctorMode::kFix) {
    out["fix"] = bj::object{{"changes", string_array(report.repair.changes)},
                            {"warnings", string_array(report.repair.warnings)},
                            {"configWritten", report.config_written}};
  }
  return out;
}

Result<DoctorReport> run_doctor(const OperatorEnv& env, DoctorMode mode, const policy::FsView& fs) {
  ConfigDocument config = TRY(read_config_document(env.config_path));
  DoctorReport out;
  out.config_path = env.config_path;
  out.mode = mode;
  out.coverage = policy::scan_exec_safe_bin_coverage(config.document);
  out.coverage_warnings = policy::collect_exec_safe_bin_coverage_warnings(out.coverage, "clawexec doctor --fix");
  policy::ResolveContext resolve{env.paths.cwd, env.paths.env("PATH"), config::resolve_home_dir(env.paths), &fs};
  out.trusted_dir_hints = policy::scan_exec_safe_bin_trusted_dir_hints(config.document, resolve);
  out.trusted_dir_warnings = policy::collect_exec_safe_bin_trusted_dir_hint_warnings(out.trusted_dir_hints);
  out.sandbox = sandbox_doctor_lines(env, config.document);
  if (mode == DoctorMode::kFix) {
    out.repair = policy::maybe_repair_exec_safe_bin_profiles(config.document);
    if (out.repair.config_changed) {
      TRY(write_config_document(env.config_path, out.repair.config));
      out.config_written = true;
    }
  }
  return out;
}

}  // namespace clawexec::operator_ops
