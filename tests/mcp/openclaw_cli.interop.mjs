// Interop (not in ctest; run by scripts/interop-openclaw.sh): OpenClaw's own CLI, pointed at
// our gateway with --url/--token, calls health and status, lists, reads and resolves an exec
// approval that an MCP session of our gateway asked for, and gets OpenClaw's error shape for
// an unknown id. Needs the reference from ../shared/tools/install-reference.sh.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { CLAWEXEC, scratchDir, serverEnv, sleep, waitFor } from "./lib/harness.mjs";
import { NODE, OC } from "./lib/reference.mjs";
import { connect as wsConnect, connectParams } from "./lib/gateway.mjs";


let g;
const ocHome = mkdtempSync(join(tmpdir(), "oc-cli-home-"));
before(async () => {
  const state = scratchDir("clawexec-interop-");
  writeFileSync(join(state.dir, "openclaw.json"), JSON.stringify({ tools: { exec: { security: "allowlist", ask: "always" } } }));
  const child = spawn(CLAWEXEC, ["gateway", "--port", "0"], { env: serverEnv(state.dir), cwd: state.dir, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d.toString()));
  const url = await waitFor(() => /listening on (http:\/\/[^ ]+) /.exec(stderr)?.[1], 15000, "gateway start");
  g = { child, url, token: readFileSync(join(state.dir, "gateway", "token"), "utf8").trim(), state };
});
after(async () => {
  g?.child.kill("SIGTERM");
  await sleep(500);
  g?.state.cleanup();
});

function oc(method, params = {}) {
  const r = spawnSync(NODE, [OC, "gateway", "call", method, "--url", g.url.replace("http:", "ws:"), "--token", g.token, "--json", "--params", JSON.stringify(params)], {
    env: { PATH: "/usr/bin:/bin", HOME: ocHome, OPENCLAW_STATE_DIR: join(ocHome, "state"), OPENCLAW_NO_AUTO_UPDATE: "1", OPENCLAW_DISABLE_BONJOUR: "1", NO_COLOR: "1" },
    encoding: "utf8",
    timeout: 60000,
  });
  const out = r.stdout.trim();
  const start = out.search(/[[{]/);
  return { status: r.status, json: start >= 0 ? JSON.parse(out.slice(start)) : null, stderr: r.stderr, stdout: r.stdout };
}

test("openclaw gateway call: health and status", () => {
  const h = oc("health");
  assert.equal(h.status, 0, h.stderr + h.stdout);
  assert.equal(h.json.ok, true);
  const s = oc("status");
  assert.equal(s.status, 0, s.stderr + s.stdout);
  assert.ok(s.json.uptimeMs >= 0);
});

test("openclaw gateway call: an approval is listed, read and resolved; the command runs", async () => {
  // An approval UI is connected (OpenClaw's CLI alone is no route: without one the exec would
  // take askFallback at once); the human then answers with OpenClaw's CLI.
  const ui = await wsConnect(g.url.replace("http:", "ws:"), connectParams(g.token, { scopes: ["operator.approvals"], caps: ["exec-approvals"] }));
  assert.equal(ui.res.ok, true, JSON.stringify(ui.res));
  const transport = new StreamableHTTPClientTransport(new URL(`${g.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${g.token}` } } });
  const client = new Client({ name: "interop", version: "1" }, { capabilities: {} });
  const notes = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => notes.push(n.params));
  await client.connect(transport);
  const pending = await client.callTool({ name: "exec", arguments: { command: "echo interop-ok" } });
  assert.match(pending.content[0].text, /Approval required/);
  const list = oc("exec.approval.list");
  assert.equal(list.status, 0, list.stderr + list.stdout);
  const record = list.json.find((a) => /interop-ok/.test(a.request.command));
  assert.ok(record, JSON.stringify(list.json));
  const got = oc("exec.approval.get", { id: record.id });
  assert.equal(got.json.id, record.id);
  const unknown = oc("exec.approval.resolve", { id: "nope", decision: "deny" });
  assert.notEqual(unknown.status, 0);
  assert.match(unknown.stdout + unknown.stderr, /unknown or expired approval id/);
  const resolved = oc("exec.approval.resolve", { id: record.id, decision: "allow-once" });
  assert.equal(resolved.status, 0, resolved.stderr + resolved.stdout);
  assert.equal(resolved.json.ok, true);
  await waitFor(() => notes.find((n) => /interop-ok/.test(n.data)), 10000, "the approved run");
  await client.close();
  ui.ws.close();
});
