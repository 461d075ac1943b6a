// Cancellation and concurrency (reference §1.9; MCP notifications/cancelled): cancelling a
// foreground exec stops its whole process tree, a backgrounded run survives a late cancel, a
// waiting poll is cancellable without touching its session, and calls in flight do not block
// each other.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import {
  startServer,
  startRawServer,
  scratchDir,
  background,
  waitFor,
  waitGone,
  expectAlive,
  isAlive,
  sleep,
  rejection,
  pidsIn,
} from "./lib/harness.mjs";

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

/** A command that records its shell, a child and a setsid descendant in `file`, then waits. */
function treeCommand(file) {
  return (
    `echo $$ > ${file}; sleep 300 & echo $! >> ${file}; ` +
    `setsid sleep 300 & echo $! >> ${file}; echo started; wait`
  );
}

async function pidsFromFile(file, count) {
  return waitFor(() => {
    if (!existsSync(file)) return null;
    const pids = pidsIn(readFileSync(file, "utf8"));
    return pids.length >= count ? pids : null;
  }, 5000, `${count} pids in ${file}`);
}

describe("cancelling calls", { concurrency: 3 }, () => {
  test("aborting a foreground exec rejects the call and kills the command's whole tree", async () => {
    const file = join(scratch.dir, "abort-pids");
    const controller = new AbortController();
    const call = s.call("exec", { command: treeCommand(file) }, { signal: controller.signal });
    const pids = await pidsFromFile(file, 3);
    await expectAlive(pids);
    controller.abort();
    const e = await rejection(call);
    assert.ok(e, "the call is rejected");
    await waitGone(pids, 6000, "the cancelled command's processes");
  });

  test("a request timeout cancels the foreground exec and kills its tree", async () => {
    const file = join(scratch.dir, "timeout-pids");
    const call = s.call("exec", { command: treeCommand(file) }, { timeout: 1000 });
    const pids = await pidsFromFile(file, 3);
    const e = await rejection(call);
    assert.equal(e.code, -32001, "the SDK reports a request timeout");
    await waitGone(pids, 6000, "the timed-out request's processes");
  });

  test("a cancelled poll that was waiting 30 s ends at once and leaves its session running", async () => {
    const b = await background(s, "sleep 300");
    const controller = new AbortController();
    const t0 = Date.now();
    const poll = s.call("process", { action: "poll", sessionId: b.id, timeout: 30000 }, { signal: controller.signal });
    await sleep(300);
    controller.abort();
    await rejection(poll);
    assert.ok(Date.now() - t0 < 2000);
    const again = await s.call("process", { action: "poll", sessionId: b.id, timeout: 0 });
    assert.equal(again.details.status, "running");
    assert.equal(await isAlive(b.pid), true);
    await s.call("process", { action: "kill", sessionId: b.id });
  });
});

describe("the server after cancellation", () => {
  test("a cancel for a run that was already backgrounded does not stop it, and the cancelled request gets no response", async () => {
    const raw = await startRawServer();
    try {
      await raw.initialize();
      raw.send({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "exec", arguments: { command: "sleep 300", background: true } } });
      const res = await raw.response(7);
      const { sessionId, pid } = res.result.structuredContent;
      raw.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7, reason: "late" } });
      // A yielded run: cancel after the running result came back.
      raw.send({ jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "exec", arguments: { command: "echo $$; sleep 300", yieldMs: 200 } } });
      const yielded = await raw.response(8);
      assert.equal(yielded.result.structuredContent.status, "running");
      raw.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 8 } });
      // A foreground run cancelled while it waits: no response may follow.
      raw.send({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "exec", arguments: { command: "sleep 300" } } });
      await sleep(300);
      raw.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 9 } });
      await sleep(700);
      assert.equal(await isAlive(pid), true, "the background run survives");
      assert.equal(await isAlive(yielded.result.structuredContent.pid), true, "the yielded run survives");
      const poll = await raw.callTool("process", { action: "poll", sessionId, timeout: 0 });
      assert.equal(poll.details.status, "running");
      assert.equal(raw.messages.filter((m) => m.id === 9).length, 0, "no response to a cancelled request");
    } finally {
      await raw.close();
    }
  });
});

describe("concurrency", { concurrency: 2 }, () => {
  test("a poll waiting 30 s does not delay an exec of echo", async () => {
    const b = await background(s, "sleep 300");
    const poll = s.call("process", { action: "poll", sessionId: b.id, timeout: 30000 });
    await sleep(200);
    const t0 = Date.now();
    const r = await s.call("exec", { command: "echo concurrent" });
    assert.equal(r.text, "concurrent");
    assert.ok(Date.now() - t0 < 2000, `exec took ${Date.now() - t0} ms`);
    const list = await s.call("process", { action: "list" });
    assert.equal(list.details.status, "completed");
    await s.call("process", { action: "kill", sessionId: b.id });
    const end = await poll;
    assert.notEqual(end.details.status, "running", "the kill ends the waiting poll early");
  });

  test("two foreground commands run at the same time", async () => {
    const t0 = Date.now();
    const [a, b] = await Promise.all([
      s.call("exec", { command: "sleep 1.5; echo a" }),
      s.call("exec", { command: "sleep 1.5; echo b" }),
    ]);
    assert.equal(a.text, "a");
    assert.equal(b.text, "b");
    assert.ok(Date.now() - t0 < 2900, `took ${Date.now() - t0} ms (run one after the other they take 3 s)`);
  });
});
