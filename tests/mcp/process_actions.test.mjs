// The process tool's bookkeeping actions (reference §2.1-§2.4, §2.6, §8.2 #38, #41, #42, #45,
// #49, #50): list (format, order, derived names), poll of running and finished sessions, log
// paging, kill, clear, remove, the failure texts for unknown sessions and missing ids, and the
// retention limit of 50 finished sessions.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { realpathSync } from "node:fs";
import {
  startServer,
  background,
  pollUntilExit,
  waitFor,
  waitGone,
  isAlive,
  rejection,
} from "./lib/harness.mjs";

let s;
before(async () => {
  s = await startServer();
});
after(async () => {
  await s.close();
});

/** Expects a failed process result with exactly `text` and details.status "failed". */
function expectFailed(r, text) {
  assert.equal(r.text, text);
  assert.equal(r.isError, true);
  assert.equal(r.details.status, "failed");
}

describe("list", () => {
  test("an empty registry lists No running or recent sessions.", async () => {
    const t = await startServer();
    try {
      const r = await t.call("process", { action: "list" });
      assert.equal(r.text, "No running or recent sessions.");
      assert.deepEqual(r.details, { status: "completed", sessions: [] });
      assert.equal(r.isError, false);
    } finally {
      await t.close();
    }
  });

  test("running and finished sessions are listed newest first with the reference line format", async () => {
    const t = await startServer();
    try {
      const done = await background(t, "echo finished-output");
      await pollUntilExit(t, done.id);
      const live = await background(t, "sleep 30");
      const r = await t.call("process", { action: "list" });
      const lines = r.text.split("\n");
      assert.equal(lines.length, 2);
      // A session listed in the millisecond it started has runtime 0, which the reference shows as n/a.
      assert.match(lines[0], new RegExp(`^${live.id} running   (\\d+ms|\\d+s|n/a) :: sleep 30$`));
      assert.match(lines[1], new RegExp(`^${done.id} completed (\\d+ms|\\d+s|n/a) :: echo finished-output$`));
      assert.equal(r.details.status, "completed");
      const [running, finished] = r.details.sessions;
      assert.equal(running.sessionId, live.id);
      assert.equal(running.status, "running");
      assert.equal(running.pid, live.pid);
      assert.equal(running.command, "sleep 30");
      assert.equal(running.name, "sleep 30");
      assert.equal(running.cwd, realpathSync(t.stateDir));
      assert.equal(running.stdinWritable, false);
      assert.equal(running.waitingForInput, false);
      assert.equal(running.truncated, false);
      assert.equal(typeof running.idleMs, "number");
      assert.equal(typeof running.lastOutputAt, "number");
      assert.equal(typeof running.runtimeMs, "number");
      assert.equal(running.tail, "");
      assert.equal("endedAt" in running, false);
      assert.equal(finished.sessionId, done.id);
      assert.equal(finished.status, "completed");
      assert.equal(finished.exitCode, 0);
      assert.equal(finished.tail, "finished-output\n");
      assert.equal(typeof finished.endedAt, "number");
      assert.equal(finished.runtimeMs, finished.endedAt - finished.startedAt);
      assert.equal("pid" in finished, false);
      assert.ok(running.startedAt >= finished.startedAt);
      await t.call("process", { action: "kill", sessionId: live.id });
    } finally {
      await t.close();
    }
  });

  test("session names are derived from the command (§2.6) and long labels are middle-truncated", async () => {
    const t = await startServer();
    try {
      const cases = [
        ["npm_fake run build", "npm_fake run"],
        ["ls -la", "ls -la"],
        ['echo "hello world" more', "echo hello world"],
        ["true -x -y", "true -x"],
        [
          "cat /a/very/long/path/that/goes/on/and/on/and/on/forever/file.txt",
          "cat /a/very/long/path/that...nd/on/forever/file.txt",
        ],
      ];
      for (const [command] of cases) {
        const b = await background(t, command);
        await pollUntilExit(t, b.id);
      }
      const long = await background(t, "v".repeat(100) + " target");
      await pollUntilExit(t, long.id);
      const r = await t.call("process", { action: "list" });
      const byCommand = new Map(r.details.sessions.map((e) => [e.command, e.name]));
      for (const [command, name] of cases) assert.equal(byCommand.get(command), name, command);
      assert.match(r.text, new RegExp(` :: ${"v".repeat(38)}\\.\\.\\.${"v".repeat(31)} target$`, "m"));
    } finally {
      await t.close();
    }
  });

  test("at most 50 finished sessions are retained, the oldest evicted first", async () => {
    const t = await startServer();
    try {
      // One after the other, so that finishing order is start order.
      const ids = [];
      for (let i = 0; i < 51; i++) {
        const b = await background(t, `exit ${i % 2}`);
        await pollUntilExit(t, b.id);
        ids.push(b.id);
      }
      const r = await t.call("process", { action: "list" });
      assert.equal(new Set(ids).size, 51, "session ids are unique");
      for (const id of ids) assert.match(id, /^[a-z]+-[a-z]+(-[a-z0-9]+)*$/);
      assert.equal(r.details.sessions.length, 50);
      const listed = new Set(r.details.sessions.map((e) => e.sessionId));
      assert.equal(listed.has(ids[0]), false, "the oldest finished session is evicted");
      assert.equal(listed.has(ids[50]), true);
      expectFailed(await t.call("process", { action: "poll", sessionId: ids[0] }), `No session found for ${ids[0]}`);
    } finally {
      await t.close();
    }
  });
});

