// `clawexec node run` against `clawexec gateway` (autoApproveLocal off): the node host is a
// real process with its own state directory. It pairs (PAIRING_REQUIRED, then device approval
// and the command-surface approval over the operator WebSocket) and goes live without being
// restarted; `exec host=node` through MCP then runs on it: output, a non-zero exit, a timeout
// (the command's process tree is gone afterwards), a blocked env key refused by the node, the
// node's own approvals read and written through the gateway (base hash enforced) and obeyed,
// a gateway restart the node survives, and a node host killed mid-command (the call fails with
// a clear error and the command does not outlive it). Then credentials (wrong, missing, a stale
// device token), a scripted gateway that sees every frame (the connect's shape and signature,
// results kept across a reconnect, cancel, exact argv, plan re-checks, gateway-approved runs),
// and TLS with and without certificate verification.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync, execFileSync } from "node:child_process";
import { createHash, createPublicKey, randomUUID, verify } from "node:crypto";
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { WebSocketServer } from "ws";
import { CLAWEXEC, scratchDir, serverEnv, sleep, waitFor, assertNoSanitizerReport } from "./lib/harness.mjs";
import { operator } from "./lib/gateway.mjs";
import { agent, execText, pidsWith, freePort, startGatewayOn, nodeEnv, startNode } from "./lib/nodes.mjs";

// Direct children of `pid`.
function childrenOf(pid) {
  const out = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) out.push(Number(name));
    } catch {}
  }
  return out;
}

