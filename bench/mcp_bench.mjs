// Whole-process measurements of an MCP stdio server running the exec/process tools: the server
// is started as a child process and driven by a raw newline-delimited JSON-RPC client (no SDK,
// so the client adds as little as possible; `ping` round trips are reported as that overhead).
// Works against `clawexec serve` and against bench/openclaw_exec_mcp.mjs alike.
//
// Usage: node mcp_bench.mjs <scenario> [options] -- <server command...>
//   latency  --n N --warmup W [--cmd C]    ping and `exec true` (or C) round trips (p50/p90), the shell used
//   bulk     --cmd C --n N [--pty]         end-to-end time of one exec of C (e.g. 100 MB of output)
//   cold     --n N                         server spawn -> first tools/call result (fresh process each)
//   sessions --n N                         RSS idle and with N background `sleep 600` sessions
//   growth   --at 0,100,1000,3000          server RSS after that many sequential `exec true` calls
//   spawnecho --n N                        baseline for `cold`: spawn `cat`, time one line echoed back
//   once     --cmd C                       one exec of C after initialize: its result text and time
//   recreate --n N                         in one server: `exec true` right after its sandbox was
//                                           killed (a new sandbox each time) vs in the live one
//   sandboxrss                              RSS of one idle sandbox (its bubblewrap processes and
//                                           holder, found from the sandbox's record) after one exec
// Every scenario prints one JSON object on stdout. Memory comes from /proc/<pid>/status.
import { spawn } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";

const PROTOCOL_VERSION = "2025-06-18";

// ---------------------------------------------------------------- client

class RpcClient {
  constructor(argv, env = process.env) {
    this.child = spawn(argv[0], argv.slice(1), { stdio: ["pipe", "pipe", "pipe"], env });
    this.pid = this.child.pid;
    this.nextId = 1;
    this.pending = new Map();
    this.notifications = 0;
    this.partial = [];
    this.stderr = "";
    this.exited = new Promise((resolve) => this.child.on("exit", (code, signal) => resolve({ code, signal })));
    this.child.stdout.on("data", (chunk) => this.onData(chunk));
    this.child.stderr.on("data", (chunk) => {
      if (this.stderr.length < 8192) this.stderr += chunk.toString();
    });
    this.child.stdin.on("error", () => {});
  }

  onData(chunk) {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, start)) {
      this.partial.push(chunk.subarray(start, nl));
      const line = Buffer.concat(this.partial).toString("utf8");
      this.partial = [];
      start = nl + 1;
      if (line.trim()) this.onMessage(JSON.parse(line));
    }
    if (start < chunk.length) this.partial.push(chunk.subarray(start));
  }

  onMessage(msg) {
    if (msg.id === undefined || msg.id === null || !this.pending.has(msg.id)) {
      this.notifications++;
      return;
    }
    const { resolve, reject, method } = this.pending.get(msg.id);
    this.pending.delete(msg.id);
    if (msg.error) reject(new Error(`${method}: ${JSON.stringify(msg.error)}`));
    else resolve(msg.result);
  }

  request(method, params) {
    const id = this.nextId++;
    const promise = new Promise((resolve, reject) => this.pending.set(id, { resolve, reject, method }));
    this.child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
    return promise;
  }

  notify(method, params) {
    this.child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method, params }) + "\n");
  }

  async initialize() {
    const result = await this.request("initialize", {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "clawexec-bench", version: "1" },
    });
    this.notify("notifications/initialized", {});
    return result;
  }

  callTool(name, args) {
    return this.request("tools/call", { name, arguments: args });
  }

  async close(timeoutMs = 20000) {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), timeoutMs);
    const status = await this.exited;
    clearTimeout(timer);
    return status;
  }
}

// ---------------------------------------------------------------- helpers

const nowMs = () => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function stats(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p) => s[Math.min(s.length - 1, Math.round(p * (s.length - 1)))];
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  const r = (x) => Math.round(x * 1000) / 1000;
  return { n: s.length, p50: r(at(0.5)), p90: r(at(0.9)), p99: r(at(0.99)), min: r(s[0]), mean: r(mean) };
}

