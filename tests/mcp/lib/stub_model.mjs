// A scripted language-model server on loopback for the model client's tests (the exec
// auto-reviewer's transport). It speaks the three APIs clawexec calls, chosen by the request
// path like the real services: .../chat/completions (OpenAI chat completions), .../responses
// (OpenAI responses), .../messages (Anthropic), each as one JSON body or as SSE when the
// request says `stream: true`. What it does is chosen by the request's `model`:
//   ok           answers "stub <api> <stream|json>" with a normal stop
//   length       the same text, stopped by the token limit
//   http500      HTTP 500 whose error message echoes the credential it got (to prove masking)
//   hang         accepts the request and never answers
//   close        sends the status and part of the body, then drops the connection
//   delay:<ms>   answers like ok after <ms> milliseconds
//   big          a 2 MiB answer
//   script       the next entry of the stub's `script` queue (the exec reviewer's tests): {text,
//                reason ("stop" | "length"), status (an HTTP error status), hang, delayMs};
//                an empty queue answers like ok
// Every request is recorded ({method, url, headers, body}) so a test can check what reached
// it, and that nothing did. (tests/mcp/lib/fake_model.mjs is a different tool: an OpenAI model
// that drives an agent's tool calls for interop runs.)
//
// Use from a test: `const stub = await startStubModel({ tls: true })` -> {port, tlsPort,
// caFile, requests, script, close}. From another process (the C++ client test): `node stub_model.mjs
// [--tls]` prints one JSON line {port, tlsPort, caFile}; then each stdin line "requests" is
// answered with one JSON line of the recorded requests, and "reset" clears them. It exits when
// stdin closes.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { createServer as createTlsServer } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

function apiOf(url) {
  const path = url.split("?")[0];
  if (path.endsWith("/chat/completions")) return "openai-completions";
  if (path.endsWith("/responses")) return "openai-responses";
  if (path.endsWith("/messages")) return "anthropic-messages";
  return null;
}

// The JSON answer of one API: `text`, stopped for `reason` ("stop" or "length").
function jsonAnswer(api, text, reason) {
  if (api === "openai-completions") {
    return { id: "chatcmpl-stub", object: "chat.completion", model: "stub",
      choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: reason }] };
  }
  if (api === "openai-responses") {
    return { id: "resp_stub", object: "response", status: reason === "stop" ? "completed" : "incomplete",
      incomplete_details: reason === "stop" ? null : { reason: "max_output_tokens" },
      output: [{ type: "message", id: "msg_stub", role: "assistant", content: [{ type: "output_text", text }] }] };
  }
  return { id: "msg_stub", type: "message", role: "assistant", model: "stub",
    content: [{ type: "text", text }], stop_reason: reason === "stop" ? "end_turn" : "max_tokens" };
}

