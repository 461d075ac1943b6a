// Node host measurements (issue 14): `exec host=node` of `true` through `clawexec gateway` and
// `clawexec node run` on this machine (one MCP session over streamable HTTP, p50/p90), against
// the same session's `exec true` on the gateway host, and the node host's idle RSS once live.
// Then `--mb` MB (default 100) of output through a streamed node session (background exec,
// followed with process poll to its end) against the same command on the gateway host, with
// the node host's and the gateway's peak RSS while it streams.
// Usage: node bench/node_bench.mjs --bin build-rel/bin/clawexec [--n 200] [--mb 100]
// Prints one JSON object. Needs tests/mcp's node_modules (the MCP SDK).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const BIN = resolve(opt("bin", "build-rel/bin/clawexec"));
const N = Number(opt("n", 200));
const MB = Number(opt("mb", 100));
const require = createRequire(resolve("tests/mcp/package.json"));
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport } = require("@modelcontextprotocol/sdk/client/streamableHttp.js");

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const rssKb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]);
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

function start(argv, state) {
  const env = { ...process.env, OPENCLAW_STATE_DIR: state, HOME: state, SHELL: "/bin/bash", OPENCLAW_CONFIG_PATH: join(state, "openclaw.json") };
  const child = spawn(BIN, argv, { env, cwd: state, stdio: ["ignore", "ignore", "pipe"] });
  const p = { child, stderr: "" };
  child.stderr.on("data", (d) => (p.stderr += d));
  return p;
}

async function until(pred) {
  for (let i = 0; i < 3000 && !pred(); i++) await sleep(5);
  if (!pred()) throw new Error("timed out");
}

const gwState = mkdtempSync(join(tmpdir(), "nodebench-gw-"));
const nodeState = mkdtempSync(join(tmpdir(), "nodebench-node-"));
writeFileSync(join(gwState, "openclaw.json"), JSON.stringify({ tools: { exec: { security: "full", ask: "off" } } }));
writeFileSync(join(nodeState, "openclaw.json"), "{}");
const gw = start(["gateway", "--port", "0"], gwState);
await until(() => /listening on (http:\/\/\S+) /.test(gw.stderr));
const url = /listening on (http:\/\/\S+) /.exec(gw.stderr)[1];
const token = readFileSync(join(gwState, "gateway", "token"), "utf8").trim();
const node = start(["node", "run", "--port", new URL(url).port, "--token", token], nodeState);
await until(() => /connected to gateway/.test(node.stderr));
await sleep(1000);
const liveRss = rssKb(node.child.pid);  // live and idle, before any command

const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
// Details (status, exitCode) come as structuredContent only to a client that asks for them.
const client = new Client({ name: "bench", version: "1" }, { capabilities: { experimental: { "clawexec/structuredContent": {} } } });
await client.connect(transport);
async function loop(extra) {
  for (let i = 0; i < 10; i++) await client.callTool({ name: "exec", arguments: { command: "true", ...extra } });
  const ms = [];
  for (let i = 0; i < N; i++) {
    const t = performance.now();
    const r = await client.callTool({ name: "exec", arguments: { command: "true", ...extra } });
    ms.push(performance.now() - t);
    if (r.isError) throw new Error(r.content[0].text);
  }
  return { p50: +pct(ms, 50).toFixed(3), p90: +pct(ms, 90).toFixed(3) };
}
const viaNode = await loop({ host: "node" });
const onGateway = await loop({ host: "gateway" });
await sleep(1000);
const idleRss = rssKb(node.child.pid);

// MB megabytes of 100-byte lines, backgrounded at once, polled until the session has exited.
async function stream(host) {
  const command = `yes "$(printf '%099d' 0)" | head -c ${MB * 1000 * 1000}; echo end-of-stream`;
  let peakNode = 0, peakGw = 0;
  const sampler = setInterval(() => {
    peakNode = Math.max(peakNode, rssKb(node.child.pid));
    peakGw = Math.max(peakGw, rssKb(gw.child.pid));
  }, 20);
  const t = performance.now();
  const r = await client.callTool({ name: "exec", arguments: { command, host, background: true, timeoutSeconds: 600 } });
  const session = /session ([\w-]+)/.exec(r.content[0].text)?.[1];
  if (!session) throw new Error(r.content[0].text);
  for (;;) {
    const p = await client.callTool({ name: "process", arguments: { action: "poll", sessionId: session, timeout: 5000 } });
    if (p.structuredContent?.status && p.structuredContent.status !== "running") {
      if (p.structuredContent.exitCode !== 0) throw new Error(JSON.stringify(p.structuredContent));
      break;
    }
  }
  const ms = performance.now() - t;
  clearInterval(sampler);
  const tail = await client.callTool({ name: "process", arguments: { action: "log", sessionId: session } });
  if (!/end-of-stream/.test(tail.content[0].text)) throw new Error("the stream's end is missing: " + tail.content[0].text.slice(-200));
  return { seconds: +(ms / 1000).toFixed(2), mbPerSecond: +(MB / (ms / 1000)).toFixed(1), peakNodeRssKb: peakNode, peakGatewayRssKb: peakGw };
}
const streamNode = await stream("node");
const streamGateway = await stream("gateway");
const out = { n: N, execTrueHostNodeMs: viaNode, execTrueHostGatewayMs: onGateway, nodeLiveRssKb: liveRss, nodeIdleRssKb: idleRss, mb: MB, streamHostNode: streamNode, streamHostGateway: streamGateway };
await client.close();
node.child.kill("SIGTERM");
gw.child.kill("SIGTERM");
await sleep(500);
rmSync(gwState, { recursive: true, force: true });
rmSync(nodeState, { recursive: true, force: true });
console.log(JSON.stringify(out));
