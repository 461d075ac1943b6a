// OpenClaw's tool policy over MCP (docs/configuration.md "Tool policy"): tools.profile,
// tools.allow / alsoAllow / deny, globally and per agent. A denied tool is not listed and a call
// to it is refused naming the key that denies it; without `process`, exec runs in the
// foreground and ignores yieldMs / background; a bad policy stops the server with an error
// naming the key.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { CLAWEXEC, scratchDir, serverEnv, startServer, rejection } from "./lib/harness.mjs";

const names = async (s) => (await s.client.listTools()).tools.map((t) => t.name).sort();

async function withServer(options, body) {
  const s = await startServer(options);
  try {
    await body(s);
  } finally {
    await s.close();
  }
}

describe("tool policy", () => {
  test("no policy: all three tools", async () => {
    await withServer({}, async (s) => assert.deepEqual(await names(s), ["apply_patch", "exec", "process"]));
  });

  test("deny process: not listed, refused by name, and exec runs synchronously", async () => {
    await withServer({ config: { tools: { deny: ["process"] } } }, async (s) => {
      assert.deepEqual(await names(s), ["apply_patch", "exec"]);
      const e = await rejection(s.call("process", { action: "list" }));
      assert.match(e.message, /Unknown tool: process \(not offered to this agent: the tool policy denies it, tools\.deny\)/);
      const r = await s.call("exec", { command: "sleep 0.3; echo done", background: true, yieldMs: 10 });
      assert.equal(r.isError, false);
      assert.equal(r.details.status, "completed");
      assert.match(r.text, /Warning: continuation options are unavailable; running synchronously\./);
      assert.match(r.text, /done/);
    });
  });

  test("group:runtime with case and wildcards; deny wins over allow", async () => {
    await withServer({ config: { tools: { allow: ["GROUP:RUNTIME"], deny: ["proc*"] } } }, async (s) => {
      assert.deepEqual(await names(s), ["exec"]);
    });
  });

  test("bash is an alias of exec", async () => {
    await withServer({ config: { tools: { deny: ["bash"] } } }, async (s) => {
      assert.deepEqual(await names(s), ["apply_patch", "process"]);
      const e = await rejection(s.call("exec", { command: "true" }));
      assert.match(e.message, /Unknown tool: exec \(not offered/);
    });
  });

  test("allow write enables apply_patch; deny write does not deny it", async () => {
    await withServer({ config: { tools: { allow: ["write"] } } }, async (s) => {
      assert.deepEqual(await names(s), ["apply_patch"]);
    });
    await withServer({ config: { tools: { deny: ["write"] } } }, async (s) => {
      assert.deepEqual(await names(s), ["apply_patch", "exec", "process"]);
    });
  });

  test("a per-agent policy applies to that agent only", async () => {
    const config = { agents: { entries: { work: { tools: { deny: ["group:fs"] } } } } };
    await withServer({ config, args: ["--agent", "work"] }, async (s) => {
      assert.deepEqual(await names(s), ["exec", "process"]);
    });
    await withServer({ config }, async (s) => {
      assert.deepEqual(await names(s), ["apply_patch", "exec", "process"]);
    });
  });

  test("a restrictive profile, widened by alsoAllow", async () => {
    await withServer({ config: { tools: { profile: "minimal", alsoAllow: ["exec"] } } }, async (s) => {
      assert.deepEqual(await names(s), ["exec"]);
    });
  });

  test("applyPatch.enabled still applies on top of the policy", async () => {
    const config = { tools: { allow: ["*"], exec: { applyPatch: { enabled: false } } } };
    await withServer({ config }, async (s) => assert.deepEqual(await names(s), ["exec", "process"]));
  });

  test("tools.sandbox.tools filters sandboxed sessions only", async () => {
    const config = {
      tools: { sandbox: { tools: { deny: ["process", "apply_patch"] } } },
      agents: { defaults: { sandbox: { mode: "non-main" } } },
    };
    // The main session is not sandboxed: the sandbox tool policy does not apply.
    await withServer({ config }, async (s) => assert.deepEqual(await names(s), ["apply_patch", "exec", "process"]));
    await withServer({ config, args: ["--session-key", "agent:main:telegram:42"] }, async (s) => {
      assert.deepEqual(await names(s), ["exec"]);
      const r = await s.client.callTool({ name: "process", arguments: { action: "list" } }).catch((e) => e);
      assert.match(String(r.message ?? r), /Unknown tool: process \(not offered to this agent: the tool policy denies it, tools\.sandbox\.tools\.deny\)/);
      // Without process, exec runs in the foreground and says so.
      const e = await s.call("exec", { command: "echo fg", background: true });
      assert.match(e.text, /^Warning: continuation options are unavailable; running synchronously\.\n\nfg$/);
    });
  });

  test("allow and alsoAllow in one scope is a config error naming the key", () => {
    const state = scratchDir("clawexec-state-");
    try {
      writeFileSync(`${state.dir}/openclaw.json`, JSON.stringify({ tools: { allow: ["exec"], alsoAllow: ["process"] } }));
      const r = spawnSync(CLAWEXEC, ["serve"], { input: "", env: serverEnv(state.dir), timeout: 10000 });
      assert.notEqual(r.status, 0);
      assert.match(r.stderr.toString(), /openclaw\.json: tools: cannot set both allow and alsoAllow in the same scope/);
    } finally {
      state.cleanup();
    }
  });
});

