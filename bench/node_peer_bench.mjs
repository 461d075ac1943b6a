// Node hosts side by side (issue 14): the same operator client sends `node.invoke system.run`
// of `/bin/sh -lc true` (the argv `exec host=node` sends) through a gateway to a node host on
// this machine, for each pairing of gateway (clawexec | OpenClaw 2026.9.6) and node host
// (clawexec | OpenClaw), and reads each node host's idle RSS once it is live (OpenClaw's node
// host: its process tree). One run, one machine, so the rows compare.
// Usage: node bench/node_peer_bench.mjs --bin build-rel/bin/clawexec [--n 100]
// Needs tests/mcp's node_modules (ws) and the reference OpenClaw (install-reference.sh).
// Prints one JSON object; bench/RESULTS.md records a run.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const BIN = resolve(opt("bin", "build-rel/bin/clawexec"));
const N = Number(opt("n", 100));
const REF = process.env.CLAWOC_REF ?? join(process.env.HOME ?? "/root", ".cache/clawexec-reference");
const OC_NODE = join(REF, "node24/package/bin/node");
const OC = join(REF, "openclaw/node_modules/openclaw/openclaw.mjs");
const require = createRequire(resolve("tests/mcp/package.json"));
const WebSocket = require("ws");
const TOKEN = "tok-clawexec-node-bench-0123456789abcdef";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const round = (x) => Math.round(x * 1000) / 1000;

function freePort() {
  return new Promise((res) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const p = s.address().port;
      s.close(() => res(p));
    });
  });
}

// VmRSS of `pid` and all its descendants, in MB.
function treeRssMb(pid) {
  const parent = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {}
  }
  let kb = 0;
  for (const [p] of parent) {
    let q = p;
    while (q && q !== pid && parent.has(q)) q = parent.get(q);
    if (q !== pid) continue;
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0);
    } catch {}
  }
  return round(kb / 1024);
}

