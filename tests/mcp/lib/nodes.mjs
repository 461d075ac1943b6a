// Helpers shared by the node tests: an MCP agent on a gateway's /mcp endpoint, its `exec` calls
// read as { text, details, isError }, and the live processes whose command line holds a marker
// (one pid space for every network namespace, so a node's commands are seen from here).
import { readFileSync, readdirSync } from "node:fs";
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { STRUCTURED_CONTENT_CAPABILITY, CLAWEXEC, serverEnv, sleep, waitFor, assertNoSanitizerReport } from "./harness.mjs";

/**
 * An MCP client of gateway `g` ({url, token}); options.agentId sets X-OpenClaw-Agent-Id.
 * The client's logging notifications (the "Exec finished ..." notices) collect in
 * `client.notices` as strings.
 */
export async function agent(g, options = {}) {
  const headers = { Authorization: `Bearer ${g.token}` };
  if (options.agentId) headers["X-OpenClaw-Agent-Id"] = options.agentId;
  const transport = new StreamableHTTPClientTransport(new URL(`${g.url}/mcp`), { requestInit: { headers } });
  const client = new Client({ name: "agent", version: "1" }, { capabilities: { ...STRUCTURED_CONTENT_CAPABILITY } });
  client.notices = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => client.notices.push(String(n.params.data)));
  await client.connect(transport);
  return client;
}

/** One `exec` call: { text, details, isError }. */
export async function execText(client, args) {
  const r = await client.callTool({ name: "exec", arguments: args });
  return { text: r.content[0].text, details: r.structuredContent, isError: r.isError === true };
}

/** Pids of live (not zombie) processes whose command line contains `marker`, this one excluded. */
export function pidsWith(marker) {
  const out = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, "utf8").replace(/\0/g, " ");
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      if (cmd.includes(marker) && state !== "Z" && Number(name) !== process.pid) out.push(Number(name));
    } catch {}
  }
  return out;
}

/** A free loopback TCP port. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** `clawexec gateway` on a fixed port (so a restarted one is found again by the node), state in `state.dir`. */
export async function startGatewayOn(port, state, args = []) {
  // A streamed node session whose node stays away 3 s ends (the default is 60 s).
  const env = serverEnv(state.dir, { CLAWEXEC_NODE_RESUME_GRACE_MS: "3000" });
  const child = spawn(CLAWEXEC, ["gateway", "--port", String(port), ...args], { env, cwd: state.dir, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d.toString()));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const url = await waitFor(() => /listening on (https?:\/\/[^ ]+) /.exec(stderr)?.[1], 15000, "gateway start");
  return {
    url,
    wsUrl: url.replace("http", "ws"),
    state,
    token: readFileSync(join(state.dir, "gateway", "token"), "utf8").trim(),
    stderr: () => stderr,
    async stop() {
      child.kill("SIGTERM");
      await Promise.race([exited, sleep(15000)]);
      assertNoSanitizerReport(stderr);
    },
  };
}

/** The environment of a node host with state in `dir` (fast reconnects, no inherited token). */
export function nodeEnv(dir) {
  return serverEnv(dir, { CLAWEXEC_NODE_RECONNECT_MS: "200", CLAWEXEC_NODE_RECONNECT_MAX_MS: "1000", OPENCLAW_GATEWAY_TOKEN: "" });
}

/** `clawexec node run` against 127.0.0.1:`port`, display name test-node. */
export function startNode(port, dir, token, extraArgs = [], extraEnv = {}) {
  const child = spawn(CLAWEXEC, ["node", "run", "--host", "127.0.0.1", "--port", String(port), "--display-name", "test-node", "--token", token, ...extraArgs], {
    env: { ...nodeEnv(dir), ...extraEnv },
    cwd: dir,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d.toString()));
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  return { child, exited, stderr: () => stderr };
}

