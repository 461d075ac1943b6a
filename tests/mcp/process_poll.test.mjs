// process poll waiting and pacing (reference §2.4 poll, §8.2 #43, #44): the long wait returns
// early on new output or exit, waits the full time otherwise, accepts a numeric string, is
// clamped to 30 s; the retryInMs backoff; the retention and omitted-output notes.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, background, pollUntilExit } from "./lib/harness.mjs";

let s;
before(async () => {
  s = await startServer();
});
after(async () => {
  await s.close();
});

async function timedPoll(sessionId, timeout) {
  const t0 = Date.now();
  const r = await s.call("process", { action: "poll", sessionId, timeout });
  return { r, elapsed: Date.now() - t0 };
}

describe("long wait", { concurrency: true }, () => {
  test("a poll with timeout 999999 is clamped to 30 s", async () => {
    const b = await background(s, "sleep 300");
    const { r, elapsed } = await timedPoll(b.id, 999999);
    assert.equal(r.text, "(no new output)\n\nProcess still running.");
    assert.ok(elapsed >= 29500 && elapsed < 34000, `returned after ${elapsed} ms`);
    await s.call("process", { action: "kill", sessionId: b.id });
  });

  test("a waiting poll returns early as soon as new output arrives", async () => {
    const b = await background(s, "sleep 0.8; echo late; sleep 30");
    const { r, elapsed } = await timedPoll(b.id, 15000);
    assert.equal(r.text, "late\n\nProcess still running.");
    assert.ok(elapsed >= 500 && elapsed < 4000, `returned after ${elapsed} ms`);
    await s.call("process", { action: "kill", sessionId: b.id });
  });

  test("a waiting poll returns early when the session exits", async () => {
    const b = await background(s, "sleep 0.8");
    const { r, elapsed } = await timedPoll(b.id, 15000);
    assert.equal(r.text, "(no new output)\n\nProcess exited with code 0.");
    assert.equal(r.details.status, "completed");
    assert.ok(elapsed >= 500 && elapsed < 4000, `returned after ${elapsed} ms`);
  });

  test("a waiting poll without output or exit waits its full timeout", async () => {
    const b = await background(s, "sleep 30");
    const { r, elapsed } = await timedPoll(b.id, 1200);
    assert.equal(r.text, "(no new output)\n\nProcess still running.");
    assert.ok(elapsed >= 1150 && elapsed < 4000, `returned after ${elapsed} ms`);
    await s.call("process", { action: "kill", sessionId: b.id });
  });

  test("a numeric string timeout is accepted (§8.2 #44)", async () => {
    const b = await background(s, "sleep 30");
    const { r, elapsed } = await timedPoll(b.id, "1500");
    assert.equal(r.details.status, "running");
    assert.ok(elapsed >= 1450 && elapsed < 4000, `returned after ${elapsed} ms`);
    await s.call("process", { action: "kill", sessionId: b.id });
  });

  test("a poll with pending output returns it at once even with a long timeout", async () => {
    const b = await background(s, "echo ready-now; sleep 30");
    await new Promise((r) => setTimeout(r, 400));
    const { r, elapsed } = await timedPoll(b.id, 20000);
    assert.equal(r.text, "ready-now\n\nProcess still running.");
    assert.ok(elapsed < 1500, `returned after ${elapsed} ms`);
    await s.call("process", { action: "kill", sessionId: b.id });
  });

  for (const timeout of [1e300, 9.3e18]) {
    test(`a huge timeout (${timeout}) is clamped to 30 s, not treated as 0`, async () => {
      const b = await background(s, "sleep 1; echo out; sleep 300");
      const { r, elapsed } = await timedPoll(b.id, timeout);
      assert.equal(r.text, "out\n\nProcess still running.", `returned after ${elapsed} ms`);
      assert.ok(elapsed >= 500 && elapsed < 4000, `returned after ${elapsed} ms`);
      await s.call("process", { action: "kill", sessionId: b.id });
    });
  }

  test("timeout 0 returns immediately", async () => {
    const b = await background(s, "sleep 30");
    const { r, elapsed } = await timedPoll(b.id, 0);
    assert.equal(r.details.status, "running");
    assert.ok(elapsed < 1000, `returned after ${elapsed} ms`);
    await s.call("process", { action: "kill", sessionId: b.id });
  });
});

describe("pacing and notes", { concurrency: true }, () => {
  test("retryInMs backs off 5000, 10000, 30000, 60000, 60000, resets on output, is absent after exit (§8.2 #43)", async () => {
    const b = await background(s, "sleep 2; echo out; sleep 1");
    const empty = [];
    for (let i = 0; i < 5; i++) {
      const r = await s.call("process", { action: "poll", sessionId: b.id });
      assert.equal(r.text, "(no new output)\n\nProcess still running.");
      empty.push(r.details.retryInMs);
    }
    assert.deepEqual(empty, [5000, 10000, 30000, 60000, 60000]);
    const withOutput = await s.call("process", { action: "poll", sessionId: b.id, timeout: 5000 });
    assert.equal(withOutput.text, "out\n\nProcess still running.");
    assert.equal(withOutput.details.retryInMs, 5000);
    const next = await s.call("process", { action: "poll", sessionId: b.id });
    assert.equal(next.details.retryInMs, 10000);
    const final = await pollUntilExit(s, b.id);
    assert.equal(final.details.status, "completed");
    assert.equal("retryInMs" in final.details, false);
  });

  test("a poll after the pending cap dropped output carries the omitted note and the newest output", async () => {
    const t = await startServer({ env: { OPENCLAW_BASH_PENDING_MAX_OUTPUT_CHARS: "1000" } });
    try {
      const b = await background(t, "head -c 2000 /dev/zero | tr '\\0' a; head -c 1000 /dev/zero | tr '\\0' b; sleep 30");
      await new Promise((r) => setTimeout(r, 500));
      const r = await t.call("process", { action: "poll", sessionId: b.id });
      assert.equal(
        r.text,
        "[earlier output is omitted from this poll; use action=log with offset and limit to inspect retained output]\n\n" +
          "b".repeat(1000) +
          "\n\nProcess still running.",
      );
      const log = await t.call("process", { action: "log", sessionId: b.id });
      assert.equal(log.text, "a".repeat(2000) + "b".repeat(1000), "log still has the whole retained output");
      await t.call("process", { action: "kill", sessionId: b.id });
    } finally {
      await t.close();
    }
  });

  test("polls of a session past the aggregate cap carry the retention note", async () => {
    const t = await startServer({ env: { OPENCLAW_BASH_MAX_OUTPUT_CHARS: "1000" } });
    try {
      const b = await background(t, "head -c 2000 /dev/zero | tr '\\0' a; head -c 1000 /dev/zero | tr '\\0' b; sleep 1");
      await new Promise((r) => setTimeout(r, 500));
      const retention = "[earlier output was discarded at the retention cap and cannot be recovered]\n\n";
      const omitted =
        "[earlier output is omitted from this poll; use action=log with offset and limit to inspect retained output]\n\n";
      const r = await t.call("process", { action: "poll", sessionId: b.id });
      assert.equal(r.text, retention + omitted + "b".repeat(1000) + "\n\nProcess still running.");
      const end = await pollUntilExit(t, b.id);
      assert.equal(end.text, retention + "(no new output)\n\nProcess exited with code 0.");
    } finally {
      await t.close();
    }
  });
});
