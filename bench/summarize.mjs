// Turns a bench/run.sh result directory (machine.json, results.jsonl, inproc.json) into the
// summary: one row per budgeted figure with its baseline from the same run, the budget, the
// verdict and OpenClaw's figure where one was measured. Whole-process figures are the median
// over the repeats of each run's own statistic (p50 for latencies, median for throughput).
//
// Usage: node summarize.mjs <result dir>      (prints Markdown; also writes summary.json there)
import { readFileSync, writeFileSync, existsSync } from "node:fs";

const dir = process.argv[2];
if (!dir) {
  console.error("usage: summarize.mjs <result dir>");
  process.exit(2);
}
const machine = JSON.parse(readFileSync(`${dir}/machine.json`, "utf8"));
const runs = readFileSync(`${dir}/results.jsonl`, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));

function median(values) {
  const v = values.filter((x) => typeof x === "number" && Number.isFinite(x)).sort((a, b) => a - b);
  if (!v.length) return null;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}
// Median over the repeats of `pick(run.data)` for every run called `name`.
function fig(name, pick) {
  const values = runs.filter((r) => r.name === name && !r.data.error).map((r) => {
    try {
      return pick(r.data);
    } catch {
      return null;
    }
  });
  return median(values);
}
function loads(names) {
  const l = runs.filter((r) => names.includes(r.name)).flatMap((r) => [r.load_before, r.load_after]);
  return l.length ? `${Math.min(...l).toFixed(2)}–${Math.max(...l).toFixed(2)}` : "";
}
const MiB = 1024 * 1024;
const fmt = (x, digits = 2, unit = "") => (x === null || x === undefined ? "—" : `${x.toFixed(digits)}${unit}`);
const diff = (a, b) => (a === null || b === null ? null : a - b);
const mb = (kib) => (kib === null ? null : kib / 1024);

const S = "sessions";
// The per-session reaper: the clawexec process name with the most processes in the server's
// tree ("clawexec-super" supervisors forked by the spawner; "clawexec-shim" before that).
const reaperComm = (d) => Object.entries(d.children).filter(([c]) => c.startsWith("clawexec")).sort((a, b) => b[1].count - a[1].count)[0][0];
const sessionsShim = (d) => d.children[reaperComm(d)];
const rows = [];
function row(what, value, baseline, budget, verdict, openclaw, loadNames) {
  rows.push({ what, value, baseline, budget, verdict, openclaw, load: loads(loadNames) });
}
const verdict = (ok) => (ok === null ? "—" : ok ? "pass" : "MISS");

// exec `true`
const shell = runs.find((r) => r.name === "latency_default_shell")?.data.shell ?? "?";
const latDefault = fig("latency_default_shell", (d) => d.exec_true_ms.p50);
const latSh = fig("latency_sh", (d) => d.exec_true_ms.p50);
const spawnBash = fig("spawn_bash", (d) => d.p50_ms);
const spawnSh = fig("spawn_sh", (d) => d.p50_ms);
const ocLat = fig("oc_latency", (d) => d.exec_true_ms.p50);
const ocInLat = fig("oc_inproc_latency", (d) => d.exec_true_ms.p50);
const ocText = (mcp, inproc, f) => (mcp === null && inproc === null ? "—" : `MCP ${f(mcp)}; in-process ${f(inproc)}`);
row(`exec \`true\` round trip p50, server default shell (${shell})`, fmt(latDefault, 3, " ms"),
  `bare spawn+wait \`bash -c true\` ${fmt(spawnBash, 3, " ms")}; \`sh -c true\` ${fmt(spawnSh, 3, " ms")}`,
  "≤ 1.5 ms", verdict(latDefault === null ? null : latDefault <= 1.5), ocText(ocLat, ocInLat, (x) => fmt(x, 1, " ms")),
  ["latency_default_shell", "spawn_bash"]);
row("exec `true` round trip p50, SHELL=/bin/sh (dash)", fmt(latSh, 3, " ms"), `bare spawn+wait \`sh -c true\` ${fmt(spawnSh, 3, " ms")}`,
  "≤ 1.5 ms", verdict(latSh === null ? null : latSh <= 1.5), "—", ["latency_sh", "spawn_sh"]);
row("  server overhead over bare spawn (default shell / sh)",
  `${fmt(diff(latDefault, spawnBash), 3, " ms")} / ${fmt(diff(latSh, spawnSh), 3, " ms")}`, "", "", "", "", []);
row("  reaper layer alone, direct mode (one exec of `clawexec-shim pipes` + bash per command), spawn+wait p50, no server",
  fmt(fig("spawn_shim_bash", (d) => d.p50_ms), 3, " ms"), `bare bash ${fmt(spawnBash, 3, " ms")}`, "", "", "", ["spawn_shim_bash"]);
row("  server CPU per exec call (all threads)", fmt(fig("latency_default_shell", (d) => d.server_cpu_ms_per_exec), 3, " ms"), "", "", "", "", []);
row("  client overhead: `ping` round trip p50", fmt(fig("latency_default_shell", (d) => d.ping_ms.p50), 3, " ms"), "", "", "",
  fmt(fig("oc_latency", (d) => d.ping_ms.p50), 3, " ms"), []);