// VmRSS, VmHWM, RssAnon, RssFile in KiB, plus thread count.
function procStatus(pid) {
  const out = {};
  try {
    for (const line of readFileSync(`/proc/${pid}/status`, "utf8").split("\n")) {
      const m = /^(VmRSS|VmHWM|RssAnon|RssFile|RssShmem|Threads):\s+(\d+)/.exec(line);
      if (m) out[m[1]] = Number(m[2]);
    }
  } catch {
    return null;
  }
  return out;
}

// The state letter of /proc/<pid>/stat (R, S, D, Z, ...) or null when the process is gone.
function processState(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  } catch {
    return null;
  }
}

const TICKS_PER_SECOND = 100;  // USER_HZ on Linux

// utime + stime of a process (field 14 + 15 of /proc/<pid>/stat), in clock ticks.
function cpuTicks(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

// Field 22 of /proc/<pid>/stat (start time in clock ticks): tells a process from a later one
// that reused its pid.
function startTime(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return null;
  }
}

// The soft and hard RLIMIT_NOFILE of a running process, from /proc/<pid>/limits.
function openFileLimit(pid) {
  try {
    const m = /^Max open files\s+(\S+)\s+(\S+)/m.exec(readFileSync(`/proc/${pid}/limits`, "utf8"));
    return m ? { soft: m[1], hard: m[2] } : null;
  } catch {
    return null;
  }
}

function fdCount(pid) {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return null;
  }
}

// Map pid -> {ppid, comm} for every process on the machine.
function processTable() {
  const table = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const comm = stat.slice(stat.indexOf("(") + 1, close);
      const ppid = Number(stat.slice(close + 2).split(" ")[1]);
      table.set(Number(name), { ppid, comm });
    } catch {}
  }
  return table;
}

function descendants(root) {
  const table = processTable();
  const children = new Map();
  for (const [pid, { ppid }] of table) {
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(pid);
  }
  const out = [];
  const stack = [...(children.get(root) || [])];
  while (stack.length) {
    const pid = stack.pop();
    out.push({ pid, ...table.get(pid) });
    stack.push(...(children.get(pid) || []));
  }
  return out;
}

function resultText(result) {
  return (result?.content || []).map((c) => c.text || "").join("");
}

function parseArgs(argv) {
  const sep = argv.indexOf("--");
  if (sep < 0) throw new Error("missing -- <server command>");
  const opts = { server: argv.slice(sep + 1) };
  const own = argv.slice(0, sep);
  opts.scenario = own.shift();
  for (let i = 0; i < own.length; i++) {
    const key = own[i].replace(/^--/, "");
    if (key === "pty") opts.pty = true;
    else opts[key] = own[++i];
  }
  return opts;
}

// ---------------------------------------------------------------- scenarios

async function latency(opts) {
  const n = Number(opts.n || 300);
  const warmup = Number(opts.warmup || 20);
  const client = new RpcClient(opts.server);
  await client.initialize();
  const shellResult = await client.callTool("exec", { command: "readlink /proc/$$/exe; :" });
  const shell = resultText(shellResult).trim();
  const pings = [];
  for (let i = 0; i < warmup + n; i++) {
    const t0 = nowMs();
    await client.request("ping", {});
    if (i >= warmup) pings.push(nowMs() - t0);
  }
  const execs = [];
  let failures = 0;
  const cpuBefore = cpuTicks(client.pid);
  for (let i = 0; i < warmup + n; i++) {
    const t0 = nowMs();
    const r = await client.callTool("exec", { command: opts.cmd || "true" });
    const dt = nowMs() - t0;
    if (r.isError) failures++;
    if (i >= warmup) execs.push(dt);
  }
  const cpuAfter = cpuTicks(client.pid);
  const memory = procStatus(client.pid);
  await client.close();
  // Server CPU (user+system, all threads) per exec call, from clock ticks over all the calls.
  const serverCpuMsPerCall = cpuBefore !== null && cpuAfter !== null
    ? Math.round(((cpuAfter - cpuBefore) * 1000 / TICKS_PER_SECOND / (warmup + n)) * 1000) / 1000
    : null;
  return {
    scenario: "latency", shell, ping_ms: stats(pings), exec_true_ms: stats(execs),
    server_cpu_ms_per_exec: serverCpuMsPerCall, failures, memory,
  };
}