// The SSE events of one API for the same answer, the text in two deltas.
function sseEvents(api, text, reason) {
  const half = Math.ceil(text.length / 2);
  const parts = [text.slice(0, half), text.slice(half)];
  const ev = (type, data) => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
  if (api === "openai-completions") {
    const chunk = (delta, finish) => `data: ${JSON.stringify({ id: "chatcmpl-stub", object: "chat.completion.chunk",
      choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    return [chunk({ role: "assistant", content: "" }, null), ...parts.map((p) => chunk({ content: p }, null)),
      chunk({}, reason), `data: ${JSON.stringify({ id: "chatcmpl-stub", choices: [], usage: { total_tokens: 3 } })}\n\n`,
      "data: [DONE]\n\n"];
  }
  if (api === "openai-responses") {
    const done = jsonAnswer(api, text, reason);
    return [ev("response.created", { type: "response.created", response: { id: "resp_stub", status: "in_progress" } }),
      ...parts.map((p) => ev("response.output_text.delta", { type: "response.output_text.delta", delta: p })),
      ev(reason === "stop" ? "response.completed" : "response.incomplete",
        { type: reason === "stop" ? "response.completed" : "response.incomplete", response: done })];
  }
  return [ev("message_start", { type: "message_start", message: { id: "msg_stub", content: [] } }),
    ev("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
    ...parts.map((p) => ev("content_block_delta", { type: "content_block_delta", index: 0,
      delta: { type: "text_delta", text: p } })),
    ev("content_block_stop", { type: "content_block_stop", index: 0 }),
    ev("message_delta", { type: "message_delta", delta: { stop_reason: reason === "stop" ? "end_turn" : "max_tokens" } }),
    ev("message_stop", { type: "message_stop" })];
}

function answer(req, res, body, api, script = []) {
  let scenario = String(body.model ?? "ok");
  const stream = body.stream === true;
  let text = `stub ${api} ${stream ? "stream" : "json"}`;
  if (scenario === "script") {
    const entry = script.shift() ?? {};
    if (entry.delayMs) {
      return setTimeout(() => answer(req, res, body, api, [{ ...entry, delayMs: 0 }]), entry.delayMs);
    }
    if (entry.hang) return;
    if (entry.status) {
      res.writeHead(entry.status, { "content-type": "application/json" });
      return res.end(JSON.stringify({ error: { message: `scripted ${entry.status}`, type: "server_error" } }));
    }
    if (entry.text !== undefined) text = entry.text;
    scenario = entry.reason === "length" ? "length" : "ok";
  }
  if (scenario === "hang") return;
  if (scenario === "http500") {
    const credential = req.headers.authorization ?? req.headers["x-api-key"] ?? "none";
    res.writeHead(500, { "content-type": "application/json" });
    return res.end(JSON.stringify({ error: { message: `stub failure\n\u001b[31mfor credential ${credential}`, type: "server_error" } }));
  }
  if (scenario === "close") {
    res.writeHead(200, { "content-type": stream ? "text/event-stream" : "application/json" });
    res.write(stream ? sseEvents(api, text, "stop")[0] : "{\"id\":");
    return setTimeout(() => req.socket.destroy(), 50);
  }
  if (scenario.startsWith("delay:")) {
    const ms = Number(scenario.slice(6));
    return setTimeout(() => answer(req, res, { ...body, model: "ok" }, api), ms);
  }
  const reason = scenario === "length" ? "length" : "stop";
  const payload = scenario === "big" ? "x".repeat(2 * 1024 * 1024) : text;
  if (stream) {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    for (const e of sseEvents(api, payload, reason)) res.write(e);
    return res.end();
  }
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(jsonAnswer(api, payload, reason)));
}

function handler(requests, script) {
  return (req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      let body = {};
      try { body = raw ? JSON.parse(raw) : {}; } catch { body = { unparsed: raw }; }
      requests.push({ method: req.method, url: req.url, headers: req.headers, body });
      const api = apiOf(req.url);
      if (req.method !== "POST" || !api) {
        res.writeHead(404, { "content-type": "application/json" });
        return res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
      }
      answer(req, res, body, api, script);
    });
  };
}

// A self-signed certificate for localhost and 127.0.0.1, made with the openssl CLI.
function makeCertificate() {
  const dir = mkdtempSync(join(tmpdir(), "stub-model-tls-"));
  const key = join(dir, "key.pem");
  const cert = join(dir, "cert.pem");
  execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
    "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
  { stdio: "ignore" });
  return { dir, key: readFileSync(key), cert: readFileSync(cert), caFile: cert };
}

export async function startStubModel({ tls = false } = {}) {
  const requests = [];
  const script = [];
  const sockets = new Set();
  const track = (server) => server.on("connection", (s) => { sockets.add(s); s.on("close", () => sockets.delete(s)); });
  const plain = createServer(handler(requests, script));
  track(plain);
  await new Promise((r) => plain.listen(0, "127.0.0.1", r));
  let secure = null;
  let cert = null;
  if (tls) {
    cert = makeCertificate();
    secure = createTlsServer({ key: cert.key, cert: cert.cert }, handler(requests, script));
    track(secure);
    await new Promise((r) => secure.listen(0, "127.0.0.1", r));
  }
  return {
    port: plain.address().port,
    tlsPort: secure ? secure.address().port : null,
    caFile: cert ? cert.caFile : null,
    requests,
    script,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => plain.close(r));
      if (secure) await new Promise((r) => secure.close(r));
      if (cert) rmSync(cert.dir, { recursive: true, force: true });
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const stub = await startStubModel({ tls: process.argv.includes("--tls") });
  process.stdout.write(JSON.stringify({ port: stub.port, tlsPort: stub.tlsPort, caFile: stub.caFile }) + "\n");
  const lines = createInterface({ input: process.stdin });
  lines.on("line", (line) => {
    if (line.trim() === "requests") process.stdout.write(JSON.stringify(stub.requests) + "\n");
    if (line.trim() === "reset") stub.requests.length = 0;
  });
  lines.on("close", async () => {
    await stub.close();
    process.exit(0);
  });
}
