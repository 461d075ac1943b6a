// The admin side of the operator protocol on our gateway: exec.approvals.get/set on the
// approvals document with OpenClaw's base-hash rule, and config.get/config.patch limited to
// tools.exec and agents.entries.<id>.tools.exec (merge patch, base hash, validation). A patch
// takes effect at once: the next MCP exec runs under the new settings.
import { describe, test, after, before } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, existsSync, writeFileSync, renameSync } from "node:fs";
import { waitFor } from "./lib/harness.mjs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startGateway, operator } from "./lib/gateway.mjs";

let g;
before(async () => {
  g = await startGateway({
    config: {
      gateway: { auth: { mode: "token" }, controlUi: { allowedOrigins: ["https://ui.example"] } },
      models: { providers: { local: { apiKey: "sk-very-secret" } } },
      tools: { exec: { security: "allowlist", ask: "always" } },
      agents: { entries: { ops: { tools: { exec: { node: "build-box" } } }, other: { name: "x" } } },
    },
  });
});
after(async () => g && (await g.stop()));

async function mcpExec(command) {
  const transport = new StreamableHTTPClientTransport(new URL(`${g.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${g.token}` } } });
  const client = new Client({ name: "admin-test", version: "1" }, { capabilities: {} });
  await client.connect(transport);
  const r = await client.callTool({ name: "exec", arguments: { command } });
  await client.close();
  return r.content[0].text;
}

describe("exec.approvals.get/set", () => {
  test("the base hash is required once the file exists, a stale one is refused, and the token never leaves", async () => {
    const admin = await operator(g, ["operator.admin"]);
    let r = await admin.call("exec.approvals.get", {});
    assert.equal(r.ok, true, JSON.stringify(r));
    const first = r.payload;
    assert.equal(first.path, join(g.state.dir, "exec-approvals.json"));
    assert.deepEqual(first.resolvedDefaults, { security: "full", ask: "off", askFallback: "deny", autoAllowSkills: false });
    const doc = { version: 1, defaults: { security: "allowlist", ask: "on-miss" }, agents: { main: { allowlist: [{ pattern: "/usr/bin/true" }] } } };
    if (first.exists) {
      r = await admin.call("exec.approvals.set", { file: doc });
      assert.equal(r.error.message, "exec approvals base hash required; reload and retry");
    }
    r = await admin.call("exec.approvals.set", first.exists ? { file: doc, baseHash: first.hash } : { file: doc });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.payload.exists, true);
    assert.equal(r.payload.resolvedDefaults.ask, "on-miss");
    assert.equal(r.payload.file.agents.main.allowlist[0].pattern, "/usr/bin/true");
    assert.match(r.payload.file.agents.main.allowlist[0].id, /^[0-9a-f-]{36}$/);
    assert.ok(!JSON.stringify(r.payload).includes("token"), "the socket token is not sent");
    const onDisk = JSON.parse(readFileSync(first.path, "utf8"));
    assert.equal(onDisk.defaults.ask, "on-miss");
    const hash = r.payload.hash;
    r = await admin.call("exec.approvals.set", { file: doc });
    assert.equal(r.error.message, "exec approvals base hash required; reload and retry");
    r = await admin.call("exec.approvals.set", { file: doc, baseHash: first.hash === hash ? "0".repeat(64) : first.hash });
    assert.equal(r.error.message, "exec approvals changed; reload and retry");
    r = await admin.call("exec.approvals.set", { file: { version: 1, defaults: { security: "always" } }, baseHash: hash });
    assert.equal(r.ok, false);
    assert.match(r.error.message, /security/);
    assert.equal(JSON.parse(readFileSync(first.path, "utf8")).defaults.ask, "on-miss", "an invalid document is not written");
    r = await admin.call("exec.approvals.set", { baseHash: hash });
    assert.equal(r.error.message, "invalid exec.approvals.set params: file (object) required");
    admin.ws.close();

    const approver = await operator(g, ["operator.approvals", "operator.write"]);
    r = await approver.call("exec.approvals.get", {});
    assert.equal(r.error.code, "FORBIDDEN");
    assert.equal(r.error.details.missingScope, "operator.admin");
    approver.ws.close();
  });
});

describe("clawexec.policy.explain", () => {
  test("an admin gets the policy report for an agent's command (nothing runs); bad params and other scopes are refused", async () => {
    const admin = await operator(g, ["operator.admin"]);
    let r = await admin.call("clawexec.policy.explain", { command: "ls /" });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.payload.agent, "main");
    assert.equal(r.payload.analysisOk, true);
    assert.deepEqual(r.payload.segments.map((s) => s.argv), [["ls", "/"]]);
    assert.equal(r.payload.segments[0].resolvedPath, "/usr/bin/ls");
    assert.equal(r.payload.security, "allowlist");
    assert.equal(r.payload.decision, "ask");
    assert.deepEqual(r.payload.allowAlways.patterns, ["/usr/bin/ls"]);
    r = await admin.call("clawexec.policy.explain", { command: "touch /tmp/never-$(id -u)", agentId: "ops", cwd: "/tmp" });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.payload.agent, "ops");
    assert.equal(r.payload.cwd, "/tmp");
    assert.equal(r.payload.analysisOk, false);
    assert.match(r.payload.reasons.join(" "), /command-substitution/);
    assert.equal(existsSync(`/tmp/never-${process.getuid()}`), false, "explaining runs nothing");
    r = await admin.call("clawexec.policy.explain", {});
    assert.equal(r.error.message, "invalid clawexec.policy.explain params: command (non-empty string) required");
    r = await admin.call("clawexec.policy.explain", { command: "ls", cwd: "/no/such/dir" });
    assert.equal(r.error.message, "clawexec.policy.explain: cwd /no/such/dir is not a directory");
    r = await admin.call("clawexec.policy.explain", { command: 1 });
    assert.equal(r.error.message, "invalid clawexec.policy.explain params: command must be a string");
    admin.ws.close();
    const reader = await operator(g, ["operator.read", "operator.write"]);
    r = await reader.call("clawexec.policy.explain", { command: "ls" });
    assert.equal(r.error.code, "FORBIDDEN");
    assert.equal(r.error.details.missingScope, "operator.admin");
    reader.ws.close();
  });
});

