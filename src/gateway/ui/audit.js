// The audit page: the gateway's `security audit` findings (clawexec.security.audit) with their
// severity, what was found and the fix, and its `doctor` report (clawexec.doctor): what this
// machine's sandbox offers, safeBins coverage and trusted-directory warnings. Both are the
// CLI's own checks answered over the WebSocket. "Scaffold missing profiles" is `doctor --fix`
// (clawexec.doctor.fix), shown only to a connection that holds operator.admin. Every piece of
// text from the gateway is shown inertly (text.js).

import { visibleEl } from "./text.js";

const $ = (id) => document.getElementById(id);
const ORDER = { critical: 0, warn: 1, info: 2 };

export class AuditPage {
  constructor(gateway) {
    this.gw = gateway;
    $("audit-reload").onclick = () => this.show();
    const scopes = gateway.hello?.auth?.scopes ?? [];
    $("doctor-fix").hidden = !scopes.includes("operator.admin");
    $("doctor-fix").onclick = () => this.fix();
  }

  async show() {
    $("audit-status").textContent = "checking…";
    try {
      const [audit, doctor] = await Promise.all([this.gw.call("clawexec.security.audit", {}), this.gw.call("clawexec.doctor", {})]);
      this.renderAudit(audit);
      this.renderDoctor(doctor);
      $("audit-status").textContent = "";
    } catch (err) {
      $("audit-status").textContent = `checking failed: ${err.message}`;
    }
  }

  renderAudit(a) {
    const s = a.summary ?? {};
    $("audit-summary").textContent = `${s.critical ?? 0} critical · ${s.warn ?? 0} warn · ${s.info ?? 0} info`;
    $("audit-paths").replaceChildren(visibleEl("span", `config ${a.configPath ?? "?"} · approvals ${a.approvalsPath ?? "?"}`));
    const findings = [...(a.findings ?? [])].sort((x, y) => (ORDER[x.severity] ?? 3) - (ORDER[y.severity] ?? 3));
    const items = findings.map((f) => {
      const li = document.createElement("li");
      const severity = ORDER[f.severity] === undefined ? "info" : f.severity;
      li.className = `card finding sev-${severity}`;
      li.dataset.check = String(f.checkId ?? "");
      const head = document.createElement("h3");
      head.append(visibleEl("span", String(f.severity ?? "?"), "sev"), " ", visibleEl("span", f.title ?? ""));
      li.append(head, visibleEl("p", f.checkId ?? "", "meta check-id"), visibleEl("p", f.detail ?? "", "detail", { lines: true }));
      const fix = document.createElement("p");
      fix.className = "remedy";
      const b = document.createElement("strong");
      b.textContent = "Fix: ";
      fix.append(b, visibleEl("span", f.remediation ?? "", "", { lines: true }));
      li.append(fix);
      return li;
    });
    $("audit-list").replaceChildren(...items);
    $("audit-empty").hidden = items.length > 0;
  }

  renderDoctor(d) {
    const lines = (name, xs) => (xs ?? []).map((x) => visibleEl("li", x, name, { lines: true }));
    $("doctor-sandbox").replaceChildren(...lines("sandbox-line", d.sandbox));
    $("doctor-sandbox-none").hidden = (d.sandbox ?? []).length > 0;
    const warnings = [...lines("warn", d.safeBinCoverage?.warnings), ...lines("warn", d.trustedDirHints?.warnings)];
    $("doctor-warnings").replaceChildren(...warnings);
    $("doctor-ok").hidden = warnings.length > 0;
  }

  async fix() {
    $("doctor-fix").disabled = true;
    $("doctor-fix-result").textContent = "scaffolding…";
    try {
      const r = await this.gw.call("clawexec.doctor.fix", {});
      const changes = r.fix?.changes ?? [];
      const out = [...changes, ...(r.fix?.warnings ?? [])];
      out.push(r.fix?.configWritten ? `Updated ${r.configPath} (comments are not preserved).` : "No config changes.");
      $("doctor-fix-result").replaceChildren(...out.map((x) => visibleEl("div", x)));
      this.renderDoctor(r);
    } catch (err) {
      $("doctor-fix-result").textContent = `doctor --fix failed: ${err.message}`;
    } finally {
      $("doctor-fix").disabled = false;
    }
  }
}