describe("retention of finished output", () => {
  test("finished sessions beyond 2 000 000 retained chars are evicted oldest first", async () => {
    const t = await startServer();
    try {
      const ids = [];
      for (let i = 0; i < 11; i++) {
        const b = await background(t, "head -c 200000 /dev/zero | tr '\\0' x");
        await pollUntilExit(t, b.id);
        ids.push(b.id);
      }
      const r = await t.call("process", { action: "list" });
      const listed = r.details.sessions.map((e) => e.sessionId);
      assert.equal(listed.length, 10);
      assert.equal(listed.includes(ids[0]), false, "the oldest is evicted");
      assert.equal(listed.includes(ids[10]), true);
    } finally {
      await t.close();
    }
  });
});

describe("poll", { concurrency: 4 }, () => {
  test("a running session returns its new output, Process still running. and the running details", async () => {
    const b = await background(s, "echo first-line; sleep 30");
    await waitFor(async () => (await s.call("process", { action: "list" })).details.sessions.find((e) => e.sessionId === b.id)?.tail);
    const r = await s.call("process", { action: "poll", sessionId: b.id });
    assert.equal(r.text, "first-line\n\nProcess still running.");
    assert.equal(r.isError, false);
    assert.equal(r.details.status, "running");
    assert.equal(r.details.sessionId, b.id);
    assert.equal(r.details.aggregated, "first-line\n");
    assert.equal(r.details.name, "echo first-line", "the first command, without its separator");
    assert.equal(r.details.stdinWritable, false);
    assert.equal(r.details.waitingForInput, false);
    assert.equal(typeof r.details.idleMs, "number");
    assert.equal(typeof r.details.lastOutputAt, "number");
    assert.equal(r.details.retryInMs, 5000);
    const again = await s.call("process", { action: "poll", sessionId: b.id });
    assert.equal(again.text, "(no new output)\n\nProcess still running.", "output is drained by the first poll");
    assert.equal(again.details.aggregated, "first-line\n", "the aggregate is kept");
    await s.call("process", { action: "kill", sessionId: b.id });
  });

  test("a finished session polls as completed with its unread output and the exit line", async () => {
    const b = await background(s, "echo out-a; echo out-b >&2; exit 3");
    const r = await pollUntilExit(s, b.id);
    const all = [...r.earlier.map((t) => t.replace(/\n\nProcess still running\.$/, "")), r.text].join("\n");
    assert.match(all, /out-a\nout-b/);
    assert.match(r.text, /\n\nProcess exited with code 3\.$/);
    assert.equal(r.isError, false, "a non-zero exit is still completed");
    assert.equal(r.details.status, "completed");
    assert.equal(r.details.exitCode, 3);
    assert.equal(r.details.exitReason, "exit");
    assert.equal(r.details.sessionId, b.id);
    assert.equal(r.details.aggregated, "out-a\nout-b\n");
    assert.equal("retryInMs" in r.details, false);
    const again = await s.call("process", { action: "poll", sessionId: b.id });
    assert.equal(again.text, "(no new output)\n\nProcess exited with code 3.");
  });

  test("a background command that is not found polls as failed with code 127", async () => {
    const b = await background(s, "sleep 0.2; definitely_not_a_cmd_xyz 2>/dev/null");
    const r = await pollUntilExit(s, b.id);
    assert.equal(r.text, "(no new output)\n\nProcess exited with code 127.");
    assert.equal(r.details.status, "failed");
    assert.equal(r.isError, true);
  });

  test("a background signal death polls as failed with the signal name", async () => {
    const b = await background(s, "sleep 0.2; kill -SEGV $$");
    const r = await pollUntilExit(s, b.id);
    assert.equal(r.text, "(no new output)\n\nProcess exited with signal SIGSEGV.");
    assert.equal(r.details.status, "failed");
    assert.equal(r.details.exitSignal, "SIGSEGV");
    assert.equal(r.isError, true);
  });

  test("polling an unknown session fails with No session found for <id>", async () => {
    expectFailed(await s.call("process", { action: "poll", sessionId: "nope-nope" }), "No session found for nope-nope");
  });
});

