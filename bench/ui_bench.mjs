// Control UI measurements against a real `clawexec gateway` in headless Chromium (Debian's
// /usr/bin/chromium driven by playwright-core from tests/mcp's node_modules), for bench/RESULTS.md
// "Control UI":
//   * cold load: each run gets a fresh browser profile (empty cache) and opens the gateway's `/`
//     on loopback; reported are the browser's own first-contentful-paint entry, the time until
//     the login form is visible as the page itself sees it (performance.now() when #secret is
//     laid out), and the bytes transferred for the document and every asset it loaded
//     (Resource Timing transferSize: headers plus body, as they came off the wire);
//   * approvals flood: logged in on the approvals page, a second operator connection asks for
//     `--approvals` approvals with exec.approval.request (twoPhase) at `--rate` per second; the
//     page stamps each card when it appears in the queue (a MutationObserver), so every
//     approval's send -> rendered latency is known, and a 50 ms interval timer in the page
//     records how late it fires (the page's responsiveness while the flood lasts), next to the
//     browser's long-task entries. After the flood a click on a card's "Deny" is timed until
//     the card leaves the queue.
// Usage: node bench/ui_bench.mjs --bin build/bin/clawexec [--loads 7] [--approvals 1000] [--rate 100]
// Prints one JSON object. Every loop is bounded; the gateway listens on 127.0.0.1 only.
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
const BIN = resolve(opt("bin", "build/bin/clawexec"));
const LOADS = Number(opt("loads", 7));
const APPROVALS = Number(opt("approvals", 1000));
const RATE = Number(opt("rate", 100));
const CHROMIUM = process.env.CLAWEXEC_CHROMIUM ?? "/usr/bin/chromium";
const require = createRequire(resolve("tests/mcp/package.json"));
const WebSocket = require("ws");
const { chromium } = require("playwright-core");

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : null;
};
const round = (x) => (x === null ? null : Math.round(x * 10) / 10);

