// Interop (not in ctest; run by scripts/interop-openclaw.sh): `clawexec node run` paired with
// the REAL OpenClaw 2026.9.6 gateway (autoApproveLocal off). The node gets PAIRING_REQUIRED,
// `openclaw devices approve` approves the device and `openclaw nodes approve` the node's command
// surface, and the node goes live
// without a restart (OpenClaw's own node host must be restarted there). OpenClaw's gateway then
// relays node.invoke system.which, system.run.prepare and system.run (the prepared plan) to it,
// and the node's refusal of a blocked env key comes back in OpenClaw's error shape. Last,
// OpenClaw's real agent (driven by a scripted model, lib/fake_model.mjs) calls its real exec
// tool with host=node, and the tool result is OpenClaw's own formatting of our node's answer;
// and OpenClaw's exec approval flow (two operators, twoPhase) approves a run that the node's
// own allowlist policy would ask about: it runs once, its replay is refused.
// Needs the reference from ../shared/tools/install-reference.sh.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { CLAWEXEC, scratchDir, sleep, waitFor } from "./lib/harness.mjs";
import { NODE, OC, openclawCli } from "./lib/reference.mjs";
import { connect as wsConnect, connectParams } from "./lib/gateway.mjs";
import { startFakeModel } from "./lib/fake_model.mjs";

const TOKEN = "tok-clawexec-node-interop-0123456789";
let port, gw, gwState, gwEnv, nodeState, node, model, nodeId, gwLog = "";

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
}

async function admin() {
  const c = await wsConnect(`ws://127.0.0.1:${port}`, connectParams(TOKEN, { scopes: ["operator.admin", "operator.pairing", "operator.write"] }));
  if (!c.res.ok) throw new Error(`operator connect: ${JSON.stringify(c.res)}`);
  return c;
}

before(async () => {
  port = await freePort();
  model = await startFakeModel({ command: "echo via-agent-exec", host: "node" });
  gwState = scratchDir("oc-gw-");
  mkdirSync(join(gwState.dir, "home"));
  mkdirSync(join(gwState.dir, "cli-home"));
  const config = {
    gateway: { mode: "local", bind: "loopback", port, auth: { mode: "token", token: TOKEN }, nodes: { pairing: { autoApproveLocal: false, sshVerify: false } } },
    update: { checkOnStart: false },
    discovery: { mdns: { mode: "off" } },
    agents: { defaults: { heartbeat: { every: "0m" }, model: { primary: "fake/fake" } } },
    models: { catalogRefresh: { enabled: false }, providers: { fake: { baseUrl: `http://127.0.0.1:${model.port}/v1`, api: "openai-completions", apiKey: "fake", models: [{ id: "fake", name: "fake" }] } } },
    logging: { file: join(gwState.dir, "openclaw.log") },
  };
  writeFileSync(join(gwState.dir, "openclaw.json"), JSON.stringify(config));
  const env = (gwEnv = {
    PATH: "/usr/bin:/bin",
    HOME: join(gwState.dir, "home"),
    OPENCLAW_STATE_DIR: gwState.dir,
    OPENCLAW_CONFIG_PATH: join(gwState.dir, "openclaw.json"),
    OPENCLAW_NO_AUTO_UPDATE: "1",
    OPENCLAW_DISABLE_BONJOUR: "1",
    NO_COLOR: "1",
  });
  gw = spawn(NODE, [OC, "gateway", "run", "--port", String(port), "--bind", "loopback"], { env, cwd: join(gwState.dir, "home"), stdio: ["ignore", "pipe", "pipe"] });
  gw.stdout.on("data", (d) => (gwLog += d));
  gw.stderr.on("data", (d) => (gwLog += d));
  await waitFor(async () => {
    try {
      const c = await admin();
      c.ws.close();
      return true;
    } catch {
      await sleep(500);
      return false;
    }
  }, 120000, "the OpenClaw gateway to accept connects");
  nodeState = scratchDir("clawexec-node-");
});

after(async () => {
  if (node && node.exitCode === null) node.kill("SIGTERM");
  if (gw && gw.exitCode === null) gw.kill("SIGTERM");
  await sleep(2000);
  if (gw && gw.exitCode === null) gw.kill("SIGKILL");
  gwState?.cleanup();
  nodeState?.cleanup();
  await model?.close();
});

