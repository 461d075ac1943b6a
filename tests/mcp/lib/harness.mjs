// Test harness: starts the real `clawexec serve` under the official MCP SDK client (stdio) and
// offers small helpers. Every test gets its own server process, its own state dir and its own
// scratch directory, and the server is always closed when the test ends.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Path of the clawexec binary under test (set by ctest). */
export const CLAWEXEC = process.env.CLAWEXEC_BIN;
if (!CLAWEXEC) throw new Error("CLAWEXEC_BIN is not set (run through ctest)");

/** A fresh scratch directory, removed by the returned cleanup function. */
export function scratchDir(prefix = "clawexec-test-") {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Starts `clawexec serve` and connects an SDK client.
 * options.env: extra environment for the server; options.cwd: its working directory;
 * options.config: an openclaw.json object/text written to a private state dir;
 * options.unsetEnv: names removed from the server's environment (the SDK transport always passes
 * its default variables HOME, LOGNAME, PATH, SHELL, TERM and USER; use startRawServer to drop those).
 * options.args: extra arguments after `serve`.
 * options.structuredContent: false starts a client that, like Claude Code and Codex, does not
 * declare the "clawexec/structuredContent" capability (results then carry no
 * structuredContent; `details` come from `_meta["clawexec/details"]`, without output copies).
 * By default the suite's client declares it and reads `details` from structuredContent.
 * Returns { client, transport, child, pid, call, close, stderr, notifications, stateDir }.
 */
