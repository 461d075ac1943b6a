// apply_patch over MCP and on the command line: listed by default, the reference's success and
// no-op texts with structuredContent.summary, thrown errors as isError results, nothing written
// when a later hunk fails, the size limits, and tools.exec.applyPatch.enabled / allowModels
// hiding or refusing the tool (with the model from initialize, serve --model, or Codex's per-call
// `_meta["x-codex-turn-metadata"].model`). (Protected paths: attack_apply_patch.test.mjs.)
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLAWEXEC, scratchDir, serverEnv, startServer, rejection } from "./lib/harness.mjs";

const patch = (body) => `*** Begin Patch\n${body}*** End Patch`;

describe("apply_patch tool", () => {
  let ws, s;
  before(async () => {
    ws = scratchDir();
    s = await startServer({ cwd: ws.dir });
  });
  after(async () => {
    await s.close();
    ws.cleanup();
  });

  test("is listed with the reference schema", async () => {
    const { tools } = await s.client.listTools();
    const tool = tools.find((t) => t.name === "apply_patch");
    assert.ok(tool, "apply_patch listed");
    assert.equal(tool.description, "Patch one/many files. Input requires *** Begin Patch and *** End Patch.");
    assert.deepEqual(tool.inputSchema.required, ["input"]);
    assert.equal(tool.inputSchema.properties.input.description, "Patch content using the *** Begin Patch/End Patch format.");
  });

  test("adds, moves and deletes with the summary text and structuredContent", async () => {
    writeFileSync(join(ws.dir, "source.txt"), "foo\nbar\n");
    writeFileSync(join(ws.dir, "gone.txt"), "x\n");
    const r = await s.call("apply_patch", {
      input: patch("*** Add File: hello.txt\n+hello\n*** Update File: source.txt\n*** Move to: dest.txt\n@@\n foo\n-bar\n+baz\n*** Delete File: gone.txt\n"),
    });
    assert.equal(r.isError, false);
    assert.equal(r.text, "Success. Updated the following files:\nA hello.txt\nM dest.txt\nD gone.txt");
    assert.deepEqual(r.details, { summary: { added: ["hello.txt"], modified: ["dest.txt"], deleted: ["gone.txt"] } });
    assert.equal(readFileSync(join(ws.dir, "dest.txt"), "utf8"), "foo\nbaz\n");
    assert.equal(existsSync(join(ws.dir, "source.txt")), false);
    assert.equal(existsSync(join(ws.dir, "gone.txt")), false);
  });

  test("a no-op update reports no changes", async () => {
    writeFileSync(join(ws.dir, "same.txt"), "a\n");
    const r = await s.call("apply_patch", { input: patch("*** Update File: same.txt\n@@\n-a\n+a\n") });
    assert.equal(r.text, "No changes made to same.txt.");
    assert.deepEqual(r.details, { summary: { added: [], modified: [], deleted: [] } });
  });

  test("errors are thrown tool errors and a failing last hunk writes nothing", async () => {
    writeFileSync(join(ws.dir, "keep.txt"), "k\n");
    const r = await s.call("apply_patch", {
      input: patch("*** Update File: keep.txt\n@@\n-k\n+K\n*** Add File: new.txt\n+n\n*** Add File: ../out.txt\n+o\n"),
    });
    assert.equal(r.isError, true);
    assert.match(r.text, /^Path escapes sandbox root \(.*\): \.\.\/out\.txt$/);
    assert.equal(readFileSync(join(ws.dir, "keep.txt"), "utf8"), "k\n");
    assert.equal(existsSync(join(ws.dir, "new.txt")), false);
    const blank = await s.call("apply_patch", { input: "  " });
    assert.equal(blank.text, "Provide a patch input.");
    const bad = await s.call("apply_patch", { input: "hello" });
    assert.equal(bad.text, "The first line of the patch must be '*** Begin Patch'");
  });
});

describe("apply_patch size limits", () => {
  test("a file over 64 MiB is refused from its size, before it is read", async () => {
    const ws = scratchDir();
    const s = await startServer({ cwd: ws.dir });
    try {
      const { truncateSync } = await import("node:fs");
      writeFileSync(join(ws.dir, "huge.bin"), "");
      truncateSync(join(ws.dir, "huge.bin"), 1024 * 1024 * 1024);  // sparse: 1 GiB of nothing
      const r = await s.call("apply_patch", { input: patch("*** Update File: huge.bin\n@@\n-x\n+y\n") });
      assert.equal(r.isError, true);
      assert.equal(
        r.text,
        `Failed to read file to update ${join(ws.dir, "huge.bin")}: it is 1 GiB (1073741824 bytes), over apply_patch's per-file limit of 64 MiB (67108864 bytes)`,
      );
    } finally {
      await s.close();
      ws.cleanup();
    }
  });

  test("clawexec apply-patch stops reading stdin at the 64 MiB patch limit", () => {
    const ws = scratchDir();
    const state = scratchDir("clawexec-state-");
    try {
      const big = patch(`*** Add File: big.txt\n${"+0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde\n".repeat(1024 * 1024 + 16)}`);
      const r = spawnSync(CLAWEXEC, ["apply-patch", "--workdir", ws.dir], { input: big, env: serverEnv(state.dir), maxBuffer: 1 << 20 });
      assert.equal(r.status, 1);
      assert.equal(r.stderr.toString(), "clawexec apply-patch: the patch on stdin is over apply_patch's limit of 64 MiB (67108864 bytes)\n");
      assert.equal(existsSync(join(ws.dir, "big.txt")), false);
    } finally {
      ws.cleanup();
      state.cleanup();
    }
  });
});

