// Inline approval through MCP elicitation (approvals spec §7.1, §7.5, §4.6; exec spec §1.5 (f)):
// a command that needs a human is put to the client's user with elicitation/create; accept runs
// it (once, or always: the allowlist entry is stored and matches next time), decline and a
// dismissed prompt are refused as the policy says, and an executable replaced between the
// question and the answer is not run.
import { describe, test, after } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync, readFileSync, mkdirSync, chmodSync, existsSync, rmSync, renameSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { startServer, startRawServer, scratchDir, closeAll, serverEnv, sleep, waitFor, CLAWEXEC } from "./lib/harness.mjs";

const servers = [];
const scratch = scratchDir();
after(async () => {
  await closeAll(servers);
  scratch.cleanup();
});

/**
 * A server under security=allowlist ask=on-miss whose user answers with `answer(params)`.
 * `env` adds server variables; by default an instant `cancel` counts as a human's answer
 * (CLAWEXEC_ELICITATION_INSTANT_CANCEL_MS=0), as this suite's user answers at once.
 */
async function serverAnswering(answer, approvals = { version: 1, agents: {} }, { env = {}, config = {} } = {}) {
  const asked = [];
  const s = await startServer({
    config: { tools: { exec: { security: "allowlist", ask: "on-miss", approvalRunningNoticeMs: 0 } }, ...config },
    env: { CLAWEXEC_ELICITATION_INSTANT_CANCEL_MS: "0", ...env },
    // Written before the server starts, so the socket token the server adds is kept.
    approvals,
    elicit: async (params) => {
      asked.push(params);
      return answer(params);
    },
  });
  servers.push(s);
  return { s, asked };
}

const marker = (name) => join(scratch.dir, `${name}-${Math.random().toString(36).slice(2)}`);

describe("elicitation", { concurrency: 4 }, () => {
  test("accept allow-once runs the command and the call returns its result", async () => {
    const { s, asked } = await serverAnswering(() => ({ action: "accept", content: { decision: "allow-once" } }));
    const file = marker("once");
    const r = await s.call("exec", { command: `touch ${file} && echo approved` });
    assert.equal(r.isError, false, r.text);
    assert.equal(r.text, "approved");
    assert.ok(existsSync(file));
    assert.equal(asked.length, 1);
    const q = asked[0];
    assert.match(q.message, /Approve this command\?/);
    assert.match(q.message, new RegExp(`touch ${file}`));
    assert.match(q.message, /CWD: /);
    // The SDK client negotiates 2025-11-25: titled choices are oneOf [{const, title}].
    assert.deepEqual(q.requestedSchema.properties.decision.oneOf, [
      { const: "allow-once", title: "Allow once" },
      { const: "allow-always", title: "Always allow" },
      { const: "deny", title: "Deny" },
    ]);
    assert.deepEqual(q.requestedSchema.required, ["decision"]);
  });

  test("decline refuses with `Exec denied (gateway id=…, user-denied)` and runs nothing", async () => {
    const { s } = await serverAnswering(() => ({ action: "decline" }));
    const file = marker("declined");
    const r = await s.call("exec", { command: `touch ${file}` });
    assert.equal(r.isError, true);
    assert.match(r.text, /^Exec denied \(gateway id=[0-9a-f-]{36}, user-denied\): touch /);
    assert.equal(r.details.status, "failed");
    assert.equal(r.details.exitCode, null);
    assert.equal(r.details.timedOut, false);
    assert.equal(r.details.aggregated, r.text);
    assert.equal(existsSync(file), false);
  });

  test("deny chosen in the form refuses like decline", async () => {
    const { s } = await serverAnswering(() => ({ action: "accept", content: { decision: "deny" } }));
    const r = await s.call("exec", { command: "echo never" });
    assert.match(r.text, /user-denied\): echo never$/);
  });

  test("cancel is no answer: askFallback decides (deny by default -> approval-cancelled, not a timeout)", async () => {
    const { s } = await serverAnswering(() => ({ action: "cancel" }));
    const r = await s.call("exec", { command: "echo never" });
    assert.equal(r.isError, true);
    assert.match(r.text, /^Exec denied \(gateway id=[0-9a-f-]{36}, approval-cancelled\): echo never$/);
    assert.equal(r.details.timedOut, false);
    assert.equal(r.details.status, "failed");
  });

  test("cancel with askFallback=full runs the command", async () => {
    const { s } = await serverAnswering(() => ({ action: "cancel" }), { version: 1, defaults: { askFallback: "full" } });
    // askFallback is clamped by security=allowlist: only what the allowlist covers may run.
    const r = await s.call("exec", { command: "echo fallback" });
    assert.match(r.text, /approval-cancelled: allowlist-miss\): echo fallback$/);
  });

  test("allow-always stores the resolved path and the next call runs without asking", async () => {
    const { s, asked } = await serverAnswering(() => ({ action: "accept", content: { decision: "allow-always" } }));
    const first = await s.call("exec", { command: "date +%Y" });
    assert.equal(first.isError, false, first.text);
    const doc = JSON.parse(readFileSync(join(s.stateDir, "exec-approvals.json"), "utf8"));
    const entries = doc.agents.main.allowlist;
    assert.equal(entries.length, 1);
    assert.match(entries[0].pattern, /\/date$/);
    assert.equal(entries[0].source, "allow-always");
    const second = await s.call("exec", { command: "date +%m" });
    assert.equal(second.isError, false, second.text);
    assert.equal(asked.length, 1, "the second call matched the stored entry");
  });

  test("allow-always is not offered for an inline-eval command", async () => {
    const { s, asked } = await serverAnswering(() => ({ action: "accept", content: { decision: "allow-once" } }));
    const r = await s.call("exec", { command: "python3 -c 'print(6*7)'" });
    assert.equal(r.text, "42");
    assert.deepEqual(asked[0].requestedSchema.properties.decision.oneOf.map((o) => o.const), ["allow-once", "deny"]);
  });

  test("an answer the form did not offer is no answer", async () => {
    const { s } = await serverAnswering(() => ({ action: "accept", content: { decision: "sure" } }));
    const r = await s.call("exec", { command: "echo never" });
    assert.match(r.text, /approval-timeout\): echo never$/);
  });

  test("an executable replaced while the question is open is not run", async () => {
    const dir = join(scratch.dir, `bin-${Math.random().toString(36).slice(2)}`);
    mkdirSync(dir);
    const tool = join(dir, "tool");
    writeFileSync(tool, "#!/bin/sh\necho original\n");
    chmodSync(tool, 0o755);
    const { s } = await serverAnswering(() => {
      // The user looks at the prompt; meanwhile someone swaps the program.
      writeFileSync(join(dir, "evil"), "#!/bin/sh\necho swapped\n");
      chmodSync(join(dir, "evil"), 0o755);
      renameSync(join(dir, "evil"), tool);
      return { action: "accept", content: { decision: "allow-once" } };
    });
    const r = await s.call("exec", { command: "./tool", workdir: dir });
    assert.equal(r.isError, true);
    assert.match(r.text, /approval-binding-changed\): \.\/tool$/);
  });

  test("an allowlisted command does not ask", async () => {
    const { s, asked } = await serverAnswering(() => ({ action: "decline" }), {
      version: 1,
      agents: { main: { allowlist: [{ pattern: "echo" }] } },
    });
    const r = await s.call("exec", { command: "echo fine" });
    assert.equal(r.text, "fine");
    assert.equal(asked.length, 0);
  });
});

