// Background completion events (reference §1.11, §7.10) delivered as MCP notifications/message:
// `Exec completed|failed (<id8>, <exit label>) :: <compacted output>`, the skip rules (empty
// success, killed without output, notifyOnExit off, foreground runs) and the suppression when a
// poll observes the end.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, background, waitFor, sleep, isAlive, RETRY_GUIDANCE } from "./lib/harness.mjs";

/**
 * Notifications of session `id`: _meta.sessionId names it (the text carries only 8 characters of
 * the id, which two concurrent sessions may share); the text must agree.
 */
const eventsFor = (server, id) =>
  server.notifications.filter((n) => {
    if (n._meta?.sessionId !== id) return false;
    assert.ok(n.data.includes(`(${id.slice(0, 8)}, `), `event text ${n.data} names ${id}`);
    return true;
  });

/** Waits for the first event of session `id` and returns its text. */
async function eventText(server, id, timeoutMs = 8000) {
  await waitFor(() => eventsFor(server, id).length > 0, timeoutMs, `a completion event for ${id}`);
  return eventsFor(server, id)[0].data;
}

/** Waits until `list` shows the session finished, without polling it. */
async function waitFinishedWithoutPolling(server, id, timeoutMs = 8000) {
  await waitFor(async () => {
    const r = await server.call("process", { action: "list" });
    const e = r.details.sessions.find((x) => x.sessionId === id);
    return e && e.status !== "running";
  }, timeoutMs, `${id} to finish`);
}

let s;
before(async () => {
  s = await startServer();
});
after(async () => {
  await s.close();
});

describe("events", { concurrency: 4 }, () => {
  test("a background run that succeeds with output sends one Exec completed event", async () => {
    const b = await background(s, "sleep 0.2; echo notify");
    const text = await eventText(s, b.id);
    assert.equal(text, `Exec completed (${b.id.slice(0, 8)}, code 0) :: notify`);
    const n = eventsFor(s, b.id)[0];
    assert.equal(typeof n.level, "string");
    await sleep(300);
    assert.equal(eventsFor(s, b.id).length, 1, "exactly one event per run");
  });

  test("a non-zero exit is still Exec completed, with its code", async () => {
    const b = await background(s, "sleep 0.2; echo bad; exit 3");
    assert.equal(await eventText(s, b.id), `Exec completed (${b.id.slice(0, 8)}, code 3) :: bad`);
  });

  test("exit 127 is Exec failed with code 127 and the shell's message", async () => {
    const b = await background(s, "sleep 0.2; definitely_not_a_cmd_xyz");
    const text = await eventText(s, b.id);
    assert.match(text, new RegExp(`^Exec failed \\(${b.id.slice(0, 8)}, code 127\\) :: .*definitely_not_a_cmd_xyz.*not found$`));
  });

  test("a killed run with output is Exec failed with signal SIGTERM", async () => {
    const b = await background(s, "echo partial; sleep 30");
    await waitFor(async () => (await s.call("process", { action: "list" })).details.sessions.find((e) => e.sessionId === b.id)?.tail);
    await s.call("process", { action: "kill", sessionId: b.id });
    assert.equal(await eventText(s, b.id), `Exec failed (${b.id.slice(0, 8)}, signal SIGTERM) :: partial`);
  });

  test("a killed run without output sends no event", async () => {
    const b = await background(s, "sleep 30");
    await s.call("process", { action: "kill", sessionId: b.id });
    await waitFinishedWithoutPolling(s, b.id);
    await sleep(400);
    assert.deepEqual(eventsFor(s, b.id), []);
  });

  test("a run removed while running sends no event", async () => {
    const b = await background(s, "echo removed-output; sleep 30");
    await waitFor(async () => (await s.call("process", { action: "list" })).details.sessions.find((e) => e.sessionId === b.id)?.tail);
    await s.call("process", { action: "remove", sessionId: b.id });
    await waitFor(async () => !(await isAlive(b.pid)), 6000, "the removed run to end");
    await sleep(400);
    assert.deepEqual(eventsFor(s, b.id), []);
  });

  test("a silent successful run sends no event by default", async () => {
    const b = await background(s, "sleep 0.2");
    await waitFinishedWithoutPolling(s, b.id);
    await sleep(400);
    assert.deepEqual(eventsFor(s, b.id), []);
  });

  test("the event output is whitespace-collapsed", async () => {
    const b = await background(s, "sleep 0.2; printf 'a\\n\\n  b\\tc\\n'");
    assert.equal(await eventText(s, b.id), `Exec completed (${b.id.slice(0, 8)}, code 0) :: a b c`);
  });

  test("event output longer than 180 chars is cut to 179 chars and an ellipsis", async () => {
    const b = await background(s, "sleep 0.2; head -c 300 /dev/zero | tr '\\0' x");
    assert.equal(await eventText(s, b.id), `Exec completed (${b.id.slice(0, 8)}, code 0) :: ${"x".repeat(179)}…`);
  });

  test("a yielded run sends an event too", async () => {
    const r = await s.call("exec", { command: "sleep 0.6; echo yielded", yieldMs: 100 });
    assert.equal(r.details.status, "running");
    const id = r.details.sessionId;
    assert.equal(await eventText(s, id), `Exec completed (${id.slice(0, 8)}, code 0) :: yielded`);
  });

  test("a foreground run sends no event", async () => {
    const r = await s.call("exec", { command: "echo fg-only" });
    assert.equal(r.text, "fg-only");
    await sleep(300);
    assert.equal(s.notifications.filter((n) => String(n.data).includes("fg-only")).length, 0);
  });

  test("a poll that is waiting when the session ends observes the end, and no event is sent", async () => {
    const b = await background(s, "echo observed; sleep 1");
    const first = await s.call("process", { action: "poll", sessionId: b.id, timeout: 5000 });
    assert.equal(first.text, "observed\n\nProcess still running.");
    // This poll is already waiting when the command exits; it returns the terminal state.
    const end = await s.call("process", { action: "poll", sessionId: b.id, timeout: 10000 });
    assert.equal(end.text, "(no new output)\n\nProcess exited with code 0.");
    await sleep(600);
    assert.deepEqual(eventsFor(s, b.id).map((n) => n.data), []);
  });
});

