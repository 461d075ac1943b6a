// The gateway's operator side: OpenClaw's WebSocket protocol at `/` (connect.challenge,
// connect with the shared token, hello-ok listing exactly our methods, scopes and the method
// policy, errors and close codes), and the exec approvals an MCP session of the gateway asks
// for, listed, read and resolved over it with the requested/resolved events; the same
// approval is on the operator channel for `clawexec approvals pending|resolve`.
import { describe, test, after, before } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { CLAWEXEC, sleep, waitFor, startServer } from "./lib/harness.mjs";
import { startGateway, openWs, connectParams as baseParams, operator as connectOperator } from "./lib/gateway.mjs";

let g;
before(async () => {
  g = await startGateway({
    config: { tools: { exec: { security: "allowlist", ask: "always" } } },
    env: { OPENCLAW_HANDSHAKE_TIMEOUT_MS: "1500" },
  });
});
after(async () => g && (await g.stop()));

const open = (url = g.wsUrl, options = {}) => openWs(url, options);
const connectParams = (extra = {}) => baseParams(g.token, extra);
// An operator client that shows approvals (cap exec-approvals), so the MCP sessions' approvals
// have a route and wait for it.
const operator = (scopes) => connectOperator(g, scopes, { caps: ["exec-approvals"] });

describe("operator WebSocket: handshake", () => {
  test("connect.challenge, then hello-ok with protocol 4, our methods, the granted scopes and the policy", async () => {
    const c = open();
    const challenge = await c.next((f) => f.event === "connect.challenge");
    assert.equal(challenge.type, "event");
    assert.match(challenge.payload.nonce, /^[0-9a-f-]{36}$/);
    assert.ok(Math.abs(challenge.payload.ts - Date.now()) < 5000);
    c.send({ type: "req", id: "1", method: "connect", params: connectParams() });
    const res = await c.next((f) => f.id === "1");
    assert.equal(res.ok, true);
    const hello = res.payload;
    assert.equal(hello.type, "hello-ok");
    assert.equal(hello.protocol, 4);
    assert.deepEqual(hello.features.methods, [
      "connect", "health", "status",
      "exec.approval.list", "exec.approval.get", "exec.approval.resolve", "exec.approval.request", "exec.approval.waitDecision",
      "device.pair.list", "device.pair.approve", "device.pair.reject", "device.pair.remove", "device.pair.rename",
      "device.token.rotate", "device.token.revoke",
      "exec.approvals.get", "exec.approvals.set", "config.get", "config.patch",
      "clawexec.sessions.list", "clawexec.sessions.log", "clawexec.sessions.follow", "clawexec.sessions.unfollow",
      "clawexec.sessions.write", "clawexec.sessions.sendKeys", "clawexec.sessions.submit", "clawexec.sessions.paste",
      "clawexec.sessions.kill", "clawexec.policy.explain", "clawexec.policy.presets", "clawexec.security.audit", "clawexec.doctor", "clawexec.doctor.fix",
      "node.list", "node.describe", "node.invoke", "node.invoke.result", "node.event",
      "node.pair.list", "node.pair.approve", "node.pair.reject", "node.pair.remove", "node.rename", "exec.approvals.node.get", "exec.approvals.node.set",
    ]);
    assert.ok(hello.features.events.includes("exec.approval.requested"));
    assert.deepEqual(hello.auth, { method: "token", role: "operator", scopes: ["operator.admin", "operator.approvals"] });
    assert.equal(hello.policy.maxPayload, 26214400);
    assert.ok(hello.server.connId);
    c.ws.close();
  });

  test("a wrong token, a protocol mismatch, an unknown connect field, a non-connect first frame and a device-less node are refused and closed", async () => {
    const cases = [
      [connectParams({ auth: { token: "wrong" } }), 1008, /unauthorized: gateway token mismatch/],
      [connectParams({ auth: undefined }), 1008, /gateway token missing/],
      [connectParams({ minProtocol: 5, maxProtocol: 5 }), 1002, /protocol mismatch/],
      [connectParams({ extra: true }), 1008, /unexpected property 'extra'/],
      [connectParams({ role: "node", scopes: [] }), 1008, /device identity required/],
      [connectParams({ role: "worker" }), 1008, /invalid role: "worker"/],
      [connectParams({ scopes: ["operator.root"] }), 1008, /unknown scope 'operator.root'/],
    ];
    for (const [params, code, message] of cases) {
      const c = open();
      await c.next((f) => f.event === "connect.challenge");
      c.send({ type: "req", id: "x", method: "connect", params: JSON.parse(JSON.stringify(params)) });
      const res = await c.next((f) => f.id === "x");
      assert.equal(res.ok, false);
      assert.match(res.error.message, message);
      assert.equal((await c.waitClosed()).code, code, JSON.stringify(params));
    }
    const c = open();
    await c.next((f) => f.event === "connect.challenge");
    c.send({ type: "req", id: "h", method: "health" });
    assert.equal((await c.waitClosed()).code, 1008);
  });

  test("no connect within the handshake timeout closes with 1008; an oversized pre-auth frame with 1009", async () => {
    const idle = open();
    await idle.next((f) => f.event === "connect.challenge");
    const closed = await idle.waitClosed();
    assert.equal(closed.code, 1008);
    assert.match(closed.reason, /handshake timeout/);
    const big = open();
    await big.next((f) => f.event === "connect.challenge");
    big.send("x".repeat(70 * 1024));
    assert.equal((await big.waitClosed()).code, 1009);
  });

  test("after hello a frame up to policy.maxPayload is read; one byte more closes with 1009", async () => {
    const c = await operator(["operator.read"]);
    const max = c.hello.policy.maxPayload;
    c.send(JSON.stringify({ type: "req", id: "big", method: "health", params: { pad: "x".repeat(max - 200) } }));
    const r = await c.next((f) => f.id === "big", "the large frame's answer");
    assert.equal(r.ok, true);
    c.send("y".repeat(max + 1));
    const closed = await c.waitClosed();
    assert.equal(closed.code, 1009);
  });

  test("a foreign Origin is refused before the upgrade", async () => {
    const c = open(g.wsUrl, { headers: { Origin: "https://evil.example" } });
    await c.waitClosed();
    assert.equal(c.frames.length, 0);
  });
});

