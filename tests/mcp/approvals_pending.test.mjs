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
import { startServer, scratchDir, serverEnv, CLAWEXEC, waitFor } from "./lib/harness.mjs";

const servers = [];
const scratch = scratchDir();
after(async () => {
  for (const s of servers) await s.close();
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
    const r = await s.call("exec", { command: `touch ${file} && echo done-by-approval` });
    const { approvalId, approvalSlug } = r.details;
    const list = operator(s, ["pending", "--json"]);
    assert.equal(list.code, 0, list.stderr);
    const pending = JSON.parse(list.stdout);
    const mine = (Array.isArray(pending) ? pending : pending.approvals).find((a) => a.id === approvalId);
    assert.ok(mine, list.stdout);
    assert.equal(mine.command, `touch ${file} && echo done-by-approval`);
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