test("clawexec node host pairs with OpenClaw's gateway and answers its system.* invokes", async () => {
  const op = await admin();
  let nodeLog = "";
  node = spawn(CLAWEXEC, ["node", "run", "--host", "127.0.0.1", "--port", String(port), "--display-name", "clawexec-interop", "--token", TOKEN], {
    env: { PATH: "/usr/bin:/bin", HOME: nodeState.dir, OPENCLAW_STATE_DIR: nodeState.dir, CLAWEXEC_NODE_RECONNECT_MS: "300", CLAWEXEC_NODE_RECONNECT_MAX_MS: "2000", SHELL: "/bin/sh" },
    cwd: nodeState.dir,
    stdio: ["ignore", "ignore", "pipe"],
  });
  node.stderr.on("data", (d) => (nodeLog += d));
  const requestId = await waitFor(() => /pairing required: .*\(requestId ([0-9a-f-]+)\)/.exec(nodeLog)?.[1], 30000, "PAIRING_REQUIRED");
  // Approved with OpenClaw's own CLI, as its users do.
  const cli = { url: `ws://127.0.0.1:${port}`, token: TOKEN, home: join(gwState.dir, "cli-home") };
  const approvedDevice = openclawCli("devices", ["approve", requestId], cli);
  assert.equal(approvedDevice.status, 0, approvedDevice.out);
  const identity = JSON.parse(execFileSync(CLAWEXEC, ["node", "identity", "--json"], { env: { PATH: "/usr/bin:/bin", HOME: nodeState.dir, OPENCLAW_STATE_DIR: nodeState.dir } }).toString());
  nodeId = identity.deviceId;
  assert.ok(approvedDevice.out.includes(nodeId), approvedDevice.out);

  const surface = await waitFor(async () => {
    const r = await op.call("node.pair.list", {});
    return r.payload?.pending?.find((p) => p.nodeId === nodeId);
  }, 30000, "the node's surface request");
  assert.equal(surface.clientId, "node-host");
  // OpenClaw's surface plus our namespaced streaming cap, which OpenClaw's gateway records and ignores.
  assert.deepEqual(surface.caps, ["system", "clawexec.exec-stream"]);
  assert.deepEqual(surface.requiredApproveScopes, ["operator.pairing", "operator.admin"]);
  const approvedSurface = openclawCli("nodes", ["approve", surface.requestId], cli);
  assert.equal(approvedSurface.status, 0, approvedSurface.out);
  assert.equal(node.exitCode, null, "went live without a restart");

  const invoke = (command, params, timeoutMs = 20000) => op.call("node.invoke", { nodeId, command, params, timeoutMs, idempotencyKey: `${command}-${Math.random()}` });
  const which = await waitFor(async () => {
    const r = await invoke("system.which", { bins: ["sh", "no-such-bin-xyz"] });
    return r.ok ? r : null;
  }, 20000, "system.which through OpenClaw's gateway");
  assert.ok(which.payload.payload.bins.sh.endsWith("/sh"), JSON.stringify(which.payload));

  const prepared = await invoke("system.run.prepare", {
    command: ["/bin/sh", "-lc", "uname -s && echo via-clawexec"],
    rawCommand: "uname -s && echo via-clawexec",
    security: "full",
    ask: "off",
    agentId: "main",
    sessionKey: "agent:main:main",
  });
  assert.equal(prepared.ok, true, JSON.stringify(prepared));
  const plan = prepared.payload.payload.plan;
  assert.deepEqual(Object.keys(plan), ["argv", "cwd", "commandText", "commandPreview", "agentId", "sessionKey", "policySnapshot"]);
  assert.equal(plan.commandText, '/bin/sh -lc "uname -s && echo via-clawexec"');

  const ran = await invoke("system.run", {
    command: plan.argv,
    rawCommand: plan.commandText,
    systemRunPlan: plan,
    cwd: plan.cwd,
    timeoutMs: 10000,
    agentId: "main",
    sessionKey: "agent:main:main",
    runId: "run-interop-1",
  });
  assert.equal(ran.ok, true, JSON.stringify(ran));
  assert.deepEqual(ran.payload.payload, { exitCode: 0, timedOut: false, success: true, stdout: "Linux\nvia-clawexec\n", stderr: "", error: null });

  const refused = await invoke("system.run", { command: ["/bin/sh", "-lc", "echo x"], cwd: "/tmp", env: { LD_PRELOAD: "/tmp/x.so" }, timeoutMs: 5000, runId: "run-env" });
  assert.equal(refused.ok, false);
  assert.deepEqual(refused.error.details.nodeError, { code: "INVALID_REQUEST", message: "SYSTEM_RUN_DENIED: environment override rejected (blocked override keys: LD_PRELOAD)" });
  op.ws.close();
});