describe("configuration", { concurrency: 3 }, () => {
  test("a timed-out background run sends Exec failed with SIGTERM and the retry guidance", async () => {
    const t = await startServer({ config: { tools: { exec: { timeoutSeconds: 1 } } } });
    try {
      const b = await background(t, "echo begun; sleep 30");
      const silent = await background(t, "sleep 30");
      assert.equal(
        await eventText(t, b.id),
        `Exec failed (${b.id.slice(0, 8)}, signal SIGTERM) :: begun\n\n${RETRY_GUIDANCE}`,
      );
      assert.equal(await eventText(t, silent.id), `Exec failed (${silent.id.slice(0, 8)}, signal SIGTERM)\n\n${RETRY_GUIDANCE}`);
    } finally {
      await t.close();
    }
  });

  test("notifyOnExitEmptySuccess:true reports silent successes without an output part", async () => {
    const t = await startServer({ config: { tools: { exec: { notifyOnExitEmptySuccess: true } } } });
    try {
      const b = await background(t, "sleep 0.2");
      assert.equal(await eventText(t, b.id), `Exec completed (${b.id.slice(0, 8)}, code 0)`);
    } finally {
      await t.close();
    }
  });

  test("notifyOnExit:false sends no events", async () => {
    const t = await startServer({ config: { tools: { exec: { notifyOnExit: false } } } });
    try {
      const b = await background(t, "sleep 0.2; echo quiet");
      await waitFinishedWithoutPolling(t, b.id);
      await sleep(400);
      assert.deepEqual(t.notifications, []);
    } finally {
      await t.close();
    }
  });
});

describe("log level", () => {
  test("logging/setLevel filters completion events: warning keeps failures (level warning) and drops successes (level notice)", async () => {
    const t = await startServer();
    try {
      await t.client.setLoggingLevel("warning");
      const ok = await background(t, "echo fine");
      const bad = await background(t, "echo broken; exit 127");
      await waitFor(() => eventsFor(t, bad.id).length > 0, 8000, "the failure event");
      await sleep(300);
      assert.deepEqual(eventsFor(t, ok.id), [], "a success (notice) is below warning");
      assert.equal(eventsFor(t, bad.id)[0].level, "warning");
      await t.client.setLoggingLevel("error");
      const bad2 = await background(t, "echo again; exit 127");
      const ok2 = await background(t, "echo fine2");
      await waitFinished(t, bad2.id);
      await waitFinished(t, ok2.id);
      await sleep(300);
      assert.deepEqual(eventsFor(t, bad2.id), [], "warning is below error");
      await t.client.setLoggingLevel("notice");
      const ok3 = await background(t, "echo visible");
      assert.equal(await eventText(t, ok3.id), `Exec completed (${ok3.id.slice(0, 8)}, code 0) :: visible`);
      assert.equal(eventsFor(t, ok3.id)[0].level, "notice");
    } finally {
      await t.close();
    }
  });
});

/** Waits until `list` shows the session finished. */
async function waitFinished(server, id) {
  await waitFor(async () => {
    const r = await server.call("process", { action: "list" });
    return r.details.sessions.find((e) => e.sessionId === id && e.status !== "running");
  }, 8000, `${id} to finish`);
}

describe("the id a notification shows", () => {
  test("process accepts the 8-character id of a completion notification (a unique prefix)", async () => {
    const t = await startServer();
    try {
      const b = await background(t, "sleep 0.2; echo by-prefix");
      const text = await eventText(t, b.id);
      const shown = /^Exec completed \(([^,]+), code 0\)/.exec(text)[1];
      assert.equal(shown, b.id.slice(0, 8));
      const log = await t.call("process", { action: "log", sessionId: shown });
      assert.equal(log.isError, false, log.text);
      assert.match(log.text, /by-prefix/);
      assert.equal(log.details.sessionId, b.id, "the result names the full id");
      const poll = await t.call("process", { action: "poll", sessionId: shown });
      assert.equal(poll.details.sessionId, b.id);
    } finally {
      await t.close();
    }
  });
});
