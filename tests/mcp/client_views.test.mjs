// What real MCP clients show the model (docs/tools.md "What the model sees"). Claude Code hands
// the model a successful result's `structuredContent` when there is one, Codex always does;
// otherwise both show the text blocks. This file reads every result the way they do, from a
// client that does not declare the "clawexec/structuredContent" capability, and finds the
// sentences OpenClaw writes for the model: timeout guidance, command not found, "Process still
// running.", the apply_patch summary, the approval-pending instructions, the retention-cap
// notice of a capped output and the text of a bad argument value. It also checks that such a
// result carries its details in `_meta["clawexec/details"]` without a second copy of the output,
// and that the capability, the config key and the environment variable bring structuredContent
// back.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  CLAWEXEC,
  DETAILS_META_KEY,
  RETRY_GUIDANCE,
  STRUCTURED_CONTENT_CAPABILITY,
  closeAll,
  pollUntilExit,
  scratchDir,
  serverEnv,
  startRawServer,
  startServer,
  waitFor,
} from "./lib/harness.mjs";

const RETENTION_NOTE = "[earlier output was discarded at the retention cap and cannot be recovered]";

/** The text blocks of a result, joined the way both clients join them. */
const joinedText = (raw) => (raw.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("\n");

/** What Claude Code 2.1 gives the model: structuredContent of a successful result, else the text. */
const claudeView = (raw) => (raw.structuredContent && !raw.isError ? JSON.stringify(raw.structuredContent) : joinedText(raw));
/** What Codex CLI 0.169 gives the model: structuredContent whenever present, else the text. */
const codexView = (raw) => (raw.structuredContent ? JSON.stringify(raw.structuredContent) : joinedText(raw));

/** Asserts both clients show the model `sentence` (a string or a RegExp) for `raw`. */
function modelSees(raw, sentence) {
  for (const [client, view] of [["Claude Code", claudeView], ["Codex", codexView]]) {
    const seen = view(raw);
    if (sentence instanceof RegExp) assert.match(seen, sentence, `${client} view`);
    else assert.ok(seen.includes(sentence), `${client} shows ${JSON.stringify(sentence)}; it shows ${JSON.stringify(seen.slice(0, 400))}`);
  }
}

const servers = [];
const ws = scratchDir();
after(async () => {
  await closeAll(servers);
  ws.cleanup();
});

async function server(options = {}) {
  const s = await startServer({ structuredContent: false, cwd: ws.dir, ...options });
  servers.push(s);
  return s;
}

/** Calls a tool and returns the raw result (what the client library hands the client). */
async function rawCall(s, name, args) {
  return s.client.callTool({ name, arguments: args });
}

describe("a client without the capability gets the text and _meta details", { concurrency: 4 }, () => {
  let s;
  before(async () => {
    s = await server();
  });

  test("tools/list declares no outputSchema (structuredContent is optional)", async () => {
    const { tools } = await s.client.listTools();
    assert.ok(tools.length >= 2);
    for (const tool of tools) assert.equal(tool.outputSchema, undefined, tool.name);
  });

  test("a completed result has no structuredContent; _meta details omit the output copy", async () => {
    const raw = await rawCall(s, "exec", { command: "echo hello" });
    assert.equal(raw.structuredContent, undefined);
    assert.equal(raw.isError, false);
    assert.deepEqual(raw.content, [{ type: "text", text: "hello" }]);
    const d = raw._meta[DETAILS_META_KEY];
    assert.equal(d.status, "completed");
    assert.equal(d.exitCode, 0);
    assert.equal(typeof d.durationMs, "number");
    assert.equal(d.cwd, ws.dir);
    assert.equal("aggregated" in d, false, "the output is in the text only");
    modelSees(raw, "hello");
  });

  test("a timeout shows the retry guidance", async () => {
    const raw = await rawCall(s, "exec", { command: "sleep 5", timeoutSeconds: 1 });
    modelSees(raw, "Command timed out after 1 seconds.");
    modelSees(raw, RETRY_GUIDANCE);
    modelSees(raw, "Do not automatically rerun non-idempotent commands.");
    assert.equal(raw.isError, true);
    assert.equal(raw._meta[DETAILS_META_KEY].timedOut, true);
  });

  test("command not found shows the shell's message and Command not found", async () => {
    const raw = await rawCall(s, "exec", { command: "clawexec-no-such-command-xyz" });
    modelSees(raw, /clawexec-no-such-command-xyz: (command )?not found\n\nCommand not found$/);
    assert.equal(raw._meta[DETAILS_META_KEY].exitCode, 127);
    assert.equal(raw._meta[DETAILS_META_KEY].failureKind, "shell-command-not-found");
  });

  test("a poll of a running session shows Process still running.", async () => {
    const started = await rawCall(s, "exec", { command: "echo started; sleep 30", background: true });
    const sessionId = started._meta[DETAILS_META_KEY].sessionId;
    modelSees(started, `Command still running (session ${sessionId}`);
    try {
      const raw = await rawCall(s, "process", { action: "poll", sessionId, timeout: 1000 });
      assert.equal(raw.structuredContent, undefined);
      assert.equal(raw._meta[DETAILS_META_KEY].status, "running");
      assert.equal("aggregated" in raw._meta[DETAILS_META_KEY], false);
      modelSees(raw, "Process still running.");
    } finally {
      await rawCall(s, "process", { action: "kill", sessionId });
    }
  });

  test("apply_patch shows its summary", async () => {
    const raw = await rawCall(s, "apply_patch", { input: "*** Begin Patch\n*** Add File: views.txt\n+hi\n*** End Patch" });
    modelSees(raw, "Success. Updated the following files:\nA views.txt");
    assert.equal(raw.isError, false);
    assert.deepEqual(raw._meta[DETAILS_META_KEY], { summary: { added: ["views.txt"], modified: [], deleted: [] } });
    assert.equal(readFileSync(join(ws.dir, "views.txt"), "utf8"), "hi\n");
  });

  for (const [what, args, text] of [
    ["an unknown host", { command: "echo x", host: "example.com" }, 'Invalid exec host "example.com". Allowed values: auto, sandbox, gateway, node.'],
    ["a wrong type", { command: "echo x", pty: "yes" }, 'Validation failed for tool "exec":\n  - pty: must be boolean'],
  ]) {
    test(`${what} is an isError result the model reads`, async () => {
      const raw = await rawCall(s, "exec", args);
      assert.equal(raw.isError, true);
      assert.equal(raw.structuredContent, undefined);
      modelSees(raw, text);
    });
  }

  test("an unknown process action is an isError result the model reads", async () => {
    const raw = await rawCall(s, "process", { action: "frobnicate" });
    assert.equal(raw.isError, true);
    modelSees(raw, "Invalid process action. Expected one of: list, poll, log, write, send-keys, submit, paste, kill, clear, remove");
  });
});

describe("approval pending without elicitation", () => {
  test("the model sees the approval instructions", async () => {
    const s = await server({
      config: { tools: { exec: { security: "allowlist", ask: "on-miss", approvalRunningNoticeMs: 0 } } },
      approvals: { version: 1, agents: {} },
    });
    const raw = await rawCall(s, "exec", { command: "echo pending", ask: "always" });
    modelSees(raw, /Approval required \(id [0-9a-f]{8}, full [0-9a-f-]{36}\)\./);
    modelSees(raw, /Reply with: \/approve [0-9a-f]{8} allow-once\|deny/);
    const d = raw._meta[DETAILS_META_KEY];
    assert.equal(d.status, "approval-pending");
    assert.equal(raw.structuredContent, undefined);
    modelSees(raw, `Approval required (id ${d.approvalSlug}, full ${d.approvalId}).`);
  });
});

describe("capped output", { concurrency: 2 }, () => {
  let s;
  before(async () => {
    s = await server({ env: { OPENCLAW_BASH_MAX_OUTPUT_CHARS: "1000" } });
  });
  const printLines = "for i in $(seq 1 400); do echo line$i; done";

  test("a capped foreground result starts with the discarded notice", async () => {
    const raw = await rawCall(s, "exec", { command: printLines });
    const text = joinedText(raw);
    assert.ok(text.startsWith(RETENTION_NOTE + "\n\n"), text.slice(0, 200));
    assert.ok(text.endsWith("line400"));
    modelSees(raw, RETENTION_NOTE);
  });

  test("poll and log of a capped session show the discarded notice", async () => {
    const started = await rawCall(s, "exec", { command: printLines, background: true });
    const sessionId = started._meta[DETAILS_META_KEY].sessionId;
    await pollUntilExit({ call: (name, args) => rawCall(s, name, args).then(viewOf) }, sessionId);
    const log = await rawCall(s, "process", { action: "log", sessionId });
    assert.ok(joinedText(log).startsWith(RETENTION_NOTE), joinedText(log).slice(0, 200));
    assert.equal("output" in log._meta[DETAILS_META_KEY], false, "log output is in the text only");
    modelSees(log, RETENTION_NOTE);
    // A session whose first poll comes after the cap: the poll text carries the notice too.
    const late = await rawCall(s, "exec", { command: `${printLines}; sleep 30`, background: true });
    const lateId = late._meta[DETAILS_META_KEY].sessionId;
    try {
      const poll = await waitFor(async () => {
        const p = await rawCall(s, "process", { action: "poll", sessionId: lateId, timeout: 500 });
        return joinedText(p).includes("line400") || joinedText(p).includes(RETENTION_NOTE) ? p : null;
      }, 8000, "the capped poll");
      modelSees(poll, RETENTION_NOTE);
    } finally {
      await rawCall(s, "process", { action: "kill", sessionId: lateId });
    }
  });
});

/** The harness's { text, details, isError } view of a raw result (for pollUntilExit). */
const viewOf = (raw) => ({ text: joinedText(raw), details: raw.structuredContent ?? raw._meta?.[DETAILS_META_KEY], isError: raw.isError === true, raw });

describe("wire size", () => {
  test("a large output is sent about once without the capability, twice with it", async () => {
    const chars = 150000;
    const command = `head -c ${chars} /dev/zero | tr '\\0' x`;
    const sizes = {};
    for (const [name, capabilities] of [["plain", {}], ["structured", STRUCTURED_CONTENT_CAPABILITY]]) {
      const raw = await startRawServer();
      try {
        await raw.initialize("2025-11-25", capabilities);
        let bytes = 0;
        const count = (d) => (bytes += Buffer.byteLength(d));
        raw.child.stdout.on("data", count);
        const m = await raw.request("tools/call", { name: "exec", arguments: { command } }, 20000);
        raw.child.stdout.off("data", count);
        assert.equal(m.result.content[0].text.length, chars);
        sizes[name] = bytes;
      } finally {
        await raw.close();
      }
    }
    assert.ok(sizes.plain < chars * 1.05, `without the capability: ${sizes.plain} bytes for ${chars} characters`);
    assert.ok(sizes.structured > chars * 1.9, `with the capability: ${sizes.structured} bytes for ${chars} characters`);
  });
});

describe("bad argument values are tool errors in both protocol versions", () => {
  for (const version of ["2025-06-18", "2025-11-25"]) {
    test(`protocol ${version}`, async () => {
      const raw = await startRawServer();
      try {
        await raw.initialize(version, {});
        const host = await raw.request("tools/call", { name: "exec", arguments: { command: "echo x", host: "example.com" } });
        assert.equal(host.error, undefined);
        assert.equal(host.result.isError, true);
        assert.equal(host.result.content[0].text, 'Invalid exec host "example.com". Allowed values: auto, sandbox, gateway, node.');
        const type = await raw.request("tools/call", { name: "exec", arguments: { command: {} } });
        assert.equal(type.result.isError, true);
        assert.match(type.result.content[0].text, /^Validation failed for tool "exec":\n {2}- command: must be string\n/);
        const action = await raw.request("tools/call", { name: "process", arguments: { action: "frobnicate" } });
        assert.equal(action.result.isError, true);
        assert.match(action.result.content[0].text, /^Invalid process action\. Expected one of: list, poll/);
        // Unknown tools and malformed requests stay JSON-RPC errors.
        const unknown = await raw.request("tools/call", { name: "frobnicate", arguments: {} });
        assert.equal(unknown.error.code, -32602);
        const nameless = await raw.request("tools/call", { arguments: {} });
        assert.equal(nameless.error.code, -32602);
      } finally {
        await raw.close();
      }
    });
  }
});

describe("structuredContent on request", { concurrency: 3 }, () => {
  const check = async (s) => {
    const raw = await rawCall(s, "exec", { command: "echo structured" });
    assert.deepEqual(raw.content, [{ type: "text", text: "structured" }]);
    assert.equal(raw.structuredContent?.status, "completed");
    assert.equal(raw.structuredContent.aggregated, "structured");
    assert.equal(raw._meta?.[DETAILS_META_KEY], undefined, "details are sent once");
  };

  test("a client that declares the capability gets structuredContent = details", async () => {
    await check(await server({ structuredContent: true }));
  });

  test("clawexec.mcp.structuredContent: true gives it to every client", async () => {
    await check(await server({ config: { clawexec: { mcp: { structuredContent: true } } } }));
  });

  test("CLAWEXEC_MCP_STRUCTURED_CONTENT=1 gives it to every client", async () => {
    await check(await server({ env: { CLAWEXEC_MCP_STRUCTURED_CONTENT: "1" } }));
  });

  test("an invalid clawexec.mcp.structuredContent stops the server naming the key", () => {
    const state = scratchDir("clawexec-state-");
    try {
      writeFileSync(join(state.dir, "openclaw.json"), JSON.stringify({ clawexec: { mcp: { structuredContent: "yes" } } }));
      const r = spawnSync(CLAWEXEC, ["serve"], { env: serverEnv(state.dir), input: "", encoding: "utf8", timeout: 20000 });
      assert.equal(r.status, 1, r.stderr);
      assert.match(r.stderr, /openclaw\.json: clawexec\.mcp\.structuredContent: expected true or false, got "yes"/);
    } finally {
      state.cleanup();
    }
  });
});