async function bulk(opts) {
  const n = Number(opts.n || 5);
  const client = new RpcClient(opts.server);
  await client.initialize();
  await client.callTool("exec", { command: "true" });
  const before = procStatus(client.pid);
  const times = [];
  let lastText = "";
  let lastDetails = null;
  for (let i = 0; i < n; i++) {
    const args = { command: opts.cmd, timeoutSeconds: 600, yieldMs: 120000 };
    if (opts.pty) args.pty = true;
    const t0 = nowMs();
    const r = await client.callTool("exec", args);
    times.push(nowMs() - t0);
    lastText = resultText(r);
    lastDetails = r.structuredContent || r._meta?.["clawexec/details"] || null;
    if (r.isError) throw new Error(`exec failed: ${lastText.slice(0, 300)}`);
  }
  const after = procStatus(client.pid);
  await client.close();
  return {
    scenario: "bulk",
    command: opts.cmd,
    pty: !!opts.pty,
    seconds: stats(times.map((t) => t / 1000)),
    result_text_chars: lastText.length,
    status: lastDetails?.status ?? null,
    memory_before: before,
    memory_after: after,
  };
}

// RSS after increasing numbers of sequential `exec true` calls: finished foreground runs must
// not accumulate (a leak shows as steady growth per call).
async function growth(opts) {
  const checkpoints = String(opts.at || "0,100,1000,3000").split(",").map(Number);
  const client = new RpcClient(opts.server);
  await client.initialize();
  const rss = {};
  let done = 0;
  for (const target of checkpoints) {
    for (; done < target; done++) await client.callTool("exec", { command: "true" });
    rss[target] = procStatus(client.pid);
  }
  await client.close();
  // The first checkpoint after 0 is warm-up (allocator pools, lazily built tables); growth is
  // measured from there to the last checkpoint.
  const from = checkpoints[Math.min(1, checkpoints.length - 1)];
  const to = checkpoints[checkpoints.length - 1];
  const calls = to - from;
  return {
    scenario: "growth",
    vmrss_kib: Object.fromEntries(Object.entries(rss).map(([k, v]) => [k, v.VmRSS])),
    bytes_per_call_after_warmup: calls ? Math.round(((rss[to].VmRSS - rss[from].VmRSS) * 1024) / calls) : 0,
  };
}

async function cold(opts) {
  const n = Number(opts.n || 20);
  const samples = [];
  const toInit = [];
  for (let i = 0; i < n; i++) {
    const t0 = nowMs();
    const client = new RpcClient(opts.server);
    // `initialize` and the first `tools/call` are written together right after the spawn (the
    // `initialized` notification follows the initialize result), so the time is what a client
    // sees when it does not wait for the handshake before its first call.
    const init = client.initialize().then(() => nowMs());
    const r = await client.callTool("exec", { command: opts.cmd || "true" });
    const t1 = nowMs();
    if (r.isError) throw new Error(`cold exec failed: ${resultText(r)}`);
    samples.push(t1 - t0);
    toInit.push((await init) - t0);
    await client.close();
  }
  return { scenario: "cold", first_result_ms: stats(samples), initialize_ms: stats(toInit) };
}