function operator(s, args) {
  const r = spawnSync(CLAWEXEC, ["approvals", ...args], { env: serverEnv(s.stateDir), encoding: "utf8", timeout: 20000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("who can be asked (clawexec.mcp.elicitation, instant cancel)", { concurrency: 4 }, () => {
  test("an instant cancel is nobody asked: the approval waits for an operator, and the client is not asked again", async () => {
    const { s, asked } = await serverAnswering(() => ({ action: "cancel" }), undefined, {
      env: { CLAWEXEC_ELICITATION_INSTANT_CANCEL_MS: "" }, // the default threshold, 500 ms
    });
    const file = marker("instant");
    const r = await s.call("exec", { command: `touch ${file} && echo by-operator` });
    assert.equal(r.isError, false, r.text);
    assert.equal(r.details.status, "approval-pending");
    assert.equal(asked.length, 1);
    const second = await s.call("exec", { command: "echo again" });
    assert.equal(second.details.status, "approval-pending");
    assert.equal(asked.length, 1, "the connection stopped eliciting");
    // The approval is a real pending one: the operator's answer runs the command.
    const resolved = operator(s, ["resolve", r.details.approvalSlug, "allow-once"]);
    assert.equal(resolved.code, 0, resolved.stderr + resolved.stdout);
    const finished = await waitFor(
      () => s.notifications.map((n) => n.data).find((t) => t.startsWith(`Exec finished (gateway id=${r.details.approvalId}`)),
      10000,
      "Exec finished",
    );
    assert.match(finished, /code 0\)\nby-operator$/);
    assert.ok(existsSync(file));
  });

  test("a cancel slower than the threshold is a human's dismissal (approval-cancelled)", async () => {
    const { s, asked } = await serverAnswering(
      async () => {
        await sleep(400);
        return { action: "cancel" };
      },
      undefined,
      { env: { CLAWEXEC_ELICITATION_INSTANT_CANCEL_MS: "150" } },
    );
    const r = await s.call("exec", { command: "echo never" });
    assert.match(r.text, /^Exec denied \(gateway id=[0-9a-f-]{36}, approval-cancelled\): echo never$/);
    assert.equal(r.details.timedOut, false);
    await s.call("exec", { command: "echo asked-again" });
    assert.equal(asked.length, 2, "a human's cancel does not stop eliciting");
  });

  test("an instant decline stays a denial", async () => {
    const { s } = await serverAnswering(() => ({ action: "decline" }), undefined, {
      env: { CLAWEXEC_ELICITATION_INSTANT_CANCEL_MS: "" },
    });
    const r = await s.call("exec", { command: "echo never" });
    assert.match(r.text, /user-denied\): echo never$/);
  });

  test("clawexec.mcp.elicitation = off never elicits: approvals wait for an operator", async () => {
    const { s, asked } = await serverAnswering(() => ({ action: "accept", content: { decision: "allow-once" } }), undefined, {
      config: { clawexec: { mcp: { elicitation: "off" } } },
    });
    const r = await s.call("exec", { command: "echo never" });
    assert.equal(r.details.status, "approval-pending");
    assert.equal(asked.length, 0);
  });

  test("CLAWEXEC_MCP_ELICITATION=off does the same and wins over the file", async () => {
    const { s, asked } = await serverAnswering(() => ({ action: "accept", content: { decision: "allow-once" } }), undefined, {
      config: { clawexec: { mcp: { elicitation: "elicit" } } },
      env: { CLAWEXEC_MCP_ELICITATION: "off" },
    });
    const r = await s.call("exec", { command: "echo never" });
    assert.equal(r.details.status, "approval-pending");
    assert.equal(asked.length, 0);
  });

  test("an invalid clawexec.mcp.elicitation stops the server naming the key", () => {
    const state = scratchDir("clawexec-state-");
    try {
      writeFileSync(join(state.dir, "openclaw.json"), JSON.stringify({ clawexec: { mcp: { elicitation: "sometimes" } } }));
      const r = spawnSync(CLAWEXEC, ["serve"], { env: serverEnv(state.dir), input: "", encoding: "utf8", timeout: 20000 });
      assert.equal(r.status, 1, r.stderr);
      assert.match(r.stderr, /openclaw\.json: clawexec\.mcp\.elicitation: expected "elicit" or "off", got "sometimes"/);
    } finally {
      state.cleanup();
    }
  });
});

describe("the form's schema follows the negotiated protocol version", { concurrency: 2 }, () => {
  /** The requestedSchema a raw client sees after initialize(version) with elicitation. */
  async function formFor(version) {
    const r = await startRawServer({ config: { tools: { exec: { security: "allowlist", ask: "on-miss" } } } });
    try {
      await r.initialize(version, { elicitation: {} });
      const call = r.callTool("exec", { command: "echo never" });
      const ask = await r.message((m) => m.method === "elicitation/create", 10000, "elicitation/create");
      r.send({ jsonrpc: "2.0", id: ask.id, result: { action: "decline" } });
      const result = await call;
      assert.match(result.text, /user-denied\): echo never$/);
      return ask.params.requestedSchema;
    } finally {
      await r.close();
    }
  }

  test("2025-11-25: oneOf of {const, title}", async () => {
    const decision = (await formFor("2025-11-25")).properties.decision;
    assert.equal(decision.type, "string");
    assert.deepEqual(decision.oneOf, [
      { const: "allow-once", title: "Allow once" },
      { const: "allow-always", title: "Always allow" },
      { const: "deny", title: "Deny" },
    ]);
    assert.equal(decision.enum, undefined);
    assert.equal(decision.enumNames, undefined);
  });

  test("2025-06-18: enum and enumNames", async () => {
    const schema = await formFor("2025-06-18");
    assert.deepEqual(schema.required, ["decision"]);
    assert.deepEqual(schema.properties.decision.enum, ["allow-once", "allow-always", "deny"]);
    assert.deepEqual(schema.properties.decision.enumNames, ["Allow once", "Always allow", "Deny"]);
    assert.equal(schema.properties.decision.oneOf, undefined);
  });
});

describe("clients without elicitation", () => {
  test("are not asked inline: they get the approval-pending result (approvals_pending.test.mjs)", async () => {
    const s = await startServer({ config: { tools: { exec: { security: "allowlist", ask: "on-miss" } } } });
    servers.push(s);
    const r = await s.call("exec", { command: "echo never" });
    assert.equal(r.isError, false);
    assert.equal(r.details.status, "approval-pending");
  });
});