// A minimal operator client of OpenClaw's protocol (shared token, loopback, no device).
async function operator(port) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}`);
  const waiting = new Map();
  let n = 0;
  let hello;
  const ready = new Promise((res, rej) => {
    ws.on("error", rej);
    ws.on("message", (d) => {
      const f = JSON.parse(d.toString());
      if (f.event === "connect.challenge") {
        ws.send(JSON.stringify({ type: "req", id: "c", method: "connect", params: { minProtocol: 4, maxProtocol: 4, client: { id: "cli", version: "bench", platform: "linux", mode: "cli" }, role: "operator", scopes: ["operator.admin", "operator.pairing", "operator.write", "operator.read"], auth: { token: TOKEN } } }));
      } else if (f.id === "c") {
        hello = f;
        f.ok ? res() : rej(new Error(JSON.stringify(f.error)));
      } else if (f.type === "res" && waiting.has(f.id)) {
        waiting.get(f.id)(f);
        waiting.delete(f.id);
      }
    });
  });
  await ready;
  return {
    hello,
    call(method, params) {
      const id = `b${++n}`;
      ws.send(JSON.stringify({ type: "req", id, method, params }));
      return new Promise((res) => waiting.set(id, res));
    },
    close: () => ws.close(),
  };
}

async function until(what, pred, ms = 120000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await pred();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await sleep(300);
  }
}

function ocEnv(state, extra = {}) {
  return { PATH: "/usr/bin:/bin", HOME: join(state, "home"), OPENCLAW_STATE_DIR: state, OPENCLAW_CONFIG_PATH: join(state, "openclaw.json"),
    OPENCLAW_NO_AUTO_UPDATE: "1", OPENCLAW_DISABLE_BONJOUR: "1", NO_COLOR: "1", ...extra };
}

async function startGateway(kind) {
  const port = await freePort();
  const state = mkdtempSync(join(tmpdir(), `nodepeer-gw-${kind}-`));
  mkdirSync(join(state, "home"));
  const config = kind === "openclaw"
    ? { gateway: { mode: "local", bind: "loopback", port, auth: { mode: "token", token: TOKEN }, nodes: { pairing: { autoApproveLocal: false, sshVerify: false } } },
        update: { checkOnStart: false }, discovery: { mdns: { mode: "off" } }, models: { catalogRefresh: { enabled: false } } }
    : { gateway: { auth: { mode: "token", token: TOKEN }, nodes: { pairing: { autoApproveLocal: false } } }, tools: { exec: { security: "full", ask: "off" } } };
  writeFileSync(join(state, "openclaw.json"), JSON.stringify(config));
  const child = kind === "openclaw"
    ? spawn(OC_NODE, [OC, "gateway", "run", "--port", String(port), "--bind", "loopback"], { env: ocEnv(state), cwd: join(state, "home"), stdio: "ignore" })
    : spawn(BIN, ["gateway", "--port", String(port)], { env: { ...ocEnv(state), SHELL: "/bin/bash" }, cwd: state, stdio: "ignore" });
  await until(`${kind} gateway`, async () => {
    try {
      const c = await operator(port);
      c.close();
      return true;
    } catch {
      return false;
    }
  });
  return { kind, port, state, child };
}

function startNode(kind, gw, state) {
  const common = ["node", "run", "--host", "127.0.0.1", "--port", String(gw.port), "--display-name", `bench-${kind}`];
  return kind === "openclaw"
    ? spawn(OC_NODE, [OC, ...common, "--commands", "system.run,system.run.prepare,system.which,system.execApprovals.get,system.execApprovals.set"],
        { env: ocEnv(state, { OPENCLAW_GATEWAY_TOKEN: TOKEN }), cwd: join(state, "home"), stdio: "ignore", detached: true })
    : spawn(BIN, common, { env: { ...ocEnv(state, { OPENCLAW_GATEWAY_TOKEN: TOKEN }), SHELL: "/bin/sh", CLAWEXEC_NODE_RECONNECT_MS: "300" }, cwd: state, stdio: "ignore", detached: true });
}

// Pairs a node host of `kind` with `gw` (device, then the surface; OpenClaw's node host is
// restarted after its device approval, as it must be) and returns { nodeId, child }.
async function pairNode(kind, gw, op) {
  const state = mkdtempSync(join(tmpdir(), `nodepeer-node-${kind}-`));
  mkdirSync(join(state, "home"));
  writeFileSync(join(state, "openclaw.json"), JSON.stringify({ update: { checkOnStart: false }, models: { catalogRefresh: { enabled: false } } }));
  let child = startNode(kind, gw, state);
  const device = await until("device request", async () => {
    const r = await op.call("device.pair.list", {});
    return r.payload?.pending?.find((p) => p.displayName === `bench-${kind}`);
  });
  await op.call("device.pair.approve", { requestId: device.requestId });
  const nodeId = device.deviceId;
  let restarted = false;
  await until("node live", async () => {
    const pend = await op.call("node.pair.list", {});
    const s = pend.payload?.pending?.find((p) => p.nodeId === nodeId);
    if (s) await op.call("node.pair.approve", { requestId: s.requestId });
    const d = await op.call("node.describe", { nodeId });
    if (d.payload?.connected && d.payload.commands?.includes("system.run")) return true;
    if (kind === "openclaw" && !restarted && !d.payload?.connected) {
      restarted = true;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
      await sleep(500);
      child = startNode(kind, gw, state);
    }
    return false;
  }, 180000);
  return { nodeId, child, state };
}

async function measure(op, nodeId) {
  const run = (i) => op.call("node.invoke", { nodeId, command: "system.run", params: { command: ["/bin/sh", "-lc", "true"], rawCommand: "true", timeoutMs: 10000, agentId: "main", sessionKey: "agent:main:main", runId: `bench-${i}` }, timeoutMs: 20000, idempotencyKey: `bench-${i}-${Math.random()}` });
  for (let i = 0; i < 10; i++) {
    const r = await run(`w${i}`);
    if (!r.ok) throw new Error(`system.run failed: ${JSON.stringify(r.error)}`);
  }
  const times = [];
  for (let i = 0; i < N; i++) {
    const t0 = process.hrtime.bigint();
    const r = await run(i);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (!r.ok) throw new Error(`system.run failed: ${JSON.stringify(r.error)}`);
  }
  return { p50: round(pct(times, 50)), p90: round(pct(times, 90)) };
}

const out = { date: new Date().toISOString(), n: N, bin: BIN, rows: [] };
const cleanup = [];
try {
  for (const gwKind of ["clawexec", "openclaw"]) {
    const gw = await startGateway(gwKind);
    cleanup.push(() => gw.child.kill("SIGKILL"), () => rmSync(gw.state, { recursive: true, force: true }));
    const op = await operator(gw.port);
    for (const nodeKind of ["clawexec", "openclaw"]) {
      const node = await pairNode(nodeKind, gw, op);
      await sleep(3000);  // settled: startup publications done
      const rss = treeRssMb(node.child.pid);
      const t = await measure(op, node.nodeId);
      out.rows.push({ gateway: gwKind, node: nodeKind, systemRunTrueMs: t, nodeIdleRssMb: rss });
      try {
        process.kill(-node.child.pid, "SIGKILL");
      } catch {}
      rmSync(node.state, { recursive: true, force: true });
      console.error(JSON.stringify(out.rows.at(-1)));
    }
    op.close();
    gw.child.kill("SIGKILL");
  }
} finally {
  for (const c of cleanup) {
    try {
      c();
    } catch {}
  }
}
console.log(JSON.stringify(out, null, 2));
process.exit(0);