test("OpenClaw's real agent runs exec host=node on the clawexec node host", async () => {
  // Not spawnSync: the scripted model lives in this process and must keep answering.
  const child = spawn(NODE, [OC, "agent", "--agent", "main", "--message", "run it", "--json"], { env: gwEnv, stdio: ["ignore", "pipe", "pipe"] });
  const r = { stdout: "", stderr: "" };
  child.stdout.on("data", (d) => (r.stdout += d));
  child.stderr.on("data", (d) => (r.stderr += d));
  const killer = setTimeout(() => child.kill("SIGKILL"), 90000);
  r.status = await new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  clearTimeout(killer);
  assert.equal(r.status, 0, `agent: ${r.stderr}${r.stdout}\nmodel requests: ${model.requests.length} ${JSON.stringify(model.requests.map((q) => q.url))}\ngateway: ${gwLog.slice(-3000)}`);
  const out = JSON.parse(r.stdout.slice(r.stdout.indexOf("{")));
  assert.equal(out.status, "ok", JSON.stringify(out).slice(0, 2000));
  const text = out.result.payloads[0].text;
  assert.match(text, /^done: Node: [0-9a-f]{64}\n/);
  assert.match(text, /\nvia-agent-exec\n?$/);
  assert.ok(model.requests.some((q) => (q.body.messages ?? []).some((m) => m.role === "tool")), "the tool result went back to the model");
});

test("OpenClaw's approval flow: an allow-once decided on its gateway runs once on the node, under the node's allowlist", async () => {
  const op = await admin();
  const approver = await wsConnect(`ws://127.0.0.1:${port}`, connectParams(TOKEN, { scopes: ["operator.admin", "operator.approvals"], caps: ["exec-approvals"] }));
  assert.equal(approver.res.ok, true, JSON.stringify(approver.res));
  const got = await op.call("exec.approvals.node.get", { nodeId });
  assert.equal(got.ok, true, JSON.stringify(got));
  const file = { version: 1, defaults: { security: "allowlist", ask: "on-miss", askFallback: "deny" }, agents: {} };
  const set = await op.call("exec.approvals.node.set", { nodeId, file, baseHash: got.payload.hash });
  assert.equal(set.ok, true, JSON.stringify(set));

  const base = { agentId: "main", sessionKey: "agent:main:main" };
  const invoke = (command, params) => op.call("node.invoke", { nodeId, command, params, timeoutMs: 20000, idempotencyKey: `${command}-${Math.random()}` });
  const prep = await invoke("system.run.prepare", { command: ["/usr/bin/id", "-u"], rawCommand: "/usr/bin/id -u", cwd: "/tmp", ...base });
  assert.equal(prep.ok, true, JSON.stringify(prep));
  const plan = prep.payload.payload.plan;
  assert.equal(plan.mutableFileOperand.argvIndex, 0);
  assert.equal(plan.policySnapshot.security, "allowlist");
  const runParams = { command: plan.argv, rawCommand: plan.commandText, systemRunPlan: plan, cwd: plan.cwd, timeoutMs: 10000, ...base };

  const unapproved = await invoke("system.run", { ...runParams, runId: "interop-unapproved" });
  assert.equal(unapproved.ok, false);
  assert.deepEqual(unapproved.error.details.nodeError, { code: "SYSTEM_RUN_DENIED", message: "SYSTEM_RUN_DENIED: approval required" });

  const request = { command: plan.commandText, commandArgv: plan.argv, systemRunPlan: plan, cwd: plan.cwd, nodeId, host: "node", security: "allowlist", ask: "on-miss", ...base, timeoutMs: 60000, twoPhase: true };
  op.send({ type: "req", id: "approval-req", method: "exec.approval.request", params: request });
  const accepted = await op.next((f) => f.type === "res" && f.id === "approval-req", "accepted");
  assert.equal(accepted.ok, true, JSON.stringify(accepted));
  const approvalId = accepted.payload.id;
  const resolved = await approver.call("exec.approval.resolve", { id: approvalId, decision: "allow-once" });
  assert.equal(resolved.ok, true, JSON.stringify(resolved));
  const final = await waitFor(() => op.frames.filter((f) => f.type === "res" && f.id === "approval-req")[1], 10000, "the final decision");
  assert.equal(final.payload.decision, "allow-once");

  const approved = await invoke("system.run", { ...runParams, approved: true, approvalDecision: "allow-once", runId: approvalId });
  assert.equal(approved.ok, true, JSON.stringify(approved));
  assert.deepEqual(approved.payload.payload, { exitCode: 0, timedOut: false, success: true, stdout: `${process.getuid()}\n`, stderr: "", error: null });
  const replay = await invoke("system.run", { ...runParams, approved: true, approvalDecision: "allow-once", runId: approvalId });
  assert.equal(replay.ok, false);
  approver.ws.close();
  op.ws.close();
});