describe("log", { concurrency: 4 }, () => {
  test("limit alone returns the last lines and offset/limit page by line (§8.2 #41)", async () => {
    const b = await background(s, "echo one; echo two; echo three");
    await pollUntilExit(s, b.id);
    const r = await s.call("process", { action: "log", sessionId: b.id, limit: 2 });
    assert.equal(r.text, "two\nthree");
    assert.equal(r.details.totalLines, 3);
    assert.equal(r.details.totalChars, "one\ntwo\nthree\n".length);
    assert.equal(r.details.status, "completed");
    assert.equal(r.details.truncated, false);
    const c = await background(s, "echo alpha; echo beta; echo gamma");
    await pollUntilExit(s, c.id);
    const mid = await s.call("process", { action: "log", sessionId: c.id, offset: 1, limit: 1 });
    assert.equal(mid.text, "beta");
    const fromOne = await s.call("process", { action: "log", sessionId: c.id, offset: 1 });
    assert.equal(fromOne.text, "beta\ngamma");
    const negative = await s.call("process", { action: "log", sessionId: c.id, offset: -5, limit: 1 });
    assert.equal(negative.text, "alpha");
  });

  test("without a window the log shows the last 200 lines with the paging note (§8.2 #42)", async () => {
    const b = await background(s, "for i in $(seq 1 201); do echo line-$i; done");
    await pollUntilExit(s, b.id);
    const r = await s.call("process", { action: "log", sessionId: b.id });
    const [body, note] = r.text.split("\n\n");
    const lines = body.split("\n");
    assert.equal(lines[0], "line-2");
    assert.equal(lines.at(-1), "line-201");
    assert.equal(lines.length, 200);
    assert.equal(note, "[showing last 200 of 201 lines; pass offset/limit to page]");
    assert.equal(r.details.totalLines, 201);
    const paged = await s.call("process", { action: "log", sessionId: b.id, offset: 30 });
    const pagedLines = paged.text.split("\n");
    assert.equal(pagedLines[0], "line-31");
    assert.equal(pagedLines.at(-1), "line-201");
    assert.doesNotMatch(paged.text, /showing last/);
  });

  test("log splits CRLF lines and does not drain what a later poll returns", async () => {
    const b = await background(s, "printf 'a\\r\\nb\\r\\n'; sleep 30");
    await waitFor(async () => (await s.call("process", { action: "log", sessionId: b.id })).details.totalLines === 2);
    const r = await s.call("process", { action: "log", sessionId: b.id });
    assert.equal(r.text, "a\nb");
    assert.equal(r.details.status, "running");
    assert.equal(r.details.totalChars, 6);
    const p = await s.call("process", { action: "poll", sessionId: b.id });
    assert.equal(p.text, "a\r\nb\n\nProcess still running.");
    await s.call("process", { action: "kill", sessionId: b.id });
  });

  test("log of a session without output says (no output yet) while running and (no output recorded) after", async () => {
    const b = await background(s, "sleep 0.6");
    const running = await s.call("process", { action: "log", sessionId: b.id });
    assert.equal(running.text, "(no output yet)");
    assert.equal(running.details.status, "running");
    await pollUntilExit(s, b.id);
    const finished = await s.call("process", { action: "log", sessionId: b.id });
    assert.equal(finished.text, "(no output recorded)");
  });

  test("log of an unknown session fails with No session found for <id>", async () => {
    expectFailed(await s.call("process", { action: "log", sessionId: "nope-nope" }), "No session found for nope-nope");
  });
});

