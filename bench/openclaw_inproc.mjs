// OpenClaw's exec tool timed in-process (no transport at all): the reference point the
// budgets in DESIGN.md were set against. Loads the installed bundle's exec tool with
// security=full, ask=off (as reference-exec.mjs does) and times tool.execute() calls.
//
// Usage: node24 openclaw_inproc.mjs latency N        exec `true` N times (after 5 warm-up calls)
//        node24 openclaw_inproc.mjs bulk N COMMAND   exec COMMAND N times, with memory figures
// Prints one JSON object. Memory: this Node process's VmRSS / VmHWM from /proc/self/status
// (the command's own processes are not included).
import { readdirSync, readFileSync } from "node:fs";

const root = process.env.CLAWEXEC_REFERENCE || `${process.env.HOME}/.cache/clawexec-reference`;
const dist = `${root}/openclaw/node_modules/openclaw/dist`;
const startedAt = performance.now();
const name = readdirSync(dist).find(
  (f) => f.startsWith("bash-tools-") && f.endsWith(".mjs") && readFileSync(`${dist}/${f}`, "utf8").includes("createExecTool as r"),
);
const tools = await import(`${dist}/${name}`);
const exec = tools.r({ cwd: process.cwd(), security: "full", ask: "off" });
const loadMs = performance.now() - startedAt;

function memory() {
  const out = {};
  for (const line of readFileSync("/proc/self/status", "utf8").split("\n")) {
    const m = /^(VmRSS|VmHWM|RssAnon|RssFile)\s*:\s+(\d+)/.exec(line);
    if (m) out[m[1]] = Number(m[2]);
  }
  return out;
}

function stats(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p) => s[Math.min(s.length - 1, Math.round(p * (s.length - 1)))];
  const r = (x) => Math.round(x * 1000) / 1000;
  return { n: s.length, p50: r(at(0.5)), p90: r(at(0.9)), min: r(s[0]), mean: r(s.reduce((a, b) => a + b, 0) / s.length) };
}

// performance.now() counts from the start of this Node process.
let firstResultAt = null;

async function timeCalls(args, n, warmup) {
  const times = [];
  let text = "";
  let firstCallMs = null;
  for (let i = 0; i < warmup + n; i++) {
    const t0 = performance.now();
    const r = await exec.execute(`bench-${i}`, args);
    const dt = performance.now() - t0;
    if (firstCallMs === null) {
      firstCallMs = dt;
      firstResultAt = performance.now();
    }
    if (i >= warmup) times.push(dt);
    text = (r.content || []).map((c) => c.text || "").join("");
    if (r.details?.status && r.details.status !== "completed") throw new Error(`exec ${r.details.status}: ${text.slice(0, 200)}`);
  }
  return { times, text, firstCallMs };
}

const [mode, countArg, ...rest] = process.argv.slice(2);
const n = Number(countArg || 20);
let result;
if (mode === "latency") {
  const before = memory();
  const { times, firstCallMs } = await timeCalls({ command: "true" }, n, 5);
  result = {
    mode, load_bundle_ms: Math.round(loadMs), process_start_to_first_result_ms: Math.round(firstResultAt),
    first_call_ms: Math.round(firstCallMs * 1000) / 1000, exec_true_ms: stats(times), memory_before: before, memory_after: memory(),
  };
} else if (mode === "bulk") {
  const before = memory();
  const { times, text } = await timeCalls({ command: rest.join(" "), timeoutSeconds: 600, yieldMs: 120000 }, n, 0);
  result = { mode, command: rest.join(" "), seconds: stats(times.map((t) => t / 1000)), result_text_chars: text.length, memory_before: before, memory_after: memory() };
} else {
  console.error("usage: openclaw_inproc.mjs latency N | bulk N COMMAND");
  process.exit(2);
}
console.log(JSON.stringify(result));
process.exit(0);
