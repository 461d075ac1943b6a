// Helpers for black-box tests of `clawexec gateway`: start one on a private state dir, open
// WebSockets to it and speak OpenClaw's operator protocol, and make Ed25519 device identities
// that sign connects the way OpenClaw's clients do (v3 by default).
import { spawn } from "node:child_process";
import { createHash, generateKeyPairSync, sign } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import WebSocket from "ws";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { CLAWEXEC, scratchDir, serverEnv, sleep, waitFor, assertNoSanitizerReport } from "./harness.mjs";

/**
 * Starts a gateway on port 0. options.config: openclaw.json object; options.env: extra
 * environment; options.state: reuse this scratch dir (a restart). Returns
 * { url, wsUrl, env, token, state, stderr(), stop({keepState}) }.
 */
export async function startGateway(options = {}) {
  const state = options.state ?? scratchDir("clawexec-gw-");
  if (options.config) writeFileSync(join(state.dir, "openclaw.json"), JSON.stringify(options.config));
  const env = serverEnv(state.dir, options.env ?? {});
  const child = spawn(CLAWEXEC, ["gateway", "--port", "0"], { env, cwd: state.dir, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d.toString()));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const url = await waitFor(() => /listening on (http:\/\/[^ ]+) /.exec(stderr)?.[1], 15000, "gateway start");
  return {
    url,
    wsUrl: url.replace("http:", "ws:"),
    env,
    state,
    child,
    token: readFileSync(join(state.dir, "gateway", "token"), "utf8").trim(),
    stderr: () => stderr,
    async stop({ keepState = false } = {}) {
      child.kill("SIGTERM");
      await Promise.race([exited, sleep(15000)]);
      if (!keepState) state.cleanup();
      assertNoSanitizerReport(stderr);
    },
  };
}

/** Opens a WebSocket and collects its frames; `next(pred)` waits for a matching one. */
export function openWs(url, options = {}) {
  const ws = new WebSocket(url, options);
  const frames = [];
  let closed = null;
  ws.on("message", (d) => frames.push(JSON.parse(d.toString())));
  ws.on("close", (code, reason) => (closed = { code, reason: reason.toString() }));
  ws.on("error", () => {});
  let n = 0;
  const c = {
    ws,
    frames,
    closed: () => closed,
    send: (o) => ws.send(typeof o === "string" ? o : JSON.stringify(o)),
    next: (pred, what = "frame") => waitFor(() => frames.find(pred), 8000, what),
    waitClosed: () => waitFor(() => closed, 8000, "close"),
    async call(method, params) {
      const id = `r${++n}`;
      c.send({ type: "req", id, method, params });
      return c.next((f) => f.type === "res" && f.id === id, method);
    },
  };
  return c;
}

/** ConnectParams for OpenClaw's CLI with the shared token. */
export function connectParams(token, extra = {}) {
  return {
    minProtocol: 4,
    maxProtocol: 4,
    client: { id: "cli", version: "test", platform: "linux", mode: "cli" },
    role: "operator",
    scopes: ["operator.admin", "operator.approvals"],
    auth: { token },
    ...extra,
  };
}

/**
 * Connects with `params` (a function of the challenge, or an object) and returns the
 * connection with `res` (the connect answer) and, when it succeeded, `hello`.
 */
export async function connect(url, params, wsOptions = {}) {
  const c = openWs(url, wsOptions);
  const challenge = await c.next((f) => f.event === "connect.challenge", "challenge");
  c.challenge = challenge.payload;
  const p = typeof params === "function" ? params(challenge.payload) : params;
  c.send({ type: "req", id: "connect-1", method: "connect", params: p });
  c.res = await c.next((f) => f.id === "connect-1", "connect answer");
  if (c.res.ok) c.hello = c.res.payload;
  return c;
}

/** An operator connection with the shared token that must succeed; `extra` adds ConnectParams. */
export async function operator(g, scopes = ["operator.admin", "operator.approvals"], extra = {}) {
  const c = await connect(g.wsUrl, connectParams(g.token, { scopes, ...extra }));
  if (!c.res.ok) throw new Error(`operator connect failed: ${JSON.stringify(c.res)}`);
  return c;
}

/** A fresh Ed25519 device identity: { id, publicKey (base64url raw), privateKey }. */
export function makeDevice() {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const raw = publicKey.export({ format: "der", type: "spki" }).subarray(-32);
  return { id: createHash("sha256").update(raw).digest("hex"), publicKey: raw.toString("base64url"), privateKey };
}

/** The text OpenClaw's clients sign (v3 or v2). */
export function devicePayload(version, { deviceId, clientId, clientMode, role, scopes, signedAt, token, nonce, platform, deviceFamily }) {
  const base = [`v${version}`, deviceId, clientId, clientMode, role, scopes.join(","), String(signedAt), token ?? "", nonce];
  if (version >= 3) base.push((platform ?? "").trim().toLowerCase(), (deviceFamily ?? "").trim().toLowerCase());
  return base.join("|");
}

/**
 * ConnectParams for a device (a node host by default) signed for `challenge`.
 * opts: role, scopes, client, auth, version, signedAt, nonce, override (fields of device{}).
 */
export function deviceConnect(device, challenge, opts = {}) {
  const role = opts.role ?? "node";
  const client = opts.client ?? { id: "node-host", displayName: "probe-node", version: "test", platform: "linux", deviceFamily: "Linux", mode: "node" };
  const scopes = opts.scopes ?? [];
  const auth = opts.auth ?? {};
  const signedAt = opts.signedAt ?? challenge.ts;
  const nonce = opts.nonce ?? challenge.nonce;
  const payload = devicePayload(opts.version ?? 3, {
    deviceId: device.id,
    clientId: client.id,
    clientMode: client.mode,
    role: opts.signRole ?? role,
    scopes,
    signedAt,
    token: auth.token ?? auth.deviceToken ?? auth.bootstrapToken ?? "",
    nonce,
    platform: client.platform,
    deviceFamily: client.deviceFamily,
  });
  const signature = sign(null, Buffer.from(payload, "utf8"), device.privateKey).toString("base64url");
  return {
    minProtocol: opts.minProtocol ?? 4,
    maxProtocol: 4,
    client,
    role,
    scopes,
    auth,
    device: { id: device.id, publicKey: device.publicKey, signature, signedAt, nonce, ...(opts.override ?? {}) },
  };
}

/**
 * An agent: an MCP client of gateway `g` acting for `agentId`, recording its notifications.
 * Returns { client, notes, exec(args), close() }.
 */
export async function mcpAgent(g, name, agentId = "main") {
  const headers = { Authorization: `Bearer ${g.token}`, "X-OpenClaw-Agent-Id": agentId };
  const transport = new StreamableHTTPClientTransport(new URL(`${g.url}/mcp`), { requestInit: { headers } });
  const client = new Client({ name, version: "1" }, { capabilities: {} });
  const notes = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => notes.push(String(n.params.data)));
  await client.connect(transport);
  return { client, notes, exec: (args) => client.callTool({ name: "exec", arguments: args }), close: () => client.close() };
}

/** The pending approval's id in an exec result that asked for one. */
export const approvalIdOf = (r) => r.structuredContent?.approvalId ?? /full ([0-9a-f-]{36})/.exec(r.content[0].text)[1];
