// Device identity and pairing on the gateway's operator WebSocket, against real Ed25519 keys
// signed the way OpenClaw's node host and Control UI sign: a new device gets NOT_PAIRED with a
// pending request that operators see (device.pair.requested/list), approval by the rules of
// the reference (a node needs operator.admin), the device token in hello-ok and accepted alone
// on reconnect (also after a gateway restart), rotate/revoke/remove cutting the device off, a
// forged, replayed, stale or re-targeted proof refused with OpenClaw's codes, and loopback
// auto-approval following gateway.nodes.pairing.autoApproveLocal.
import { describe, test, after, before } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { sleep } from "./lib/harness.mjs";
import { startGateway, connect, operator, makeDevice, deviceConnect } from "./lib/gateway.mjs";

let g;
before(async () => {
  g = await startGateway({ config: { gateway: { nodes: { pairing: { autoApproveLocal: false } } } } });
});
after(async () => g && (await g.stop()));

const nodeConnect = (device, opts = {}) => connect(g.wsUrl, (ch) => deviceConnect(device, ch, { auth: { token: g.token }, ...opts }));

/** Pairs `device` as a node through an admin operator; returns the issued device token. */
async function pairNode(device) {
  const first = await nodeConnect(device);
  assert.equal(first.res.error?.code, "NOT_PAIRED", JSON.stringify(first.res));
  const admin = await operator(g, ["operator.admin"]);
  const r = await admin.call("device.pair.approve", { requestId: first.res.error.details.requestId });
  assert.equal(r.ok, true, JSON.stringify(r));
  admin.ws.close();
  const again = await nodeConnect(device);
  assert.equal(again.res.ok, true, JSON.stringify(again.res));
  again.ws.close();
  return again.hello.auth.deviceToken;
}

