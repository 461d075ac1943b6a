// The JSON-RPC / MCP layer driven with raw lines (no SDK): initialize and protocol versions,
// ping, logging/setLevel, tools/list schemas, and robustness: malformed JSON, unknown methods,
// invalid requests, wrong argument types, split and batched writes, and a 100 MB line that must
// neither kill the server nor exhaust its memory.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { startRawServer, sleep } from "./lib/harness.mjs";

let r;
before(async () => {
  r = await startRawServer();
  await r.initialize("2025-06-18");
});
after(async () => {
  await r.close();
});

/** Sends a raw line carrying `id` and returns the response to it. */
async function rawLine(line, id, timeoutMs) {
  r.sendLine(line);
  return r.response(id, timeoutMs);
}

/** Asserts the server still answers ping. */
async function stillServing(server = r) {
  const pong = await server.request("ping", undefined, 5000);
  assert.deepEqual(pong.result, {});
}

describe("lifecycle", { concurrency: 4 }, () => {
  for (const version of ["2025-06-18", "2025-11-25"]) {
    test(`initialize echoes protocol version ${version} and declares tools and logging`, async () => {
      const t = await startRawServer();
      try {
        const res = await t.initialize(version);
        assert.equal(res.jsonrpc, "2.0");
        assert.equal(res.result.protocolVersion, version);
        assert.ok(res.result.capabilities.tools, "tools capability");
        assert.ok(res.result.capabilities.logging, "logging capability");
        assert.equal(res.result.serverInfo.name, "clawexec");
        assert.equal(typeof res.result.serverInfo.version, "string");
      } finally {
        await t.close();
      }
    });
  }

  test("an unsupported protocol version is answered with a version the server supports", async () => {
    const t = await startRawServer();
    try {
      const res = await t.initialize("1999-01-01");
      assert.ok(["2025-06-18", "2025-11-25"].includes(res.result.protocolVersion), res.result.protocolVersion);
    } finally {
      await t.close();
    }
  });

  test("server/discover, which Claude Code sends first, gets method not found (-32601) at once", async () => {
    const t = await startRawServer();
    try {
      const started = Date.now();
      const before = await t.request("server/discover", {}, 5000);
      assert.equal(before.error?.code, -32601, JSON.stringify(before));
      assert.match(before.error.message, /server\/discover/);
      assert.ok(Date.now() - started < 2000, `answered after ${Date.now() - started} ms`);
      const init = await t.initialize("2025-11-25");
      assert.equal(init.result.protocolVersion, "2025-11-25", "initialize still works afterwards");
      const after = await t.request("server/discover", undefined, 5000);
      assert.equal(after.error?.code, -32601);
    } finally {
      await t.close();
    }
  });

  test("ping answers an empty result", async () => {
    const res = await r.request("ping");
    assert.deepEqual(res, { jsonrpc: "2.0", id: res.id, result: {} });
  });

  test("logging/setLevel accepts a valid level and rejects an invalid one with -32602", async () => {
    const ok = await r.request("logging/setLevel", { level: "warning" });
    assert.deepEqual(ok.result, {});
    const bad = await r.request("logging/setLevel", { level: "loud" });
    assert.equal(bad.error.code, -32602);
    await r.request("logging/setLevel", { level: "debug" });
  });
});

