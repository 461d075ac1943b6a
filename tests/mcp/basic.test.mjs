// Smoke test of the harness: the server starts, lists its tools and runs a command.
import { test } from "node:test";
import assert from "node:assert/strict";
import { startServer } from "./lib/harness.mjs";

test("exec runs a command in the foreground and returns its output", async () => {
  const s = await startServer();
  try {
    const tools = await s.client.listTools();
    assert.deepEqual(tools.tools.map((t) => t.name).sort(), ["apply_patch", "exec", "process"]);
    const r = await s.call("exec", { command: "echo hello" });
    assert.equal(r.text, "hello");
    assert.equal(r.details.status, "completed");
    assert.equal(r.details.exitCode, 0);
    assert.equal(r.isError, false);
  } finally {
    await s.close();
  }
});
