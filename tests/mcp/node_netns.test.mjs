// Node hosts across a real network: `clawexec gateway` in one network namespace, two
// `clawexec node run` hosts each in its own, joined by veth pairs on a bridge (lib/netns.mjs),
// and this test process reaching the gateway through a veth of its own - no loopback anywhere
// between them, so nothing is auto-approved as local. Covers pairing over the network, node
// selection (two nodes and no binding is refused; `node` picks one), the global binding
// (`tools.exec.node` through config.patch) and a per-agent one
// (`agents.entries.<id>.tools.exec.node`), proof that each command ran in its node's
// namespace (its interfaces), a node whose own approvals deny, a node host killed mid-command
// (the call fails with a clear error once the resume grace has passed, the command dies with it), a node that comes
// back (no new approval), and the gateway killed with SIGKILL (the node host survives and
// reconnects to a new gateway; nothing is left on the node when it is stopped).
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { CLAWEXEC, scratchDir, serverEnv, sleep, waitFor, assertNoSanitizerReport } from "./lib/harness.mjs";
import { connect, deviceConnect, makeDevice } from "./lib/gateway.mjs";
import { makeLan } from "./lib/netns.mjs";
import { agent as gatewayAgent, execText, pidsWith } from "./lib/nodes.mjs";

const PORT = 18000 + (process.pid % 1000);