describe("clawexec node run with clawexec gateway", () => {
  let port, gstate, g, nstate, node, deviceId, admin;

  before(async () => {
    port = await freePort();
    gstate = scratchDir("clawexec-gw-");
    writeFileSync(
      join(gstate.dir, "openclaw.json"),
      JSON.stringify({ gateway: { nodes: { pairing: { autoApproveLocal: false } } }, tools: { exec: { security: "full", ask: "off" } } }),
    );
    g = await startGatewayOn(port, gstate);
    nstate = scratchDir("clawexec-node-");
  });

  after(async () => {
    admin?.ws.close();
    if (node && node.child.exitCode === null && node.child.signalCode === null) {
      node.child.kill("SIGTERM");
      await Promise.race([node.exited, sleep(10000)]);
    }
    if (g) await g.stop();
    gstate?.cleanup();
    nstate?.cleanup();
  });

  test("node identity prints a stable device id and public key, kept 0600", () => {
    const out = JSON.parse(execFileSync(CLAWEXEC, ["node", "identity", "--json"], { env: nodeEnv(nstate.dir) }).toString());
    assert.match(out.deviceId, /^[0-9a-f]{64}$/);
    assert.match(out.publicKey, /^[A-Za-z0-9_-]{43}$/);
    const again = JSON.parse(execFileSync(CLAWEXEC, ["node", "identity", "--json"], { env: nodeEnv(nstate.dir) }).toString());
    assert.deepEqual(again, out);
    const text = execFileSync(CLAWEXEC, ["node", "identity"], { env: nodeEnv(nstate.dir) }).toString();
    assert.equal(text, `deviceId:  ${out.deviceId}\npublicKey: ${out.publicKey}\n`);
    assert.equal(statSync(join(nstate.dir, "node", "device.json")).mode & 0o777, 0o600);
    assert.equal(statSync(join(nstate.dir, "node")).mode & 0o777, 0o700);
    deviceId = out.deviceId;
  });

  test("pairing: PAIRING_REQUIRED, device approval, surface approval, live without a restart", async () => {
    admin = await operator(g, ["operator.admin"]);
    node = startNode(port, nstate.dir, g.token);
    await waitFor(() => /pairing required: approve device/.test(node.stderr()), 15000, "PAIRING_REQUIRED on the node");
    const list = await admin.call("device.pair.list", {});
    const pending = list.payload.pending.find((p) => p.deviceId === deviceId);
    assert.ok(pending, JSON.stringify(list.payload));
    assert.equal(pending.clientId, "node-host");
    assert.equal(pending.displayName, "test-node");
    assert.equal((await admin.call("device.pair.approve", { requestId: pending.requestId })).ok, true);

    // The node retries on its own; its surface then waits for the admin approval.
    const surface = await waitFor(async () => {
      const r = await admin.call("node.pair.list", {});
      return r.payload.pending.find((p) => p.nodeId === deviceId);
    }, 15000, "node.pair request");
    assert.deepEqual([...surface.commands].sort(), ["system.execApprovals.get", "system.execApprovals.set", "system.run", "system.run.prepare", "system.which"]);
    assert.deepEqual(surface.caps, ["system", "clawexec.exec-stream"]);
    assert.equal((await admin.call("node.pair.approve", { requestId: surface.requestId })).ok, true);
    const described = await admin.call("node.describe", { nodeId: deviceId });
    assert.equal(described.payload.connected, true);
    assert.equal(described.payload.approvalState, "approved");
    assert.equal(node.child.exitCode, null, "the same node process, never restarted");
    // Once live it publishes its host stats (node.host.stats), which the gateway keeps.
    const stats = await waitFor(async () => (await admin.call("node.describe", { nodeId: deviceId })).payload.hostStats, 5000, "host stats");
    assert.ok(stats.cpuCount >= 1 && stats.memoryTotalBytes > 0 && stats.loadAverage.length === 3, JSON.stringify(stats));
    // The device token the gateway issued is kept 0600 beside the key.
    await waitFor(() => {
      try {
        return statSync(join(nstate.dir, "node", "device-auth.json")).mode & 0o777;
      } catch {
        return 0;
      }
    }, 5000, "device token saved");
    assert.equal(statSync(join(nstate.dir, "node", "device-auth.json")).mode & 0o777, 0o600);
  });

  test("system.which and an unknown command, through node.invoke", async () => {
    const which = await admin.call("node.invoke", { nodeId: deviceId, command: "system.which", params: { bins: ["sh", "no-such-bin-xyz"] }, timeoutMs: 5000, idempotencyKey: "w1" });
    assert.equal(which.ok, true, JSON.stringify(which));
    assert.ok(which.payload.payload.bins.sh.endsWith("/sh"));
    assert.equal(which.payload.payload.bins["no-such-bin-xyz"], undefined);
  });

  test("exec host=node: output, non-zero exit, timeout, blocked env key", async () => {
    const client = await agent(g);
    const ok = await execText(client, { command: "echo hi", host: "node" });
    assert.equal(ok.isError, false, ok.text);
    assert.match(ok.text, new RegExp(`^Node: ${deviceId}\\nhi\\n?$`));
    assert.equal(ok.details.exitCode, 0);
    assert.equal(ok.details.status, "completed");

    // Our node serves streamed sessions: the run is a session here, its result the gateway
    // host's (a non-zero exit completes, with the exit code said), after the Node line.
    const failed = await execText(client, { command: "echo out; exit 3", host: "node" });
    assert.equal(failed.isError, false, failed.text);
    assert.equal(failed.details.nodeId, deviceId);
    assert.equal(failed.details.exitCode, 3);
    assert.match(failed.text, /out\n[\s\S]*\(Command exited with code 3\)$/);

    const started = Date.now();
    const timed = await execText(client, { command: "echo start; sleep 37.123; echo never", host: "node", timeoutSeconds: 1 });
    assert.equal(timed.isError, true);
    assert.ok(timed.details, timed.text);
    assert.equal(timed.details.exitReason, "overall-timeout", JSON.stringify(timed.details));
    assert.match(timed.text, /^Node: [0-9a-f]+\nstart[\s\S]*Command timed out after 1 second/);
    assert.doesNotMatch(timed.text, /never/);
    assert.ok(Date.now() - started < 15000);
    await waitFor(() => pidsWith("37.123").length === 0, 8000, "the timed-out command's tree to be gone");

    const refused = await execText(client, { command: "echo x", host: "node", env: { LD_PRELOAD: "/tmp/x.so" } });
    assert.equal(refused.isError, true);
    assert.match(refused.text, /SYSTEM_RUN_DENIED: environment override rejected \(blocked override keys: LD_PRELOAD\)/);
    await client.close();
  });

  test("the node's own approvals: read and written through the gateway with the base hash, and obeyed", async () => {
    const got = await admin.call("exec.approvals.node.get", { nodeId: deviceId });
    assert.equal(got.ok, true, JSON.stringify(got));
    assert.match(got.payload.hash, /^(missing:)?[0-9a-f]{64}$/);
    const denyFile = { version: 1, defaults: { security: "deny", ask: "off" }, agents: {} };
    const first = await admin.call("exec.approvals.node.set", { nodeId: deviceId, file: denyFile, baseHash: got.payload.hash });
    assert.equal(first.ok, true, JSON.stringify(first));
    const stale = await admin.call("exec.approvals.node.set", { nodeId: deviceId, file: denyFile, baseHash: got.payload.hash });
    assert.equal(stale.ok, false);
    assert.match(stale.error.message, /exec approvals changed; reload and retry/);
    const missing = await admin.call("exec.approvals.node.set", { nodeId: deviceId, file: denyFile });
    assert.equal(missing.ok, false);
    assert.match(missing.error.message, /base hash required/);

    const client = await agent(g);
    const denied = await execText(client, { command: "echo should-not-run", host: "node" });
    assert.equal(denied.isError, true);
    assert.match(denied.text, /security=deny/);
    assert.doesNotMatch(denied.text, /should-not-run\n/);

    const now = await admin.call("exec.approvals.node.get", { nodeId: deviceId });
    const back = await admin.call("exec.approvals.node.set", { nodeId: deviceId, file: { version: 1, defaults: { security: "full", ask: "off" }, agents: {} }, baseHash: now.payload.hash });
    assert.equal(back.ok, true, JSON.stringify(back));
    const ok = await execText(client, { command: "echo allowed-again", host: "node" });
    assert.equal(ok.isError, false, ok.text);
    assert.match(ok.text, /allowed-again/);
    await client.close();
  });

  test("a gateway restart: the node reconnects with its device token and serves again", async () => {
    admin.ws.close();
    await g.stop();
    g = await startGatewayOn(port, gstate);
    admin = await operator(g, ["operator.admin"]);
    await waitFor(async () => (await admin.call("node.describe", { nodeId: deviceId })).payload?.connected === true, 15000, "node reconnected");
    assert.equal(node.child.exitCode, null);
    assert.match(node.stderr(), /auth: device token/);
    const client = await agent(g);
    const ok = await execText(client, { command: "echo back", host: "node" });
    assert.equal(ok.isError, false, ok.text);
    assert.match(ok.text, /^Node: [0-9a-f]+\nback/);
    await client.close();
  });

  test("an exec the agent cancels stops its command on the node", async () => {
    const client = await agent(g);
    const abort = new AbortController();
    const call = client.callTool({ name: "exec", arguments: { command: "sleep 45.678; echo never", host: "node" } }, undefined, { signal: abort.signal }).catch((e) => e);
    await waitFor(() => pidsWith("45.678").length > 0, 8000, "the command to start on the node");
    abort.abort();
    await call;
    await waitFor(() => pidsWith("45.678").length === 0, 8000, "the cancelled command to be stopped on the node");
    assert.equal(node.child.exitCode, null, "the node host itself keeps running");
    const after = await execText(client, { command: "echo still-serving", host: "node" });
    assert.match(after.text, /still-serving/);
    await client.close();
  });

  test("the node host killed mid-command: the call fails clearly, the command does not outlive it", async () => {
    const client = await agent(g);
    const call = execText(client, { command: "sleep 41.777; echo never", host: "node" });
    await waitFor(() => pidsWith("41.777").length > 0, 8000, "the command to start on the node");
    node.child.kill("SIGKILL");
    const r = await call;
    assert.equal(r.isError, true);
    // The node's link is gone and stays gone past the resume grace: said, not left hanging.
    assert.match(r.text, /^Node: [0-9a-f]+\n\[node [0-9a-f]+ disconnected and did not come back within 3 s; how the command ended is unknown\]/);
    await waitFor(() => pidsWith("41.777").length === 0, 8000, "the command to die with its node host");
    await client.close();
  });

  test("SIGTERM stops a node host cleanly", async () => {
    node = startNode(port, nstate.dir, g.token);
    await waitFor(async () => (await admin.call("node.describe", { nodeId: deviceId })).payload?.connected === true, 15000, "node connected");
    // A command running at that moment, and the node's helper processes, go with it.
    const client = await agent(g);
    const call = execText(client, { command: "sleep 43.219", host: "node" });
    await waitFor(() => pidsWith("43.219").length > 0, 8000, "the command to start");
    const children = childrenOf(node.child.pid);
    assert.ok(children.length > 0);
    node.child.kill("SIGTERM");
    const { code } = await Promise.race([node.exited, sleep(10000).then(() => ({ code: "timeout" }))]);
    assert.equal(code, 0, node.stderr());
    const r = await call;
    assert.equal(r.isError, true);
    await waitFor(() => pidsWith("43.219").length === 0 && children.every((pid) => !existsSync(`/proc/${pid}`)), 8000, "no process left behind");
    assertNoSanitizerReport(node.stderr());
    await client.close();
  });
});