async function spawnEcho(opts) {
  const n = Number(opts.n || 20);
  const samples = [];
  for (let i = 0; i < n; i++) {
    const t0 = nowMs();
    const child = spawn(opts.server[0], opts.server.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
    const line = new Promise((resolve) => child.stdout.once("data", resolve));
    child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    await line;
    samples.push(nowMs() - t0);
    child.stdin.end();
    await new Promise((resolve) => child.on("exit", resolve));
  }
  return { scenario: "spawnecho", command: opts.server.join(" "), first_line_ms: stats(samples) };
}

function summariseChildren(serverPid) {
  const procs = descendants(serverPid);
  const byComm = {};
  for (const p of procs) {
    const st = procStatus(p.pid);
    const entry = (byComm[p.comm] ||= { count: 0, rss_kib: [], anon_kib: [] });
    entry.count++;
    if (st) {
      entry.rss_kib.push(st.VmRSS);
      entry.anon_kib.push(st.RssAnon);
    }
  }
  for (const entry of Object.values(byComm)) {
    entry.rss_kib_per_process = entry.rss_kib.length ? stats(entry.rss_kib) : null;
    entry.rss_anon_kib_per_process = entry.anon_kib.length ? stats(entry.anon_kib) : null;
    entry.rss_kib_total = entry.rss_kib.reduce((a, b) => a + b, 0);
    entry.rss_anon_kib_total = entry.anon_kib.reduce((a, b) => a + b, 0);
    delete entry.rss_kib;
    delete entry.anon_kib;
  }
  return byComm;
}

async function sessions(opts) {
  const n = Number(opts.n || 1000);
  const client = new RpcClient(opts.server);
  await client.initialize();
  await sleep(300);
  const idleFresh = procStatus(client.pid);
  for (let i = 0; i < 20; i++) await client.callTool("exec", { command: "true" });
  await sleep(300);
  const idleAfterCalls = procStatus(client.pid);
  const fdsIdle = fdCount(client.pid);
  const nofile = openFileLimit(client.pid);

  const t0 = nowMs();
  let started = 0;
  const errors = [];
  for (let i = 0; i < n; i++) {
    const r = await client.callTool("exec", { command: "sleep 600", background: true });
    const id = (r.structuredContent ?? r._meta?.["clawexec/details"])?.sessionId ?? /session\s+(\S+)/i.exec(resultText(r))?.[1];
    if (r.isError || !id) {
      if (errors.length < 3) errors.push(resultText(r).slice(0, 200));
    } else {
      started++;
    }
  }
  const startSeconds = (nowMs() - t0) / 1000;
  await sleep(1000);
  const loaded = procStatus(client.pid);
  const fdsLoaded = fdCount(client.pid);
  const children = summariseChildren(client.pid);
  const tree = descendants(client.pid).map((p) => ({ pid: p.pid, start: startTime(p.pid) }));
  const tList = nowMs();
  const list = await client.callTool("process", { action: "list" });
  const listMs = nowMs() - tList;
  const listChars = resultText(list).length;
  const loadedAfterList = procStatus(client.pid);

  const tClose = nowMs();
  const exit = await client.close(60000);
  const closeSeconds = (nowMs() - tClose) / 1000;
  // Commands must not outlive the server: count the tree's processes that still exist (with
  // their state letters; Z = zombie awaiting its reaper) at a few points after the exit.
  const leftovers = {};
  let waited = 0;
  for (const at of [100, 500, 2000, 6000]) {
    await sleep(at - waited);
    waited = at;
    const states = {};
    for (const { pid } of tree) {
      const st = processState(pid);
      if (st) states[st] = (states[st] || 0) + 1;
    }
    leftovers[`after_${at}ms`] = states;
  }
  // A server that lets its commands outlive it (OpenClaw does) must not leave them running
  // on the machine: kill what is left, by pid, only if it is still the same process.
  let killed = 0;
  for (const { pid, start } of tree) {
    if (processState(pid) && startTime(pid) === start) {
      try {
        process.kill(pid, "SIGKILL");
        killed++;
      } catch {}
    }
  }
  return {
    scenario: "sessions",
    requested: n,
    started,
    errors,
    start_seconds: Math.round(startSeconds * 1000) / 1000,
    memory_idle_fresh: idleFresh,
    memory_idle_after_20_calls: idleAfterCalls,
    memory_with_sessions: loaded,
    memory_after_list: loadedAfterList,
    server_nofile_limit: nofile,
    fds_idle: fdsIdle,
    fds_with_sessions: fdsLoaded,
    children,
    list_ms: Math.round(listMs * 1000) / 1000,
    list_text_chars: listChars,
    shutdown_seconds: Math.round(closeSeconds * 1000) / 1000,
    server_exit: exit,
    tree_processes_left_after_shutdown: leftovers,
    leftovers_killed_by_bench: killed,
  };
}

// One exec of --cmd, for checks that need the command's output (e.g. that an alias works).
async function once(opts) {
  const client = new RpcClient(opts.server);
  await client.initialize();
  const t0 = nowMs();
  const r = await client.callTool("exec", { command: opts.cmd });
  const ms = Math.round((nowMs() - t0) * 1000) / 1000;
  await client.close();
  return { scenario: "once", command: opts.cmd, is_error: !!r.isError, text: resultText(r), ms };
}

// The processes of one idle sandbox: bubblewrap's outer process (the server's child), its pid 1
// (the record's holderPid) and everything below it, found from <state>/sandboxes/*/sandbox-<server pid>.json.
async function sandboxRss(opts) {
  const statusKb = (pid, key) => procStatus(pid)?.[key] ?? null;
  const client = new RpcClient(opts.server);
  await client.initialize();
  const serverBefore = statusKb(client.pid, "VmRSS");
  const r = await client.callTool("exec", { command: "true" });
  const root = `${process.env.OPENCLAW_STATE_DIR}/sandboxes`;
  const records = readdirSync(root).map((d) => {
    try {
      return JSON.parse(readFileSync(`${root}/${d}/sandbox-${client.pid}.json`, "utf8"));
    } catch {
      return null;
    }
  }).filter(Boolean);
  const children = (pid) => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  const parentOf = (pid) => Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[1]);
  const processes = [];
  for (const rec of records) {
    processes.push(parentOf(rec.holderPid));
    const queue = [rec.holderPid];
    while (queue.length) {
      const p = queue.shift();
      processes.push(p);
      queue.push(...children(p));
    }
  }
  const perProcess = processes.map((p) => ({ pid: p, comm: readFileSync(`/proc/${p}/comm`, "utf8").trim(), rss_kb: statusKb(p, "VmRSS") }));
  const serverAfter = statusKb(client.pid, "VmRSS");
  await client.close();
  return {
    scenario: "sandboxrss",
    is_error: !!r.isError,
    sandboxes: records.length,
    idle_sandbox_rss_kb: perProcess.reduce((a, p) => a + (p.rss_kb ?? 0), 0),
    processes: perProcess,
    server_rss_kb_before: serverBefore,
    server_rss_kb_after: serverAfter,
  };
}