describe("kill, clear and remove", { concurrency: 4 }, () => {
  test("kill requests termination and a later poll reports SIGTERM and manual-cancel (§8.2 #49)", async () => {
    const b = await background(s, "sleep 30");
    const k = await s.call("process", { action: "kill", sessionId: b.id });
    assert.equal(k.text, `Termination requested for session ${b.id}.`);
    assert.equal(k.details.status, "completed");
    assert.equal(k.details.name, "sleep 30");
    assert.equal(k.isError, false);
    const p = await pollUntilExit(s, b.id, 8000);
    assert.equal(p.details.status, "failed");
    assert.equal(p.isError, true);
    assert.equal(p.details.exitReason, "manual-cancel");
    assert.equal(p.details.exitSignal, "SIGTERM");
    assert.ok(p.text.endsWith("Process exited with signal SIGTERM."), p.text);
    assert.equal(await isAlive(b.pid), false);
  });

  test("kill escalates to SIGKILL about 5 s later when the command ignores SIGTERM", async () => {
    const b = await background(s, "trap '' TERM; echo armed; while :; do sleep 0.05; done");
    await waitFor(async () => (await s.call("process", { action: "log", sessionId: b.id })).text === "armed");
    const t0 = Date.now();
    await s.call("process", { action: "kill", sessionId: b.id });
    const mid = await s.call("process", { action: "poll", sessionId: b.id, timeout: 1000 });
    assert.equal(mid.details.status, "running", "SIGTERM alone does not end it");
    const p = await pollUntilExit(s, b.id, 10000);
    const elapsed = Date.now() - t0;
    assert.ok(elapsed >= 4500 && elapsed < 9000, `ended ${elapsed} ms after kill`);
    assert.equal(p.details.exitSignal, "SIGKILL");
    assert.equal(p.details.exitReason, "manual-cancel");
    assert.ok(p.text.endsWith("Process exited with signal SIGKILL."), p.text);
  });

  test("kill of a finished or unknown session fails with No active session found for <id>", async () => {
    const b = await background(s, "true");
    await pollUntilExit(s, b.id);
    expectFailed(await s.call("process", { action: "kill", sessionId: b.id }), `No active session found for ${b.id}`);
    expectFailed(await s.call("process", { action: "kill", sessionId: "nope-nope" }), "No active session found for nope-nope");
  });

  test("clear refuses a running session and deletes a finished one (§8.2 #50)", async () => {
    const b = await background(s, "sleep 30");
    expectFailed(await s.call("process", { action: "clear", sessionId: b.id }), `No finished session found for ${b.id}`);
    await s.call("process", { action: "kill", sessionId: b.id });
    await pollUntilExit(s, b.id, 8000);
    const c = await s.call("process", { action: "clear", sessionId: b.id });
    assert.equal(c.text, `Cleared session ${b.id}.`);
    assert.deepEqual(c.details, { status: "completed" });
    expectFailed(await s.call("process", { action: "poll", sessionId: b.id }), `No session found for ${b.id}`);
    expectFailed(await s.call("process", { action: "clear", sessionId: b.id }), `No finished session found for ${b.id}`);
  });

  test("remove deletes a finished session (§8.2 #50)", async () => {
    const b = await background(s, "echo x");
    await pollUntilExit(s, b.id);
    const r = await s.call("process", { action: "remove", sessionId: b.id });
    assert.equal(r.text, `Removed session ${b.id}.`);
    assert.equal(r.details.status, "completed");
    expectFailed(await s.call("process", { action: "log", sessionId: b.id }), `No session found for ${b.id}`);
  });

  test("remove of a running session terminates it and hides it at once", async () => {
    const b = await background(s, "sleep 30");
    const r = await s.call("process", { action: "remove", sessionId: b.id });
    assert.equal(r.text, `Removed session ${b.id} (termination requested).`);
    assert.equal(r.details.status, "completed");
    assert.equal(r.details.name, "sleep 30");
    const list = await s.call("process", { action: "list" });
    assert.equal(list.details.sessions.some((e) => e.sessionId === b.id), false);
    expectFailed(await s.call("process", { action: "poll", sessionId: b.id }), `No session found for ${b.id}`);
    await waitGone([b.pid]);
  });

  test("remove of an unknown session fails with No session found for <id>", async () => {
    expectFailed(await s.call("process", { action: "remove", sessionId: "nope-nope" }), "No session found for nope-nope");
  });
});

describe("argument failures (§8.2 #45)", { concurrency: 4 }, () => {
  test("an unknown action is an isError result with the tool's own text", async () => {
    const r = await s.call("process", { action: "frobnicate" });
    assert.equal(r.isError, true);
    assert.equal(
      r.text,
      "Invalid process action. Expected one of: list, poll, log, write, send-keys, submit, paste, kill, clear, remove",
    );
  });

  test("a negative poll timeout is an isError result with the reference validation text", async () => {
    const r = await s.call("process", { action: "poll", sessionId: "x", timeout: -1 });
    assert.equal(r.isError, true);
    assert.match(r.text, /^Validation failed for tool "process":\n {2}- timeout: must be >= 0\n/);
  });

  test("every action except list fails without a sessionId", async () => {
    for (const action of ["poll", "log", "write", "send-keys", "submit", "paste", "kill", "clear", "remove"]) {
      const r = await s.call("process", { action });
      assert.equal(r.text, "sessionId is required for this action.", action);
      assert.equal(r.details.status, "failed", action);
      assert.equal(r.isError, true, action);
    }
  });
});