// A scripted gateway (a bare WebSocket server) sees every frame the node host sends.
describe("clawexec node run: credentials", () => {
  let g, gstate;
  const states = [];
  before(async () => {
    gstate = scratchDir("clawexec-gw-");
    g = await startGatewayOn(await freePort(), gstate);
  });
  after(async () => {
    if (g) await g.stop();
    gstate?.cleanup();
    for (const st of states) st.cleanup();
  });

  test("a wrong or missing shared token ends the node host with exit 1 and says where the token came from", async () => {
    const port = Number(new URL(g.url).port);
    const wrong = scratchDir("clawexec-node-");
    states.push(wrong);
    const n1 = startNode(port, wrong.dir, "not-the-token");
    const r1 = await Promise.race([n1.exited, sleep(10000).then(() => ({ code: "timeout" }))]);
    assert.equal(r1.code, 1, n1.stderr());
    assert.match(n1.stderr(), /refused the credential from --token: unauthorized: gateway token mismatch/);

    const none = scratchDir("clawexec-node-");
    states.push(none);
    const child = spawn(CLAWEXEC, ["node", "run", "--host", "127.0.0.1", "--port", String(port)], { env: nodeEnv(none.dir), stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const code = await new Promise((resolve) => child.once("exit", resolve));
    assert.equal(code, 1, stderr);
    assert.match(stderr, /refused the credential from nowhere \(none configured\).*Set OPENCLAW_GATEWAY_TOKEN or --token/);
  });
});

describe("clawexec node run: a device token the gateway does not know", () => {
  let g, gstate, nstate, node;
  before(async () => {
    gstate = scratchDir("clawexec-gw-");
    g = await startGatewayOn(await freePort(), gstate);
    nstate = scratchDir("clawexec-node-");
  });
  after(async () => {
    if (node && node.child.exitCode === null) {
      node.child.kill("SIGTERM");
      await Promise.race([node.exited, sleep(10000)]);
    }
    if (g) await g.stop();
    gstate?.cleanup();
    nstate?.cleanup();
  });

  test("is forgotten, and the shared token used instead", async () => {
    const port = Number(new URL(g.url).port);
    const id = JSON.parse(execFileSync(CLAWEXEC, ["node", "identity", "--json"], { env: nodeEnv(nstate.dir) }).toString());
    writeFileSync(
      join(nstate.dir, "node", "device-auth.json"),
      JSON.stringify({ version: 1, deviceId: id.deviceId, tokens: { [`127.0.0.1:${port}`]: { role: "node", token: "stale-token" } } }),
      { mode: 0o600 },
    );
    node = startNode(port, nstate.dir, g.token);
    await waitFor(() => /connected to gateway .* \(auth: --token\)/.test(node.stderr()), 15000, "a connect with the shared token");
    assert.match(node.stderr(), /refused the saved device token \(unauthorized: device token mismatch\); forgetting it/);
    const saved = JSON.parse(readFileSync(join(nstate.dir, "node", "device-auth.json"), "utf8"));
    assert.notEqual(saved.tokens[`127.0.0.1:${port}`]?.token, "stale-token");
  });
});

describe("clawexec node run against a scripted gateway", () => {
  let wss, nstate, node;
  const conns = [];

  before(async () => {
    wss = new WebSocketServer({ port: 0, host: "127.0.0.1" });
    await new Promise((r) => wss.once("listening", r));
    wss.on("connection", (ws) => {
      const c = { ws, frames: [], nonce: randomUUID(), ts: Date.now() };
      conns.push(c);
      ws.send(JSON.stringify({ type: "event", event: "connect.challenge", payload: { nonce: c.nonce, ts: c.ts } }));
      ws.on("message", (d) => {
        const f = JSON.parse(d.toString());
        c.frames.push(f);
        if (f.method === "connect") {
          ws.send(JSON.stringify({ type: "res", id: f.id, ok: true, payload: { type: "hello-ok", protocol: 4, auth: { method: "token", role: "node", scopes: [], deviceToken: "dev-tok-1" }, policy: { tickIntervalMs: 30000 } } }));
        } else if (f.type === "req") {
          ws.send(JSON.stringify({ type: "res", id: f.id, ok: true, payload: { ok: true } }));
        }
      });
    });
    nstate = scratchDir("clawexec-node-");
  });

  after(async () => {
    if (node && node.child.exitCode === null && node.child.signalCode === null) {
      node.child.kill("SIGTERM");
      await Promise.race([node.exited, sleep(10000)]);
    }
    for (const c of conns) c.ws.terminate();
    await new Promise((r) => wss.close(r));
    nstate?.cleanup();
  });

  const invoke = (c, id, command, params) =>
    c.ws.send(JSON.stringify({ type: "event", event: "node.invoke.request", payload: { id, nodeId: "x", command, paramsJSON: JSON.stringify(params), timeoutMs: 20000 } }));
  const resultOf = (c, id) => c.frames.find((f) => f.method === "node.invoke.result" && f.params.id === id);

  test("the connect frame is OpenClaw's restricted node-host connect, signed v3 over the shared token", async () => {
    node = startNode(wss.address().port, nstate.dir, "shared-tok");
    const connectFrame = await waitFor(() => conns[0]?.frames.find((f) => f.method === "connect"), 15000, "connect");
    const p = connectFrame.params;
    assert.deepEqual(Object.keys(p), ["minProtocol", "maxProtocol", "client", "caps", "commands", "pathEnv", "auth", "role", "scopes", "device"]);
    assert.equal(p.minProtocol, 4);
    assert.equal(p.maxProtocol, 4);
    assert.deepEqual(Object.keys(p.client), ["id", "displayName", "version", "platform", "deviceFamily", "mode", "instanceId"]);
    assert.equal(p.client.id, "node-host");
    assert.equal(p.client.mode, "node");
    assert.equal(p.client.displayName, "test-node");
    assert.deepEqual(p.caps, ["system", "clawexec.exec-stream"]);
    assert.deepEqual(p.commands, ["system.execApprovals.get", "system.execApprovals.set", "system.run", "system.run.prepare", "system.which"]);
    assert.deepEqual(p.auth, { token: "shared-tok" });
    assert.equal(p.role, "node");
    assert.deepEqual(p.scopes, []);
    assert.deepEqual(Object.keys(p.device), ["id", "publicKey", "signature", "signedAt", "nonce"]);
    assert.equal(p.device.nonce, conns[0].nonce);
    assert.equal(p.device.signedAt, conns[0].ts);
    const raw = Buffer.from(p.device.publicKey, "base64url");
    assert.equal(createHash("sha256").update(raw).digest("hex"), p.device.id);
    const key = createPublicKey({ key: Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), raw]), format: "der", type: "spki" });
    const text = ["v3", p.device.id, "node-host", "node", "node", "", String(conns[0].ts), "shared-tok", conns[0].nonce, "linux", "linux"].join("|");
    assert.equal(verify(null, Buffer.from(text), key, Buffer.from(p.device.signature, "base64url")), true);
  });

  test("an unknown command is UNAVAILABLE; a result that finished while disconnected arrives after the reconnect, event first", async () => {
    const first = conns[0];
    await waitFor(() => /connected to gateway/.test(node.stderr()), 5000, "live");
    invoke(first, "inv-unknown", "camera.snap", {});
    const unknown = await waitFor(() => resultOf(first, "inv-unknown"), 5000, "unknown-command result");
    assert.deepEqual(unknown.params, { id: "inv-unknown", nodeId: unknown.params.nodeId, ok: false, error: { code: "UNAVAILABLE", message: "command not supported" } });

    invoke(first, "inv-late", "system.run", { command: ["/bin/sh", "-lc", "sleep 1; echo late"], rawCommand: "sleep 1; echo late", timeoutMs: 10000, agentId: "main", sessionKey: "agent:main:main", runId: "run-late" });
    await sleep(200);
    first.ws.terminate();
    const second = await waitFor(() => conns[1]?.frames.find((f) => f.method === "connect") && conns[1], 15000, "reconnect");
    const again = second.frames.find((f) => f.method === "connect");
    assert.deepEqual(again.params.auth, { deviceToken: "dev-tok-1" }, "the device token from hello-ok is used from the next connect on");
    const result = await waitFor(() => resultOf(second, "inv-late"), 15000, "the late result on the new connection");
    const events = second.frames.filter((f) => f.method === "node.event");
    const finished = events.find((f) => f.params.event === "exec.finished");
    assert.ok(finished, "exec.finished sent");
    assert.ok(second.frames.indexOf(finished) < second.frames.indexOf(result), "exec.finished before node.invoke.result");
    assert.deepEqual(JSON.parse(finished.params.payloadJSON), {
      sessionKey: "agent:main:main",
      runId: "run-late",
      host: "node",
      command: '/bin/sh -lc "sleep 1; echo late"',
      exitCode: 0,
      timedOut: false,
      success: true,
      output: "late",
      suppressNotifyOnExit: false,
    });
    assert.equal(result.params.ok, true);
    assert.deepEqual(JSON.parse(result.params.payloadJSON), { exitCode: 0, timedOut: false, success: true, stdout: "late\n", stderr: "", error: null });
  });

  test("a direct argv runs as exactly those words (quotes, spaces and globs stay data)", async () => {
    const c = conns[conns.length - 1];
    const argv = ["/usr/bin/printf", "[%s]", "a b", "c'd", "*", "$(id)"];
    invoke(c, "inv-argv", "system.run", { command: argv, cwd: nstate.dir, timeoutMs: 10000, sessionKey: "s", runId: "r-argv" });
    const r = await waitFor(() => resultOf(c, "inv-argv"), 10000, "the argv run's result");
    assert.equal(r.params.ok, true, JSON.stringify(r.params));
    assert.equal(JSON.parse(r.params.payloadJSON).stdout, "[a b][c'd][*][$(id)]");
  });

  test("node.invoke.cancel stops the run and its process tree", async () => {
    const c = conns[conns.length - 1];
    invoke(c, "inv-cancel", "system.run", { command: ["/bin/sh", "-lc", "sleep 44.321; echo never"], timeoutMs: 60000, sessionKey: "s", runId: "r-cancel" });
    await waitFor(() => pidsWith("44.321").length > 0, 8000, "the command to start");
    c.ws.send(JSON.stringify({ type: "event", event: "node.invoke.cancel", payload: { invokeId: "inv-cancel", nodeId: "x" } }));
    const r = await waitFor(() => resultOf(c, "inv-cancel"), 10000, "the cancelled run's result");
    const payload = JSON.parse(r.params.payloadJSON);
    assert.equal(payload.success, false);
    assert.equal(payload.timedOut, false);
    assert.doesNotMatch(payload.stdout, /never/);
    await waitFor(() => pidsWith("44.321").length === 0, 8000, "the cancelled command to be gone").catch((e) => {
      const left = pidsWith("44.321").map((pid) => `${pid}: ${readFileSync(`/proc/${pid}/stat`, "utf8")} ${readFileSync(`/proc/${pid}/cmdline`, "utf8")}`);
      throw new Error(`${e.message}: ${left.join("; ")} result ${JSON.stringify(payload)}`);
    });
  });

  test("system.run re-checks the plan: another argv than the plan's is refused and nothing runs", async () => {
    const c = conns[conns.length - 1];
    const plan = { argv: ["/bin/sh", "-lc", "echo approved"], cwd: nstate.dir, commandText: '/bin/sh -lc "echo approved"', commandPreview: "echo approved", agentId: "main", sessionKey: "s" };
    invoke(c, "inv-swap", "system.run", { command: ["/bin/sh", "-lc", "touch swapped-marker"], systemRunPlan: plan, cwd: nstate.dir, agentId: "main", sessionKey: "s", runId: "r1" });
    const r = await waitFor(() => resultOf(c, "inv-swap"), 5000, "refusal");
    assert.equal(r.params.ok, false);
    assert.equal(r.params.error.code, "INVALID_REQUEST");
    assert.match(r.params.error.message, /systemRunPlan does not match/);
    assert.equal(existsSync(join(nstate.dir, "swapped-marker")), false);
    invoke(c, "inv-cwd", "system.run", { command: ["/bin/sh", "-lc", "pwd"], cwd: "/nonexistent-dir-xyz", sessionKey: "s", runId: "r2" });
    const cwd = await waitFor(() => resultOf(c, "inv-cwd"), 5000, "cwd result");
    assert.deepEqual(JSON.parse(cwd.params.payloadJSON), {
      timedOut: false,
      success: false,
      stdout: "",
      stderr: "",
      error: "node exec working directory does not exist on the node host: /nonexistent-dir-xyz (os reported: Command failed during launch or output capture (ENOENT))",
    });
  });

  test("a run the gateway approved: allowed once under the node's policy, only for its prepared plan and policy", async () => {
    const c = conns[conns.length - 1];
    const approvalsPath = join(nstate.dir, "exec-approvals.json");
    writeFileSync(approvalsPath, JSON.stringify({ version: 1, defaults: { security: "allowlist", ask: "on-miss", askFallback: "deny" }, agents: {} }), { mode: 0o600 });
    try {
      invoke(c, "ap-prep", "system.run.prepare", { command: ["/usr/bin/id", "-u"], rawCommand: "/usr/bin/id -u", cwd: nstate.dir, agentId: "main", sessionKey: "s" });
      const prep = await waitFor(() => resultOf(c, "ap-prep"), 5000, "prepare");
      assert.equal(prep.params.ok, true, JSON.stringify(prep.params));
      const plan = JSON.parse(prep.params.payloadJSON).plan;
      assert.equal(plan.policySnapshot.security, "allowlist");
      assert.equal(plan.mutableFileOperand.argvIndex, 0);
      const run = (id, extra) =>
        invoke(c, id, "system.run", { command: plan.argv, rawCommand: plan.commandText, systemRunPlan: plan, cwd: plan.cwd, timeoutMs: 10000, agentId: "main", sessionKey: "s", ...extra });

      run("ap-none", { runId: "plain-1" });
      const none = await waitFor(() => resultOf(c, "ap-none"), 5000, "unapproved run");
      assert.deepEqual(none.params.error, { code: "SYSTEM_RUN_DENIED", message: "SYSTEM_RUN_DENIED: approval required" });
      const denied = c.frames.find((f) => f.method === "node.event" && f.params.event === "exec.denied" && JSON.parse(f.params.payloadJSON).runId === "plain-1");
      assert.ok(denied && c.frames.indexOf(denied) < c.frames.indexOf(none), "exec.denied before the result");
      assert.equal(JSON.parse(denied.params.payloadJSON).reason, "approval-required");

      run("ap-ok", { runId: "approval-1", approved: true, approvalDecision: "allow-once" });
      const ok = await waitFor(() => resultOf(c, "ap-ok"), 10000, "approved run");
      assert.equal(ok.params.ok, true, JSON.stringify(ok.params));
      assert.equal(JSON.parse(ok.params.payloadJSON).stdout, `${process.getuid()}\n`);

      run("ap-replay", { runId: "approval-1", approved: true, approvalDecision: "allow-once" });
      const replay = await waitFor(() => resultOf(c, "ap-replay"), 5000, "replayed approval");
      assert.equal(replay.params.ok, false);
      assert.match(replay.params.error.message, /approval approval-1 was already used/);

      invoke(c, "ap-shell", "system.run", { command: ["/bin/sh", "-lc", "id -u"], systemRunPlan: { argv: ["/bin/sh", "-lc", "id -u"], cwd: plan.cwd, commandText: '/bin/sh -lc "id -u"', agentId: "main", sessionKey: "s", policySnapshot: plan.policySnapshot }, cwd: plan.cwd, agentId: "main", sessionKey: "s", runId: "approval-3", approved: true });
      const shell = await waitFor(() => resultOf(c, "ap-shell"), 5000, "approved shell payload");
      assert.deepEqual(shell.params.error, { code: "SYSTEM_RUN_DENIED", message: "SYSTEM_RUN_DENIED: approval missing executable binding" });

      const stale = { ...plan, policySnapshot: { ...plan.policySnapshot, security: "full", ask: "off" } };
      invoke(c, "ap-stale", "system.run", { command: plan.argv, rawCommand: plan.commandText, systemRunPlan: stale, cwd: plan.cwd, timeoutMs: 10000, agentId: "main", sessionKey: "s", runId: "approval-2", approved: true });
      const st = await waitFor(() => resultOf(c, "ap-stale"), 5000, "stale snapshot");
      assert.equal(st.params.ok, false);
      assert.equal(st.params.error.message, "SYSTEM_RUN_DENIED: exec approval policy changed; request approval again");
    } finally {
      rmSync(approvalsPath, { force: true });
    }
  });
});

