// exec calls the reference "throws" for come back as isError tool results whose text is the
// error message and which carry no details (reference §1.4, §4.1, §4.3, §8.2 #8-#12); schema
// failures are isError tool results too (MCP 2025-11-25: input validation errors are tool
// execution errors), with the tool's own text for an unknown host and the reference validation
// text otherwise; only an unknown tool stays a JSON-RPC -32602 error. (Environment rejections
// are in exec_env.test.mjs.)
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { startServer, scratchDir, rejection, expectThrownExec } from "./lib/harness.mjs";

let s;
let scratch;
before(async () => {
  s = await startServer();
  scratch = scratchDir();
});
after(async () => {
  await s.close();
  scratch.cleanup();
});

const expectThrown = (args, message) => expectThrownExec(s, args, message);

const SANDBOX_MESSAGE =
  "exec host=sandbox requires a sandbox runtime for this session.\n" +
  'Enable sandbox mode (`agents.defaults.sandbox.mode="non-main"` or `"all"`) or use host=auto/gateway/node.';

describe("thrown errors", { concurrency: 4 }, () => {
  test("a timeout parameter is rejected in favour of timeoutSeconds (§8.2 #8)", async () => {
    await expectThrown({ timeout: 5 }, 'exec parameter "timeout" is unsupported; use "timeoutSeconds" instead');
  });

  test("an empty command is rejected with Provide a command to start. (§8.2 #10)", async () => {
    const r = await s.call("exec", { command: "" });
    assert.equal(r.isError, true);
    assert.equal(r.text, "Provide a command to start.");
    assert.equal(r.details, undefined);
  });

  test("host sandbox fails closed without a sandbox runtime (§8.2 #12)", async () => {
    await expectThrown({ host: "sandbox" }, SANDBOX_MESSAGE);
  });

  test("the sandbox check comes before the empty-command check (§1.4 steps 9-10)", async () => {
    const r = await s.call("exec", { command: "", host: "sandbox" });
    assert.equal(r.isError, true);
    assert.equal(r.text, SANDBOX_MESSAGE);
  });

  test("host node fails with a clear no-paired-node error and runs nothing", async () => {
    const marker = join(scratch.dir, "node-marker");
    const r = await s.call("exec", { command: `touch ${marker}`, host: "node" });
    assert.equal(r.isError, true);
    assert.match(r.text, /no paired node/);
    assert.equal(r.details, undefined);
    assert.equal(existsSync(marker), false);
  });

  test("host auto and host gateway run locally", async () => {
    for (const host of ["auto", "gateway"]) {
      const r = await s.call("exec", { command: "echo ok", host });
      assert.equal(r.text, "ok");
      assert.equal(r.details.status, "completed");
    }
  });

  test("elevated:true without tools.elevated.allowFrom fails with the reference gate text", async () => {
    await expectThrown(
      { elevated: true },
      "elevated is not available right now (runtime=direct).\n" +
        "Failing gates: allowFrom (tools.elevated.allowFrom.<provider> / agents.entries.*.tools.elevated.allowFrom.<provider>)\n" +
        "Context: provider=mcp session=agent:main:main\n" +
        "Fix-it keys:\n" +
        "- tools.elevated.enabled\n" +
        "- tools.elevated.allowFrom.<provider>\n" +
        "- agents.entries.*.tools.elevated.enabled\n" +
        "- agents.entries.*.tools.elevated.allowFrom.<provider>",
    );
  });

  test("elevated:false runs normally", async () => {
    const r = await s.call("exec", { command: "echo plain", elevated: false });
    assert.equal(r.text, "plain");
  });

  test("the per-call security and ask parameters do not block a run under the default policy", async () => {
    const r = await s.call("exec", { command: "echo fine", security: "deny", ask: "off" });
    assert.equal(r.text, "fine");
  });
});