// 100 MB
const bulkTr = fig("bulk_tr", (d) => d.seconds.p50);
const bulkYes = fig("bulk_yes", (d) => d.seconds.p50);
const ocBulk = fig("oc_bulk", (d) => d.seconds.p50);
const ocInBulk = fig("oc_inproc_bulk", (d) => d.seconds.p50);
row("exec printing 100 MB, one line (`head -c 1e8 /dev/zero | tr '\\0' a`)", fmt(bulkTr, 3, " s"),
  `bare pipeline into a read loop ${fmt(fig("pipe_tr", (d) => d.median_s), 3, " s")}`, "≤ 0.25 s",
  verdict(bulkTr === null ? null : bulkTr <= 0.25), ocText(ocBulk, ocInBulk, (x) => fmt(x, 2, " s")), ["bulk_tr", "pipe_tr"]);
row("exec printing 100 MB, short lines (`yes | head -c 1e8`)", fmt(bulkYes, 3, " s"),
  `bare pipeline into a read loop ${fmt(fig("pipe_yes", (d) => d.median_s), 3, " s")}`, "≤ 0.25 s",
  verdict(bulkYes === null ? null : bulkYes <= 0.25), "—", ["bulk_yes", "pipe_yes"]);
row("  server VmHWM after the 100 MB runs", fmt(mb(fig("bulk_tr", (d) => d.memory_after.VmHWM)), 1, " MiB"), "", "", "",
  ocText(mb(fig("oc_bulk", (d) => d.memory_after.VmHWM)), mb(fig("oc_inproc_bulk", (d) => d.memory_after.VmHWM)), (x) => fmt(x, 0, " MiB")),
  []);

// Cold start
const cold = fig("cold", (d) => d.first_result_ms.p50);
row("process start → first tools/call result (cold), p50", fmt(cold, 2, " ms"),
  `spawn \`cat\` + one line echoed ${fmt(fig("spawn_echo", (d) => d.first_line_ms.p50), 2, " ms")}`, "≤ 30 ms",
  verdict(cold === null ? null : cold <= 30), ocText(fig("oc_cold", (d) => d.first_result_ms.p50),
    fig("oc_inproc_latency", (d) => d.process_start_to_first_result_ms), (x) => fmt(x, 0, " ms")), ["cold", "spawn_echo"]);

// Memory
const idle = mb(fig(S, (d) => d.memory_idle_after_20_calls.VmRSS));
const loaded = mb(fig(S, (d) => d.memory_with_sessions.VmRSS));
const started = fig(S, (d) => d.started);
row("server VmRSS idle (after initialize + 20 calls)", fmt(idle, 1, " MiB"), `fresh: ${fmt(mb(fig(S, (d) => d.memory_idle_fresh.VmRSS)), 1, " MiB")}`,
  "≤ 15 MB", verdict(idle === null ? null : idle * MiB <= 15e6), fmt(mb(fig("oc_sessions", (d) => d.memory_idle_after_20_calls.VmRSS)), 0, " MiB"), [S]);
row(`server VmRSS with ${machine.sessions} background \`sleep 600\` (${fmt(started, 0)} started)`, fmt(loaded, 1, " MiB"),
  `after \`process list\`: ${fmt(mb(fig(S, (d) => d.memory_after_list.VmRSS)), 1, " MiB")}`, "≤ 120 MB",
  verdict(loaded === null ? null : loaded * MiB <= 120e6), fmt(mb(fig("oc_sessions", (d) => d.memory_with_sessions.VmRSS)), 0, " MiB"), [S]);
const reaperName = runs.filter((r) => r.name === S && !r.data.error).map((r) => reaperComm(r.data))[0] ?? "reaper";
const otherClawexec = runs.filter((r) => r.name === S && !r.data.error).map((r) =>
  Object.entries(r.data.children).filter(([c]) => c.startsWith("clawexec") && c !== reaperComm(r.data))
    .map(([c, e]) => `${e.count} × ${c} (${e.rss_kib_per_process?.p50 ?? "?"} KiB)`).join(", "))[0] || "";
row(`  per-session reaper (${reaperName}) VmRSS / RssAnon, p50`,
  `${fmt(fig(S, (d) => sessionsShim(d).rss_kib_per_process.p50), 0, " KiB")} / ${fmt(fig(S, (d) => sessionsShim(d).rss_anon_kib_per_process.p50), 0, " KiB")}`,
  `static binary, file pages shared${otherClawexec ? `; plus ${otherClawexec}` : ""}`, "", "",
  `OpenClaw has no reaper; its per-session bash: ${fmt(fig("oc_sessions", (d) => d.children.bash.rss_kib_per_process.p50), 0, " KiB")} / ${fmt(fig("oc_sessions", (d) => d.children.bash.rss_anon_kib_per_process.p50), 0, " KiB")}`,
  []);