describe("tools/list", () => {
  test("lists exec, process and apply_patch with the reference descriptions and parameter schemas", async () => {
    const res = await r.request("tools/list", {});
    const tools = Object.fromEntries(res.result.tools.map((t) => [t.name, t]));
    assert.deepEqual(Object.keys(tools).sort(), ["apply_patch", "exec", "process"]);
    const exec = tools.exec;
    assert.equal(
      exec.description,
      "Run shell now; background continuation supported. Use yieldMs/background, then process for " +
        "logs/status/input/intervention. Long run: nothing wakes you when it ends; poll it with process (poll " +
        "can wait up to 30 s) to confirm completion, or read the `Exec completed` notification if your client " +
        "shows MCP log messages. TTY CLI/UI/coding agent: pty=true. Quote arguments " +
        "containing shell metacharacters, including URL query strings with `?` or `&`.",
    );
    assert.equal(exec.inputSchema.type, "object");
    assert.deepEqual(exec.inputSchema.required, ["command"]);
    const execProps = exec.inputSchema.properties;
    const execExpected = {
      command: ["string", "Shell command."],
      workdir: ["string", "Omit/empty string: default; whitespace-only invalid."],
      env: ["object", "Env overrides. Literal values; no expansion. Omit to inherit."],
      yieldMs: ["number", "Milliseconds before backgrounding; default 10000."],
      background: ["boolean", "Background now."],
      timeoutSeconds: ["number", "Timeout in seconds."],
      pty: ["boolean", "Use PTY for TTY-required CLIs and coding agents."],
      elevated: ["boolean", "Run on host with elevated permissions if allowed."],
      host: ["string", "Omit/auto: inherit configured host."],
      security: ["string", "Ignored per call; tools.exec.security and host approvals decide."],
      ask: ["string", "Uses tools.exec.ask and host approvals; channel-origin calls cannot override host ask=off."],
      node: ["string", "Node id/name for host=node."],
    };
    assert.deepEqual(Object.keys(execProps).sort(), Object.keys(execExpected).sort());
    for (const [name, [type, description]] of Object.entries(execExpected)) {
      assert.equal(execProps[name].type, type, name);
      assert.equal(execProps[name].description, description, name);
    }
    assert.deepEqual(execProps.host.enum, ["auto", "sandbox", "gateway", "node"]);

    const proc = tools.process;
    assert.equal(
      proc.description,
      "Control existing exec: list, poll, log, write, send-keys, submit, paste, kill. poll/log: status, output, " +
        "quiet success, completion without auto-wake, input hints. Others: input/intervention.",
    );
    assert.deepEqual(proc.inputSchema.required, ["action"]);
    const procProps = proc.inputSchema.properties;
    const procExpected = {
      action: ["string", "Process action (list|poll|log|write|send-keys|submit|paste|kill|clear|remove)"],
      sessionId: ["string", "Required for every action except list."],
      data: ["string", "Data to write for write"],
      keys: ["array", "Key tokens to send for send-keys"],
      hex: ["array", "Hex bytes to send for send-keys"],
      literal: ["string", "Literal string for send-keys"],
      text: ["string", "Text to paste for paste"],
      bracketed: ["boolean", "Wrap paste in bracketed mode"],
      eof: ["boolean", "Close stdin after write"],
      offset: ["number", "Log offset"],
      limit: ["number", "Log length"],
      timeout: [
        "number",
        "For poll: wait up to this many milliseconds before returning; max 30000 ms, higher values are clamped to 30000",
      ],
    };
    assert.deepEqual(Object.keys(procProps).sort(), Object.keys(procExpected).sort());
    for (const [name, [type, description]] of Object.entries(procExpected)) {
      assert.equal(procProps[name].type, type, name);
      assert.equal(procProps[name].description, description, name);
    }
    assert.deepEqual(procProps.action.enum, [
      "list", "poll", "log", "write", "send-keys", "submit", "paste", "kill", "clear", "remove",
    ]);
    assert.equal(procProps.timeout.minimum, 0);
    assert.equal(procProps.keys.items.type, "string");
  });
});