async function startGateway() {
  const state = mkdtempSync(join(tmpdir(), "uibench-"));
  // Approvals need asking: the gateway's default exec policy plus an operator that shows them.
  writeFileSync(join(state, "openclaw.json"), JSON.stringify({ tools: { exec: { security: "allowlist", ask: "on-miss" } } }));
  const env = { ...process.env, OPENCLAW_STATE_DIR: state, HOME: state, SHELL: "/bin/bash", OPENCLAW_CONFIG_PATH: join(state, "openclaw.json") };
  const child = spawn(BIN, ["gateway", "--port", "0"], { env, cwd: state, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  let url;
  for (let i = 0; !(url = /listening on (http:\/\/\S+) /.exec(stderr)?.[1]); i++) {
    if (i > 15000) throw new Error(`gateway did not start: ${stderr}`);
    await sleep(1);
  }
  const token = readFileSync(join(state, "gateway", "token"), "utf8").trim();
  const exited = new Promise((r) => child.once("exit", r));
  return { url, token, stop: async () => (child.kill("SIGTERM"), await Promise.race([exited, sleep(5000)]), rmSync(state, { recursive: true, force: true })) };
}

async function browser() {
  const profile = mkdtempSync(join(tmpdir(), "uibench-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1100, height: 800 },
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
  return { context, close: async () => (await context.close(), rmSync(profile, { recursive: true, force: true })) };
}

// Runs in the page before its own scripts: notes when the login form first has a layout box.
const WATCH_LOGIN = () => {
  const seen = () => {
    const el = document.getElementById("secret");
    if (el && el.getClientRects().length && !window.__loginVisibleAt) window.__loginVisibleAt = performance.now();
    else requestAnimationFrame(seen);
  };
  requestAnimationFrame(seen);
};

async function coldLoad(url) {
  const b = await browser();
  try {
    const page = await b.context.newPage();
    await page.addInitScript(WATCH_LOGIN);
    await page.goto(url + "/", { waitUntil: "load" });
    await page.waitForFunction(() => window.__loginVisibleAt, null, { timeout: 10000 });
    await sleep(100);  // late module imports finish their Resource Timing entries
    return await page.evaluate(() => {
      const nav = performance.getEntriesByType("navigation")[0];
      const res = performance.getEntriesByType("resource");
      const fcp = performance.getEntriesByName("first-contentful-paint")[0];
      const fp = performance.getEntriesByName("first-paint")[0];
      return {
        fcpMs: fcp?.startTime ?? null,
        firstPaintMs: fp?.startTime ?? null,
        loginVisibleMs: window.__loginVisibleAt,
        loadEventMs: nav.loadEventEnd,
        assets: 1 + res.length,
        transferBytes: nav.transferSize + res.reduce((n, r) => n + r.transferSize, 0),
        bodyBytes: nav.encodedBodySize + res.reduce((n, r) => n + r.encodedBodySize, 0),
        resources: [nav.name, ...res.map((r) => r.name)].map((n) => new URL(n).pathname),
      };
    });
  } finally {
    await b.close();
  }
}

function operatorWs(g) {
  const ws = new WebSocket(g.url.replace("http:", "ws:"));
  const answers = new Map();
  return new Promise((resolveWs, reject) => {
    ws.on("error", reject);
    ws.on("message", (d) => {
      const f = JSON.parse(d.toString());
      if (f.event === "connect.challenge") {
        ws.send(JSON.stringify({ type: "req", id: "connect", method: "connect", params: {
          minProtocol: 4, maxProtocol: 4, client: { id: "cli", version: "bench", platform: "linux", mode: "cli" },
          role: "operator", scopes: ["operator.admin", "operator.approvals"], auth: { token: g.token } } }));
      } else if (f.type === "res" && f.id === "connect") {
        if (!f.ok) return reject(new Error(JSON.stringify(f.error)));
        resolveWs({ ws, answers, send: (o) => ws.send(JSON.stringify(o)) });
      } else if (f.type === "res") {
        answers.set(f.id, f);
      }
    });
  });
}

async function flood(g) {
  const b = await browser();
  try {
    const page = await b.context.newPage();
    await page.goto(g.url + "/");
    await page.fill("#secret", g.token);
    await page.click("#login-submit");
    await page.waitForSelector("#page-approvals:not([hidden])");
    await page.evaluate(() => {
      window.__rendered = new Map();
      const list = document.getElementById("approvals-list");
      new MutationObserver((records) => {
        const now = Date.now();
        for (const r of records) for (const n of r.addedNodes) if (n.dataset?.id) window.__rendered.set(n.dataset.id, now);
      }).observe(list, { childList: true });
      // How late a 50 ms timer fires while the flood lasts: the page's responsiveness.
      window.__lags = [];
      let due = performance.now() + 50;
      window.__lagTimer = setInterval(() => {
        const now = performance.now();
        window.__lags.push(Math.max(0, now - due));
        due = now + 50;
      }, 50);
      window.__longTasks = [];
      try {
        new PerformanceObserver((l) => window.__longTasks.push(...l.getEntries().map((e) => e.duration))).observe({ type: "longtask" });
      } catch {}
    });
    const op = await operatorWs(g);
    const sent = new Map();
    const t0 = performance.now();
    const wall0 = Date.now();
    for (let i = 0; i < APPROVALS; i++) {
      // Paced by the clock, not by sleeps adding up: approval i leaves at t0 + i/rate.
      const due = t0 + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const id = `bench-${i}`;
      sent.set(id, Date.now());
      op.send({ type: "req", id: `q${i}`, method: "exec.approval.request", params: {
        id, command: `echo flood ${i} && ls -la /tmp/some/path-${i}`, cwd: "/tmp", host: "gateway", agentId: "bench",
        twoPhase: true, timeoutMs: 600000 } });
    }
    const sendSeconds = (performance.now() - t0) / 1000;
    await page.waitForFunction((n) => window.__rendered.size >= n, APPROVALS, { timeout: 120000, polling: 100 });
    const result = await page.evaluate(() => ({
      rendered: [...window.__rendered.entries()],
      lags: window.__lags,
      longTasks: window.__longTasks,
      cards: document.querySelectorAll("#approvals-list li").length,
    }));
    const renderedAt = new Map(result.rendered);
    const lat = [...sent].map(([id, t]) => renderedAt.get(id) - t);
    const refused = [...op.answers.values()].filter((f) => !f.ok).length;
    // Still usable with the queue full: a click on the last card's Deny until the card is gone.
    const last = `bench-${APPROVALS - 1}`;
    const clickStart = performance.now();
    await page.click(`#approvals-list li[data-id="${last}"] button[data-decision="deny"]`);
    await page.waitForSelector(`#approvals-list li[data-id="${last}"]`, { state: "detached", timeout: 20000 });
    const denyMs = performance.now() - clickStart;
    await page.evaluate(() => clearInterval(window.__lagTimer));
    op.ws.close();
    return {
      approvals: APPROVALS,
      ratePerSecond: RATE,
      sendSeconds: round(sendSeconds),
      refusedByGateway: refused,
      cardsInQueue: result.cards,
      allRenderedAfterFirstSendMs: Math.max(...result.rendered.map(([, t]) => t)) - wall0,
      sendToRenderedMs: { p50: pct(lat, 50), p90: pct(lat, 90), p99: pct(lat, 99), max: Math.max(...lat) },
      timerLateMs: { p50: round(pct(result.lags, 50)), p99: round(pct(result.lags, 99)), max: round(Math.max(...result.lags)) },
      longTasks: { count: result.longTasks.length, totalMs: round(result.longTasks.reduce((a, b) => a + b, 0)), maxMs: round(Math.max(0, ...result.longTasks)) },
      denyClickToCardGoneMs: round(denyMs),
    };
  } finally {
    await b.close();
  }
}

const g = await startGateway();
try {
  const loads = [];
  for (let i = 0; i < LOADS; i++) loads.push(await coldLoad(g.url));
  const med = (k) => round(pct(loads.map((l) => l[k]), 50));
  const out = {
    date: new Date().toISOString(),
    coldLoad: {
      runs: LOADS,
      fcpMs: { p50: med("fcpMs"), max: round(Math.max(...loads.map((l) => l.fcpMs))) },
      loginVisibleMs: { p50: med("loginVisibleMs"), max: round(Math.max(...loads.map((l) => l.loginVisibleMs))) },
      loadEventMs: { p50: med("loadEventMs") },
      assets: loads[0].assets,
      transferBytes: loads[0].transferBytes,
      bodyBytes: loads[0].bodyBytes,
      resources: loads[0].resources,
    },
    flood: await flood(g),
  };
  console.log(JSON.stringify(out, null, 1));
} finally {
  await g.stop();
}
