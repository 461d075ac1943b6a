// The control UI's nodes page in headless Chromium against a real gateway (loopback nodes are
// not auto-approved here): a node host's device pairing and then its command surface are
// approved from the page and the node is listed, connected, with its commands; the Exec node
// binding panel writes tools.exec.node and agents.entries.<id>.tools.exec.node into
// openclaw.json, and clearing an override removes the key. A node's host stats show as meters;
// rename and remove work from its row.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "./lib/harness.mjs";
import { startGateway, operator } from "./lib/gateway.mjs";
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

  test("host-stats meters, rename (a name that would select another node is refused) and remove", async () => {
    const page = await browser.page();
    await login(page, g.url, g.token);
    const op = await operator(g);
    // Two nodes, paired through the protocol this time.
    const pair = async (name) => {
      const first = await fakeNode(g, { name });
      const req = (await op.call("device.pair.list", {})).payload.pending.find((p) => p.deviceId === first.device.id);
      assert.equal((await op.call("device.pair.approve", { requestId: req.requestId })).ok, true);
      const n = await fakeNode(g, { name, device: first.device });
      const surface = (await op.call("node.pair.list", {})).payload.pending.find((p) => p.nodeId === first.device.id);
      assert.equal((await op.call("node.pair.approve", { requestId: surface.requestId })).ok, true);
      return n;
    };
    const a = await pair("stats-a");
    const b = await pair("stats-b");
    const stats = { cpuCount: 4, loadAverage: [3, 2, 1], memoryTotalBytes: 8 * 2 ** 30, memoryFreeBytes: 2 * 2 ** 30, diskTotalBytes: 100 * 2 ** 30, diskAvailableBytes: 25 * 2 ** 30 };
    assert.equal((await a.call("node.event", { event: "node.host.stats", payloadJSON: JSON.stringify(stats) })).ok, true);

    await page.click('nav a[data-page="nodes"]');
    const rowSel = `#nodes-body tr[data-node-id="${a.device.id}"]`;
    await page.waitForSelector(`${rowSel} meter[data-stat="load"]`, { timeout: 5000 });
    const meters = await page.$$eval(`${rowSel} meter`, (ms) => ms.map((m) => [m.dataset.stat, m.value, m.max]));
    assert.deepEqual(meters, [["load", 3, 4], ["memory", 6 * 2 ** 30, 8 * 2 ** 30], ["disk", 75 * 2 ** 30, 100 * 2 ** 30]]);
    assert.match(await page.textContent(rowSel), /3\.00 \/ 4 CPU/);
    await screenshot(page, "nodes-stats");

    // Rename a to "Lab Runner" from the page: node.list and the file keep the operator's name.
    await page.click(`${rowSel} button[aria-label^="Rename"]`);
    await page.fill(`${rowSel} td.node-name input`, "Lab Runner");
    await page.press(`${rowSel} td.node-name input`, "Enter");
    await page.waitForFunction((sel) => document.querySelector(sel)?.querySelector("td.node-name")?.textContent === "Lab Runner", rowSel);
    const listed = (await op.call("node.list", {})).payload.nodes.find((n) => n.nodeId === a.device.id);
    assert.equal(listed.displayName, "Lab Runner");
    const file = JSON.parse(readFileSync(join(g.state.dir, "gateway", "nodes.json"), "utf8"));
    assert.equal(file.nodes.find((n) => n.nodeId === a.device.id).displayName, "Lab Runner");
    // b cannot take a name that would select a (exec node="lab-runner" would then be ambiguous).
    const bRow = `#nodes-body tr[data-node-id="${b.device.id}"]`;
    await page.click(`${bRow} button[aria-label^="Rename"]`);
    await page.fill(`${bRow} td.node-name input`, "lab runner");
    await page.click(`${bRow} td.node-name button.primary`);
    await page.waitForFunction(() => /already used by node/.test(document.getElementById("nodes-result").textContent));
    assert.equal((await op.call("node.list", {})).payload.nodes.find((n) => n.nodeId === b.device.id).displayName, "stats-b");

    // Remove b: the first click only arms the button; the second unpairs and disconnects it.
    await page.click(`${bRow} button[aria-label^="Remove"]`);
    assert.equal(await page.textContent(`${bRow} button.danger`), "Confirm remove");
    assert.equal(b.closed(), null, "one click does not remove");
    await page.click(`${bRow} button.danger`);
    await page.waitForSelector(bRow, { state: "detached", timeout: 5000 });
    await b.waitClosed();
    assert.equal(b.closed().code, 1008);
    const devices = (await op.call("device.pair.list", {})).payload;
    assert.equal(devices.paired.some((d) => d.deviceId === b.device.id), false, "its device pairing is gone");
    const again = await fakeNode(g, { name: "stats-b", device: b.device });
    assert.equal(again.res.ok, false, "a removed node must pair again");
    assert.equal(again.res.error.details.code, "PAIRING_REQUIRED");
    assert.deepEqual(page.errors, []);
    for (const c of [a, again, op]) c.ws.close();
    await page.close();
  });
});
