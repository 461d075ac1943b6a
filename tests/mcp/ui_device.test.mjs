// The control UI from another machine: the gateway bound to all interfaces and the page opened
// at a non-loopback address of this machine (the test's own veth, lib/netns.mjs, so every
// machine has one), so the gateway sees a remote peer. The page's
// device-less connect is refused (device identity required), it connects again with its
// WebCrypto Ed25519 device (signed v2 proof, key in IndexedDB), shows "Pairing pending" with the
// request, and once an operator approves that request on the Nodes page of a loopback UI it is
// in, as a paired openclaw-control-ui device; a later tab logs in with the device token alone,
// until it is revoked. (Chromium treats the address as a secure origin through a flag, as
// https would be.)
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startGateway, operator } from "./lib/gateway.mjs";
import { launchBrowser, login, screenshot } from "./lib/browser.mjs";
import { makeLan } from "./lib/netns.mjs";

let g;
let lan;
let browser;
let remoteUrl;
before(async () => {
  lan = makeLan([]);
  g = await startGateway({ config: { gateway: { bind: "lan" } } });
  remoteUrl = `http://${lan.clientIp}:${new URL(g.url).port}`;
  browser = await launchBrowser({ args: [`--unsafely-treat-insecure-origin-as-secure=${remoteUrl}`] });
});
after(async () => {
  await browser?.close();
  await g?.stop();
  lan?.down();
});

describe("control UI from another machine", () => {
  test("the browser's device asks for pairing; approved on the Nodes page, the page gets in", async () => {
    const remote = await browser.page();
    await remote.goto(`${remoteUrl}/`);
    await remote.fill("#secret", g.token);
    await remote.click("#login-submit");
    await remote.waitForSelector('#login-error[data-kind="pairing"]:not([hidden])');
    const text = await remote.textContent("#login-error-text");
    assert.match(text, /pairing required/);
    const requestId = /request ([0-9a-f-]+)/.exec(text)[1];
    const deviceId = /device ([0-9a-f]{64})/.exec(text)[1];
    await screenshot(remote, "login-pairing-pending");

    const local = await browser.page();
    await login(local, g.url, g.token);
    await local.click('nav a[data-page="nodes"]');
    const card = await local.waitForSelector(`#pending-pairings li[data-request-id="${requestId}"]`, { timeout: 5000 });
    assert.match(await card.textContent(), new RegExp(deviceId));
    await card.$eval("button.primary", (b) => b.click());

    await remote.waitForSelector("#page-approvals:not([hidden])", { timeout: 15000 });
    assert.match(await remote.textContent("#conn-state"), /connected/);
    const admin = await operator(g, ["operator.pairing"]);
    const list = await admin.call("device.pair.list", {});
    const paired = list.payload.paired.find((d) => d.deviceId === deviceId);
    assert.ok(paired, JSON.stringify(list.payload));
    assert.equal(paired.clientId, "openclaw-control-ui");
    assert.equal(paired.connected, true);
    // The private key never left WebCrypto: IndexedDB holds a non-extractable CryptoKey.
    const extractable = await remote.evaluate(async () => {
      const db = await new Promise((resolve, reject) => {
        const r = indexedDB.open("clawexec-control", 1);
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
      const saved = await new Promise((resolve) => {
        const r = db.transaction("identity").objectStore("identity").get("device");
        r.onsuccess = () => resolve(r.result);
      });
      return { type: saved.privateKey.type, extractable: saved.privateKey.extractable, algorithm: saved.privateKey.algorithm.name };
    });
    assert.deepEqual(extractable, { type: "private", extractable: false, algorithm: "Ed25519" });
    assert.deepEqual(remote.errors, []);

    // A later visit (a new tab: no secret in its sessionStorage) logs in with the device token
    // the gateway issued, signed by the same key.
    const again = await browser.page();
    await again.goto(`${remoteUrl}/`);
    await again.waitForSelector("#page-approvals:not([hidden])", { timeout: 10000 });
    assert.equal(await again.evaluate(() => sessionStorage.length), 0, "no secret was needed");
    assert.match(await again.textContent("#conn-state"), /connected/);
    // Revoked, the token is refused and forgotten: the next visit asks for the secret.
    // (The token holds admin scopes: only an admin may revoke it.)
    const owner = await operator(g);
    const revoke = await owner.call("device.token.revoke", { deviceId, role: "operator" });
    assert.equal(revoke.ok, true, JSON.stringify(revoke));
    owner.ws.close();
    const after = await browser.page();
    await after.goto(`${remoteUrl}/`);
    await after.waitForFunction(() => !document.getElementById("page-login").hidden);
    await after.waitForFunction(async () => {
      const db = await new Promise((resolve) => {
        const r = indexedDB.open("clawexec-control", 1);
        r.onsuccess = () => resolve(r.result);
      });
      const t = await new Promise((resolve) => {
        const r = db.transaction("identity").objectStore("identity").get("deviceToken");
        r.onsuccess = () => resolve(r.result);
      });
      return t === undefined;
    }, null, { timeout: 10000 });
    assert.deepEqual(again.errors, []);
    admin.ws.close();
  });
});