describe("operator WebSocket: methods and approvals", () => {
  test("unknown methods, missing scopes, health and status", async () => {
    const c = await operator(["operator.read"]);
    let r = await c.call("nodes.list", {});
    assert.equal(r.ok, false);
    assert.equal(r.error.message, "unknown method: nodes.list");
    r = await c.call("exec.approval.list", {});
    assert.equal(r.ok, false);
    assert.equal(r.error.code, "FORBIDDEN");
    assert.equal(r.error.details.code, "MISSING_SCOPE");
    r = await c.call("health", {});
    assert.equal(r.ok, true);
    assert.equal(r.payload.ok, true);
    r = await c.call("status", {});
    assert.equal(r.ok, true);
    assert.ok(r.payload.uptimeMs >= 0);
    c.send("not json");
    const bad = await c.next((f) => f.ok === false && /invalid frame/.test(f.error?.message ?? ""));
    assert.ok(bad);
    c.ws.close();
  });

  test("an MCP session's approval is listed, read and resolved over the WebSocket, with events, and the command then runs", async () => {
    const op = await operator();
    const transport = new StreamableHTTPClientTransport(new URL(`${g.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${g.token}` } },
    });
    const client = new Client({ name: "gwop", version: "1" }, { capabilities: {} });
    const notifications = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => notifications.push(n.params));
    await client.connect(transport);
    const pending = await client.callTool({ name: "exec", arguments: { command: "echo approved-run" } });
    assert.match(pending.content[0].text, /Approval required/);
    const requested = await op.next((f) => f.event === "exec.approval.requested", "requested event");
    const id = requested.payload.id;
    assert.equal(requested.payload.approvalKind, "exec");
    assert.match(requested.payload.request.command, /echo approved-run/);
    let r = await op.call("exec.approval.list", {});
    assert.ok(r.payload.some((a) => a.id === id));
    r = await op.call("exec.approval.get", { id });
    assert.equal(r.payload.id, id);
    assert.match(r.payload.commandText, /echo approved-run/);
    assert.ok(r.payload.allowedDecisions.includes("allow-once"));
    // The operator channel has it too.
    const cli = spawnSync(CLAWEXEC, ["approvals", "pending", "--json"], { env: g.env, encoding: "utf8" });
    assert.equal(cli.status, 0, cli.stderr);
    assert.ok(JSON.parse(cli.stdout).some((a) => a.id === id));
    r = await op.call("exec.approval.resolve", { id: "nope", decision: "allow-once" });
    assert.equal(r.ok, false);
    assert.equal(r.error.message, "unknown or expired approval id");
    r = await op.call("exec.approval.resolve", { id, decision: "maybe" });
    assert.equal(r.ok, false);
    r = await op.call("exec.approval.resolve", { id, decision: "allow-once" });
    assert.equal(r.ok, true, JSON.stringify(r));
    const resolved = await op.next((f) => f.event === "exec.approval.resolved" && f.payload.id === id, "resolved event");
    assert.equal(resolved.payload.decision, "allow-once");
    const done = await waitFor(() => notifications.find((n) => /approved-run/.test(n.data)), 10000, "the approved run's completion");
    assert.match(done.data, /Exec finished|Exec completed/);
    await client.close();
    op.ws.close();
  });

  test("an approver with operator.approvals alone sees and gets the MCP sessions' approvals; operator.read gets no events", async () => {
    const approver = await operator(["operator.approvals"]);
    const reader = await operator(["operator.read"]);
    const transport = new StreamableHTTPClientTransport(new URL(`${g.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${g.token}` } },
    });
    const client = new Client({ name: "gwop2", version: "1" }, { capabilities: {} });
    await client.connect(transport);
    await client.callTool({ name: "exec", arguments: { command: "echo for-the-approver" } });
    const requested = await approver.next((f) => f.event === "exec.approval.requested", "requested event");
    const r = await approver.call("exec.approval.list", {});
    assert.ok(r.payload.some((a) => a.id === requested.payload.id));
    const denied = await approver.call("exec.approval.resolve", { id: requested.payload.id, decision: "deny" });
    assert.equal(denied.ok, true);
    await sleep(300);
    assert.ok(!reader.frames.some((f) => f.event?.startsWith("exec.approval.")), "operator.read is not an approval client");
    await client.close();
    approver.ws.close();
    reader.ws.close();
  });
});

