// The control UI's exec approvals editor in headless Chromium against a real gateway: defaults
// and an agent's allowlist edited and saved into exec-approvals.json; a save based on a document
// changed meanwhile is refused with the gateway's "reload and retry", and after Reload the
// removal of the entry is saved. A node's document goes through exec.approvals.node.get/set to
// the node (here a scripted node host answering as OpenClaw's does), with its base hash. The
// presets (clawexec.policy.presets, the CLI's table) fill the defaults and save like any edit.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startGateway, operator } from "./lib/gateway.mjs";
import { launchBrowser, login, screenshot } from "./lib/browser.mjs";
import { fakeNode } from "./lib/fake_node.mjs";
import { waitFor } from "./lib/harness.mjs";

let g;
let browser;
before(async () => {
  g = await startGateway();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await g?.stop();
});

const onDisk = () => JSON.parse(readFileSync(join(g.state.dir, "exec-approvals.json"), "utf8"));
const saved = (page) => page.waitForFunction(() => document.getElementById("policy-result").textContent === "Saved.");

describe("exec approvals editor", () => {
  test("defaults and an allowlist entry saved; a stale save refused; reload, remove, save", async () => {
    const page = await browser.page();
    await login(page, g.url, g.token);
    await page.click('nav a[data-page="policy"]');
    await page.waitForSelector("#policy-defaults-ask");
    await page.selectOption("#policy-defaults-security", "allowlist");
    await page.selectOption("#policy-defaults-ask", "always");
    await page.fill("#policy-new-agent", "main");
    await page.click("#policy-add-agent");
    await page.fill("#policy-pattern-main", "/usr/bin/uname");
    await page.fill("#policy-argpattern-main", "^-s$");
    await page.click("#policy-add-main");
    await page.click("#policy-save");
    await saved(page);
    let doc = onDisk();
    assert.equal(doc.defaults.security, "allowlist");
    assert.equal(doc.defaults.ask, "always");
    assert.equal(doc.agents.main.allowlist.length, 1);
    assert.equal(doc.agents.main.allowlist[0].pattern, "/usr/bin/uname");
    assert.equal(doc.agents.main.allowlist[0].argPattern, "^-s$");
    assert.ok(doc.socket?.token, "the socket token is kept");
    await page.waitForSelector('table.allowlist[data-agent="main"] tr[data-pattern="/usr/bin/uname"]');
    await screenshot(page, "policy-editor");

    // Someone else changes the file: the page's next save is refused.
    const admin = await operator(g, ["operator.admin"]);
    const got = (await admin.call("exec.approvals.get", {})).payload;
    const changed = structuredClone(got.file);
    changed.agents.main.allowlist.push({ pattern: "/usr/bin/id" });
    assert.equal((await admin.call("exec.approvals.set", { file: changed, baseHash: got.hash })).ok, true);
    await page.click('table.allowlist[data-agent="main"] tr[data-pattern="/usr/bin/uname"] button');
    await page.click("#policy-save");
    await page.waitForFunction(() => /Saving failed: exec approvals changed; reload and retry/.test(document.getElementById("policy-result").textContent));
    assert.equal(onDisk().agents.main.allowlist.length, 2, "nothing overwritten");

    await page.click("#policy-reload");
    await page.waitForSelector('table.allowlist[data-agent="main"] tr[data-pattern="/usr/bin/id"]');
    await page.click('table.allowlist[data-agent="main"] tr[data-pattern="/usr/bin/uname"] button');
    await page.click("#policy-save");
    await saved(page);
    doc = onDisk();
    assert.deepEqual(doc.agents.main.allowlist.map((e) => e.pattern), ["/usr/bin/id"]);
    assert.equal(doc.defaults.ask, "always");

    // What would happen: the saved policy's answer for typed commands, with hostile text inert.
    await page.fill("#explain-command", "/usr/bin/id -u");
    await page.click("#explain-run");
    await page.waitForSelector('#explain-out .decision[data-decision="ask"]');
    assert.match(await page.textContent("#explain-out"), /security=allowlist ask=always/);
    assert.match(await page.textContent("#explain-out"), /\/usr\/bin\/id -u → \/usr\/bin\/id · satisfied by allowlist/);
    await page.fill("#explain-command", "echo $(id) \u202E<img src=x>");
    await page.click("#explain-run");
    await page.waitForFunction(() => /unanalyzable/.test(document.getElementById("explain-out").textContent));
    assert.equal(await page.$$eval("#explain-out img", (i) => i.length), 0);
    assert.ok(!(await page.textContent("#explain-out")).includes("\u202E"), "the override is shown as a token");
    await screenshot(page, "policy-explain");
    assert.deepEqual(page.errors, []);
    admin.ws.close();
    await page.close();
  });

  test("a preset from clawexec.policy.presets fills the defaults; saved with the base hash; a stale one refused", async () => {
    const reader = await operator(g, ["operator.read"]);
    const r = await reader.call("clawexec.policy.presets", {});
    assert.equal(r.ok, true, JSON.stringify(r));
    // The table `clawexec exec-policy preset` applies (operator/exec_policy.cc).
    assert.deepEqual(r.payload.presets, [
      { host: "gateway", security: "full", ask: "off", askFallback: "full", name: "yolo" },
      { host: "gateway", security: "allowlist", ask: "on-miss", askFallback: "deny", name: "cautious" },
      { host: "gateway", security: "deny", ask: "off", askFallback: "deny", name: "deny-all" },
    ]);
    assert.equal((await reader.call("clawexec.policy.presets", { name: "x" })).error.message,
      "invalid clawexec.policy.presets params: unexpected property 'name'");
    reader.ws.close();

    const page = await browser.page();
    await login(page, g.url, g.token);
    await page.click('nav a[data-page="policy"]');
    await page.waitForSelector('#policy-preset option[value="deny-all"]', { state: "attached" });
    await page.waitForSelector("#policy-defaults-security");
    await page.selectOption("#policy-preset", "deny-all");
    await page.click("#policy-apply-preset");
    assert.equal(await page.inputValue("#policy-defaults-security"), "deny");
    assert.equal(await page.inputValue("#policy-defaults-askFallback"), "deny");
    // Changed meanwhile: the preset's save is refused like any stale save, nothing overwritten.
    const admin = await operator(g, ["operator.admin"]);
    const got = (await admin.call("exec.approvals.get", {})).payload;
    const changed = structuredClone(got.file ?? { version: 1 });
    changed.defaults = { ...(changed.defaults ?? {}), autoAllowSkills: true };
    assert.equal((await admin.call("exec.approvals.set", got.exists ? { file: changed, baseHash: got.hash } : { file: changed })).ok, true);
    await page.click("#policy-save");
    await page.waitForFunction(() => /Saving failed: exec approvals changed; reload and retry/.test(document.getElementById("policy-result").textContent));
    assert.notEqual(onDisk().defaults.security, "deny");

    await page.click("#policy-reload");
    await page.waitForFunction(() => document.getElementById("policy-defaults-autoAllowSkills")?.checked === true);
    await page.selectOption("#policy-preset", "cautious");
    await page.click("#policy-apply-preset");
    await page.click("#policy-save");
    await saved(page);
    const doc = onDisk();
    assert.equal(doc.defaults.security, "allowlist");
    assert.equal(doc.defaults.ask, "on-miss");
    assert.equal(doc.defaults.askFallback, "deny");
    assert.equal(doc.defaults.autoAllowSkills, true, "the other writer's change is kept");
    assert.deepEqual(page.errors, []);
    admin.ws.close();
    await page.close();
  });

  test("a node's approvals are read from and saved to the node with its base hash", async () => {
    const sets = [];
    const nodeFile = { version: 1, defaults: { security: "allowlist" }, agents: { main: { allowlist: [{ pattern: "/bin/ls", source: "allow-always" }] } } };
    const node = await fakeNode(g, {
      name: "policy-node",
      handler: (command, params) => {
        if (command === "system.execApprovals.get") return { payload: { path: "/home/n/.openclaw/exec-approvals.json", exists: true, hash: "node-hash-1", file: nodeFile } };
        if (command === "system.execApprovals.set") {
          sets.push(params);
          return { payload: { path: "/home/n/.openclaw/exec-approvals.json", exists: true, hash: "node-hash-2", file: params.file } };
        }
        return { error: { code: "UNAVAILABLE", message: `unexpected ${command}` } };
      },
    });
    assert.equal(node.res.ok, true, JSON.stringify(node.res));
    const page = await browser.page();
    await login(page, g.url, g.token);
    await page.click('nav a[data-page="policy"]');
    await page.waitForSelector(`#policy-target option[value="${node.device.id}"]`, { state: "attached" });
    await page.selectOption("#policy-target", node.device.id);
    await page.waitForSelector('table.allowlist[data-agent="main"] tr[data-pattern="/bin/ls"]');
    assert.match(await page.textContent("#policy-path"), /\/home\/n\/\.openclaw\/exec-approvals\.json/);
    await page.selectOption("#policy-agent-main-ask", "on-miss");
    await page.click("#policy-save");
    await waitFor(() => sets.length === 1, 5000, "the node's set");
    assert.equal(sets[0].baseHash, "node-hash-1");
    assert.equal(sets[0].file.agents.main.ask, "on-miss");
    assert.deepEqual(sets[0].file.agents.main.allowlist, [{ pattern: "/bin/ls", source: "allow-always" }]);
    await saved(page);
    assert.deepEqual(page.errors, []);
    node.ws.close();
    await page.close();
  });
});
