// The audit page and the gateway methods behind it: clawexec.security.audit and clawexec.doctor
// answer exactly what `clawexec security audit --json` and `clawexec doctor --json` print for the
// same state dir (one implementation, two callers); they need operator.admin, as
// exec.approvals.get does (the findings describe the approvals and config), and the fix
// (clawexec.doctor.fix) writes the scaffolded profile into the config.
// In headless Chromium the page lists each finding with its severity and fix text, shows
// hostile text from the config inertly, and offers the fix only to an admin connection.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLAWEXEC, scratchDir } from "./lib/harness.mjs";
import { startGateway, operator } from "./lib/gateway.mjs";
import { launchBrowser, login, screenshot } from "./lib/browser.mjs";

// A directory name with a bidi override: the page must show it as a visible marker.
const HOSTILE = "evil\u202edir";
let g;
let browser;
let bin;
before(async () => {
  const state = scratchDir("clawexec-gw-");
  bin = join(state.dir, "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "myfilter"), "#!/bin/sh\n");
  chmodSync(join(bin, "myfilter"), 0o755);
  const loose = join(state.dir, HOSTILE);
  mkdirSync(loose);
  chmodSync(loose, 0o777);
  writeFileSync(join(state.dir, "exec-approvals.json"), JSON.stringify({ version: 1, defaults: { autoAllowSkills: true } }));
  g = await startGateway({
    state,
    config: { tools: { exec: { security: "full", safeBins: ["myfilter", "jq"], safeBinTrustedDirs: ["/tmp", loose] } } },
    env: { PATH: `${bin}:/usr/bin:/bin` },
  });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await g?.stop();
});

const cli = (args) => {
  const r = spawnSync(CLAWEXEC, args, { env: g.env, cwd: g.state.dir, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
};

describe("clawexec.security.audit and clawexec.doctor", () => {
  test("answer what the CLI prints; only admin views or fixes", async () => {
    const admin = await operator(g, ["operator.admin"]);
    let r = await admin.call("clawexec.security.audit", {});
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.deepEqual(r.payload, cli(["security", "audit", "--json"]));
    const ids = r.payload.findings.map((f) => f.checkId);
    assert.ok(ids.includes("tools.exec.security_full_configured"), ids.join());
    assert.ok(ids.includes("tools.exec.safe_bin_trusted_dirs_writable"), ids.join());
    r = await admin.call("clawexec.doctor", {});
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.deepEqual(r.payload, cli(["doctor", "--json"]));
    assert.ok(r.payload.safeBinCoverage.hits.some((h) => h.bin === "myfilter" && h.kind === "missingProfile"));
    r = await admin.call("clawexec.security.audit", { bogus: 1 });
    assert.equal(r.error.message, "invalid clawexec.security.audit params: unexpected property 'bogus'");
    // The findings describe the approvals document and the config, which read scope cannot see.
    const reader = await operator(g, ["operator.read", "operator.write", "operator.approvals"]);
    for (const method of ["clawexec.security.audit", "clawexec.doctor", "clawexec.doctor.fix"]) {
      r = await reader.call(method, {});
      assert.equal(r.ok, false, method);
      assert.equal(r.error.details.missingScope, "operator.admin", method);
    }
    for (const c of [admin, reader]) c.ws.close();
  });
});

describe("audit page", () => {
  test("findings with severity and fix text, hostile text inert; the admin login's fix writes the config", async () => {
    const page = await browser.page();
    await login(page, g.url, g.token);
    await page.click('nav a[data-page="audit"]');
    await page.waitForSelector('#audit-list li[data-check="tools.exec.security_full_configured"]');
    const expected = cli(["security", "audit", "--json"]);
    const shown = await page.$$eval("#audit-list li", (lis) => lis.map((li) => ({
      check: li.dataset.check,
      severity: li.querySelector(".sev").textContent,
      fix: li.querySelector(".remedy").textContent,
    })));
    assert.equal(shown.length, expected.findings.length);
    for (const f of expected.findings) {
      const s = shown.find((x) => x.check === f.checkId);
      assert.ok(s, f.checkId);
      assert.equal(s.severity, f.severity);
      assert.equal(s.fix.replace(/[⟨][^⟩]*[⟩]/g, ""), `Fix: ${f.remediation}`.replace(/[\u0000-\u001f\u202a-\u202e]/g, ""));
    }
    assert.equal(await page.textContent("#audit-summary"), `${expected.summary.critical} critical · ${expected.summary.warn} warn · ${expected.summary.info} info`);
    // The trusted-dir finding names the directory with the bidi override: shown as a marker, never raw.
    const writable = await page.textContent('#audit-list li[data-check="tools.exec.safe_bin_trusted_dirs_writable"]');
    assert.match(writable, /evil⟨RLO⟩dir/);
    assert.ok(!writable.includes("\u202e"));
    assert.equal(await page.$$eval("#audit-list li", (lis) => lis.filter((li) => li.querySelector("script,img,a")).length), 0);
    assert.match(await page.textContent("#doctor-warnings"), /doctor --fix/);
    await screenshot(page, "audit");

    // This login holds operator.admin: the fix runs and writes the scaffold profile.
    assert.equal(await page.isVisible("#doctor-fix"), true);
    await page.click("#doctor-fix");
    await page.waitForFunction(() => /Updated /.test(document.getElementById("doctor-fix-result").textContent));
    assert.match(await page.textContent("#doctor-fix-result"), /safeBinProfiles\.myfilter: added scaffold profile/);
    const config = JSON.parse(readFileSync(join(g.state.dir, "openclaw.json"), "utf8"));
    assert.deepEqual(config.tools.exec.safeBinProfiles, { myfilter: {} });
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
