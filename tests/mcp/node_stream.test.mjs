// Streamed node sessions (the clawexec.exec-stream extension between our gateway and our node
// host): `exec host=node` on a clawexec node is a session of the gateway fed by the node, so
// the yield window, `background`, `pty` and the `process` actions (poll, log, write,
// send-keys, kill) work on it as on the gateway host. The node reaches the gateway through a
// TCP relay this test can cut, which is how network loss looks to both ends: output produced
// while the link is down arrives once it is back, exactly once and in order. A node host that
// restarts, a gateway that restarts, and a gateway that never comes back each end the
// session's command instead of leaving it running for nobody.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer, connect as tcpConnect } from "node:net";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { scratchDir, sleep, waitFor } from "./lib/harness.mjs";
import { operator } from "./lib/gateway.mjs";
import { agent, execText, pidsWith, freePort, startGatewayOn, startNode } from "./lib/nodes.mjs";

// A TCP relay from a local port to `target`; cut() drops every connection and refuses new
// ones until restore().
async function relay(targetPort) {
  const sockets = new Set();
  let open = true;
  const server = createServer((inbound) => {
    if (!open) return inbound.destroy();
    const outbound = tcpConnect(targetPort, "127.0.0.1");
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on("error", () => {});
      s.on("close", () => {
        sockets.delete(s);
        inbound.destroy();
        outbound.destroy();
      });
    }
    inbound.pipe(outbound);
    outbound.pipe(inbound);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: server.address().port,
    cut() {
      open = false;
      for (const s of sockets) s.destroy();
    },
    restore() {
      open = true;
    },
    close() {
      open = false;
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

async function callTool(client, name, args) {
  const r = await client.callTool({ name, arguments: args });
  return { text: r.content.map((c) => c.text).join(""), details: r.structuredContent, isError: r.isError === true };
}

const sessionOf = (text) => /session ([\w-]+)/.exec(text)?.[1];

// Polls `session` until it has exited; returns the whole log.
async function untilExited(client, session, limitMs = 20000) {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    const p = await callTool(client, "process", { action: "poll", sessionId: session, timeout: 2000 });
    if (p.details?.status && p.details.status !== "running") {
      const log = await callTool(client, "process", { action: "log", sessionId: session, limit: 100000 });
      return { poll: p, log: log.text };
    }
  }
  throw new Error(`session ${session} did not exit within ${limitMs} ms`);
}

describe("streamed node sessions", { concurrency: false }, () => {
  let port, gstate, g, nstate, node, link, deviceId, admin;

  async function nodeUp(extraEnv = {}) {
    node = startNode(link.port, nstate.dir, g.token, [], extraEnv);
    await waitFor(async () => {
      const list = await admin.call("node.list", {});
      const n = list.payload?.nodes?.find((x) => x.connected);
      deviceId = n?.nodeId;
      return n;
    }, 15000, "node connected");
  }

  async function stopNode(signal = "SIGTERM") {
    if (!node || node.child.exitCode !== null || node.child.signalCode !== null) return;
    node.child.kill(signal);
    await Promise.race([node.exited, sleep(10000)]);
  }

  before(async () => {
    port = await freePort();
    gstate = scratchDir("clawexec-gw-");
    writeFileSync(join(gstate.dir, "openclaw.json"), JSON.stringify({ tools: { exec: { security: "full", ask: "off" } } }));
    g = await startGatewayOn(port, gstate);
    admin = await operator(g, ["operator.admin"]);
    link = await relay(port);
    nstate = scratchDir("clawexec-node-");
    await nodeUp();
    const list = await admin.call("node.list", {});
    assert.ok(list.payload.nodes[0].caps.includes("clawexec.exec-stream"), JSON.stringify(list.payload.nodes[0]));
  });

  after(async () => {
    admin?.ws.close();
    await stopNode();
    link?.close();
    if (g) await g.stop();
    gstate?.cleanup();
    nstate?.cleanup();
  });

  test("yieldMs: the call answers while the command runs on the node; poll follows it to its end", async () => {
    const client = await agent(g);
    const r = await execText(client, { command: "echo first; sleep 1.2; echo second; exit 4", host: "node", yieldMs: 300 });
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, new RegExp(`^Node: ${deviceId}\\nCommand still running \\(session [\\w-]+, pid \\d+\\)`));
    assert.equal(r.details.nodeId, deviceId);
    const session = sessionOf(r.text);
    const { poll, log } = await untilExited(client, session);
    assert.match(log, /first\nsecond/);
    assert.equal(poll.details.exitCode, 4, JSON.stringify(poll.details));
    const list = await callTool(client, "process", { action: "list" });
    assert.match(list.text, new RegExp(session));
    await client.close();
  });

  test("background: a piped command's stdin is closed, as on the gateway host; a terminal's takes input and EOF", async () => {
    const client = await agent(g);
    const piped = await execText(client, { command: "sleep 1", host: "node", background: true });
    const w1 = await callTool(client, "process", { action: "write", sessionId: sessionOf(piped.text), data: "x\n" });
    assert.equal(w1.isError, true);
    assert.match(w1.text, /stdin is not writable/);
    const r = await execText(client, { command: "while read l; do echo got:$l; done; echo done-reading", host: "node", pty: true, background: true });
    const session = sessionOf(r.text);
    assert.ok(session, r.text);
    const w = await callTool(client, "process", { action: "write", sessionId: session, data: "alpha\nbeta\n", eof: true });
    assert.equal(w.isError, false, w.text);
    const { log } = await untilExited(client, session);
    assert.match(log, /got:alpha[\s\S]*got:beta[\s\S]*done-reading/);
    await client.close();
  });

  test("pty: the command has a terminal on the node; send-keys types into it", async () => {
    const client = await agent(g);
    const r = await execText(client, { command: "test -t 0 && echo is-a-tty; read x; echo typed:$x", host: "node", pty: true, background: true });
    const session = sessionOf(r.text);
    assert.ok(session, r.text);
    await waitFor(async () => /is-a-tty/.test((await callTool(client, "process", { action: "log", sessionId: session })).text), 8000, "the tty check");
    const k = await callTool(client, "process", { action: "send-keys", sessionId: session, literal: "hello", keys: ["Enter"] });
    assert.equal(k.isError, false, k.text);
    const { log } = await untilExited(client, session);
    assert.match(log, /typed:hello/);
    await client.close();
  });

  test("process kill stops the command's tree on the node", async () => {
    const client = await agent(g);
    const r = await execText(client, { command: "sleep 52.341 & sleep 52.341; wait", host: "node", background: true });
    const session = sessionOf(r.text);
    await waitFor(() => pidsWith("sleep 52.341").length >= 2, 8000, "the command on the node");
    const k = await callTool(client, "process", { action: "kill", sessionId: session });
    assert.equal(k.isError, false, k.text);
    await waitFor(() => pidsWith("52.341").length === 0, 10000, "the killed tree to be gone");
    const { poll } = await untilExited(client, session);
    assert.notEqual(poll.details.status, "running");
    await client.close();
  });

  test("output far past the plain protocol's 200 000 bytes arrives whole, in order", async () => {
    const client = await agent(g);
    const r = await execText(client, { command: "seq 1 300000 | sha256sum; seq 1 300000 | tail -n 1", host: "node", timeoutSeconds: 60 });
    assert.equal(r.isError, false, r.text);
    const expected = (await execText(client, { command: "seq 1 300000 | sha256sum", host: "gateway" })).text.trim();
    assert.match(r.text, new RegExp(`${expected.split(" ")[0]}[\\s\\S]*\\n300000$`));
    // And the stream itself: 2 MB of lines, the session's tail ends at the last one.
    const big = await execText(client, { command: "seq 1 300000", host: "node", background: true });
    const { log } = await untilExited(client, sessionOf(big.text), 30000);
    assert.match(log, /\n299999\n300000$/);
    await client.close();
  });

  test("network loss mid-run: output made while the link was down arrives after the reconnect, once, in order", async () => {
    const client = await agent(g);
    const r = await execText(client, { command: "for i in $(seq 1 40); do echo line$i; sleep 0.05; done", host: "node", background: true });
    const session = sessionOf(r.text);
    await waitFor(async () => /line3\n/.test((await callTool(client, "process", { action: "log", sessionId: session })).text), 8000, "first lines");
    link.cut();
    await sleep(1500);
    link.restore();
    const { log, poll } = await untilExited(client, session, 30000);
    const lines = log.trim().split("\n");
    assert.deepEqual(lines, Array.from({ length: 40 }, (_, i) => `line${i + 1}`));
    assert.equal(poll.details.exitCode, 0);
    await client.close();
  });

  test("a node host that restarts: its session ends at once with that said, the command gone", async () => {
    const client = await agent(g);
    const r = await execText(client, { command: "sleep 53.217", host: "node", background: true });
    const session = sessionOf(r.text);
    await waitFor(() => pidsWith("53.217").length > 0, 8000, "the command on the node");
    await stopNode("SIGKILL");
    await waitFor(() => pidsWith("53.217").length === 0, 8000, "the command to die with its node host");
    await nodeUp();
    const { log } = await untilExited(client, session, 10000);
    assert.match(log, /came back without this session \(its node host restarted\)/);
    await client.close();
  });

  test("a gateway restart: the node stops the command nobody follows any more", async () => {
    const client = await agent(g);
    const r = await execText(client, { command: "while true; do echo tick54.1; sleep 0.2; done", host: "node", background: true });
    assert.ok(sessionOf(r.text), r.text);
    await waitFor(() => pidsWith("tick54.1").length > 0, 8000, "the command on the node");
    await client.close().catch(() => {});
    admin.ws.close();
    await g.stop();
    g = await startGatewayOn(port, gstate);
    admin = await operator(g, ["operator.admin"]);
    await waitFor(() => pidsWith("tick54.1").length === 0, 15000, "the orphaned command to be stopped by its node");
    await waitFor(() => /streamed session [\w-]+ stopped: the gateway refused its output/.test(node.stderr()), 5000, "the node's log line");
  });

  test("a gateway that never comes back: the node stops its streamed commands after the detached limit", async () => {
    await stopNode();
    await nodeUp({ CLAWEXEC_NODE_DETACHED_LIMIT_MS: "1500" });
    const client = await agent(g);
    const r = await execText(client, { command: "sleep 55.432", host: "node", background: true });
    assert.ok(sessionOf(r.text), r.text);
    await waitFor(() => pidsWith("55.432").length > 0, 8000, "the command on the node");
    link.cut();  // the gateway is unreachable from now on
    await waitFor(() => pidsWith("55.432").length === 0, 10000, "the detached command to be stopped");
    await waitFor(() => /stopped: the gateway stayed away for 1 s/.test(node.stderr()), 5000, "the node's log line");
    assert.equal(node.child.exitCode, null, "the node host itself keeps running");
    link.restore();
    await client.close().catch(() => {});
  });
});
