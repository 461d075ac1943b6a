// The gateway (`clawexec gateway`): MCP over streamable HTTP at /mcp, driven by the official
// SDK client (StreamableHTTPClientTransport) and by raw HTTP for what the SDK never sends:
// the generated token and `gateway status`, sessions with their own process scope, completion
// notifications on the GET stream and their replay after a reconnect (Last-Event-ID), session
// end (DELETE, idle expiry, gateway SIGKILL) stopping the session's commands, and the front
// door: missing or wrong token, DNS-rebinding Host, foreign Origin, the failed-auth limiter,
// malformed and oversized requests and a client that never finishes its request.
import { describe, test, after, before } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import https from "node:https";
import WebSocket from "ws";
import { connect } from "node:net";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { CLAWEXEC, scratchDir, serverEnv, sleep, waitFor, isAlive, assertNoSanitizerReport, STRUCTURED_CONTENT_CAPABILITY } from "./lib/harness.mjs";
import { connect as wsConnect, connectParams } from "./lib/gateway.mjs";

const gateways = [];
after(async () => {
  for (const g of gateways) await g.stop();
});

/** Starts `clawexec gateway --port 0`; resolves once it listens. */
async function startGateway({ config, env = {}, args = [] } = {}) {
  const state = scratchDir("clawexec-gw-");
  if (config) writeFileSync(join(state.dir, "openclaw.json"), JSON.stringify(config));
  const childEnv = serverEnv(state.dir, env);
  const child = spawn(CLAWEXEC, ["gateway", "--port", "0", ...args], { env: childEnv, cwd: state.dir, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d.toString()));
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const url = await waitFor(() => /listening on (https?:\/\/[^ ]+) /.exec(stderr)?.[1], 15000, `gateway start (stderr: ${stderr})`);
  const tokenFile = join(state.dir, "gateway", "token");
  const g = {
    child,
    url,
    mcpUrl: `${url}/mcp`,
    port: Number(new URL(url).port),
    stateDir: state.dir,
    env: childEnv,
    exited,
    get stderr() {
      return stderr;
    },
    token: () => readFileSync(tokenFile, "utf8").trim(),
    tokenFile,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await Promise.race([exited, sleep(15000)]);
      state.cleanup();
      assertNoSanitizerReport(stderr);
    },
  };
  gateways.push(g);
  return g;
}

/** An SDK client on the gateway's /mcp; `headers` go with every request. */
async function connectClient(g, { headers = {}, token = g.token() } = {}) {
  const transport = new StreamableHTTPClientTransport(new URL(g.mcpUrl), {
    requestInit: { headers: { Authorization: `Bearer ${token}`, ...headers } },
  });
  const client = new Client({ name: "gw-test", version: "1.0.0" }, { capabilities: STRUCTURED_CONTENT_CAPABILITY });
  const notifications = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => notifications.push(n.params));
  await client.connect(transport);
  async function call(name, args) {
    const raw = await client.callTool({ name, arguments: args });
    return { text: raw.content?.[0]?.text, details: raw.structuredContent, isError: raw.isError === true };
  }
  return { client, transport, notifications, call, sessionId: () => transport.sessionId };
}

/** One raw HTTP exchange on a fresh socket: the status line and the whole reply text. */
function rawExchange(port, bytes, { waitMs = 3000 } = {}) {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let text = "";
    const done = () => {
      socket.destroy();
      resolve(text);
    };
    socket.on("data", (d) => (text += d.toString()));
    socket.on("end", done);
    socket.on("error", done);
    socket.setTimeout(waitMs, done);
    socket.write(bytes);
  });
}

const initBody = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

