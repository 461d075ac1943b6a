// `clawexec.security.audit`, `clawexec.doctor` and `clawexec.doctor.fix`: the checks behind
// `clawexec security audit --json` and `clawexec doctor [--fix] --json` over the WebSocket, for
// the control UI's audit page. Both sides call the one implementation in
// operator/security_audit.h with the gateway's own files (config and approvals paths), and
// answer the same JSON the CLI prints. Viewing needs operator.read; the fix, which rewrites
// the config, needs operator.admin (see required_scope) and reloads the gateway's config when
// it wrote something, as config.patch does.

#include "approvals/system_fs.h"
#include "gateway/operator_internal.h"
#include "operator/security_audit.h"

namespace clawexec::gateway {

void OperatorHub::audit_method(const std::shared_ptr<Connection>& c, const std::string& id, const std::string& method,
                               const json::Object& params) {
  if (!params.empty()) {
    return c->send(res_error(id, "INVALID_REQUEST", "invalid " + method + " params: unexpected property '" +
                                                        std::string(params.begin()->key()) + "'"));
  }
  if (method == "clawexec.security.audit") {
    Result<operator_ops::SecurityAudit> audit = operator_ops::security_audit(options_.files);
    if (!audit.ok()) return c->send(res_error(id, "UNAVAILABLE", method + ": " + audit.error().message));
    return c->send(res_ok(id, json::Value(operator_ops::to_json(*audit))));
  }
  const bool fix = method == "clawexec.doctor.fix";
  Result<operator_ops::DoctorReport> report = operator_ops::run_doctor(
      options_.files, fix ? operator_ops::DoctorMode::kFix : operator_ops::DoctorMode::kCheck, approvals::system_fs_view());
  if (!report.ok()) return c->send(res_error(id, "UNAVAILABLE", method + ": " + report.error().message));
  const bool written = report->config_written;
  c->send(res_ok(id, json::Value(operator_ops::to_json(*report))));
  if (written && options_.config_changed) options_.config_changed();
}

}  // namespace clawexec::gateway