describe("device pairing", () => {
  test("an unknown node device is NOT_PAIRED, operators see the request, a pairing-only operator may not approve it, admin may", async () => {
    const pairing = await operator(g, ["operator.pairing"]);
    const device = makeDevice();
    const c = await nodeConnect(device);
    assert.equal(c.res.ok, false);
    assert.equal(c.res.error.code, "NOT_PAIRED");
    assert.equal(c.res.error.message, "pairing required: device is not approved yet");
    const details = c.res.error.details;
    assert.equal(details.code, "PAIRING_REQUIRED");
    assert.equal(details.reason, "not-paired");
    assert.equal(details.deviceId, device.id);
    assert.equal(details.requestedRole, "node");
    assert.equal(details.remediationHint, "Approve this device from the pending pairing requests.");
    const closed = await c.waitClosed();
    assert.equal(closed.code, 1008);
    assert.equal(closed.reason, `pairing required: device is not approved yet (requestId: ${details.requestId})`);

    const event = await pairing.next((f) => f.event === "device.pair.requested", "device.pair.requested");
    assert.equal(event.payload.requestId, details.requestId);
    let list = await pairing.call("device.pair.list", {});
    const pending = list.payload.pending.find((p) => p.requestId === details.requestId);
    assert.deepEqual(Object.keys(pending).sort(), [
      "clientId", "clientMode", "deviceFamily", "deviceId", "displayName", "isRepair", "platform", "publicKey",
      "requestId", "role", "roles", "scopes", "silent", "ts",
    ]);
    assert.equal(pending.publicKey, device.publicKey);
    assert.equal(pending.clientId, "node-host");
    assert.deepEqual(pending.roles, ["node"]);
    assert.equal(pending.silent, false);

    // A second connect while pending refreshes the same request.
    const repeat = await nodeConnect(device);
    assert.equal(repeat.res.error.details.requestId, details.requestId);

    const denied = await pairing.call("device.pair.approve", { requestId: details.requestId });
    assert.equal(denied.ok, false);
    assert.equal(denied.error.message, "device pairing approval denied");

    const admin = await operator(g, ["operator.admin"]);
    const approved = await admin.call("device.pair.approve", { requestId: details.requestId });
    assert.equal(approved.ok, true, JSON.stringify(approved));
    assert.equal(approved.payload.device.deviceId, device.id);
    assert.equal(approved.payload.device.approvedVia, "owner");
    assert.deepEqual(approved.payload.device.tokens.map((t) => [t.role, t.scopes]), [["node", []]]);
    assert.ok(!JSON.stringify(approved.payload).includes('"token":'), "no token string in the answer");
    const resolved = await pairing.next((f) => f.event === "device.pair.resolved" && f.payload.requestId === details.requestId, "resolved");
    assert.equal(resolved.payload.decision, "approved");
    assert.equal((await admin.call("device.pair.approve", { requestId: details.requestId })).error.message, "unknown requestId");

    // Now the node connects, gets its device token, and reconnects with it alone.
    const live = await nodeConnect(device);
    assert.equal(live.res.ok, true, JSON.stringify(live.res));
    assert.equal(live.hello.auth.role, "node");
    assert.equal(live.hello.auth.method, "token");
    const token = live.hello.auth.deviceToken;
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.ok(live.hello.auth.issuedAtMs > 0);
    list = await admin.call("device.pair.list", {});
    assert.equal(list.payload.paired.find((d) => d.deviceId === device.id).connected, true);
    live.ws.close();
    const byToken = await nodeConnect(device, { auth: { deviceToken: token } });
    assert.equal(byToken.res.ok, true, JSON.stringify(byToken.res));
    assert.equal(byToken.hello.auth.method, "device-token");
    assert.equal(byToken.hello.auth.deviceToken, token);
    byToken.ws.close();
    const wrong = await nodeConnect(device, { auth: { deviceToken: "x".repeat(43) } });
    assert.equal(wrong.res.error.message, "unauthorized: device token mismatch");
    assert.equal(wrong.res.error.details.code, "AUTH_DEVICE_TOKEN_MISMATCH");
    assert.equal((await wrong.waitClosed()).code, 1008);
    // Another device cannot use this device's token.
    const thief = await nodeConnect(makeDevice(), { auth: { deviceToken: token } });
    assert.equal(thief.res.error.details.code, "AUTH_DEVICE_TOKEN_MISMATCH");

    const file = join(g.state.dir, "gateway", "devices.json");
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.ok(JSON.parse(readFileSync(file, "utf8")).paired.some((d) => d.deviceId === device.id));
    pairing.ws.close();
    admin.ws.close();
  });

  test("reject drops the request; remove, rotate and revoke cut the device off", async () => {
    const admin = await operator(g, ["operator.admin"]);
    const rejected = makeDevice();
    const first = await nodeConnect(rejected);
    const requestId = first.res.error.details.requestId;
    const r = await admin.call("device.pair.reject", { requestId });
    assert.deepEqual(r.payload, { requestId, deviceId: rejected.id });
    const ev = await admin.next((f) => f.event === "device.pair.resolved" && f.payload.requestId === requestId, "rejected event");
    assert.equal(ev.payload.decision, "rejected");
    let list = await admin.call("device.pair.list", {});
    assert.ok(!list.payload.pending.some((p) => p.requestId === requestId));
    assert.ok(!list.payload.paired.some((d) => d.deviceId === rejected.id));

    const device = makeDevice();
    const token = await pairNode(device);
    const live = await nodeConnect(device, { auth: { deviceToken: token } });
    assert.equal(live.res.ok, true);
    const rotated = await admin.call("device.token.rotate", { deviceId: device.id, role: "node" });
    assert.equal(rotated.ok, true, JSON.stringify(rotated));
    assert.equal(rotated.payload.tokenDelivery, "withheld-cross-device");
    assert.equal(rotated.payload.token, undefined);
    assert.equal((await live.waitClosed()).code, 1008, "the live connection of a rotated token is closed");
    const stale = await nodeConnect(device, { auth: { deviceToken: token } });
    assert.equal(stale.res.error.details.code, "AUTH_DEVICE_TOKEN_MISMATCH", "the old token no longer works");
    const fresh = await nodeConnect(device);
    assert.equal(fresh.res.ok, true);
    const newToken = fresh.hello.auth.deviceToken;
    assert.notEqual(newToken, token);
    fresh.ws.close();

    const revoked = await admin.call("device.token.revoke", { deviceId: device.id, role: "node" });
    assert.equal(revoked.ok, true, JSON.stringify(revoked));
    assert.ok(revoked.payload.revokedAtMs > 0);
    const afterRevoke = await nodeConnect(device, { auth: { deviceToken: newToken } });
    assert.equal(afterRevoke.res.error.details.code, "AUTH_DEVICE_TOKEN_MISMATCH");

    const removeMe = await nodeConnect(device);  // shared token: a fresh token is issued again
    assert.equal(removeMe.res.ok, true);
    const removed = await admin.call("device.pair.remove", { deviceId: device.id });
    assert.deepEqual(removed.payload, { deviceId: device.id });
    assert.equal((await removeMe.waitClosed()).code, 1008);
    const unpaired = await nodeConnect(device);
    assert.equal(unpaired.res.error.details.reason, "not-paired");
    assert.equal((await admin.call("device.pair.remove", { deviceId: device.id })).error.message, "unknown deviceId");
    assert.equal((await admin.call("device.pair.approve", {})).error.message, "invalid device.pair.approve params: requestId (non-empty string) is required");
    const reader = await operator(g, ["operator.read"]);
    const forbidden = await reader.call("device.pair.list", {});
    assert.equal(forbidden.error.details.missingScope, "operator.pairing");
    reader.ws.close();
    admin.ws.close();
  });

  test("forged, replayed, stale and re-targeted device proofs are refused with OpenClaw's codes", async () => {
    const device = makeDevice();
    const cases = [
      [(d, ch) => deviceConnect(d, ch, { auth: { token: g.token }, override: { id: "0".repeat(64) } }), "DEVICE_AUTH_DEVICE_ID_MISMATCH", "device identity mismatch"],
      [(d, ch) => deviceConnect(d, ch, { auth: { token: g.token }, signedAt: ch.ts - 121000 }), "DEVICE_AUTH_SIGNATURE_EXPIRED", "device signature expired"],
      [(d, ch) => deviceConnect(d, ch, { auth: { token: g.token }, nonce: "" }), "DEVICE_AUTH_NONCE_REQUIRED", "device nonce required"],
      // a proof made for another connection's challenge
      [(d, ch) => deviceConnect(d, ch, { auth: { token: g.token }, nonce: "7c1a1f6e-0000-4000-8000-000000000000" }), "DEVICE_AUTH_NONCE_MISMATCH", "device nonce mismatch"],
      // signed as an operator, presented as a node
      [(d, ch) => deviceConnect(d, ch, { auth: { token: g.token }, signRole: "operator" }), "DEVICE_AUTH_SIGNATURE_INVALID", "device signature invalid"],
      // another key's signature
      [(d, ch) => ({ ...deviceConnect(d, ch, { auth: { token: g.token } }), device: { ...deviceConnect(d, ch, { auth: { token: g.token } }).device, signature: deviceConnect(makeDevice(), ch, { auth: { token: g.token } }).device.signature } }), "DEVICE_AUTH_SIGNATURE_INVALID", "device signature invalid"],
    ];
    for (const [build, code, message] of cases) {
      const c = await connect(g.wsUrl, (ch) => build(device, ch));
      assert.equal(c.res.ok, false);
      assert.equal(c.res.error.code, "INVALID_REQUEST");
      assert.equal(c.res.error.details.code, code);
      assert.equal(c.res.error.message, message);
      const closed = await c.waitClosed();
      assert.equal(closed.code, 1008);
      assert.equal(closed.reason, message);
    }
    // A v2 proof (what OpenClaw's Control UI signs) is accepted as far as pairing.
    const v2 = await connect(g.wsUrl, (ch) => deviceConnect(device, ch, { auth: { token: g.token }, version: 2 }));
    assert.equal(v2.res.error.details.code, "PAIRING_REQUIRED");
    // A protocol-3 node is accepted as a node; a protocol-3 operator is not.
    const v3node = await connect(g.wsUrl, (ch) => deviceConnect(device, ch, { auth: { token: g.token }, minProtocol: 3 }));
    assert.equal(v3node.res.error.details.code, "PAIRING_REQUIRED");
  });

  test("an operator device: scopes within its approval connect by device token, more scopes need a new approval, and it sees only itself", async () => {
    const ui = makeDevice();
    const client = { id: "openclaw-control-ui", version: "test", platform: "Linux x86_64", mode: "ui" };
    const asOperator = (scopes, auth) =>
      connect(g.wsUrl, (ch) => deviceConnect(ui, ch, { role: "operator", scopes, client, auth, version: 2 }));
    const first = await asOperator(["operator.read", "operator.pairing"], { token: g.token });
    assert.equal(first.res.error.details.reason, "not-paired");
    // An approver lacking a scope it would grant is refused; one holding them all may approve.
    const weak = await operator(g, ["operator.pairing"]);
    const denied = await weak.call("device.pair.approve", { requestId: first.res.error.details.requestId });
    assert.equal(denied.ok, false);
    assert.equal(denied.error.message, "missing scope: operator.read");
    weak.ws.close();
    const enough = await operator(g, ["operator.pairing", "operator.read"]);
    const approved = await enough.call("device.pair.approve", { requestId: first.res.error.details.requestId });
    assert.equal(approved.ok, true, JSON.stringify(approved));
    enough.ws.close();
    const live = await asOperator(["operator.read", "operator.pairing"], { token: g.token });
    assert.equal(live.res.ok, true, JSON.stringify(live.res));
    const token = live.hello.auth.deviceToken;
    live.ws.close();
    const byToken = await asOperator(["operator.read"], { deviceToken: token });
    assert.equal(byToken.res.ok, true, JSON.stringify(byToken.res));
    assert.equal(byToken.hello.auth.method, "device-token");
    // It sees its own device only (another node device is paired from the first test).
    const mine = await byToken.call("device.pair.list", {});
    assert.equal(mine.ok, false, "operator.read is not operator.pairing");
    byToken.ws.close();
    const pairingByToken = await asOperator(["operator.pairing"], { deviceToken: token });
    const own = await pairingByToken.call("device.pair.list", {});
    assert.deepEqual(own.payload.paired.map((d) => d.deviceId), [ui.id]);
    const other = await pairingByToken.call("device.token.revoke", { deviceId: "f".repeat(64), role: "operator" });
    assert.equal(other.error.message, "device token revocation denied");
    // Its own token, rotated by itself, is delivered in band.
    const self = await pairingByToken.call("device.token.rotate", { deviceId: ui.id, role: "operator", scopes: ["operator.pairing"] });
    assert.equal(self.ok, true, JSON.stringify(self));
    assert.equal(self.payload.tokenDelivery, "in-band");
    assert.match(self.payload.token, /^[A-Za-z0-9_-]{43}$/);
    const escalate = await asOperator(["operator.admin"], { token: g.token });
    assert.equal(escalate.res.error.details.reason, "scope-upgrade");
    assert.equal(escalate.res.error.message, "pairing required: device is asking for more scopes than currently approved");
    const onlyToken = await asOperator(["operator.admin"], { deviceToken: self.payload.token });
    assert.equal(onlyToken.res.error.details.reason, "scope-upgrade");
  });

  test("device tokens survive a gateway restart", async () => {
    const device = makeDevice();
    const token = await pairNode(device);
    await g.stop({ keepState: true });
    g = await startGateway({ state: g.state });
    const back = await connect(g.wsUrl, (ch) => deviceConnect(device, ch, { auth: { deviceToken: token } }));
    assert.equal(back.res.ok, true, JSON.stringify(back.res));
    assert.equal(back.hello.auth.method, "device-token");
    back.ws.close();
  });
});