/** POST /mcp with fetch; returns the Response. */
function post(g, body, headers = {}) {
  return fetch(g.mcpUrl, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      Authorization: `Bearer ${g.token()}`,
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** Reads SSE events from a fetch Response body until `until(events)` holds or time runs out. */
async function readEvents(response, until, timeoutMs = 10000) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const events = [];
  let buffer = "";
  const deadline = Date.now() + timeoutMs;
  while (!until(events) && Date.now() < deadline) {
    const chunk = await Promise.race([reader.read(), sleep(Math.max(1, deadline - Date.now())).then(() => null)]);
    if (!chunk || chunk.done) break;
    buffer += decoder.decode(chunk.value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = {};
      for (const line of block.split("\n")) {
        if (line.startsWith("id: ")) event.id = line.slice(4);
        if (line.startsWith("data: ")) event.data = JSON.parse(line.slice(6));
      }
      if (event.data) events.push(event);
    }
  }
  return { events, cancel: () => reader.cancel().catch(() => {}) };
}

async function rawSession(g) {
  const r = await post(g, initBody);
  assert.equal(r.status, 200);
  const id = r.headers.get("mcp-session-id");
  assert.ok(id, "initialize answers with Mcp-Session-Id");
  await readEvents(r, (e) => e.length >= 1);
  const n = await post(g, { jsonrpc: "2.0", method: "notifications/initialized" }, { "Mcp-Session-Id": id });
  assert.equal(n.status, 202);
  return id;
}

describe("gateway: start, token and status", () => {
  test("a generated token is kept 0600 and `gateway status` says where it listens and how to authenticate", async () => {
    const g = await startGateway();
    const mode = statSync(g.tokenFile).mode & 0o777;
    assert.equal(mode, 0o600);
    assert.match(g.token(), /^[A-Za-z0-9_-]{32}$/);
    assert.match(g.stderr, new RegExp(`Bearer <the token in ${g.tokenFile}>`));
    const status = spawnSync(CLAWEXEC, ["gateway", "status"], { env: g.env, encoding: "utf8" });
    assert.equal(status.status, 0, status.stderr);
    assert.match(status.stdout, new RegExp(`Gateway running \\(pid ${g.child.pid}\\) on ${g.url}`));
    assert.match(status.stdout, new RegExp(`MCP endpoint: ${g.mcpUrl}`));
    assert.match(status.stdout, new RegExp(`the token is in ${g.tokenFile}`));
    const json = JSON.parse(spawnSync(CLAWEXEC, ["gateway", "status", "--json"], { env: g.env, encoding: "utf8" }).stdout);
    assert.equal(json.running, true);
    assert.equal(json.port, g.port);
    await g.stop();
    const after = spawnSync(CLAWEXEC, ["gateway", "status"], { env: g.env, encoding: "utf8" });
    assert.equal(after.status, 1);
    assert.match(after.stdout, /No gateway is running/);
  });

  test("a restart keeps the token; a configured token is used instead and no file is made", async () => {
    const g = await startGateway({ config: { gateway: { auth: { token: "configured-secret-token" } } } });
    const r = await fetch(g.mcpUrl, { method: "POST", headers: { Authorization: "Bearer configured-secret-token", "Content-Type": "application/json", Accept: "application/json" }, body: initBody });
    assert.equal(r.status, 200);
    assert.match(g.stderr, /auth: the configured gateway.auth.token/);
    assert.throws(() => statSync(g.tokenFile));
  });

  test("an invalid gateway setting stops the start with an error naming the key", async () => {
    const state = scratchDir("clawexec-gw-");
    writeFileSync(join(state.dir, "openclaw.json"), JSON.stringify({ gateway: { auth: { mode: "none" } } }));
    const r = spawnSync(CLAWEXEC, ["gateway", "--port", "0"], { env: serverEnv(state.dir), encoding: "utf8", timeout: 10000 });
    state.cleanup();
    assert.equal(r.status, 1);
    assert.match(r.stderr, /gateway\.auth\.mode: expected "token" or "password"/);
  });
});

describe("gateway: MCP over streamable HTTP with the SDK client", () => {
  let g;
  before(async () => {
    g = await startGateway();
  });

  test("tools/list and a foreground exec work as over stdio", async () => {
    const c = await connectClient(g);
    const { tools } = await c.client.listTools();
    const names = tools.map((t) => t.name);
    assert.ok(names.includes("exec") && names.includes("process"), names.join(","));
    const r = await c.call("exec", { command: "echo via-gateway" });
    assert.equal(r.isError, false);
    assert.match(r.text, /via-gateway/);
    await c.client.close();
  });

  test("a background completion arrives as notifications/message on the GET stream", async () => {
    const c = await connectClient(g);
    const started = await c.call("exec", { command: "sleep 0.3; echo bg-done", background: true });
    assert.match(started.text, /Command still running/);
    const n = await waitFor(() => c.notifications.find((x) => /Exec completed/.test(x.data)), 10000, "completion notification");
    assert.match(n.data, /bg-done/);
    await c.client.close();
  });

  test("each MCP session is its own process scope", async () => {
    const a = await connectClient(g);
    const b = await connectClient(g);
    const started = await a.call("exec", { command: "sleep 30", background: true });
    const id = started.details.sessionId;
    assert.ok(id);
    const listA = await a.call("process", { action: "list" });
    assert.match(listA.text, new RegExp(id));
    const listB = await b.call("process", { action: "list" });
    assert.doesNotMatch(listB.text, new RegExp(id));
    await a.call("process", { action: "kill", sessionId: id });
    await a.client.close();
    await b.client.close();
  });

  test("DELETE ends the session: its background commands die and its id is gone (404)", async () => {
    const c = await connectClient(g);
    const started = await c.call("exec", { command: "exec sleep 300", yieldMs: 300 });
    const pid = started.details.pid;
    assert.ok(pid > 0, started.text);
    assert.ok(await isAlive(pid));
    const sid = c.sessionId();
    await c.transport.terminateSession();
    await waitFor(async () => !(await isAlive(pid)), 8000, "the session's command to die");
    const r = await post(g, { jsonrpc: "2.0", id: 2, method: "tools/list" }, { "Mcp-Session-Id": sid });
    assert.equal(r.status, 404);
    assert.match((await r.json()).error.message, /Session not found/);
  });
});

describe("gateway: the streams", () => {
  let g;
  before(async () => {
    g = await startGateway();
  });

  test("a client that drops its GET stream and reconnects with Last-Event-ID misses no notification", async () => {
    const sid = await rawSession(g);
    const headers = { "Mcp-Session-Id": sid, Accept: "text/event-stream", Authorization: `Bearer ${g.token()}` };
    const call = (id, args) => post(g, { jsonrpc: "2.0", id, method: "tools/call", params: { name: "exec", arguments: args } }, { "Mcp-Session-Id": sid });
    // First stream: sees the first completion, then is dropped.
    const first = await fetch(g.mcpUrl, { headers });
    assert.equal(first.status, 200);
    await readEvents(await call(10, { command: "echo one", background: true }), (e) => e.length >= 1);
    const seen = await readEvents(first, (e) => e.some((x) => /one/.test(x.data.params?.data ?? "")));
    const last = seen.events.at(-1);
    assert.ok(last?.id, "notifications carry event ids");
    await seen.cancel();
    // While nobody listens, two more complete.
    await readEvents(await call(11, { command: "echo two", background: true }), (e) => e.length >= 1);
    await readEvents(await call(12, { command: "echo three", background: true }), (e) => e.length >= 1);
    await sleep(800);
    const second = await fetch(g.mcpUrl, { headers: { ...headers, "Last-Event-ID": last.id } });
    const replay = await readEvents(second, (e) => e.filter((x) => /Exec completed/.test(x.data.params?.data ?? "")).length >= 2);
    const texts = replay.events.map((x) => x.data.params?.data ?? "");
    assert.ok(texts.some((t) => /two/.test(t)), texts.join("|"));
    assert.ok(texts.some((t) => /three/.test(t)), texts.join("|"));
    assert.ok(!texts.some((t) => /\bone\b/.test(t)), "events before Last-Event-ID are not sent again");
    await replay.cancel();
  });

  test("a client that accepts only JSON gets each answer as one JSON body, also for a tool call that takes a while", async () => {
    const json = { Accept: "application/json" };
    const init = await post(g, initBody, json);
    assert.equal(init.headers.get("content-type"), "application/json");
    const sid = init.headers.get("mcp-session-id");
    assert.equal((await init.json()).result.serverInfo.name, "clawexec");
    for (let i = 0; i < 3; i++) {
      const r = await post(g, { jsonrpc: "2.0", id: 10 + i, method: "tools/call", params: { name: "exec", arguments: { command: `sleep 0.2; echo json-${i}` } } }, { ...json, "Mcp-Session-Id": sid });
      assert.equal(r.status, 200);
      const body = await r.json();
      assert.match(body.result.content[0].text, new RegExp(`json-${i}`));
    }
  });

  test("a second GET stream on one session is refused (409) while the first is open", async () => {
    const sid = await rawSession(g);
    const headers = { "Mcp-Session-Id": sid, Accept: "text/event-stream", Authorization: `Bearer ${g.token()}` };
    const first = await fetch(g.mcpUrl, { headers });
    assert.equal(first.status, 200);
    const second = await fetch(g.mcpUrl, { headers });
    assert.equal(second.status, 409);
    await first.body.cancel();
  });

  test("protocol errors: no session id (400), unknown session (404), bad JSON (400), wrong media type (415), batch (400), bad version (400)", async () => {
    let r = await post(g, { jsonrpc: "2.0", id: 1, method: "tools/list" });
    assert.equal(r.status, 400);
    assert.match((await r.json()).error.message, /Mcp-Session-Id header is required/);
    r = await post(g, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { "Mcp-Session-Id": "nope" });
    assert.equal(r.status, 404);
    r = await post(g, "{not json");
    assert.equal(r.status, 400);
    assert.equal((await r.json()).error.code, -32700);
    r = await post(g, initBody, { "Content-Type": "text/plain" });
    assert.equal(r.status, 415);
    r = await post(g, `[${initBody}]`);
    assert.equal(r.status, 400);
    assert.match((await r.json()).error.message, /batches are not supported/);
    const sid = await rawSession(g);
    r = await post(g, { jsonrpc: "2.0", id: 3, method: "tools/list" }, { "Mcp-Session-Id": sid, "MCP-Protocol-Version": "1999-01-01" });
    assert.equal(r.status, 400);
    assert.match((await r.json()).error.message, /unsupported MCP-Protocol-Version "1999-01-01"/);
    r = await fetch(g.mcpUrl, { method: "PUT", headers: { Authorization: `Bearer ${g.token()}` } });
    assert.equal(r.status, 405);
  });
});

describe("gateway: the front door", () => {
  let g;
  before(async () => {
    g = await startGateway({
      config: { gateway: { auth: { rateLimit: { maxAttempts: 3, exemptLoopback: false } }, controlUi: { allowedOrigins: ["https://ui.example"] } } },
    });
  });

  test("no token and a wrong token get 401 with the reason; the limiter then answers 429 with Retry-After", async () => {
    let r = await fetch(g.mcpUrl, { method: "POST", headers: { "Content-Type": "application/json" }, body: initBody });
    assert.equal(r.status, 401);
    assert.match(r.headers.get("www-authenticate"), /^Bearer/);
    assert.match(await r.text(), /no Authorization header/);
    r = await fetch(g.mcpUrl, { method: "POST", headers: { "Content-Type": "application/json", Authorization: "Bearer wrong" }, body: initBody });
    assert.equal(r.status, 401);
    assert.match(await r.text(), /the token is wrong/);
    r = await fetch(g.mcpUrl, { method: "POST", headers: { "Content-Type": "application/json", Authorization: "Basic abc" }, body: initBody });
    assert.equal(r.status, 401);
    // Three failures: locked out, even with the right token.
    r = await post(g, initBody);
    assert.equal(r.status, 429);
    assert.ok(Number(r.headers.get("retry-after")) > 0);
  });
});

describe("gateway: browser checks", () => {
  let g;
  before(async () => {
    g = await startGateway({ config: { gateway: { controlUi: { allowedOrigins: ["https://ui.example"] } } } });
  });

  test("a foreign Host (DNS rebinding) and a foreign Origin get 403; allowed and loopback origins pass", async () => {
    let r = await rawExchange(g.port, `POST /mcp HTTP/1.1\r\nHost: evil.example:${g.port}\r\nAuthorization: Bearer ${g.token()}\r\nContent-Type: application/json\r\nContent-Length: ${initBody.length}\r\n\r\n${initBody}`);
    assert.match(r, /^HTTP\/1.1 403/);
    assert.match(r, /DNS-rebinding protection/);
    r = await post(g, initBody, { Origin: "https://evil.example" });
    assert.equal(r.status, 403);
    assert.match(await r.text(), /Origin "https:\/\/evil.example" is not allowed/);
    r = await post(g, initBody, { Origin: "https://ui.example" });
    assert.equal(r.status, 200);
    await r.body.cancel();
    r = await post(g, initBody, { Origin: `http://localhost:${g.port}` });
    assert.equal(r.status, 200);
    await r.body.cancel();
  });

  test("malformed HTTP (400), headers over 16 KiB (431), a body over the limit (413), unknown paths (404)", async () => {
    let r = await rawExchange(g.port, "THIS IS NOT HTTP\r\n\r\n");
    assert.match(r, /^HTTP\/1.1 400/);
    r = await rawExchange(g.port, `GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${"a".repeat(20000)}\r\n\r\n`);
    assert.match(r, /^HTTP\/1.1 431/);
    r = await rawExchange(g.port, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${5 * 1024 * 1024}\r\n\r\n`);
    assert.match(r, /^HTTP\/1.1 413/);
    r = await rawExchange(g.port, `GET /nothing-here HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    assert.match(r, /^HTTP\/1.1 404/);
    r = await rawExchange(g.port, `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    assert.match(r, /^HTTP\/1.1 200/);
  });
});

describe("gateway: slow clients, idle sessions, kill -9", () => {
  test("a client that never finishes its request is cut off (408) without holding up others", async () => {
    const g = await startGateway({ env: { CLAWEXEC_TEST_HTTP_REQUEST_TIMEOUT_MS: "700" } });
    const t0 = Date.now();
    const slow = rawExchange(g.port, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\nabc", { waitMs: 5000 });
    const r = await post(g, initBody);
    assert.equal(r.status, 200, "another client is served while the slow one waits");
    await r.body.cancel();
    // The server closes the connection when the deadline passes (nothing more is read from it).
    await slow;
    assert.ok(Date.now() - t0 < 4000, "the slow client was cut off well before its own 5 s wait");
  });

  test("an idle session ends on its own (clawexec.gateway.mcpSessionIdleMs) and its commands die", async () => {
    const g = await startGateway({ config: { clawexec: { gateway: { mcpSessionIdleMs: 800 } } } });
    const sid = await rawSession(g);
    const r = await post(g, { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "exec", arguments: { command: "echo pid=$$; exec sleep 300", yieldMs: 200 } } }, { "Mcp-Session-Id": sid });
    const { events } = await readEvents(r, (e) => e.length >= 1);
    const pid = Number(/pid (\d+)/.exec(events[0].data.result.content[0].text)?.[1]);
    assert.ok(pid > 0);
    await waitFor(async () => !(await isAlive(pid)), 8000, "the idle session's command to die");
    const again = await post(g, { jsonrpc: "2.0", id: 6, method: "tools/list" }, { "Mcp-Session-Id": sid });
    assert.equal(again.status, 404);
  });

  test("kill -9 of the gateway leaves no command behind", async () => {
    const g = await startGateway();
    const c = await connectClient(g);
    const started = await c.call("exec", { command: "exec sleep 300", yieldMs: 300 });
    const pid = started.details.pid;
    assert.ok(pid > 0 && (await isAlive(pid)), started.text);
    g.child.kill("SIGKILL");
    await g.exited;
    await waitFor(async () => !(await isAlive(pid)), 8000, "the command to die with the gateway");
  });
});

describe("gateway: vanishing clients and TLS", () => {
  test("a client that vanishes mid-stream: its SSE stream, its approvals and its commands are cleaned up", async () => {
    const g = await startGateway({
      config: { tools: { exec: { security: "allowlist", ask: "always" } }, clawexec: { gateway: { mcpSessionIdleMs: 1000 } } },
    });
    // An operator UI is connected, so the approvals have a route and wait (no-route rule).
    const ui = await wsConnect(g.url.replace("http:", "ws:"), connectParams(g.token(), { scopes: ["operator.approvals"], caps: ["exec-approvals"] }));
    assert.equal(ui.res.ok, true, JSON.stringify(ui.res));
    const sid = await rawSession(g);
    const stream = connect(g.port, "127.0.0.1");
    let streamed = "";
    stream.on("data", (d) => (streamed += d.toString()));
    stream.on("error", () => {});
    stream.write(`GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nAuthorization: Bearer ${g.token()}\r\nMcp-Session-Id: ${sid}\r\n\r\n`);
    await waitFor(() => /stream open/.test(streamed), 5000, "the GET stream");
    const call = async (id, command) => {
      const r = await post(g, { jsonrpc: "2.0", id, method: "tools/call", params: { name: "exec", arguments: { command } } }, { "Mcp-Session-Id": sid });
      const { events } = await readEvents(r, (e) => e.length >= 1);
      return events[0].data.result.content[0].text;
    };
    const pending = (re) => {
      const r = spawnSync(CLAWEXEC, ["approvals", "pending", "--json"], { env: g.env, encoding: "utf8" });
      return JSON.parse(r.stdout).find((a) => re.test(a.command));
    };
    assert.match(await call(11, "exec sleep 3017"), /Approval required/);
    const first = pending(/sleep 3017/);
    const ok = spawnSync(CLAWEXEC, ["approvals", "resolve", first.id, "allow-once"], { env: g.env, encoding: "utf8" });
    assert.equal(ok.status, 0, ok.stdout + ok.stderr);
    const pid = await waitFor(() => {
      const r = spawnSync("pgrep", ["-f", "sleep 3017"], { encoding: "utf8" });
      return Number(r.stdout.trim().split("\n")[0]) || null;
    }, 8000, "the approved command to run");
    assert.match(await call(12, "echo still-waiting-4242"), /Approval required/);
    assert.ok(pending(/still-waiting-4242/), "the second approval is pending");
    stream.destroy();  // gone without a DELETE, mid-stream
    await waitFor(async () => !(await isAlive(pid)), 10000, "the vanished client's command to die");
    await waitFor(() => !pending(/still-waiting-4242/), 5000, "its pending approval to be withdrawn");
    const again = await post(g, { jsonrpc: "2.0", id: 13, method: "tools/list" }, { "Mcp-Session-Id": sid });
    assert.equal(again.status, 404, "the session is gone");
    ui.ws.close();
  });

  test("with --tls-cert/--tls-key the gateway speaks HTTPS and WSS only", async () => {
    const dir = scratchDir("clawexec-tls-");
    const cert = join(dir.dir, "cert.pem");
    const key = join(dir.dir, "key.pem");
    const made = spawnSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key,
      "-out", cert, "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], { encoding: "utf8" });
    assert.equal(made.status, 0, made.stderr);
    const g = await startGateway({ args: ["--tls-cert", cert, "--tls-key", key] });
    assert.match(g.url, /^https:\/\/127\.0\.0\.1:/);
    const ca = readFileSync(cert);
    const request = (method, path, headers, body) => new Promise((resolve, reject) => {
      const r = https.request({ host: "127.0.0.1", port: g.port, method, path, headers, ca }, (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, text }));
      });
      r.on("error", reject);
      r.end(body);
    });
    const health = await request("GET", "/healthz", {});
    assert.equal(health.status, 200);
    const init = await request("POST", "/mcp", { "Content-Type": "application/json", Accept: "application/json", Authorization: `Bearer ${g.token()}` }, initBody);
    assert.equal(init.status, 200, init.text);
    assert.ok(init.headers["mcp-session-id"]);
    assert.match(init.text, /"protocolVersion"/);
    const ws = new WebSocket(g.url.replace("https:", "wss:"), { ca });
    const challenge = await new Promise((resolve, reject) => {
      ws.on("message", (d) => resolve(JSON.parse(d.toString())));
      ws.on("error", reject);
    });
    assert.equal(challenge.event, "connect.challenge");
    ws.close();
    // Plain HTTP on the TLS port gets no HTTP answer.
    const plain = await rawExchange(g.port, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", { waitMs: 2000 });
    assert.doesNotMatch(plain, /^HTTP\/1\.1 200/);
    dir.cleanup();
  });
});

describe("gateway: load", () => {
  test("200 concurrent MCP sessions each run an exec; then they all end cleanly", async () => {
    const g = await startGateway();
    const t0 = Date.now();
    const clients = await Promise.all(Array.from({ length: 200 }, () => connectClient(g)));
    const results = await Promise.all(clients.map((c, i) => c.call("exec", { command: `echo session-${i}` })));
    results.forEach((r, i) => assert.match(r.text, new RegExp(`session-${i}\\b`)));
    const ids = new Set(clients.map((c) => c.sessionId()));
    assert.equal(ids.size, 200, "every session has its own id");
    await Promise.all(clients.map((c) => c.transport.terminateSession().then(() => c.client.close())));
    const r = await post(g, initBody);
    assert.equal(r.status, 200, "the gateway still serves new sessions");
    await r.body.cancel();
    process.stderr.write(`200 sessions x 1 exec: ${Date.now() - t0} ms\n`);
  });
});