describe("config.get/config.patch (the exec subset)", () => {
  test("config.get shows tools.exec and the agents' tools.exec only, to operator.read", async () => {
    const reader = await operator(g, ["operator.read"]);
    const r = await reader.call("config.get", {});
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.payload.exists, true);
    assert.match(r.payload.hash, /^[0-9a-f]{64}$/);
    assert.deepEqual(r.payload.config, {
      tools: { exec: { security: "allowlist", ask: "always" } },
      agents: { entries: { ops: { tools: { exec: { node: "build-box" } } } } },
    });
    assert.ok(!JSON.stringify(r.payload).includes("sk-very-secret"));
    const patch = await reader.call("config.patch", { raw: "{}" });
    assert.equal(patch.error.details.missingScope, "operator.admin");
    reader.ws.close();
  });

  test("a patch needs the base hash, may touch only exec settings, must stay valid, and applies at once", async () => {
    const admin = await operator(g, ["operator.admin"]);
    // No operator shows approvals: the command is refused at once (the no-route rule).
    assert.match(await mcpExec("echo before-patch"), /^exec denied: Headless runs cannot wait/);
    const got = (await admin.call("config.get", {})).payload;
    let r = await admin.call("config.patch", { raw: JSON.stringify({ tools: { exec: { ask: "off" } } }) });
    assert.equal(r.error.message, "config base hash required; re-run config.get and retry");
    r = await admin.call("config.patch", { raw: JSON.stringify({ tools: { exec: { ask: "off" } } }), baseHash: "f".repeat(64) });
    assert.equal(r.error.message, "config changed since last load; re-run config.get and retry");
    for (const raw of [{ gateway: { auth: { token: "mine" } } }, { tools: { elevated: { enabled: true } } }, { agents: { entries: { ops: { sandbox: { mode: "off" } } } } }]) {
      r = await admin.call("config.patch", { raw: JSON.stringify(raw), baseHash: got.hash });
      assert.equal(r.ok, false, JSON.stringify(raw));
      assert.match(r.error.message, /only tools\.exec and agents\.entries\.<id>\.tools\.exec may be changed/);
    }
    r = await admin.call("config.patch", { raw: JSON.stringify({ tools: { exec: { security: "sometimes" } } }), baseHash: got.hash });
    assert.equal(r.ok, false);
    assert.match(r.error.message, /config\.patch refused, the result would be invalid: .*security/);
    r = await admin.call("config.patch", { raw: "{ not json", baseHash: got.hash });
    assert.match(r.error.message, /^config\.patch raw: /);
    const before = readFileSync(join(g.state.dir, "openclaw.json"), "utf8");
    assert.ok(before.includes("sk-very-secret"));

    // JSON5 text, null clears a value; the rest of the file is kept.
    r = await admin.call("config.patch", {
      raw: "{tools: {exec: {security: 'full', ask: 'off'}}, agents: {entries: {ops: {tools: {exec: {node: null}}}, dev: {tools: {exec: {node: 'mac-1'}}}}}}",
      baseHash: got.hash,
    });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.payload.changed, true);
    assert.deepEqual(r.payload.config.tools.exec, { security: "full", ask: "off" });
    assert.deepEqual(r.payload.config.agents.entries.ops.tools.exec, {});
    assert.equal(r.payload.config.agents.entries.dev.tools.exec.node, "mac-1");
    const after = JSON.parse(readFileSync(join(g.state.dir, "openclaw.json"), "utf8"));
    assert.equal(after.models.providers.local.apiKey, "sk-very-secret");
    assert.equal(after.agents.entries.other.name, "x");
    assert.ok(!("node" in after.agents.entries.ops.tools.exec));
    // The approvals document from the previous test still says allowlist/on-miss; full/off in
    // the config with the document's defaults lowered to full/off makes echo run directly.
    const appr = (await admin.call("exec.approvals.get", {})).payload;
    r = await admin.call("exec.approvals.set", { file: { version: 1, defaults: { security: "full", ask: "off" } }, baseHash: appr.hash });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.match(await mcpExec("echo after-patch"), /after-patch/);
    r = await admin.call("config.patch", { raw: "{}", baseHash: (await admin.call("config.get", {})).payload.hash });
    assert.equal(r.payload.changed, false);
    assert.ok(existsSync(join(g.state.dir, "openclaw.json")));
    admin.ws.close();
  });
});

describe("openclaw.json watched", () => {
  test("an edit of the file by hand is picked up without a restart or SIGHUP", async () => {
    const path = join(g.state.dir, "openclaw.json");
    const doc = JSON.parse(readFileSync(path, "utf8"));
    const before = g.stderr().length;  // earlier tests' config.patch writes were reloaded too
    doc.tools.exec = { security: "allowlist", ask: "always" };
    writeFileSync(`${path}.tmp`, JSON.stringify(doc));
    renameSync(`${path}.tmp`, path);  // as editors do
    await waitFor(() => {
      const fresh = g.stderr().slice(before);
      return /openclaw\.json changed/.test(fresh) && /settings reloaded/.test(fresh.split(/openclaw\.json changed/).pop());
    }, 10000, "the reload");
    assert.match(await mcpExec("echo after-hand-edit"), /^exec denied: Headless runs cannot wait/);
  });
});