row("  server fds idle / with sessions", `${fmt(fig(S, (d) => d.fds_idle), 0)} / ${fmt(fig(S, (d) => d.fds_with_sessions), 0)}`,
  `RLIMIT_NOFILE soft/hard: bench shell ${machine.nofile_soft}/${machine.nofile_hard}, server ${(() => { const l = runs.find((r) => r.name === S && !r.data.error)?.data.server_nofile_limit; return l ? `${l.soft}/${l.hard}` : "?"; })()}`, "", "",
  `${fmt(fig("oc_sessions", (d) => d.fds_idle), 0)} / ${fmt(fig("oc_sessions", (d) => d.fds_with_sessions), 0)}`, []);
row(`  time to start ${machine.sessions} background sessions`, fmt(fig(S, (d) => d.start_seconds), 2, " s"), "", "", "",
  fmt(fig("oc_sessions", (d) => d.start_seconds), 2, " s"), []);
row("  `process list` with all sessions", fmt(fig(S, (d) => d.list_ms), 1, " ms"), "", "", "", fmt(fig("oc_sessions", (d) => d.list_ms), 1, " ms"), []);
const leftClaw = fig(S, (d) => Object.values(d.tree_processes_left_after_shutdown.after_2000ms).reduce((a, b) => a + b, 0));
const leftOc = fig("oc_sessions", (d) => Object.values(d.tree_processes_left_after_shutdown.after_6000ms).reduce((a, b) => a + b, 0));
row("  session processes alive after server shutdown (2 s / OpenClaw 6 s)", fmt(leftClaw, 0), "", "0", verdict(leftClaw === null ? null : leftClaw === 0),
  leftOc === null ? "—" : `${leftOc} (killed by the bench)`, []);
// Growth between the 100th and the last call (the first 100 calls are warm-up).
const growthPerCall = (d) => {
  const k = Object.keys(d.vmrss_kib).map(Number).sort((a, b) => a - b);
  const from = k[Math.min(1, k.length - 1)], to = k[k.length - 1];
  return to > from ? ((d.vmrss_kib[to] - d.vmrss_kib[from]) * 1024) / (to - from) : 0;
};
const growthCheckpoints = runs.find((r) => r.name === "growth" && !r.data.error)?.data.vmrss_kib;
row(`  RSS growth per sequential \`exec true\` after warm-up (VmRSS KiB at calls ${growthCheckpoints ? Object.entries(growthCheckpoints).map(([k, v]) => `${k}: ${v}`).join(", ") : "?"})`,
  fmt(fig("growth", growthPerCall), 0, " B/call"), "", "≈ 0 (no leak)", "", "", []);

// PTY
const ptyS = fig("pty_tr", (d) => d.seconds.p50);
const ptyMiB = ptyS === null ? null : 1e8 / MiB / ptyS;
row("PTY throughput, 100 MB through `pty:true` exec, end to end", fmt(ptyMiB, 1, " MiB/s"),
  `raw PTY read loop ${fmt(fig("pty_raw", (d) => d.median_mib_per_s), 1, " MiB/s")}`, "≥ 60 MiB/s",
  verdict(ptyMiB === null ? null : ptyMiB >= 60), "—", ["pty_tr", "pty_raw"]);

// In-process
const inproc = [];
if (existsSync(`${dir}/inproc.json`)) {
  try {
    const gb = JSON.parse(readFileSync(`${dir}/inproc.json`, "utf8"));
    // With repetitions, Google Benchmark reports aggregates; with one run only plain entries.
    const medians = gb.benchmarks.filter((x) => x.aggregate_name === "median");
    for (const b of medians.length ? medians : gb.benchmarks.filter((x) => x.run_type === "iteration")) {
      inproc.push({ name: b.run_name, ns: b.real_time, gib_s: b.bytes_per_second / 1024 ** 3 });
    }
  } catch (e) {
    inproc.push({ name: `unreadable: ${e.message}`, ns: null, gib_s: null });
  }
}

const lines = [];
lines.push(`Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.mem_mib} MiB, kernel ${machine.kernel}; commit ${machine.commit}${machine.src_files_modified ? ` + ${machine.src_files_modified} uncommitted file(s) under src/` : ""}; ${machine.date}`);
lines.push(`Repeats: ${machine.repeats} (median of per-run figures); SHELL=${machine.shell}; client Node ${machine.node}`);
lines.push("");
lines.push("| Figure | clawexec | Baseline (same run) | Budget | Verdict | OpenClaw | Load (1 min) |");
lines.push("|---|---|---|---|---|---|---|");
for (const r of rows) lines.push(`| ${r.what} | ${r.value} | ${r.baseline} | ${r.budget} | ${r.verdict} | ${r.openclaw} | ${r.load} |`);
if (inproc.length) {
  lines.push("");
  lines.push("| In-process (Google Benchmark; median of repetitions) | time per iteration | throughput of raw input |");
  lines.push("|---|---|---|");
  for (const b of inproc) lines.push(`| ${b.name} | ${fmt(b.ns, 0, " ns")} | ${fmt(b.gib_s, 2, " GiB/s")} |`);
}
console.log(lines.join("\n"));
writeFileSync(`${dir}/summary.json`, JSON.stringify({ machine, rows, inproc }, null, 1));
