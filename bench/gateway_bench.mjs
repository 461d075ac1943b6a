// Gateway measurements, side by side in one run (bench/RESULTS.md "Issue 13"):
//   * start: spawn of `clawexec gateway` -> first answer of GET /healthz, and its idle RSS;
//   * latency: `exec true` round trips over streamable HTTP (one session, keep-alive) against
//     the same over stdio (`clawexec serve`), p50/p90;
//   * parallel: 200 sessions each running `--per` execs at once: total calls per second;
//   * ws: gateway RSS with 1000 authenticated idle operator WebSocket connections;
//   * floors: the same client loops against do-nothing peers in another process (a Node HTTP
//     server and a Node line echo that answer each call with a canned result at once), so the
//     client's and the transport's share of each round trip can be subtracted, leaving what
//     the gateway itself adds over stdio.
// Usage: node bench/gateway_bench.mjs --bin build-rel/bin/clawexec [--n 300] [--per 5]
// Prints one JSON object. Needs tests/mcp's node_modules (ws) for the WebSocket part.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const BIN = resolve(opt("bin", "build-rel/bin/clawexec"));
const N = Number(opt("n", 300));
const PER = Number(opt("per", 5));
const require = createRequire(resolve("tests/mcp/package.json"));
const WebSocket = require("ws");

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const rssKb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]);
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

function env(state) {
  return { ...process.env, OPENCLAW_STATE_DIR: state, HOME: state, SHELL: "/bin/bash", OPENCLAW_CONFIG_PATH: join(state, "none.json") };
}

async function startGateway() {
  const state = mkdtempSync(join(tmpdir(), "gwbench-"));
  const t0 = performance.now();
  const child = spawn(BIN, ["gateway", "--port", "0"], { env: env(state), stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  let url;
  while (!(url = /listening on (http:\/\/\S+) /.exec(stderr)?.[1])) await sleep(1);
  for (;;) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {}
    await sleep(1);
  }
  const startMs = performance.now() - t0;
  const token = readFileSync(join(state, "gateway", "token"), "utf8").trim();
  return { child, url, token, startMs, stop: () => (child.kill("SIGTERM"), sleep(300).then(() => rmSync(state, { recursive: true, force: true }))) };
}

async function httpSession(g) {
  const headers = { Authorization: `Bearer ${g.token}`, "Content-Type": "application/json", Accept: "application/json" };
  let sid;
  let id = 0;
  const rpc = async (method, params) => {
    const r = await fetch(`${g.url}/mcp`, {
      method: "POST",
      headers: sid ? { ...headers, "Mcp-Session-Id": sid } : headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
    });
    sid ??= r.headers.get("mcp-session-id");
    return r.json();
  };
  await rpc("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } });
  return { rpc, exec: (command) => rpc("tools/call", { name: "exec", arguments: { command } }) };
}

async function stdioLatency(command = [BIN, ["serve"]]) {
  const state = mkdtempSync(join(tmpdir(), "gwbench-stdio-"));
  const child = spawn(command[0], command[1], { env: env(state), stdio: ["pipe", "pipe", "ignore"] });
  let buf = "";
  const waiting = new Map();
  child.stdout.on("data", (d) => {
    buf += d;
    let nl;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const msg = JSON.parse(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
      waiting.get(msg.id)?.(msg);
    }
  });
  let id = 0;
  const rpc = (method, params) =>
    new Promise((res) => {
      const n = ++id;
      waiting.set(n, res);
      child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: n, method, params }) + "\n");
    });
  await rpc("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } });
  const times = [];
  for (let i = 0; i < N + 20; i++) {
    const t = performance.now();
    await rpc("tools/call", { name: "exec", arguments: { command: "true" } });
    if (i >= 20) times.push(performance.now() - t);
  }
  child.stdin.end();
  await sleep(300);
  rmSync(state, { recursive: true, force: true });
  return times;
}

