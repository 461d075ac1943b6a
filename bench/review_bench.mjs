// The exec auto-reviewer's cost (issue 16): `exec ls /` through `clawexec serve` in two servers
// run side by side against the same loopback stub model (tests/mcp/lib/stub_model.mjs):
//   allowlisted  mode ask, /usr/bin/ls allowlisted: runs without any review (the baseline)
//   reviewed     mode auto, every call reviewed by the stub answering allow/low at once
// It reports each server's exec latency (p50/p90), and from the reviewed server's audit records
// (<state>/logs/exec-reviews.jsonl: latencyUs, modelUs) the review's time outside the model call
// and the model call itself, plus how many model requests each command made.
//
// Usage: node bench/review_bench.mjs [--bin build/bin/clawexec] [--n 300]
// Prints one JSON object.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const BIN = resolve(opt("bin", "build/bin/clawexec"));
const N = Number(opt("n", "300"));
const root = resolve(fileURLToPath(import.meta.url), "../..");
const require = createRequire(join(root, "tests/mcp/package.json"));
const { Client } = await import(require.resolve("@modelcontextprotocol/sdk/client/index.js"));
const { StdioClientTransport } = await import(require.resolve("@modelcontextprotocol/sdk/client/stdio.js"));
const { startStubModel } = await import(join(root, "tests/mcp/lib/stub_model.mjs"));

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

async function server(config, approvals) {
  const dir = mkdtempSync(join(tmpdir(), "clawexec-review-bench-"));
  writeFileSync(join(dir, "openclaw.json"), JSON.stringify(config));
  writeFileSync(join(dir, "exec-approvals.json"), JSON.stringify(approvals));
  const env = { ...process.env, SHELL: "/bin/bash", OPENCLAW_STATE_DIR: dir };
  delete env.OPENCLAW_CONFIG_PATH;
  const transport = new StdioClientTransport({ command: BIN, args: ["serve"], env, cwd: dir, stderr: "ignore" });
  const client = new Client({ name: "review-bench", version: "1" }, { capabilities: { experimental: { "clawexec/structuredContent": {} } } });
  await client.connect(transport);
  return { dir, client, close: async () => { await client.close(); rmSync(dir, { recursive: true, force: true }); } };
}

async function timed(s, n, before = () => {}) {
  const ms = [];
  for (let i = 0; i < n; i++) {
    before();
    const t = process.hrtime.bigint();
    const r = await s.client.callTool({ name: "exec", arguments: { command: "ls /" } });
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (r.structuredContent?.status !== "completed") throw new Error(`exec did not complete: ${r.content?.[0]?.text}`);
  }
  return ms;
}

const stub = await startStubModel();
const allowed = await server({ tools: { exec: { mode: "ask" } } }, { version: 1, agents: { main: { allowlist: [{ pattern: "/usr/bin/ls" }] } } });
const reviewed = await server({
  tools: { exec: { mode: "auto", reviewer: { model: "stub/script", timeoutMs: 10000 } } },
  models: { providers: { stub: { baseUrl: `http://127.0.0.1:${stub.port}/v1`, api: "openai-completions", apiKey: "bench", models: [{ id: "script", name: "script" }] } } },
}, { version: 1, agents: {} });
const allow = () => stub.script.push({ text: JSON.stringify({ decision: "allow", risk: "low", rationale: "lists a directory" }) });
try {
  await timed(allowed, 20);
  await timed(reviewed, 20, allow);
  const before = stub.requests.length;
  // Interleaved rounds, so both servers see the same machine load.
  const a = [];
  const b = [];
  for (let round = 0; round < 10; round++) {
    a.push(...(await timed(allowed, N / 10)));
    b.push(...(await timed(reviewed, N / 10, allow)));
  }
  const requests = stub.requests.length - before;
  await new Promise((r) => setTimeout(r, 300));  // the last audit records are written off the io thread
  const records = readFileSync(join(reviewed.dir, "logs", "exec-reviews.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l)).slice(-N);
  const outside = records.map((r) => (r.latencyUs - r.modelUs) / 1000);
  const model = records.map((r) => r.modelUs / 1000);
  console.log(JSON.stringify({
    n: N,
    execAllowlistedMs: { p50: pct(a, 50), p90: pct(a, 90) },
    execReviewedMs: { p50: pct(b, 50), p90: pct(b, 90) },
    reviewOutsideModelCallMs: { p50: pct(outside, 50), p90: pct(outside, 90), max: Math.max(...outside) },
    modelCallMs: { p50: pct(model, 50), p90: pct(model, 90) },
    modelRequestsPerCommand: requests / N,
  }));
} finally {
  await allowed.close();
  await reviewed.close();
  await stub.close();
}