describe("node hosts in their own network namespaces", { concurrency: false }, () => {
  let lan, gstate, g, admin;
  const nodes = {}; // name -> { state, child, stderr(), exited, deviceId }

  function startGateway() {
    // A streamed node session whose node stays away 3 s ends (the default is 60 s).
    const env = serverEnv(gstate.dir, { CLAWEXEC_NODE_RESUME_GRACE_MS: "3000" });
    const child = lan.spawnIn(lan.gatewayNs, CLAWEXEC, ["gateway", "--bind", "lan", "--port", String(PORT)], {
      env,
      cwd: gstate.dir,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d.toString()));
    const exited = new Promise((resolve) => child.once("exit", resolve));
    return { child, exited, stderr: () => stderr };
  }

  async function gatewayUp() {
    g = startGateway();
    await waitFor(() => /listening on http:\/\//.test(g.stderr()), 15000, "gateway start");
    g.url = `http://${lan.gatewayIp}:${PORT}`;
    g.wsUrl = `ws://${lan.gatewayIp}:${PORT}`;
    g.token = readFileSync(join(gstate.dir, "gateway", "token"), "utf8").trim();
    admin = await remoteAdmin();
  }

  // An operator on the LAN needs a paired device (device-less operators are loopback only);
  // its first approval comes from the gateway's own machine: a loopback client inside the
  // gateway's namespace, as an operator at that machine would run `devices approve`.
  const operatorDevice = makeDevice();
  const operatorClient = { id: "cli", version: "test", platform: "linux", mode: "cli" };
  async function remoteAdmin() {
    const params = (challenge) => deviceConnect(operatorDevice, challenge, { role: "operator", scopes: ["operator.admin"], client: operatorClient, auth: { token: g.token } });
    let c = await connect(g.wsUrl, params);
    if (c.res.ok) return c;
    assert.equal(c.res.error.details?.code, "PAIRING_REQUIRED", JSON.stringify(c.res));
    c.ws.close();
    const script = `
      import WebSocket from "ws";
      const ws = new WebSocket("ws://127.0.0.1:${PORT}");
      let n = 0;
      const send = (method, params) => ws.send(JSON.stringify({ type: "req", id: String(++n), method, params }));
      ws.on("message", (d) => {
        const f = JSON.parse(d.toString());
        if (f.event === "connect.challenge") send("connect", { minProtocol: 4, maxProtocol: 4, client: ${JSON.stringify(operatorClient)}, role: "operator", scopes: ["operator.admin", "operator.pairing"], auth: { token: ${JSON.stringify(g.token)} } });
        else if (f.id === "1") { if (!f.ok) { console.error(JSON.stringify(f)); process.exit(2); } send("device.pair.approve", { requestId: ${JSON.stringify(c.res.error.details.requestId)} }); }
        else if (f.id === "2") { console.log(JSON.stringify(f)); process.exit(f.ok ? 0 : 3); }
      });
      ws.on("error", (e) => { console.error(String(e)); process.exit(4); });`;
    const approved = spawnSync("ip", ["netns", "exec", lan.gatewayNs, process.execPath, "--input-type=module", "-e", script], {
      cwd: dirname(fileURLToPath(import.meta.url)),
      encoding: "utf8",
      timeout: 15000,
    });
    assert.equal(approved.status, 0, `loopback approval inside the gateway namespace: ${approved.stdout}${approved.stderr}`);
    c = await connect(g.wsUrl, params);
    if (!c.res.ok) throw new Error(`operator connect failed after approval: ${JSON.stringify(c.res)}`);
    return c;
  }

  function startNode(name) {
    const n = nodes[name];
    const env = serverEnv(n.state.dir, { CLAWEXEC_NODE_RECONNECT_MS: "200", CLAWEXEC_NODE_RECONNECT_MAX_MS: "1000", OPENCLAW_GATEWAY_TOKEN: g.token });
    const child = lan.spawnIn(lan.hosts[name].ns, CLAWEXEC, ["node", "run", "--host", lan.gatewayIp, "--port", String(PORT), "--display-name", `node-${name}`], {
      env,
      cwd: n.state.dir,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d.toString()));
    n.child = child;
    n.stderr = () => stderr;
    n.exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  }

  async function stopNode(name, signal = "SIGTERM") {
    const n = nodes[name];
    if (!n?.child || n.child.exitCode !== null || n.child.signalCode !== null) return;
    n.child.kill(signal);
    await Promise.race([n.exited, sleep(10000)]);
    assertNoSanitizerReport(n.stderr());
  }

  const connected = async (name) => (await admin.call("node.describe", { nodeId: nodes[name].deviceId })).payload?.connected === true;

  const agent = (agentId) => gatewayAgent(g, { agentId });

  // Lists the network interfaces of the namespace the command ran in.
  const IFACES = "ls /sys/class/net | tr '\\n' ' '";

  before(async () => {
    lan = makeLan(["a", "b"]);
    gstate = scratchDir("clawexec-gw-");
    writeFileSync(
      join(gstate.dir, "openclaw.json"),
      JSON.stringify({
        tools: { exec: { security: "full", ask: "off" } },
        agents: { entries: { ops: { tools: { exec: { node: "node-b" } } } } },
      }),
    );
    await gatewayUp();
    for (const name of ["a", "b"]) nodes[name] = { state: scratchDir(`clawexec-node-${name}-`) };
  });

  after(async () => {
    admin?.ws.close();
    for (const name of Object.keys(nodes)) await stopNode(name);
    if (g?.child.exitCode === null && g.child.signalCode === null) {
      g.child.kill("SIGTERM");
      await Promise.race([g.exited, sleep(10000)]);
    }
    lan?.down();
    gstate?.cleanup();
    for (const n of Object.values(nodes)) n.state.cleanup();
  });

  test("both nodes pair over the network: device approval, then the command surface", async () => {
    for (const name of ["a", "b"]) {
      startNode(name);
      await waitFor(() => /pairing required/.test(nodes[name].stderr()), 15000, `node ${name} asks for pairing`);
      assert.match(nodes[name].stderr(), /warning: ws:\/\/ to [0-9.]+ sends the gateway token and every command's output unencrypted; use --tls/);
      const pending = await waitFor(async () => {
        const r = await admin.call("device.pair.list", {});
        return r.payload.pending.find((p) => p.displayName === `node-${name}`);
      }, 10000, `device request of node ${name}`);
      assert.equal(pending.clientId, "node-host");
      assert.equal(pending.remoteIp, lan.hosts[name].ip, "the request names the node's own address: it came over the veth");
      nodes[name].deviceId = pending.deviceId;
      assert.equal((await admin.call("device.pair.approve", { requestId: pending.requestId })).ok, true);
      const surface = await waitFor(async () => {
        const r = await admin.call("node.pair.list", {});
        return r.payload.pending.find((p) => p.nodeId === nodes[name].deviceId);
      }, 15000, `surface request of node ${name}`);
      assert.equal(surface.requiredApproveScopes.includes("operator.admin"), true);
      assert.equal((await admin.call("node.pair.approve", { requestId: surface.requestId })).ok, true);
      await waitFor(() => connected(name), 10000, `node ${name} live`);
    }
    const list = await admin.call("node.list", {});
    const names = list.payload.nodes.filter((n) => n.connected).map((n) => n.displayName).sort();
    assert.deepEqual(names, ["node-a", "node-b"]);
  });

  test("selection: two nodes and no binding is refused; `node` picks one; the command runs in that node's namespace", async () => {
    const client = await agent();
    const several = await execText(client, { command: "true", host: "node" });
    assert.equal(several.isError, true);
    assert.match(several.text, /^exec host=node requires a node when multiple executable nodes are connected/);
    for (const name of ["a", "b"]) {
      const r = await execText(client, { command: IFACES, host: "node", node: `node-${name}` });
      assert.equal(r.isError, false, r.text);
      assert.equal(r.details.nodeId, nodes[name].deviceId);
      assert.ok(r.text.includes(lan.hosts[name].link), `${r.text} lists ${lan.hosts[name].link}`);
      const other = lan.hosts[name === "a" ? "b" : "a"].link;
      assert.ok(!r.text.includes(other), `${r.text} must not list ${other}`);
      assert.ok(!r.text.includes("br0"), "not the gateway's namespace");
    }
    await client.close();
  });

  test("binding: the per-agent node, then the global tools.exec.node through config.patch", async () => {
    const ops = await agent("ops");
    const bound = await execText(ops, { command: IFACES, host: "node" });
    assert.equal(bound.isError, false, bound.text);
    assert.equal(bound.details.nodeId, nodes.b.deviceId, "agents.entries.ops.tools.exec.node = node-b");
    const clash = await execText(ops, { command: "true", host: "node", node: "node-a" });
    assert.equal(clash.isError, true);
    assert.equal(clash.text, `exec node not allowed (bound to ${nodes.b.deviceId}, requested resolved to ${nodes.a.deviceId})`);
    await ops.close();

    const got = (await admin.call("config.get", {})).payload;
    const patched = await admin.call("config.patch", { raw: JSON.stringify({ tools: { exec: { node: "node-a" } } }), baseHash: got.hash });
    assert.equal(patched.ok, true, JSON.stringify(patched));
    const main = await agent();
    const global = await execText(main, { command: IFACES, host: "node" });
    assert.equal(global.isError, false, global.text);
    assert.equal(global.details.nodeId, nodes.a.deviceId, "tools.exec.node = node-a");
    await main.close();
  });

  test("a node whose own approvals deny refuses; the other node still runs", async () => {
    const got = await admin.call("exec.approvals.node.get", { nodeId: nodes.b.deviceId });
    assert.equal(got.ok, true, JSON.stringify(got));
    const set = await admin.call("exec.approvals.node.set", {
      nodeId: nodes.b.deviceId,
      file: { version: 1, defaults: { security: "deny", ask: "off" }, agents: {} },
      baseHash: got.payload.hash,
    });
    assert.equal(set.ok, true, JSON.stringify(set));
    const ops = await agent("ops"); // bound to node-b
    const denied = await execText(ops, { command: "echo must-not-run-on-b", host: "node" });
    assert.equal(denied.isError, true);
    assert.match(denied.text, /security=deny/);
    assert.doesNotMatch(denied.text, /must-not-run-on-b\n/);
    await ops.close();
    const main = await agent(); // bound to node-a
    const fine = await execText(main, { command: "echo still-fine-on-a", host: "node" });
    assert.equal(fine.isError, false, fine.text);
    assert.match(fine.text, /still-fine-on-a/);
    await main.close();
  });

  test("a node host killed mid-command: a clear error after the resume grace, its command gone; restarted, it is live without a new approval", async () => {
    const client = await agent();
    const started = Date.now();
    const call = execText(client, { command: "sleep 43.219; echo never", host: "node", node: "node-a" });
    await waitFor(() => pidsWith("43.219").length > 0, 8000, "the command to start on node a");
    await stopNode("a", "SIGKILL");
    const r = await call;
    assert.equal(r.isError, true);
    // A link that drops may come back (the node resumes its output); one that stays down past
    // the resume grace ends the call, saying so.
    assert.match(r.text, /^Node: [0-9a-f]+\n\[node [0-9a-f]+ disconnected and did not come back within 3 s; how the command ended is unknown\]/);
    assert.ok(Date.now() - started < 9000, "no waiting for the invoke deadline");
    await waitFor(() => pidsWith("43.219").length === 0, 8000, "the command to die with its node host");

    startNode("a");
    await waitFor(() => connected("a"), 15000, "node a back");
    const pending = await admin.call("node.pair.list", {});
    assert.equal(pending.payload.pending.length, 0, "nothing to approve again");
    const back = await execText(client, { command: "echo back-on-a", host: "node", node: "node-a" });
    assert.equal(back.isError, false, back.text);
    assert.match(back.text, /back-on-a/);
    await client.close();
  });

  test("the gateway killed with SIGKILL: the node hosts live on, reconnect to a new gateway, and leave nothing when stopped", async () => {
    const client = await agent();
    const call = execText(client, { command: "sleep 44.321", host: "node", node: "node-a" }).catch((e) => ({ error: e }));
    await waitFor(() => pidsWith("44.321").length > 0, 8000, "a command running on node a");
    admin.ws.close();
    g.child.kill("SIGKILL");
    await g.exited;
    // The agent's call died with the gateway; its client may retry for a while: not awaited.
    void call;
    await sleep(500);
    assert.equal(nodes.a.child.exitCode, null, "node a keeps running");
    assert.equal(nodes.b.child.exitCode, null, "node b keeps running");

    await gatewayUp();
    await waitFor(async () => (await connected("a")) && (await connected("b")), 15000, "both nodes reconnected");
    const fresh = await agent();
    const r = await execText(fresh, { command: "echo after-restart", host: "node", node: "node-a" });
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, /after-restart/);
    await fresh.close();
    await client.close().catch(() => {});

    for (const name of ["a", "b"]) await stopNode(name);
    assert.deepEqual(pidsWith("44.321"), [], "the command the dead gateway left running did not outlive its node host");
    for (const name of ["a", "b"]) {
      assert.deepEqual(pidsWith(`node-${name}`), [], `node host ${name} is gone`);
    }
  });
});