// The cost of a new sandbox inside a running server (no server start, no probe): kill the
// holder named by the record, wait until it is gone, time the next `exec true`.
async function recreate(opts) {
  const n = Number(opts.n || 20);
  const client = new RpcClient(opts.server);
  await client.initialize();
  await client.callTool("exec", { command: "true" });  // probe + first sandbox
  const root = `${process.env.OPENCLAW_STATE_DIR}/sandboxes`;
  const holder = () => {
    for (const d of readdirSync(root)) {
      try {
        return JSON.parse(readFileSync(`${root}/${d}/sandbox-${client.pid}.json`, "utf8")).holderPid;
      } catch {}
    }
    return null;
  };
  const fresh = [];
  const live = [];
  for (let i = 0; i < n; i++) {
    const pid = holder();
    process.kill(pid, "SIGKILL");
    while (processState(pid) !== null && processState(pid) !== "Z") await new Promise((r) => setTimeout(r, 2));
    await new Promise((r) => setTimeout(r, 20));
    let t0 = nowMs();
    const r = await client.callTool("exec", { command: "true" });
    fresh.push(nowMs() - t0);
    if (r.isError) throw new Error(`exec in a new sandbox failed: ${resultText(r)}`);
    t0 = nowMs();
    await client.callTool("exec", { command: "true" });
    live.push(nowMs() - t0);
  }
  await client.close();
  const p50 = (a) => Math.round([...a].sort((x, y) => x - y)[Math.floor(a.length / 2)] * 1000) / 1000;
  return { scenario: "recreate", n, new_sandbox_exec_true_p50_ms: p50(fresh), live_sandbox_exec_true_p50_ms: p50(live) };
}

// ---------------------------------------------------------------- main

const opts = parseArgs(process.argv.slice(2));
const scenarios = { latency, bulk, cold, sessions, growth, spawnecho: spawnEcho, once, sandboxrss: sandboxRss, recreate };
if (!scenarios[opts.scenario]) {
  console.error(`unknown scenario ${opts.scenario}; one of ${Object.keys(scenarios).join(", ")}`);
  process.exit(2);
}
try {
  const result = await scenarios[opts.scenario](opts);
  console.log(JSON.stringify(result));
  process.exit(0);
} catch (e) {
  console.error(`${opts.scenario}: ${e.stack || e}`);
  process.exit(1);
}
