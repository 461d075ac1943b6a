// Interop (not in ctest; run by scripts/interop-openclaw.sh): OpenClaw's real node host pairs
// with our gateway, and OpenClaw's own CLI manages the pairing. The node host's first connect
// (its Ed25519 identity, v3 signature) raises a pending request; `openclaw devices list` shows
// it, `openclaw devices approve` approves it (the CLI retries with operator.admin, as a node
// needs), and the restarted node host connects and is listed as connected with a device token
// stored by our gateway; `openclaw nodes pending|approve` approves its command surface, and an
// agent's `exec host=node` through our MCP endpoint then runs on OpenClaw's node host.
// `openclaw devices reject` drops another request. Needs the reference from
// ../shared/tools/install-reference.sh.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sleep, waitFor } from "./lib/harness.mjs";
import { NODE, OC, ocEnv, openclawCli } from "./lib/reference.mjs";
import { startGateway, connect, makeDevice, deviceConnect } from "./lib/gateway.mjs";
import { agent, execText } from "./lib/nodes.mjs";


let g;
const cliHome = mkdtempSync(join(tmpdir(), "oc-dev-cli-"));
const nodeState = mkdtempSync(join(tmpdir(), "oc-dev-node-"));
const nodes = [];
before(async () => {
  g = await startGateway({ config: { gateway: { nodes: { pairing: { autoApproveLocal: false } } } } });
  writeFileSync(join(nodeState, "openclaw.json"), JSON.stringify({ update: { checkOnStart: false }, models: { catalogRefresh: { enabled: false } } }));
});
after(async () => {
  for (const n of nodes) n.kill("SIGKILL");
  await g?.stop();
});

function devices(...args) {
  return openclaw("devices", ...args);
}

const openclaw = (group, ...args) => openclawCli(group, args, { url: g.wsUrl, token: g.token, home: cliHome });

function startNodeHost() {
  const port = new URL(g.url).port;
  const child = spawn(NODE, [OC, "node", "run", "--host", "127.0.0.1", "--port", port, "--display-name", "oc-interop-node",
    "--commands", "system.run,system.run.prepare,system.which,system.execApprovals.get,system.execApprovals.set"], {
    env: { ...ocEnv(join(nodeState, "home"), { OPENCLAW_STATE_DIR: nodeState, OPENCLAW_CONFIG_PATH: join(nodeState, "openclaw.json") }), OPENCLAW_GATEWAY_TOKEN: g.token },
    stdio: ["ignore", "pipe", "pipe"], detached: true,
  });
  let log = "";
  child.stdout.on("data", (d) => (log += d));
  child.stderr.on("data", (d) => (log += d));
  nodes.push(child);
  child.log = () => log;
  return child;
}

test("OpenClaw's node host pairs with our gateway through `openclaw devices list|approve`", { timeout: 240000 }, async () => {
  const first = startNodeHost();
  const pending = await waitFor(() => {
    const l = devices("list");
    return l.json?.pending?.find((p) => p.displayName === "oc-interop-node");
  }, 90000, "the node host's pending request");
  assert.equal(pending.clientId, "node-host");
  assert.equal(pending.role, "node");
  assert.match(pending.deviceId, /^[0-9a-f]{64}$/);
  process.kill(-first.pid, "SIGKILL");

  const approved = devices("approve", pending.requestId);
  assert.equal(approved.status, 0, approved.out);
  assert.ok(approved.out.includes(pending.deviceId), approved.out);
  const stored = JSON.parse(readFileSync(join(g.state.dir, "gateway", "devices.json"), "utf8"));
  const record = stored.paired.find((d) => d.deviceId === pending.deviceId);
  assert.equal(record.approvedVia, "owner");
  assert.ok(record.tokens.node.token.length >= 43);

  // OpenClaw's node host needs a restart after approval; then it connects with its identity.
  const second = startNodeHost();
  const paired = await waitFor(() => {
    const l = devices("list");
    const d = l.json?.paired?.find((p) => p.deviceId === pending.deviceId);
    return d?.connected ? d : null;
  }, 90000, "the restarted node host connected");
  assert.deepEqual(paired.tokens.map((t) => t.role), ["node"]);

  // Its command surface: `openclaw nodes pending`, then `openclaw nodes approve`.
  const surface = await waitFor(() => {
    const l = openclaw("nodes", "pending");
    const list = Array.isArray(l.json) ? l.json : l.json?.pending;
    return list?.find((p) => p.nodeId === pending.deviceId);
  }, 30000, "the node's command surface request");
  assert.ok(surface.commands.includes("system.run"), JSON.stringify(surface));
  const approvedSurface = openclaw("nodes", "approve", surface.requestId);
  assert.equal(approvedSurface.status, 0, approvedSurface.out);

  // An agent's exec host=node through our MCP endpoint runs on OpenClaw's node host.
  const client = await agent(g);
  try {
    const r = await execText(client, { command: "echo via-openclaw-node; uname -s", host: "node" });
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, new RegExp(`^Node: ${pending.deviceId}\\n(?:[\\s\\S]*\\n\\n)?via-openclaw-node\\nLinux\\n?$`));
    assert.equal(r.details.exitCode, 0);
    const failed = await execText(client, { command: "exit 4", host: "node" });
    assert.equal(failed.isError, true);
    assert.match(failed.text, /\(Command exited with code 4\)$/);
  } finally {
    await client.close();
    process.kill(-second.pid, "SIGKILL");
  }
});

test("`openclaw devices reject` drops a pending request", { timeout: 120000 }, async () => {
  const device = makeDevice();
  const c = await connect(g.wsUrl, (ch) => deviceConnect(device, ch, { auth: { token: g.token }, client: { id: "node-host", displayName: "to-reject", version: "t", platform: "linux", mode: "node" } }));
  const requestId = c.res.error.details.requestId;
  const rejected = devices("reject", requestId);
  assert.equal(rejected.status, 0, rejected.out);
  const l = devices("list");
  assert.ok(!l.json.pending.some((p) => p.requestId === requestId), l.out);
  await sleep(10);
});