describe("operator WebSocket: load", () => {
  test("1000 idle authenticated WebSocket connections are held, and the gateway still answers", async () => {
    const sockets = [];
    for (let batch = 0; batch < 10; batch++) sockets.push(...(await Promise.all(Array.from({ length: 100 }, () => operator(["operator.read"])))));
    await sleep(2000);  // longer than the handshake timeout: authenticated connections stay
    const op = await operator(["operator.read"]);
    const r = await op.call("health", {});
    assert.equal(r.ok, true);
    assert.ok(sockets.every((s) => s.closed() === null), "none was dropped");
    for (const s of sockets) s.ws.terminate();
    op.ws.close();
  });
});

describe("operator WebSocket: the no-route rule for the MCP sessions' approvals", () => {
  test("with no client that shows approvals an MCP exec takes askFallback at once; with one it waits for it", async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${g.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${g.token}` } } });
    const client = new Client({ name: "noroute", version: "1" }, { capabilities: {} });
    await client.connect(transport);
    let r = await client.callTool({ name: "exec", arguments: { command: "echo no-route-run" } });
    assert.match(r.content[0].text, /^exec denied: Headless runs cannot wait for interactive exec approval\./);
    // An operator without approval capabilities (OpenClaw's CLI) is no route either.
    const cli = await connectOperator(g, ["operator.admin"]);
    r = await client.callTool({ name: "exec", arguments: { command: "echo no-route-run" } });
    assert.match(r.content[0].text, /^exec denied: Headless runs/);
    const ui = await operator(["operator.approvals"]);
    r = await client.callTool({ name: "exec", arguments: { command: "echo routed-run" } });
    assert.match(r.content[0].text, /Approval required/);
    const requested = await ui.next((f) => f.event === "exec.approval.requested" && /routed-run/.test(f.payload.request.command));
    assert.equal((await ui.call("exec.approval.resolve", { id: requested.payload.id, decision: "deny" })).ok, true);
    await client.close();
    cli.ws.close();
    ui.ws.close();
  });
});

describe("operator WebSocket: exec.approval.request and waitDecision", () => {
  const requesterParams = (extra = {}) => connectParams({ scopes: ["operator.admin"], ...extra });
  async function client(params) {
    const c = open();
    await c.next((f) => f.event === "connect.challenge");
    c.send({ type: "req", id: "c1", method: "connect", params });
    const hello = await c.next((f) => f.id === "c1");
    assert.equal(hello.ok, true, JSON.stringify(hello));
    let n = 0;
    c.request = (method, params) => {
      const id = `q${++n}`;
      c.send({ type: "req", id, method, params });
      return id;
    };
    c.answers = (id) => c.frames.filter((f) => f.type === "res" && f.id === id);
    return c;
  }

  test("with no client that shows approvals the request expires at once (no-route)", async () => {
    const requester = await client(requesterParams());
    const q = requester.request("exec.approval.request", { command: "rm -rf /tmp/x", host: "gateway", twoPhase: true });
    const res = await requester.next((f) => f.id === q);
    assert.equal(res.ok, true, JSON.stringify(res));
    assert.equal(res.payload.decision, null);
    await sleep(200);
    assert.equal(requester.answers(q).length, 1, "no 'accepted' answer when there is no route");
    const wq = requester.request("exec.approval.waitDecision", { id: res.payload.id });
    const waited = await requester.next((f) => f.id === wq);
    assert.equal(waited.payload.terminalReason, "no-route");
    assert.equal(waited.payload.decision, null);
    requester.ws.close();
  });

  test("twoPhase: accepted, delivered (escaped) to an approval client, resolved, then the decision under the same id", async () => {
    const approver = await client(connectParams({ scopes: ["operator.admin"], caps: ["exec-approvals"] }));
    const bystander = await client(connectParams({ scopes: ["operator.approvals"], caps: ["exec-approvals"] }));
    const requester = await client(requesterParams());
    const q = requester.request("exec.approval.request", {
      command: "echo \u001b[2Jhidden",
      cwd: "/tmp",
      host: "gateway",
      ask: "always",
      agentId: "main",
      env: { SECRET_TOKEN: "v" },
      twoPhase: true,
      timeoutMs: 60000,
    });
    const accepted = await requester.next((f) => f.id === q);
    assert.equal(accepted.payload.status, "accepted", JSON.stringify(accepted));
    assert.equal(accepted.payload.deliveryRoute, "approval-client");
    const id = accepted.payload.id;
    const event = await approver.next((f) => f.event === "exec.approval.requested" && f.payload.id === id, "requested");
    assert.equal(event.payload.request.command, "echo \\e[2Jhidden", "the escape is shown, not obeyed");
    assert.deepEqual(event.payload.request.allowedDecisions, ["allow-once", "deny"]);
    assert.deepEqual(event.payload.request.envKeys, ["SECRET_TOKEN"]);
    assert.ok(!JSON.stringify(event.payload).includes('"v"'), "env values are not sent");
    await sleep(200);
    assert.ok(!bystander.frames.some((f) => f.event === "exec.approval.requested" && f.payload.id === id), "a non-admin approver does not see another connection's request");
    assert.ok(!requester.frames.some((f) => f.event === "exec.approval.requested" && f.payload.id === id), "nor does the requester");
    // The operator channel (clawexec approvals) has it too.
    const cli = spawnSync(CLAWEXEC, ["approvals", "pending", "--json"], { env: g.env, encoding: "utf8" });
    assert.ok(JSON.parse(cli.stdout).some((a) => a.id === id), cli.stdout + cli.stderr);
    const wq = bystander.request("exec.approval.waitDecision", { id });
    assert.equal((await bystander.next((f) => f.id === wq)).error.message, "approval expired or not found");
    const aw = approver.request("exec.approval.waitDecision", { id });
    const notAllowed = approver.request("exec.approval.resolve", { id, decision: "allow-always" });
    assert.match((await approver.next((f) => f.id === notAllowed)).error.message, /not allowed/);
    const rq = approver.request("exec.approval.resolve", { id, decision: "allow-once" });
    assert.equal((await approver.next((f) => f.id === rq)).ok, true);
    const final = await waitFor(() => requester.answers(q)[1], 5000, "the second answer");
    assert.equal(final.payload.id, id);
    assert.equal(final.payload.decision, "allow-once");
    const waited = await approver.next((f) => f.id === aw);
    assert.equal(waited.payload.decision, "allow-once");
    assert.equal(waited.payload.terminalReason, "user");
    const resolved = await approver.next((f) => f.event === "exec.approval.resolved" && f.payload.id === id);
    assert.equal(resolved.payload.decision, "allow-once");
    for (const c of [approver, bystander, requester]) c.ws.close();
  });

  test("an unanswered request times out; `clawexec approvals resolve` settles one; bad requests are refused", async () => {
    const approver = await client(connectParams({ scopes: ["operator.approvals"], client: { id: "openclaw-control-ui", version: "t", platform: "linux", mode: "ui" } }));
    const requester = await client(requesterParams());
    // The Control UI is an approval client; the request is not visible to it (not admin, another
    // connection), so there is no route for it.
    let q = requester.request("exec.approval.request", { command: "true", timeoutMs: 300 });
    assert.equal((await requester.next((f) => f.id === q)).payload.decision, null);
    const admin = await client(connectParams({ scopes: ["operator.admin"], client: { id: "openclaw-control-ui", version: "t", platform: "linux", mode: "ui" } }));
    q = requester.request("exec.approval.request", { command: "true", timeoutMs: 300 });
    const timed = await requester.next((f) => f.id === q, "timeout answer");
    assert.equal(timed.payload.decision, null);
    const wq = requester.request("exec.approval.waitDecision", { id: timed.payload.id });
    assert.equal((await requester.next((f) => f.id === wq)).payload.terminalReason, "timeout");

    q = requester.request("exec.approval.request", { id: "from-cli-1", commandArgv: ["ls", "-la", "my dir"] });
    const seen = await admin.next((f) => f.event === "exec.approval.requested" && f.payload.id === "from-cli-1");
    assert.equal(seen.payload.request.command, "ls -la 'my dir'");
    const cli = spawnSync(CLAWEXEC, ["approvals", "resolve", "from-cli-1", "deny"], { env: g.env, encoding: "utf8" });
    assert.equal(cli.status, 0, cli.stdout + cli.stderr);
    assert.equal((await requester.next((f) => f.id === q)).payload.decision, "deny");

    const bad = [
      [{ command: "x", bogus: 1 }, /unexpected property 'bogus'/],
      [{ host: "gateway" }, /^command is required$/],
      [{ id: "plugin:x", command: "x" }, /approval ids starting with plugin: are reserved/],
      [{ host: "node", command: "x" }, /nodeId is required for host=node/],
      [{ host: "node", nodeId: "n1", command: "x" }, /systemRunPlan is required for host=node/],
      [{ command: "x", timeoutMs: 0 }, /timeoutMs must be an integer >= 1/],
    ];
    for (const [params, message] of bad) {
      const id = requester.request("exec.approval.request", params);
      const r = await requester.next((f) => f.id === id);
      assert.equal(r.ok, false, JSON.stringify(params));
      assert.match(r.error.message, message);
    }
    q = requester.request("exec.approval.request", { id: "dup-1", command: "x", requireDeliveryRoute: false, timeoutMs: 60000 });
    const dup = requester.request("exec.approval.request", { id: "dup-1", command: "y" });
    assert.equal((await requester.next((f) => f.id === dup)).error.message, "approval id already pending");
    for (const c of [approver, requester, admin]) c.ws.close();
  });
});

describe("operator WebSocket: the machine's other clawexec processes", () => {
  test("a `clawexec serve` approval appears on the gateway, is resolved there, and its command runs", async () => {
    const op = await operator();
    const serve = await startServer({ stateDir: g.state.dir });
    try {
      const pending = await serve.call("exec", { command: "echo from-serve-approved" });
      assert.match(pending.text, /Approval required/);
      const id = pending.details.approvalId;
      const requested = await op.next((f) => f.event === "exec.approval.requested" && f.payload.id === id, "the serve approval on the WebSocket");
      assert.match(requested.payload.request.command, /from-serve-approved/);
      let r = await op.call("exec.approval.list", {});
      assert.ok(r.payload.some((a) => a.id === id), JSON.stringify(r.payload));
      r = await op.call("exec.approval.get", { id });
      assert.match(r.payload.commandText, /from-serve-approved/);
      r = await op.call("exec.approval.resolve", { id, decision: "allow-once" });
      assert.equal(r.ok, true, JSON.stringify(r));
      const resolved = await op.next((f) => f.event === "exec.approval.resolved" && f.payload.id === id, "resolved");
      assert.equal(resolved.payload.decision, "allow-once");
      await waitFor(() => serve.notifications.find((n) => /from-serve-approved/.test(n.data)), 10000, "the serve's approved run");
      r = await op.call("exec.approval.list", {});
      assert.ok(!r.payload.some((a) => a.id === id), "gone once resolved");
    } finally {
      await serve.close().catch(() => {});
      op.ws.close();
    }
  });
});
