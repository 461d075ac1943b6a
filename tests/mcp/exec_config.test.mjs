// Timeout and yield defaults (reference §1.3, §1.7, §3.10): timeoutSeconds 0 disables the
// timeout, the configured default timeout (tools.exec.timeoutSeconds) also applies to background
// and yielded runs, and the yield window comes from yieldMs, tools.exec.backgroundMs or
// OPENCLAW_BASH_YIELD_MS. And the elevated gates (§4.3): enabled, then allowFrom.<provider>.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import {
  CLAWEXEC,
  scratchDir,
  serverEnv,
  startServer,
  pollUntilExit,
  sleep,
  RETRY_GUIDANCE,
  CONTINUATION_HINT,
} from "./lib/harness.mjs";

const oneSecondDefault = { tools: { exec: { timeoutSeconds: 1 } } };

async function withServer(options, fn) {
  const s = await startServer(options);
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

describe("timeouts", { concurrency: 4 }, () => {
  test("the configured default timeout applies to foreground runs", async () => {
    await withServer({ config: oneSecondDefault }, async (s) => {
      const t0 = Date.now();
      const r = await s.call("exec", { command: "sleep 10" });
      assert.ok(Date.now() - t0 < 4000);
      assert.equal(r.text, `Command timed out after 1 seconds.\n\n${RETRY_GUIDANCE}\n\n${CONTINUATION_HINT}`);
      assert.equal(r.details.timedOut, true);
    });
  });

  test("timeoutSeconds 0 disables the timeout even when a default is configured", async () => {
    await withServer({ config: oneSecondDefault }, async (s) => {
      const r = await s.call("exec", { command: "sleep 1.8; echo ok", timeoutSeconds: 0 });
      assert.equal(r.details.status, "completed");
      assert.equal(r.text, "ok");
    });
  });

  test("a negative timeoutSeconds also disables the timeout", async () => {
    await withServer({ config: oneSecondDefault }, async (s) => {
      const r = await s.call("exec", { command: "sleep 1.5; echo ok", timeoutSeconds: -1 });
      assert.equal(r.text, "ok");
    });
  });

  test("very large timeoutSeconds values are long timeouts, not immediate ones", async () => {
    await withServer({}, async (s) => {
      for (const timeoutSeconds of [1e10, 9.3e15, 1e300]) {
        const r = await s.call("exec", { command: "sleep 0.3; echo hi", timeoutSeconds });
        assert.equal(r.text, "hi", `timeoutSeconds ${timeoutSeconds}`);
        assert.equal(r.details.status, "completed", `timeoutSeconds ${timeoutSeconds}`);
      }
    });
  });

  test("an explicit timeoutSeconds overrides the configured default", async () => {
    await withServer({ config: oneSecondDefault }, async (s) => {
      const r = await s.call("exec", { command: "sleep 1.5; echo ok", timeoutSeconds: 5 });
      assert.equal(r.text, "ok");
    });
  });

  test("a background run still gets the default timeout and polls as failed with SIGTERM", async () => {
    await withServer({ config: oneSecondDefault }, async (s) => {
      const r = await s.call("exec", { command: "echo begun; sleep 30", background: true });
      assert.equal(r.details.status, "running");
      const t0 = Date.now();
      const p = await pollUntilExit(s, r.details.sessionId, 8000);
      assert.ok(Date.now() - t0 < 5000, "the run must end about 1 s after its start");
      assert.equal(p.details.status, "failed");
      assert.equal(p.isError, true);
      assert.equal(p.details.timedOut, true);
      assert.equal(p.details.exitReason, "overall-timeout");
      assert.equal(p.details.exitSignal, "SIGTERM");
      assert.ok(p.text.endsWith(`\n\nProcess exited with signal SIGTERM.\n\n${RETRY_GUIDANCE}`), p.text);
      const log = await s.call("process", { action: "log", sessionId: r.details.sessionId });
      assert.equal(log.text, `begun\n\n${RETRY_GUIDANCE}`, "the log of a timed-out run ends with the retry guidance");
      assert.equal(log.details.timedOut, true);
    });
  });

  test("a yielded run still gets the default timeout", async () => {
    await withServer({ config: oneSecondDefault }, async (s) => {
      const r = await s.call("exec", { command: "sleep 30", yieldMs: 200 });
      assert.equal(r.details.status, "running");
      const p = await pollUntilExit(s, r.details.sessionId, 8000);
      assert.equal(p.details.timedOut, true);
      assert.equal(p.text, `(no new output)\n\nProcess exited with signal SIGTERM.\n\n${RETRY_GUIDANCE}`);
    });
  });

  test("a background run with timeoutSeconds 0 outlives the configured default", async () => {
    await withServer({ config: oneSecondDefault }, async (s) => {
      const r = await s.call("exec", { command: "sleep 1.8; echo survived", background: true, timeoutSeconds: 0 });
      const p = await pollUntilExit(s, r.details.sessionId, 8000);
      assert.equal(p.details.status, "completed");
      assert.equal(p.details.exitCode, 0);
      const all = p.earlier.join("\n") + p.text;
      assert.match(all, /survived/);
    });
  });
});

describe("configuration sources", { concurrency: 3 }, () => {
  const agentConfig = {
    tools: { exec: { timeoutSeconds: 30 } },
    agents: { entries: { ops: { tools: { exec: { timeoutSeconds: 1 } } } } },
  };

  test("serve --agent <id> applies agents.entries.<id>.tools.exec over tools.exec", async () => {
    await withServer({ args: ["--agent", "ops"], config: agentConfig }, async (s) => {
      const r = await s.call("exec", { command: "sleep 5" });
      assert.ok(r.text.startsWith("Command timed out after 1 seconds."), r.text);
    });
  });

  test("without --agent the global tools.exec applies", async () => {
    await withServer({ config: agentConfig }, async (s) => {
      const r = await s.call("exec", { command: "sleep 1.5; echo ok" });
      assert.equal(r.text, "ok");
    });
  });

  test("the config file is read as JSON5 (comments, unquoted keys, trailing commas)", async () => {
    await withServer({ config: "{\n  // one second\n  tools: { exec: { timeoutSeconds: 1, }, },\n}\n" }, async (s) => {
      const r = await s.call("exec", { command: "sleep 5" });
      assert.ok(r.text.startsWith("Command timed out after 1 seconds."), r.text);
    });
  });
});

describe("yield window", { concurrency: 4 }, () => {
  test("without configuration a 1 s command completes in the foreground (default yield 10 s)", async () => {
    await withServer({}, async (s) => {
      const r = await s.call("exec", { command: "sleep 1; echo done" });
      assert.equal(r.details.status, "completed");
      assert.equal(r.text, "done");
    });
  });

  test("tools.exec.backgroundMs sets the default yield window", async () => {
    await withServer({ config: { tools: { exec: { backgroundMs: 300 } } } }, async (s) => {
      const t0 = Date.now();
      const r = await s.call("exec", { command: "sleep 10" });
      const elapsed = Date.now() - t0;
      assert.equal(r.details.status, "running");
      assert.ok(elapsed >= 250 && elapsed < 3000, `yielded after ${elapsed} ms`);
      await s.call("process", { action: "kill", sessionId: r.details.sessionId });
    });
  });

  test("a per-call yieldMs overrides tools.exec.backgroundMs", async () => {
    await withServer({ config: { tools: { exec: { backgroundMs: 200 } } } }, async (s) => {
      const r = await s.call("exec", { command: "sleep 1; echo done", yieldMs: 8000 });
      assert.equal(r.details.status, "completed");
      assert.equal(r.text, "done");
    });
  });

  test("OPENCLAW_BASH_YIELD_MS sets the default yield window", async () => {
    await withServer({ env: { OPENCLAW_BASH_YIELD_MS: "300" } }, async (s) => {
      const t0 = Date.now();
      const r = await s.call("exec", { command: "sleep 10" });
      const elapsed = Date.now() - t0;
      assert.equal(r.details.status, "running");
      assert.ok(elapsed >= 250 && elapsed < 3000, `yielded after ${elapsed} ms`);
      await s.call("process", { action: "kill", sessionId: r.details.sessionId });
    });
  });

  test("an invalid OPENCLAW_BASH_YIELD_MS falls back to the 10 s default", async () => {
    await withServer({ env: { OPENCLAW_BASH_YIELD_MS: "soon" } }, async (s) => {
      const r = await s.call("exec", { command: "sleep 1; echo done" });
      assert.equal(r.details.status, "completed");
    });
  });

  test("a yielded session becomes visible to process list, a foreground one never is", async () => {
    await withServer({}, async (s) => {
      const fg = s.call("exec", { command: "sleep 1; echo fg", yieldMs: 8000 });
      await sleep(300);
      const during = await s.call("process", { action: "list" });
      assert.equal(during.text, "No running or recent sessions.");
      assert.equal((await fg).text, "fg");
      const after = await s.call("process", { action: "list" });
      assert.equal(after.text, "No running or recent sessions.");
      assert.deepEqual(after.details.sessions, []);
      const y = await s.call("exec", { command: "sleep 30", yieldMs: 200 });
      const listed = await s.call("process", { action: "list" });
      assert.deepEqual(listed.details.sessions.map((e) => e.sessionId), [y.details.sessionId]);
      await s.call("process", { action: "kill", sessionId: y.details.sessionId });
    });
  });
});

describe("elevated", () => {
  /** exec with `_meta["openclaw/channelContext"]` = context (omitted when undefined). */
  async function execFrom(t, context, args) {
    const params = { name: "exec", arguments: args };
    if (context !== undefined) params._meta = { "openclaw/channelContext": context };
    const raw = await t.client.callTool(params);
    return { text: raw.content?.[0]?.text, isError: raw.isError === true };
  }
  test("with tools.elevated.allowFrom.mcp, elevated:true runs on this host", async () => {
    const t = await startServer({ config: { tools: { elevated: { allowFrom: { mcp: ["*"] } } } } });
    try {
      const r = await t.call("exec", { command: "echo elevated-ok", elevated: true });
      assert.equal(r.text, "elevated-ok");
      assert.equal(r.details.status, "completed");
    } finally {
      await t.close();
    }
  });
  test("allowFrom is per provider and sender, from the call's channel context", async () => {
    const t = await startServer({ config: { tools: { elevated: { allowFrom: { telegram: ["42"] } } } } });
    try {
      const ok = await execFrom(t, { provider: "telegram", sender: { id: "telegram:42" } }, { command: "echo tg", elevated: true });
      assert.equal(ok.text, "tg");
      const other = await execFrom(t, { provider: "telegram", sender: { id: "43" } }, { command: "echo no", elevated: true });
      assert.equal(other.isError, true);
      assert.match(other.text, /\nFailing gates: allowFrom \(tools\.elevated\.allowFrom\.<provider> /);
      assert.match(other.text, /\nContext: provider=telegram session=agent:main:main\n/);
      // Without a channel context the client is provider "mcp", which this config does not list.
      const local = await execFrom(t, undefined, { command: "echo no", elevated: true });
      assert.equal(local.isError, true);
      assert.match(local.text, /\nContext: provider=mcp /);
      // elevated:false never needs the gate.
      assert.equal((await execFrom(t, undefined, { command: "echo plain", elevated: false })).text, "plain");
    } finally {
      await t.close();
    }
  });
  test("an agent entry can turn elevation off again", async () => {
    const t = await startServer({
      config: {
        tools: { elevated: { allowFrom: { mcp: ["*"] } } },
        agents: { entries: { main: { tools: { elevated: { enabled: false } } } } },
      },
    });
    try {
      const r = await t.call("exec", { command: "echo no", elevated: true });
      assert.equal(r.isError, true);
      assert.match(r.text, /^elevated is not available right now \(runtime=direct\)\.\nFailing gates: enabled /);
    } finally {
      await t.close();
    }
  });
  test("an invalid tools.elevated value stops the server, naming the key", () => {
    const state = scratchDir("clawexec-state-");
    try {
      writeFileSync(`${state.dir}/openclaw.json`, JSON.stringify({ tools: { elevated: { allowFrom: { mcp: "*" } } } }));
      const r = spawnSync(CLAWEXEC, ["serve"], { input: "", env: serverEnv(state.dir), timeout: 10000 });
      assert.notEqual(r.status, 0);
      assert.match(r.stderr.toString(), /openclaw\.json: tools\.elevated\.allowFrom\.mcp: expected an array of strings, got "\*"/);
    } finally {
      state.cleanup();
    }
  });
});