describe("apply_patch configuration", () => {
  test("enabled:false hides the tool and a call is an unknown tool", async () => {
    const s = await startServer({ config: { tools: { exec: { applyPatch: { enabled: false } } } } });
    try {
      const { tools } = await s.client.listTools();
      assert.equal(tools.some((t) => t.name === "apply_patch"), false);
      const e = await rejection(s.call("apply_patch", { input: patch("*** Add File: a\n+a\n") }));
      assert.match(e.message, /Unknown tool: apply_patch/);
    } finally {
      await s.close();
    }
  });

  test("allowModels without a known model id lists the tool, and a call that names no model is refused", async () => {
    const s = await startServer({ config: { tools: { exec: { applyPatch: { allowModels: ["gpt-5.4"] } } } } });
    try {
      const { tools } = await s.client.listTools();
      assert.equal(tools.some((t) => t.name === "apply_patch"), true, "the model may still be named per call");
      const r = await s.call("apply_patch", { input: patch("*** Add File: never.txt\n+x\n") });
      assert.equal(r.isError, true);
      assert.match(r.text, /^apply_patch is not available: tools\.exec\.applyPatch\.allowModels is set and this call names no model/);
    } finally {
      await s.close();
    }
  });
});

describe("allowModels with the model Codex names per call", () => {
  const config = { tools: { exec: { applyPatch: { allowModels: ["GPT-5.4"] } } } };
  /** apply_patch with `_meta["x-codex-turn-metadata"] = turn` (as Codex CLI sends it). */
  const callWith = async (s, turn, file) => {
    const raw = await s.client.callTool({
      name: "apply_patch",
      arguments: { input: patch(`*** Add File: ${file}\n+x\n`) },
      _meta: { "x-codex-turn-metadata": turn },
    });
    return { text: raw.content?.[0]?.text, isError: raw.isError === true };
  };

  test("a listed per-call model may patch, another is refused naming it", async () => {
    const ws = scratchDir();
    const s = await startServer({ config, cwd: ws.dir });
    try {
      const ok = await callWith(s, { turn_id: "t1", model: "gpt-5.4", reasoning_effort: "high" }, "codex.txt");
      assert.equal(ok.isError, false, ok.text);
      assert.ok(existsSync(join(ws.dir, "codex.txt")));
      const text = await callWith(s, JSON.stringify({ model: "gpt-5.4" }), "as-text.txt");
      assert.equal(text.isError, false, "the metadata's JSON text is read too");
      const other = await callWith(s, { model: "gpt-4o" }, "other.txt");
      assert.equal(other.isError, true);
      assert.equal(other.text, 'apply_patch is not available to model "gpt-4o": tools.exec.applyPatch.allowModels does not list it.');
      assert.equal(existsSync(join(ws.dir, "other.txt")), false);
    } finally {
      await s.close();
      ws.cleanup();
    }
  });

  test("the per-call model wins over serve --model", async () => {
    const ws = scratchDir();
    const s = await startServer({ config, cwd: ws.dir, args: ["--model", "gpt-5.4"] });
    try {
      assert.equal((await s.client.listTools()).tools.some((t) => t.name === "apply_patch"), true);
      const other = await callWith(s, { model: "o3" }, "o3.txt");
      assert.equal(other.isError, true);
      assert.match(other.text, /not available to model "o3"/);
      const plain = await s.call("apply_patch", { input: patch("*** Add File: plain.txt\n+x\n") });
      assert.equal(plain.isError, false, "without per-call metadata the serve model decides");
    } finally {
      await s.close();
      ws.cleanup();
    }
  });
});

describe("allowModels with serve --model", () => {
  test("a listed model sees the tool, another does not", async () => {
    const config = { tools: { exec: { applyPatch: { allowModels: ["openai/gpt-5.4"] } } } };
    const allowed = await startServer({ config, args: ["--model", "openai/gpt-5.4"] });
    const other = await startServer({ config, args: ["--model", "anthropic/claude-x"] });
    try {
      assert.equal((await allowed.client.listTools()).tools.some((t) => t.name === "apply_patch"), true);
      assert.equal((await other.client.listTools()).tools.some((t) => t.name === "apply_patch"), false);
    } finally {
      await allowed.close();
      await other.close();
    }
  });
});

describe("clawexec apply-patch", () => {
  test("applies stdin, prints the text, exits 0; errors go to stderr with exit 1", () => {
    const ws = scratchDir();
    const state = scratchDir("clawexec-state-");
    try {
      const env = serverEnv(state.dir);
      const ok = spawnSync(CLAWEXEC, ["apply-patch", "--workdir", ws.dir], { input: patch("*** Add File: a.txt\n+a\n"), env });
      assert.equal(ok.status, 0, ok.stderr.toString());
      assert.equal(ok.stdout.toString(), "Success. Updated the following files:\nA a.txt\n");
      const json = spawnSync(CLAWEXEC, ["apply-patch", "--json", "--workdir", ws.dir], { input: patch("*** Delete File: a.txt\n"), env });
      assert.deepEqual(JSON.parse(json.stdout.toString()), { summary: { added: [], modified: [], deleted: ["a.txt"] } });
      const bad = spawnSync(CLAWEXEC, ["apply-patch", "--workdir", ws.dir], { input: patch("*** Add File: ../x\n+x\n"), env });
      assert.equal(bad.status, 1);
      assert.match(bad.stderr.toString(), /Path escapes sandbox root/);
      const usage = spawnSync(CLAWEXEC, ["apply-patch", "--nope"], { input: "", env });
      assert.equal(usage.status, 2);
    } finally {
      ws.cleanup();
      state.cleanup();
    }
  });
});