describe("clawexec node run over TLS", () => {
  let port, gstate, g, dir, cert, key;
  const nodes = [];
  const states = [];
  const nodeDir = () => {
    const st = scratchDir("clawexec-node-");
    states.push(st);
    return st.dir;
  };

  before(async () => {
    dir = scratchDir("clawexec-node-tls-");
    cert = join(dir.dir, "cert.pem");
    key = join(dir.dir, "key.pem");
    const made = spawnSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key,
      "-out", cert, "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], { encoding: "utf8" });
    assert.equal(made.status, 0, made.stderr);
    port = await freePort();
    gstate = scratchDir("clawexec-gw-");
    writeFileSync(join(gstate.dir, "openclaw.json"), JSON.stringify({ gateway: { nodes: { pairing: { autoApproveLocal: false } } } }));
    g = await startGatewayOn(port, gstate, ["--tls-cert", cert, "--tls-key", key]);
  });

  after(async () => {
    for (const n of nodes) {
      if (n.child.exitCode === null && n.child.signalCode === null) n.child.kill("SIGTERM");
      await Promise.race([n.exited, sleep(10000)]);
    }
    if (g) await g.stop();
    gstate?.cleanup();
    dir?.cleanup();
    for (const st of states) st.cleanup();
  });

  test("--tls verifies the certificate: an untrusted one is refused, a trusted one (and --tls-insecure) connects", async () => {
    const untrusted = startNode(port, nodeDir(), g.token, ["--tls"]);
    nodes.push(untrusted);
    await waitFor(() => /wss:\/\/127\.0\.0\.1:\d+\/: TLS handshake: .*certificate verify failed/.test(untrusted.stderr()), 10000, "verification failure");
    assert.doesNotMatch(untrusted.stderr(), /pairing required/);

    const trusted = startNode(port, nodeDir(), g.token, ["--tls"], { SSL_CERT_FILE: cert });
    nodes.push(trusted);
    await waitFor(() => /pairing required: approve device/.test(trusted.stderr()), 10000, "a connect over verified TLS");

    const insecure = startNode(port, nodeDir(), g.token, ["--tls", "--tls-insecure"]);
    nodes.push(insecure);
    await waitFor(() => /pairing required: approve device/.test(insecure.stderr()), 10000, "a connect without verification");
  });
});