describe("loopback auto-approval (gateway.nodes.pairing.autoApproveLocal, default on)", () => {
  test("a loopback node is approved silently and at once; a browser Origin is not", async () => {
    const auto = await startGateway({});
    try {
      const watcher = await operator(auto, ["operator.pairing"]);
      const device = makeDevice();
      const c = await connect(auto.wsUrl, (ch) => deviceConnect(device, ch, { auth: { token: auto.token } }));
      assert.equal(c.res.ok, true, JSON.stringify(c.res));
      assert.match(c.hello.auth.deviceToken, /^[A-Za-z0-9_-]{43}$/);
      const list = await watcher.call("device.pair.list", {});
      const paired = list.payload.paired.find((d) => d.deviceId === device.id);
      assert.equal(paired.approvedVia, "silent");
      const resolved = await watcher.next((f) => f.event === "device.pair.resolved" && f.payload.deviceId === device.id, "resolved");
      assert.equal(resolved.payload.decision, "approved");
      c.ws.close();
      // A browser (an Origin header, even a loopback one) is never approved silently.
      const browser = makeDevice();
      const fromPage = await connect(auto.wsUrl, (ch) => deviceConnect(browser, ch, { auth: { token: auto.token } }), {
        headers: { Origin: auto.url },
      });
      assert.equal(fromPage.res.error?.details?.code, "PAIRING_REQUIRED", JSON.stringify(fromPage.res));
      watcher.ws.close();
      await sleep(50);
    } finally {
      await auto.stop();
    }
  });
});

