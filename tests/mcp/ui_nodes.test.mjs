// The control UI's nodes page in headless Chromium against a real gateway (loopback nodes are
// not auto-approved here): a node host's device pairing and then its command surface are
// approved from the page and the node is listed, connected, with its commands; the Exec node
// binding panel writes tools.exec.node and agents.entries.<id>.tools.exec.node into
// openclaw.json, and clearing an override removes the key.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "./lib/harness.mjs";
import { startGateway } from "./lib/gateway.mjs";
import { fakeNode } from "./lib/fake_node.mjs";
import { launchBrowser, login, screenshot } from "./lib/browser.mjs";

let g;
let browser;
before(async () => {
  g = await startGateway({ config: { gateway: { nodes: { pairing: { autoApproveLocal: false } } }, tools: { exec: { host: "gateway" } } } });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await g?.stop();
});

const config = () => JSON.parse(readFileSync(join(g.state.dir, "openclaw.json"), "utf8"));

describe("nodes page", () => {
  test("approve a node's device pairing, then its commands, and see it listed; bind agents to it", async () => {
    const page = await browser.page();
    await login(page, g.url, g.token);
    await page.click('nav a[data-page="nodes"]');
    await page.waitForSelector("#page-nodes:not([hidden])");
    await page.waitForSelector("#binding-default");

    // 1. The device: a pairing request raised by the node's first connect.
    const first = await fakeNode(g, { name: "ui-node" });
    assert.equal(first.res.ok, false);
    assert.equal(first.res.error.details.code, "PAIRING_REQUIRED");
    const device = await page.waitForSelector('#pending-pairings li[data-kind="device"]', { timeout: 5000 });
    assert.match(await device.textContent(), /ui-node/);
    await screenshot(page, "nodes-pending-device");
    await device.$eval("button.primary", (b) => b.click());
    await page.waitForSelector('#pending-pairings li[data-kind="device"]', { state: "detached" });

    // 2. The command surface, asked for when the paired node connects again.
    const node = await fakeNode(g, { name: "ui-node", device: first.device });
    assert.equal(node.res.ok, true, JSON.stringify(node.res));
    const surface = await page.waitForSelector('#pending-pairings li[data-kind="node"]', { timeout: 5000 });
    assert.match(await surface.textContent(), /system\.run/);
    await surface.$eval("button.primary", (b) => b.click());
    const row = await page.waitForSelector(`#nodes-body tr[data-node-id="${node.device.id}"][data-connected="true"]`, { timeout: 5000 });
    assert.match(await row.textContent(), /ui-node/);
    await page.waitForFunction((id) => /system\.run/.test(document.querySelector(`#nodes-body tr[data-node-id="${id}"]`)?.textContent ?? ""), node.device.id);

    // 3. Bindings: the default and an override for agent "ops".
    await page.waitForSelector(`#binding-default option[value="${node.device.id}"]`, { state: "attached" });
    await page.selectOption("#binding-default", node.device.id);
    await page.fill("#binding-new-agent", "ops");
    await page.click("#binding-add");
    await page.selectOption("#binding-agent-ops", node.device.id);
    await page.click("#binding-save");
    await page.waitForFunction(() => document.getElementById("binding-result").textContent === "Saved.");
    let c = config();
    assert.equal(c.tools.exec.node, node.device.id);
    assert.equal(c.tools.exec.host, "gateway", "the rest of tools.exec is kept");
    assert.equal(c.agents.entries.ops.tools.exec.node, node.device.id);
    await screenshot(page, "nodes-binding");

    // Clearing the override removes the key; the default stays.
    await page.waitForSelector("#binding-agent-ops");
    await page.selectOption("#binding-agent-ops", "");
    await page.click("#binding-save");
    await waitFor(() => config().agents?.entries?.ops?.tools?.exec?.node === undefined, 5000, "the override removed");
    c = config();
    assert.equal(c.tools.exec.node, node.device.id);
    assert.deepEqual(page.errors, []);
    node.ws.close();
    await page.close();
  });
});
