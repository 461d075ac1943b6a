// Resource limits (issue 10 #13b): a client that stops reading cannot make the server buffer
// answers without bound (back-pressure on stdin, answers kept in order), a command larger than
// Linux can pass as one argument is refused before any analysis, and a client cannot keep more
// live sessions than tools.exec.maxLiveSessions.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { startRawServer, startServer, sleep, waitFor, pollUntilExit, background } from "./lib/harness.mjs";

/** The server's resident set (VmRSS) in bytes. */
function rssOf(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) * 1024 : 0;
}

const MiB = 1024 * 1024;

describe("a client that reads slowly (issue 10 #13b)", () => {
  test("2000 large `process log` answers: RSS stays bounded while it does not read, then all arrive in order", async (t) => {
    const s = await startRawServer();
    try {
      await s.initialize();
      // ~190 000 characters of retained output: every log answer carries all of it.
      const started = await s.callTool("exec", { command: "head -c 190000 /dev/zero | tr '\\0' x", background: true });
      const id = started.details.sessionId;
      await waitFor(async () => (await s.callTool("process", { action: "poll", sessionId: id })).details?.status !== "running");
      const one = await s.callTool("process", { action: "log", sessionId: id });
      assert.ok(one.text.length >= 190000, `log answer is ${one.text.length} chars`);
      const baseline = rssOf(s.pid);

      s.child.stdout.pause();  // the client stops reading
      const count = 2000;
      const first = 50000;
      for (let i = 0; i < count; i++) {
        s.send({ jsonrpc: "2.0", id: first + i, method: "tools/call", params: { name: "process", arguments: { action: "log", sessionId: id } } });
      }
      let peak = 0;
      for (let i = 0; i < 30; i++) {
        await sleep(100);
        peak = Math.max(peak, rssOf(s.pid));
      }
      t.diagnostic(`RSS ${(baseline / MiB).toFixed(1)} MiB before, peak ${(peak / MiB).toFixed(1)} MiB while not reading`);
      // Without back-pressure this grows to ~800 MiB; the budget is 8 MiB of queued answers plus
      // the answers to the requests already read (at most 8 in flight), each ~0.4 MiB.
      assert.ok(peak - baseline < 40 * MiB, `RSS grew by ${((peak - baseline) / MiB).toFixed(1)} MiB while the client did not read`);

      s.child.stdout.resume();
      await s.message((m) => m.id === first + count - 1, 120000, "the last answer");
      const answers = s.messages.filter((m) => typeof m.id === "number" && m.id >= first);
      assert.equal(answers.length, count, "every request is answered, none dropped");
      answers.forEach((m, i) => {
        assert.equal(m.id, first + i, "answers arrive in request order");
        assert.equal(m.result?.content?.[0]?.text?.length >= 190000, true, `answer ${m.id} is complete`);
      });
    } finally {
      await s.close();
    }
  });
});
