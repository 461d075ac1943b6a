// Test harness: starts the real `clawexec serve` under the official MCP SDK client (stdio) and
// offers small helpers. Every test gets its own server process, its own state dir and its own
// scratch directory, and the server is always closed when the test ends.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { mkdtempSync, rmSync } from "node:fs";
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
 * options.config: an openclaw.json object/text written to a private state dir.
 * Returns { client, transport, pid, call, callRaw, close, stderr, notifications }.
 */
export async function startServer(options = {}) {
  const state = scratchDir("clawexec-state-");
  const env = { ...process.env, OPENCLAW_STATE_DIR: state.dir, ...(options.env ?? {}) };
  delete env.OPENCLAW_CONFIG_PATH;
  if (options.config !== undefined) {
    const { writeFileSync } = await import("node:fs");
    const text = typeof options.config === "string" ? options.config : JSON.stringify(options.config);
    writeFileSync(join(state.dir, "openclaw.json"), text);
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
  const client = new Client({ name: "clawexec-tests", version: "1.0.0" }, { capabilities: {} });
  const notifications = [];
  const { LoggingMessageNotificationSchema } = await import("@modelcontextprotocol/sdk/types.js");
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => notifications.push(n.params));
  await client.connect(transport);
  const pid = transport.pid;
  /** Calls a tool; resolves with { text, details, isError, raw }. */
  async function call(name, args, requestOptions) {
    const raw = await client.callTool({ name, arguments: args }, undefined, requestOptions);
    return { text: raw.content?.[0]?.text, details: raw.structuredContent, isError: raw.isError === true, raw };
  }
  async function close() {
    try {
      await client.close();
    } catch {}
    state.cleanup();
  }
  return { client, transport, pid, call, close, notifications, get stderr() { return stderr; }, stateDir: state.dir };
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

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