describe("configured host and policy (§4.1, §4.2, §8.2 #12-#14)", { concurrency: 3 }, () => {
  async function withConfig(config, fn) {
    const t = await startServer({ config });
    try {
      await fn(t);
    } finally {
      await t.close();
    }
  }

  test("configured host gateway refuses other per-call hosts and runs its own", async () => {
    await withConfig({ tools: { exec: { host: "gateway" } } }, async (t) => {
      const node = await t.call("exec", { command: "echo", host: "node" });
      assert.equal(node.isError, true);
      assert.equal(
        node.text,
        "exec host not allowed (requested node; configured host is gateway; set tools.exec.host=node or auto to allow this override).",
      );
      const sandbox = await t.call("exec", { command: "echo", host: "sandbox" });
      assert.equal(
        sandbox.text,
        "exec host not allowed (requested sandbox; configured host is gateway; set tools.exec.host=sandbox or auto to allow this override).",
      );
      assert.equal((await t.call("exec", { command: "echo ok" })).text, "ok");
      assert.equal((await t.call("exec", { command: "echo ok", host: "gateway" })).text, "ok");
    });
  });

  test("configured host sandbox fails closed without a sandbox runtime", async () => {
    await withConfig({ tools: { exec: { host: "sandbox" } } }, async (t) => {
      const r = await t.call("exec", { command: "echo ok" });
      assert.equal(r.isError, true);
      assert.equal(r.text, SANDBOX_MESSAGE);
      const gw = await t.call("exec", { command: "echo ok", host: "gateway" });
      assert.equal(
        gw.text,
        "exec host not allowed (requested gateway; configured host is sandbox; set tools.exec.host=gateway or auto to allow this override).",
      );
    });
  });

  test("tools.exec.security deny refuses every command", async () => {
    await withConfig({ tools: { exec: { security: "deny" } } }, async (t) => {
      const r = await t.call("exec", { command: "echo ok" });
      assert.equal(r.isError, true);
      assert.equal(r.text, "exec denied: host=gateway security=deny");
    });
  });
});

describe("schema validation", { concurrency: 4 }, () => {
  test("an unknown host value is an isError result with the tool's own text and nothing runs (§8.2 #9)", async () => {
    await expectThrown({ host: "example.com" }, 'Invalid exec host "example.com". Allowed values: auto, sandbox, gateway, node.');
  });

  test("a command that is not a string is an isError result with the reference validation text", async () => {
    const r = await s.call("exec", { command: [] });
    assert.equal(r.isError, true);
    assert.equal(r.details, undefined);
    assert.equal(
      r.text,
      'Validation failed for tool "exec":\n  - command: must be string\n\n' + 'Received arguments:\n{\n  "command": []\n}',
    );
  });

  test("a missing command is an isError result naming the property", async () => {
    const r = await s.call("exec", {});
    assert.equal(r.isError, true);
    assert.equal(
      r.text,
      'Validation failed for tool "exec":\n  - command: must have required properties command\n\n' + "Received arguments:\n{}",
    );
  });

  test("convertible argument types are coerced like the reference agent loop", async () => {
    const r = await s.call("exec", { command: "echo coerced", timeoutSeconds: "5", background: "false" });
    assert.equal(r.text, "coerced");
    assert.equal(r.details.status, "completed");
  });

  test("an unknown tool is a -32602 error", async () => {
    const e = await rejection(s.client.callTool({ name: "x", arguments: {} }));
    assert.equal(e.code, -32602);
    assert.equal(e.message, "MCP error -32602: Unknown tool: x");
  });
});

// Run on their own (not alongside other tests): a NUL byte used to take down the helper that
// starts every command, failing unrelated calls that were starting at the same time.
describe("NUL bytes", () => {
  test("a NUL byte in the command or an env value is a thrown error and the server keeps serving", async () => {
    const inCommand = await s.call("exec", { command: "echo a\u0000b" });
    assert.equal(inCommand.isError, true);
    assert.equal(inCommand.details, undefined);
    const inEnv = await s.call("exec", { command: "echo x", env: { A: "x\u0000y" } });
    assert.equal(inEnv.isError, true);
    assert.equal(inEnv.details, undefined);
    const after = await s.call("exec", { command: "echo still-fine" });
    assert.equal(after.text, "still-fine");
  });

  test("a request with a NUL byte does not break valid commands started at the same time", async () => {
    const failures = [];
    for (let i = 0; i < 10; i++) {
      const [bad, good] = await Promise.all([
        s.call("exec", { command: "echo x", env: { A: "x\u0000y" } }),
        s.call("exec", { command: `echo good-${i}` }),
      ]);
      assert.equal(bad.isError, true);
      if (good.text !== `good-${i}`) failures.push(good.text);
    }
    assert.deepEqual(failures, []);
  });
});