describe("the failed-auth limiter on the WebSocket", () => {
  test("wrong, missing and device tokens count; then the upgrade gets 429, and so does MCP with the right token", async () => {
    const lim = await startGateway({ config: { gateway: { auth: { rateLimit: { maxAttempts: 3, windowMs: 60000, lockoutMs: 60000, exemptLoopback: false } } } } });
    try {
      const wrong = { minProtocol: 4, maxProtocol: 4, client: { id: "cli", version: "t", platform: "linux", mode: "cli" }, role: "operator", scopes: ["operator.read"], auth: { token: "nope" } };
      let c = await connect(lim.wsUrl, wrong);
      assert.equal(c.res.error.details.code, "AUTH_TOKEN_MISMATCH");
      c = await connect(lim.wsUrl, (ch) => deviceConnect(makeDevice(), ch, { auth: { deviceToken: "x".repeat(43) } }));
      assert.equal(c.res.error.details.code, "AUTH_DEVICE_TOKEN_MISMATCH");
      c = await connect(lim.wsUrl, { ...wrong, auth: {} });
      assert.equal(c.res.error.details.code, "AUTH_TOKEN_MISSING");
      // Locked out now. The upgrade itself is refused.
      const ws = (await import("ws")).default;
      const status = await new Promise((resolve) => {
        const s = new ws(lim.wsUrl);
        s.on("unexpected-response", (_req, res) => resolve(res.statusCode));
        s.on("open", () => resolve(101));
        s.on("error", () => {});
      });
      assert.equal(status, 429);
      // And an MCP request with the right token too (one limiter for the whole gateway).
      const r = await fetch(`${lim.url}/mcp`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${lim.token}` }, body: "{}" });
      assert.equal(r.status, 429);
    } finally {
      await lim.stop();
    }
  });
});
