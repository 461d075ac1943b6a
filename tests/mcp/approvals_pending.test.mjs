// Approvals that wait for an operator (approvals spec §7.1 step 7, §7.3, §7.5, §7.6; issue 4):
// a client without elicitation gets the approval-pending result at once; an operator lists and
// resolves it through `clawexec approvals pending|resolve` (the operator socket), after which
// the command runs in the background and the client is told "Exec finished (gateway id=...)"
// - or "Exec denied (gateway id=..., <reason>)" - as MCP notifications. Expiry goes to
// askFallback.
import { describe, test, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, scratchDir, serverEnv, CLAWEXEC, waitFor, closeAll } from "./lib/harness.mjs";

const servers = [];
const scratch = scratchDir();
after(async () => {
  await closeAll(servers);
  scratch.cleanup();
});

async function pendingServer(extra = {}) {
  const s = await startServer({
    config: { tools: { exec: { security: "allowlist", ask: "on-miss", approvalRunningNoticeMs: 0 } } },
    approvals: { version: 1, agents: {} },
    ...extra,
  });
  servers.push(s);
  return s;
}

function operator(s, args) {
  const r = spawnSync(CLAWEXEC, ["approvals", ...args], { env: serverEnv(s.stateDir), encoding: "utf8", timeout: 20000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const texts = (s) => s.notifications.map((n) => n.data);

describe("pending approvals", { concurrency: 3 }, () => {
  test("the call returns approval-pending at once with the reference text and details", async () => {
    const s = await pendingServer();
    const r = await s.call("exec", { command: "echo hello" });
    assert.equal(r.isError, false);
    const d = r.details;
    assert.equal(d.status, "approval-pending");
    assert.match(d.approvalId, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(d.approvalSlug, d.approvalId.slice(0, 8));
    assert.deepEqual(d.allowedDecisions, ["allow-once", "allow-always", "deny"]);
    assert.equal(d.host, "gateway");
    assert.equal(d.command, "echo hello");
    assert.ok(d.expiresAtMs > Date.now() + 29 * 60 * 1000);
    assert.equal(
      r.text,
      `Approval required (id ${d.approvalSlug}, full ${d.approvalId}).\n` +
        "Host: gateway\n" +
        `CWD: ${d.cwd}\n` +
        "Command:\n```sh\necho hello\n```\n" +
        "Mode: foreground (interactive approvals available).\n" +
        "Background mode requires pre-approved policy (allow-always or ask=off).\n" +
        `Reply with: /approve ${d.approvalSlug} allow-once|allow-always|deny\n` +
        "If the short code is ambiguous, use the full id in /approve.",
    );
  });

  test("an operator lists it and approves it by slug; the command runs and the client is told", async () => {
    const s = await pendingServer();
    const file = join(scratch.dir, "approved-by-operator");
    const r = await s.call("exec", { command: `touch ${file} && echo done-by-approval`, env: { APPROVAL_TEST_SECRET: "value" } });
    const { approvalId, approvalSlug } = r.details;
    const list = operator(s, ["pending", "--json"]);
    assert.equal(list.code, 0, list.stderr);
    const pending = JSON.parse(list.stdout);
    const mine = (Array.isArray(pending) ? pending : pending.approvals).find((a) => a.id === approvalId);
    assert.ok(mine, list.stdout);
    assert.equal(mine.command, `touch ${file} && echo done-by-approval`);
    assert.equal(mine.security, "allowlist");
    assert.equal(mine.ask, "on-miss");
    assert.match(mine.resolvedPath, /\/touch$/);
    assert.equal(mine.commandAnalysis.commandCount, 2);
    assert.deepEqual(mine.envKeys, ["APPROVAL_TEST_SECRET"], "keys only, never values");
    assert.equal(JSON.stringify(mine).includes("value"), false);
    assert.deepEqual(mine.allowedDecisions, ["allow-once", "allow-always", "deny"]);
    const resolved = operator(s, ["resolve", approvalSlug, "allow-once"]);
    assert.equal(resolved.code, 0, resolved.stderr + resolved.stdout);
    await waitFor(() => texts(s).some((t) => t.startsWith(`Exec finished (gateway id=${approvalId}`)), 10000, "Exec finished");
    const finished = texts(s).find((t) => t.startsWith(`Exec finished (gateway id=${approvalId}`));
    assert.match(finished, new RegExp(`^Exec finished \\(gateway id=${approvalId}, session=[a-z-]+, code 0\\)\\ndone-by-approval$`));
    assert.ok(existsSync(file));
    // The run is an ordinary background session of this client.
    const sid = /session=([a-z-]+)/.exec(finished)[1];
    const polled = await s.call("process", { action: "log", sessionId: sid });
    assert.match(polled.text, /done-by-approval/);
  });

  test("deny from the operator tells the client `Exec denied (gateway id=…, user-denied)` and runs nothing", async () => {
    const s = await pendingServer();
    const file = join(scratch.dir, "denied-by-operator");
    const r = await s.call("exec", { command: `touch ${file}` });
    const resolved = operator(s, ["resolve", r.details.approvalId, "deny"]);
    assert.equal(resolved.code, 0, resolved.stderr);
    await waitFor(() => texts(s).some((t) => t.startsWith("Exec denied")), 10000, "Exec denied");
    assert.ok(texts(s).includes(`Exec denied (gateway id=${r.details.approvalId}, user-denied): touch ${file}`));
    assert.equal(existsSync(file), false);
    assert.equal(operator(s, ["resolve", r.details.approvalId, "allow-once"]).code, 1, "already settled");
  });

  test("allow-always from the operator stores the entry; the same program then runs without asking", async () => {
    const s = await pendingServer();
    const r = await s.call("exec", { command: "uname -s" });
    assert.equal(operator(s, ["resolve", r.details.approvalSlug, "allow-always"]).code, 0);
    await waitFor(() => texts(s).some((t) => t.startsWith("Exec finished")), 10000, "Exec finished");
    const doc = JSON.parse(readFileSync(join(s.stateDir, "exec-approvals.json"), "utf8"));
    assert.match(doc.agents.main.allowlist[0].pattern, /\/uname$/);
    const again = await s.call("exec", { command: "uname -s" });
    assert.equal(again.details.status, "completed");
  });

  test("an approval nobody answers expires into askFallback (deny -> approval-timeout)", async () => {
    const s = await pendingServer({ env: { CLAWEXEC_APPROVAL_TIMEOUT_MS: "700" } });
    const r = await s.call("exec", { command: "echo late" });
    assert.equal(r.details.status, "approval-pending");
    await waitFor(() => texts(s).some((t) => t.startsWith("Exec denied")), 10000, "Exec denied");
    assert.ok(texts(s).includes(`Exec denied (gateway id=${r.details.approvalId}, approval-timeout): echo late`));
    const list = JSON.parse(operator(s, ["pending", "--json"]).stdout);
    assert.equal((Array.isArray(list) ? list : list.approvals).some((a) => a.id === r.details.approvalId), false);
  });

  test("an expired approval with askFallback=allowlist runs what the allowlist covers", async () => {
    const s = await pendingServer({
      env: { CLAWEXEC_APPROVAL_TIMEOUT_MS: "500" },
      approvals: { version: 1, defaults: { askFallback: "allowlist" }, agents: { main: { allowlist: [{ pattern: "printf" }] } } },
    });
    const r = await s.call("exec", { command: "printf covered", ask: "always" });
    assert.equal(r.details.status, "approval-pending");
    assert.deepEqual(r.details.allowedDecisions, ["allow-once", "deny"], "ask=always never offers allow-always");
    await waitFor(() => texts(s).some((t) => t.startsWith("Exec finished")), 10000, "Exec finished");
    assert.match(texts(s).find((t) => t.startsWith("Exec finished")), /code 0\)\ncovered$/);
  });
});

describe("operator text and session defaults", { concurrency: 3 }, () => {
  test("/approve text on the operator channel resolves by slug with the reference reply", async () => {
    const s = await pendingServer();
    const r = await s.call("exec", { command: "echo via-slash-approve" });
    const said = operator(s, ["say", "/approve", r.details.approvalSlug, "allow-once"]);
    assert.equal(said.code, 0, said.stderr);
    assert.equal(said.stdout, `✅ Approval allow-once submitted for ${r.details.approvalSlug}.\n`);
    await waitFor(() => texts(s).some((t) => t.startsWith(`Exec finished (gateway id=${r.details.approvalId}`)), 10000, "finished");
    const usage = operator(s, ["say", "/approve", r.details.approvalSlug]);
    assert.match(usage.stdout, /^Usage: \/approve <id> <decision>/);
  });

  test("an operator's /exec shows the defaults, and security/ask apply to the next run only", async () => {
    const s = await startServer({ approvals: { version: 1, agents: {} } });
    servers.push(s);
    const shown = operator(s, ["say", "/exec"]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /^Current exec defaults: host=auto, effective=gateway, security=full, ask=off, node=\(unset\)\.\n/);
    const set = operator(s, ["say", "/exec", "security=deny"]);
    assert.equal(set.stdout, "⚙️ Exec policy for this run only (security=deny).\n");
    const refused = await s.call("exec", { command: "echo once" });
    assert.equal(refused.text, "exec denied: host=gateway security=deny");
    const again = await s.call("exec", { command: "echo back" });
    assert.equal(again.text, "back");
    const bad = operator(s, ["say", "/exec", "ask=sometimes"]);
    assert.equal(bad.stdout, 'Unrecognized exec ask "sometimes". Valid: off, on-miss, always.\n');
  });

  test("serve --ask always makes every command of that client wait for approval", async () => {
    const s = await startServer({ args: ["--ask", "always"], approvals: { version: 1, agents: {} } });
    servers.push(s);
    const r = await s.call("exec", { command: "echo needs-approval" });
    assert.equal(r.details.status, "approval-pending");
    assert.deepEqual(r.details.allowedDecisions, ["allow-once", "deny"]);
  });

  test("serve refuses an invalid session default with a usage error", async () => {
    const r = spawnSync(CLAWEXEC, ["serve", "--security", "loose"], { env: serverEnv(scratch.dir), encoding: "utf8", input: "" });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--security loose: expected deny, allowlist or full/);
  });

  test("a run that is still going after approvalRunningNoticeMs is announced as Exec running", async () => {
    const s = await pendingServer({
      config: { tools: { exec: { security: "allowlist", ask: "on-miss", approvalRunningNoticeMs: 300 } } },
    });
    const r = await s.call("exec", { command: "sleep 1.5; echo slow" });
    assert.equal(operator(s, ["resolve", r.details.approvalSlug, "allow-once"]).code, 0);
    await waitFor(() => texts(s).some((t) => t.startsWith("Exec running")), 10000, "Exec running");
    assert.match(
      texts(s).find((t) => t.startsWith("Exec running")),
      new RegExp(`^Exec running \\(gateway id=${r.details.approvalId}, session=[a-z-]+, >1s\\): sleep 1\\.5; echo slow$`),
    );
    await waitFor(() => texts(s).some((t) => t.startsWith("Exec finished")), 10000, "Exec finished");
  });
});

describe("several servers, one operator socket", () => {
  test("a second server's approvals are listed and resolved through the first one's socket", async () => {
    const config = { tools: { exec: { security: "allowlist", ask: "on-miss", approvalRunningNoticeMs: 0 } } };
    const a = await pendingServer();
    const b = await startServer({ config, stateDir: a.stateDir });
    servers.push(b);
    const fromA = await a.call("exec", { command: "echo from-a" });
    const fromB = await b.call("exec", { command: "echo from-b" });
    await waitFor(() => {
      const listed = JSON.parse(operator(a, ["pending", "--json"]).stdout || "[]");
      const ids = (Array.isArray(listed) ? listed : listed.approvals).map((x) => x.id);
      return ids.includes(fromA.details.approvalId) && ids.includes(fromB.details.approvalId);
    }, 10000, "both approvals listed");
    assert.equal(operator(a, ["resolve", fromB.details.approvalSlug, "allow-once"]).code, 0);
    await waitFor(() => texts(b).some((t) => t.startsWith(`Exec finished (gateway id=${fromB.details.approvalId}`)), 10000, "b ran");
    assert.match(texts(b).find((t) => t.startsWith("Exec finished")), /\nfrom-b$/);
    assert.equal(texts(a).some((t) => t.startsWith("Exec finished")), false, "a's own approval is still pending");
  });

  test("approvals watch --json streams requests and resolutions", async () => {
    const s = await pendingServer();
    const { spawn } = await import("node:child_process");
    const watch = spawn(CLAWEXEC, ["approvals", "watch", "--json"], { env: serverEnv(s.stateDir), stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    watch.stdout.on("data", (d) => (out += d));
    try {
      await new Promise((r) => setTimeout(r, 400));
      const r = await s.call("exec", { command: "echo watched" });
      await waitFor(() => out.includes(r.details.approvalId), 10000, "requested event");
      assert.equal(operator(s, ["resolve", r.details.approvalSlug, "deny"]).code, 0);
      await waitFor(() => out.split("\n").some((l) => l.includes('"resolved"') && l.includes(r.details.approvalId)), 10000, "resolved event");
      for (const line of out.trim().split("\n")) JSON.parse(line);
    } finally {
      watch.kill();
    }
  });
});