describe("bad input", () => {
  test("malformed JSON gets -32700 with a null id and the server keeps serving", async () => {
    r.sendLine('{"jsonrpc":"2.0","id":1,"method":"ping"');
    const err = await r.message((m) => m.error?.code === -32700, 5000, "a parse error");
    assert.equal(err.id, null);
    await stillServing();
  });

  test("an unknown method gets -32601 with the request id", async () => {
    const res = await rawLine('{"jsonrpc":"2.0","id":"u1","method":"no/such/method"}', "u1");
    assert.equal(res.error.code, -32601);
  });

  test("a request without a method gets -32600", async () => {
    const res = await rawLine('{"jsonrpc":"2.0","id":"m1"}', "m1");
    assert.equal(res.error.code, -32600);
  });

  test("a request with the wrong jsonrpc version gets -32600", async () => {
    const res = await rawLine('{"jsonrpc":"1.0","id":"v1","method":"ping"}', "v1");
    assert.equal(res.error.code, -32600);
  });

  test("a message that is not an object gets -32600 and the server keeps serving", async () => {
    const before = r.messages.length;
    r.sendLine('"just a string"');
    r.sendLine("42");
    await r.message((m) => r.messages.indexOf(m) >= before && m.error?.code === -32600, 5000, "an invalid-request error");
    await r.message(
      (m) => r.messages.filter((x, i) => i >= before && x.error?.code === -32600).length >= 2,
      5000,
      "two invalid-request errors",
    );
    await stillServing();
  });

  test("tools/call with params that are not an object is rejected", async () => {
    const res = await rawLine('{"jsonrpc":"2.0","id":"p1","method":"tools/call","params":"x"}', "p1");
    assert.ok([-32600, -32602].includes(res.error.code), String(res.error.code));
  });

  test("wrong tool argument types get an isError result with the reference validation text", async () => {
    const cases = [
      [{ command: "x", timeoutSeconds: "abc" }, "timeoutSeconds: must be number"],
      [{ command: "x", background: "maybe" }, "background: must be boolean"],
      [{ command: "x", env: "x" }, "env: must be object"],
      [{ command: {} }, "command: must be string"],
    ];
    for (const [args, line] of cases) {
      const res = await r.request("tools/call", { name: "exec", arguments: args });
      assert.equal(res.error, undefined, JSON.stringify(args));
      assert.equal(res.result.isError, true, JSON.stringify(args));
      assert.deepEqual(res.result.content, [
        { type: "text", text: `Validation failed for tool "exec":\n  - ${line}\n\nReceived arguments:\n${JSON.stringify(args, null, 2)}` },
      ]);
    }
    const keys = await r.request("tools/call", { name: "process", arguments: { action: "send-keys", sessionId: "a", keys: [1, {}] } });
    assert.equal(keys.result?.isError, true);
    assert.match(keys.result.content[0].text, /keys\.1: must be string/);
  });

  test("a string with an unpaired surrogate escape is valid JSON: the request is answered under its own id", async () => {
    // JSON allows "\ud800"; JavaScript clients send it for lone surrogates. The reply must carry
    // the request's id (a result, or an error), never a parse error the client cannot match.
    r.sendLine(
      '{"jsonrpc":"2.0","id":"lone","method":"tools/call","params":{"name":"exec","arguments":{"command":"echo a\\ud800b"}}}',
    );
    const res = await r.response("lone", 5000);
    assert.equal(res.id, "lone");
    await stillServing();
  });

  test("invalid UTF-8 in a message is decoded with replacement characters, as a JavaScript reader would", async () => {
    const before = r.messages.length;
    r.child.stdin.write(
      Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":"bad-utf8","method":"ping","params":{"x":"a'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('"}}\n'),
      ]),
    );
    const answer = await r.message(
      (m) => r.messages.indexOf(m) >= before && (m.id === "bad-utf8" || m.error !== undefined),
      5000,
      "an answer to the message with invalid UTF-8",
    );
    assert.equal(answer.id, "bad-utf8");
    assert.deepEqual(answer.result, {});
    await stillServing();
  });

  test("an unknown tool gets -32602 Unknown tool", async () => {
    const res = await r.request("tools/call", { name: "frobnicate", arguments: {} });
    assert.equal(res.error.code, -32602);
    assert.equal(res.error.message, "Unknown tool: frobnicate");
  });

  test("notifications, blank lines and stray responses get no reply", async () => {
    const before = r.messages.length;
    r.sendLine('{"jsonrpc":"2.0","method":"notifications/whatever","params":{}}');
    r.sendLine("");
    r.sendLine("   ");
    r.sendLine('{"jsonrpc":"2.0","id":"stray","result":{}}');
    const pong = await r.request("ping");
    const between = r.messages.slice(before).filter((m) => m !== pong);
    assert.deepEqual(between, []);
  });

  test("a request split across writes and several requests in one write are all answered", async () => {
    const line = '{"jsonrpc":"2.0","id":"split","method":"ping"}\n';
    r.child.stdin.write(line.slice(0, 10));
    await sleep(100);
    r.child.stdin.write(line.slice(10));
    assert.deepEqual((await r.response("split")).result, {});
    r.child.stdin.write(
      '{"jsonrpc":"2.0","id":"b1","method":"ping"}\n{"jsonrpc":"2.0","id":"b2","method":"ping"}\n',
    );
    assert.deepEqual((await r.response("b1")).result, {});
    assert.deepEqual((await r.response("b2")).result, {});
  });
});