export async function startServer(options = {}) {
  // options.stateDir shares a state directory between servers (it is then not removed).
  const state = options.stateDir ? { dir: options.stateDir, cleanup() {} } : scratchDir("clawexec-state-");
  const env = serverEnv(state.dir, options.env ?? {});
  for (const key of options.unsetEnv ?? []) delete env[key];
  if (options.config !== undefined) {
    const { writeFileSync } = await import("node:fs");
    const text = typeof options.config === "string" ? options.config : JSON.stringify(options.config);
    writeFileSync(join(state.dir, "openclaw.json"), text);
  }
  if (options.approvals !== undefined) {
    const { writeFileSync } = await import("node:fs");
    writeFileSync(join(state.dir, "exec-approvals.json"), JSON.stringify(options.approvals));
  }
  const transport = new StdioClientTransport({
    command: CLAWEXEC,
    args: ["serve", ...(options.args ?? [])],
    env,
    cwd: options.cwd ?? state.dir,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d) => (stderr += d.toString()));
  // options.elicit(params) -> result: declare the elicitation capability and answer requests.
  const capabilities = {
    ...(options.elicit ? { elicitation: {} } : {}),
    ...(options.structuredContent === false ? {} : STRUCTURED_CONTENT_CAPABILITY),
  };
  const client = new Client({ name: "clawexec-tests", version: "1.0.0" }, { capabilities });
  const notifications = [];
  const { LoggingMessageNotificationSchema, ElicitRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => notifications.push(n.params));
  if (options.elicit) client.setRequestHandler(ElicitRequestSchema, (request) => options.elicit(request.params));
  try {
    await client.connect(transport);
  } catch (e) {
    await client.close().catch(() => {});
    state.cleanup();
    throw new Error(`clawexec serve did not start: ${e.message}; stderr: ${stderr}`);
  }
  const pid = transport.pid;
  /** Calls a tool; resolves with { text, details, isError, raw }. */
  async function call(name, args, requestOptions) {
    const raw = await client.callTool({ name, arguments: args }, undefined, requestOptions);
    const details = raw.structuredContent ?? raw._meta?.[DETAILS_META_KEY];
    return { text: raw.content?.[0]?.text, details, isError: raw.isError === true, raw };
  }
  /** The server's child_process object (for EOF on stdin and signals). */
  const child = transport._process;
  const streamsClosed = new Promise((resolve) => child.once("close", resolve));
  async function close() {
    try {
      await client.close();
    } catch {}
    // Wait for the server to exit, so that a sanitizer report printed at exit is seen.
    await Promise.race([streamsClosed, sleep(10000)]);
    state.cleanup();
    assertNoSanitizerReport(stderr);
  }
  return {
    client,
    transport,
    child,
    pid,
    call,
    close,
    notifications,
    get stderr() {
      return stderr;
    },
    stateDir: state.dir,
  };
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The client capability that asks for `structuredContent` = details (docs/tools.md). */
export const STRUCTURED_CONTENT_CAPABILITY = { experimental: { "clawexec/structuredContent": {} } };
/** Where a result's details are when the client did not ask for structuredContent. */
export const DETAILS_META_KEY = "clawexec/details";

/**
 * Calls exec and checks it failed with exactly `message` as a thrown error (isError, no
 * structured details) and that nothing ran: unless args.command is given, the command touches a
 * marker file that must not exist afterwards.
 */
export async function expectThrownExec(server, args, message) {
  const marker = join(tmpdir(), `clawexec-ran-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const r = await server.call("exec", { command: `touch ${marker}`, ...args });
  const ran = existsSync(marker);
  rmSync(marker, { force: true });
  assert.equal(r.isError, true);
  assert.equal(r.text, message);
  assert.equal(r.details, undefined, "a thrown error has no structured details");
  assert.equal(ran, false, "the command must not run");
}

/**
 * Fails when the server's stderr holds an AddressSanitizer, LeakSanitizer or
 * UndefinedBehaviorSanitizer report: under the sanitizer build every black-box test is also a
 * memory-safety and leak check of the real server.
 */
export function assertNoSanitizerReport(stderr) {
  const m = /ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:/.exec(stderr);
  if (m) throw new Error(`the server reported a sanitizer error:\n${stderr.slice(Math.max(0, m.index - 200), m.index + 4000)}`);
}

/** Polls `predicate` every 25 ms until it returns truthy or `timeoutMs` passes. */
export async function waitFor(predicate, timeoutMs = 10000, what = "condition") {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const v = await predicate();
    if (v) return v;
    await sleep(25);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** True when a process with this pid exists (and is not a zombie). */
export async function isAlive(pid) {
  const { readFileSync } = await import("node:fs");
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

/** Path of the shim binary under test (set by ctest). */
export const CLAWEXEC_SHIM = process.env.CLAWEXEC_SHIM;

/** The retry guidance appended to every timeout text (reference §1.5(b)). */
export const RETRY_GUIDANCE =
  "The command was terminated, but external side effects may already have completed. Verify the resulting " +
  "state before retrying. Do not automatically rerun non-idempotent commands. Use a higher timeout only when " +
  "the command is known to be safe to retry.";

/** The sentence an overall timeout adds when background continuation is available (§1.5(b)). */
export const CONTINUATION_HINT =
  "If it should keep running, start it with exec background=true or yieldMs so it continues as a process " +
  "session you can poll. Do not rely on shell backgrounding with a trailing &.";

/** The follow-up sentence of a running result (§1.5(c)). */
export const FOLLOW_UP =
  "Use process (list/poll/log/write/send-keys/submit/paste/kill/clear/remove) for follow-up.";

/** The text of a running result for session `id` with `pid`. */
export const runningText = (id, pid) => `Command still running (session ${id}, pid ${pid}). ${FOLLOW_UP}`;

/** Every decimal integer that stands alone on a line of `text`, as numbers (pids a command printed). */
export function pidsIn(text) {
  return (text ?? "")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => /^\d+$/.test(l))
    .map(Number);
}

/** Waits until none of `pids` is alive (zombies count as gone). */
export async function waitGone(pids, timeoutMs = 6000, what = "processes to exit") {
  await waitFor(async () => {
    for (const p of pids) if (await isAlive(p)) return false;
    return true;
  }, timeoutMs, `${what} (${pids.join(", ")})`);
}

/** Throws unless every pid in `pids` is alive right now. */
export async function expectAlive(pids, what = "process") {
  for (const p of pids) {
    if (!(await isAlive(p))) throw new Error(`${what} ${p} is not alive`);
  }
}

/**
 * Starts a background command and waits until its output contains `count` pid lines; returns
 * { sessionId, pid, pids, output } (pids from the command's own output, in print order).
 */
export async function startBackgroundWithPids(s, command, count, extra = {}) {
  const r = await s.call("exec", { command, background: true, ...extra });
  if (r.details?.status !== "running") throw new Error(`expected a running result, got ${r.text}`);
  const sessionId = r.details.sessionId;
  let output = "";
  const pids = await waitFor(async () => {
    const p = await s.call("process", { action: "poll", sessionId, timeout: 500 });
    output += p.text.replace(/\n\nProcess still running\.$/, "").replace(/^\(no new output\)$/, "") + "\n";
    const found = pidsIn(output);
    return found.length >= count ? found : null;
  }, 8000, `${count} pids printed by ${command}`);
  return { sessionId, pid: r.details.pid, pids, output };
}

/** Polls a session (waiting up to 1 s each time) until it is no longer running; returns that poll. */
export async function pollUntilExit(s, sessionId, timeoutMs = 10000) {
  const outputs = [];
  const last = await waitFor(async () => {
    const p = await s.call("process", { action: "poll", sessionId, timeout: 1000 });
    if (p.details?.status === "running") {
      outputs.push(p.text);
      return null;
    }
    return p;
  }, timeoutMs, `session ${sessionId} to exit`);
  return Object.assign(last, { earlier: outputs });
}

/** Awaits `promise` and returns the error it rejects with (throws when it resolves). */
export async function rejection(promise) {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  throw new Error("expected the call to be rejected");
}

/**
 * The environment for a server or CLI process: a private state dir, no config path override (unless
 * `extra` sets OPENCLAW_CONFIG_PATH), and
 * SHELL pinned to bash so the suite does not depend on where it runs (CI may have no SHELL, which
 * makes commands run under dash); tests of shell selection override or unset it.
 */
/**
 * An empty home directory shared by this test process's servers (unless a test passes its own
 * HOME): the login-shell probe and the shell snapshot then see only the system's startup files,
 * never the runner's own ~/.bashrc or ~/.profile.
 */
let emptyHome;
function defaultHome() {
  if (!emptyHome) {
    emptyHome = mkdtempSync(join(tmpdir(), "clawexec-home-"));
    process.on("exit", () => rmSync(emptyHome, { recursive: true, force: true }));
  }
  return emptyHome;
}

export function serverEnv(stateDir, extra = {}) {
  const env = { ...process.env, SHELL: "/bin/bash", HOME: defaultHome(), OPENCLAW_STATE_DIR: stateDir, ...extra };
  if (!("OPENCLAW_CONFIG_PATH" in extra)) delete env.OPENCLAW_CONFIG_PATH;
  return env;
}

/**
 * Spawns `clawexec serve` directly (no SDK) for protocol-level tests: send raw lines, await
 * responses by id. options.env adds variables, options.unsetEnv removes them, options.config and
 * options.approvals write the state dir's files. Returns { child, pid,
 * send, sendLine, message, response, request, initialize, callTool, messages, exited, stderr, close }.
 */
export async function startRawServer(options = {}) {
  const { spawn } = await import("node:child_process");
  const state = scratchDir("clawexec-state-");
  const env = serverEnv(state.dir, options.env ?? {});
  for (const key of options.unsetEnv ?? []) delete env[key];
  // options.config / options.approvals: as for startServer.
  const { writeFileSync } = await import("node:fs");
  if (options.config !== undefined) {
    const text = typeof options.config === "string" ? options.config : JSON.stringify(options.config);
    writeFileSync(join(state.dir, "openclaw.json"), text);
  }
  if (options.approvals !== undefined) {
    writeFileSync(join(state.dir, "exec-approvals.json"), JSON.stringify(options.approvals));
  }
  const child = spawn(CLAWEXEC, ["serve"], {
    env,
    cwd: state.dir,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const messages = [];
  const waiters = new Set();
  let buffer = "";
  let stderr = "";
  child.stdout.setEncoding("utf8");
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (d) => (stderr += d));
  child.stdout.on("data", (d) => {
    buffer += d;
    let nl;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (!line.trim()) continue;
      let msg;
      try {
        msg = JSON.parse(line);
      } catch {
        msg = { unparsable: line };
      }
      messages.push(msg);
      for (const w of [...waiters]) w();
    }
  });
  child.stdin.on("error", () => {});
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  let nextId = 1000;
  const sendLine = (line) => child.stdin.write(line + "\n");
  const send = (obj) => sendLine(JSON.stringify(obj));
  /** Resolves with the first message matching `pred` (already received or future). */
  function message(pred, timeoutMs = 10000, what = "a message") {
    return new Promise((resolve, reject) => {
      const check = () => {
        const m = messages.find(pred);
        if (m) {
          waiters.delete(check);
          clearTimeout(timer);
          resolve(m);
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        const recent = messages.slice(-4).map((m) => JSON.stringify(m).slice(0, 300));
        reject(new Error(`timed out waiting for ${what}; last messages: ${recent.join(" | ")}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  }
  const response = (id, timeoutMs) =>
    message((m) => m.id === id && ("result" in m || "error" in m), timeoutMs, `the response to id ${JSON.stringify(id)}`);
  async function request(method, params, timeoutMs) {
    const id = nextId++;
    send({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
    return response(id, timeoutMs);
  }
  // capabilities: what the client declares (default: the structuredContent opt-in).
  async function initialize(protocolVersion = "2025-06-18", capabilities = STRUCTURED_CONTENT_CAPABILITY) {
    const r = await request("initialize", {
      protocolVersion,
      capabilities,
      clientInfo: { name: "clawexec-raw-tests", version: "1.0.0" },
    });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    return r;
  }
  /** tools/call; resolves with { text, details, isError } or rejects with the JSON-RPC error. */
  async function callTool(name, args, timeoutMs) {
    const m = await request("tools/call", { name, arguments: args }, timeoutMs);
    if (m.error) throw Object.assign(new Error(m.error.message), { code: m.error.code });
    return { text: m.result.content?.[0]?.text, details: m.result.structuredContent, isError: m.result.isError === true };
  }
  async function close() {
    try {
      child.stdin.end();
    } catch {}
    const t = setTimeout(() => child.kill("SIGKILL"), 3000);
    await exited;
    clearTimeout(t);
    state.cleanup();
    assertNoSanitizerReport(stderr);
  }
  return {
    child,
    pid: child.pid,
    send,
    sendLine,
    message,
    response,
    request,
    initialize,
    callTool,
    messages,
    exited,
    close,
    get stderr() {
      return stderr;
    },
  };
}

/**
 * Polls a background session until its retained output (details.aggregated) matches `pattern`;
 * returns that aggregate. Note: polls drain pending output.
 */
export async function waitOutput(s, sessionId, pattern, timeoutMs = 8000) {
  let last = "";
  try {
    return await waitFor(async () => {
      const p = await s.call("process", { action: "poll", sessionId, timeout: 300 });
      last = p.details?.aggregated ?? p.text;
      return pattern.test(last) ? last : null;
    }, timeoutMs, `output matching ${pattern}`);
  } catch (e) {
    throw new Error(`${e.message}; output so far: ${JSON.stringify(last)}`);
  }
}

/** Starts a background command (extra exec args allowed) and returns { id, pid, result }. */
export async function background(s, command, extra = {}) {
  const result = await s.call("exec", { command, background: true, ...extra });
  if (result.details?.status !== "running") throw new Error(`expected running, got ${result.text}`);
  return { id: result.details.sessionId, pid: result.details.pid, result };
}

/**
 * Closes every server even when one of them fails its close checks (e.g. a sanitizer report),
 * then throws the first failure: one bad server must not leave the others running.
 */
export async function closeAll(servers) {
  const results = await Promise.allSettled(servers.map((s) => s.close()));
  const failed = results.find((r) => r.status === "rejected");
  if (failed) throw failed.reason;
}