// A do-nothing peer in a child process: HTTP (answers POST /mcp) or stdio (answers each line).
const CANNED = `{"content":[{"type":"text","text":"(no output)"}],"structuredContent":{"status":"completed","exitCode":0}}`;
const FLOOR_HTTP = `const http=require("http");let n=0;http.createServer((q,r)=>{let b="";q.on("data",d=>b+=d);q.on("end",()=>{const m=JSON.parse(b);r.writeHead(200,{"Content-Type":"application/json","Mcp-Session-Id":"floor"});r.end('{"jsonrpc":"2.0","id":'+JSON.stringify(m.id)+',"result":${CANNED}}')})}).listen(0,"127.0.0.1",function(){console.log(this.address().port)})`;
const FLOOR_STDIO = `let b="";process.stdin.on("data",d=>{b+=d;let i;while((i=b.indexOf("\\n"))>=0){const m=JSON.parse(b.slice(0,i));b=b.slice(i+1);process.stdout.write('{"jsonrpc":"2.0","id":'+JSON.stringify(m.id)+',"result":${CANNED}}\\n')}})`;

async function floorHttp() {
  const child = spawn(process.execPath, ["-e", FLOOR_HTTP], { stdio: ["ignore", "pipe", "ignore"] });
  const port = await new Promise((res) => child.stdout.once("data", (d) => res(Number(String(d).trim()))));
  const s = await httpSession({ url: `http://127.0.0.1:${port}`, token: "floor" });
  const times = [];
  for (let i = 0; i < N + 20; i++) {
    const t = performance.now();
    await s.exec("true");
    if (i >= 20) times.push(performance.now() - t);
  }
  child.kill();
  return times;
}

async function floorStdio() {
  return stdioLatency([process.execPath, ["-e", FLOOR_STDIO]]);
}

const out = { date: new Date().toISOString(), bin: BIN, n: N };
const g = await startGateway();
out.startMs = +g.startMs.toFixed(1);
await sleep(500);
out.idleRssMb = +(rssKb(g.child.pid) / 1024).toFixed(1);

const s = await httpSession(g);
const http = [];
for (let i = 0; i < N + 20; i++) {
  const t = performance.now();
  await s.exec("true");
  if (i >= 20) http.push(performance.now() - t);
}
const stdio = await stdioLatency();
out.execTrueHttp = { p50: +pct(http, 50).toFixed(3), p90: +pct(http, 90).toFixed(3) };
out.execTrueStdio = { p50: +pct(stdio, 50).toFixed(3), p90: +pct(stdio, 90).toFixed(3) };
out.httpMinusStdioP50Ms = +(out.execTrueHttp.p50 - out.execTrueStdio.p50).toFixed(3);
const fh = await floorHttp();
const fs = await floorStdio();
out.floorHttp = { p50: +pct(fh, 50).toFixed(3) };
out.floorStdio = { p50: +pct(fs, 50).toFixed(3) };
// What the gateway adds over `clawexec serve`, with the client's and transport's floors removed.
out.serverSideHttpMinusStdioP50Ms = +((out.execTrueHttp.p50 - out.floorHttp.p50) - (out.execTrueStdio.p50 - out.floorStdio.p50)).toFixed(3);

const sessions = await Promise.all(Array.from({ length: 200 }, () => httpSession(g)));
const t0 = performance.now();
await Promise.all(sessions.map(async (x) => {
  for (let i = 0; i < PER; i++) await x.exec("true");
}));
const wall = performance.now() - t0;
out.parallel200 = { calls: 200 * PER, wallMs: +wall.toFixed(0), callsPerSec: +((200 * PER) / (wall / 1000)).toFixed(0) };
out.rssAfter200SessionsMb = +(rssKb(g.child.pid) / 1024).toFixed(1);

const sockets = [];
for (let b = 0; b < 10; b++) {
  sockets.push(...(await Promise.all(Array.from({ length: 100 }, () => new Promise((res, rej) => {
    const ws = new WebSocket(g.url.replace("http:", "ws:"));
    ws.on("error", rej);
    ws.on("message", (d) => {
      const f = JSON.parse(d.toString());
      if (f.event === "connect.challenge") {
        ws.send(JSON.stringify({ type: "req", id: "c", method: "connect", params: { minProtocol: 4, maxProtocol: 4, client: { id: "cli", version: "b", platform: "linux", mode: "cli" }, scopes: ["operator.read"], auth: { token: g.token } } }));
      } else if (f.id === "c") res(ws);
    });
  })))));
}
await sleep(500);
out.rssWith1000WsMb = +(rssKb(g.child.pid) / 1024).toFixed(1);
for (const ws of sockets) ws.terminate();
await g.stop();
console.log(JSON.stringify(out, null, 2));