describe("a 100 MB line", () => {
  test("gets an error response, the server keeps serving and its RSS grows by less than 58 MB", async () => {
    const t = await startRawServer();
    try {
      await t.initialize();
      const rssKb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${t.pid}/status`, "utf8"))[1]);
      // Growth over the server's own RSS: the sanitizer build idles near 54 MB by itself.
      const baseline = rssKb();
      let peak = baseline;
      const sampler = setInterval(() => {
        try {
          peak = Math.max(peak, rssKb());
        } catch {}
      }, 5);
      const chunk = "a".repeat(1 << 20);
      t.child.stdin.write('{"jsonrpc":"2.0","id":77,"method":"tools/call","params":{"name":"exec","arguments":{"command":"echo ');
      for (let i = 0; i < 100; i++) {
        if (!t.child.stdin.write(chunk)) await new Promise((res) => t.child.stdin.once("drain", res));
        peak = Math.max(peak, rssKb());
      }
      t.child.stdin.write('"}}}\n');
      const err = await t.message((m) => m.error, 20000, "an error for the huge line");
      clearInterval(sampler);
      assert.ok([-32600, -32700].includes(err.error.code), JSON.stringify(err));
      assert.ok(err.id === null || err.id === 77);
      assert.equal(t.messages.filter((m) => m.result && m.id === 77).length, 0, "the huge command is not run");
      await stillServing(t);
      peak = Math.max(peak, rssKb());
      assert.ok(peak - baseline < 58 * 1024, `RSS grew by ${peak - baseline} kB (from ${baseline} kB)`);
      const after = await t.callTool("exec", { command: "echo alive" });
      assert.equal(after.text, "alive");
    } finally {
      await t.close();
    }
  });
});

describe("stdin end of file", () => {
  test("requests received before EOF are still answered; a long foreground command is stopped after a short grace", async () => {
    const t = await startRawServer();
    try {
      t.sendLine('{"jsonrpc":"2.0","id":"quick","method":"tools/call","params":{"name":"exec","arguments":{"command":"echo answered"}}}');
      t.sendLine('{"jsonrpc":"2.0","id":"slow","method":"tools/call","params":{"name":"exec","arguments":{"command":"sleep 30"}}}');
      const started = Date.now();
      t.child.stdin.end();
      const quick = await t.message((m) => m.id === "quick", 5000, "the answer to the quick call");
      assert.equal(quick.result.content[0].text, "answered");
      const slow = await t.message((m) => m.id === "slow", 10000, "the answer to the slow call");
      // No initialize, so no structuredContent opt-in: the details are in _meta.
      assert.equal(slow.result._meta["clawexec/details"].status, "failed");
      assert.equal(slow.result._meta["clawexec/details"].exitReason, "manual-cancel");
      await t.exited;
      const elapsed = Date.now() - started;
      assert.ok(elapsed >= 1500 && elapsed < 8000, `the server exited ${elapsed} ms after EOF`);
    } finally {
      await t.close();
    }
  });
});
