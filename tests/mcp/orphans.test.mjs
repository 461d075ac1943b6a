// No process of a command's tree outlives its run or the server (issue: "No command outlives the
// server, descendants that called setsid included"): after process kill/remove, after a
// timeout, after a foreground command that left jobs behind, after client disconnect (EOF),
// SIGTERM and SIGKILL of the server. The pids come from the commands' own output.
import { describe, test, after, before } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import {
  startServer,
  scratchDir,
  startBackgroundWithPids,
  waitFor,
  waitGone,
  expectAlive,
  isAlive,
  pidsIn,
} from "./lib/harness.mjs";

/**
 * Prints the pids of: a setsid descendant, a nohup'd job, a double-forked orphan, a setsid
 * descendant that ignores SIGTERM, and the shell itself; then waits. Five pids in that order.
 */
const TREE =
  "setsid sleep 300 >/dev/null 2>&1 & echo $!; " +
  "nohup sleep 300 >/dev/null 2>&1 & echo $!; " +
  "sh -c 'sleep 300 >/dev/null 2>&1 & echo $!'; " +
  "setsid sh -c 'trap \"\" TERM; exec sleep 300' >/dev/null 2>&1 & echo $!; " +
  "echo $$; sleep 300";
const TREE_PIDS = 5;

let scratch;
before(() => {
  scratch = scratchDir();
});
after(() => scratch.cleanup());

async function pidsFromFile(file, count) {
  return waitFor(() => {
    if (!existsSync(file)) return null;
    const pids = pidsIn(readFileSync(file, "utf8"));
    return pids.length >= count ? pids : null;
  }, 5000, `${count} pids in ${file}`);
}

describe("ending a run", { concurrency: 4 }, () => {
  test("process kill stops the whole tree, setsid and nohup descendants included", async () => {
    const s = await startServer();
    try {
      const { sessionId, pids } = await startBackgroundWithPids(s, TREE, TREE_PIDS);
      await expectAlive(pids);
      await s.call("process", { action: "kill", sessionId });
      await waitGone(pids, 6000, "the killed session's processes");
    } finally {
      await s.close();
    }
  });

  test("process kill of a PTY session stops the whole tree", async () => {
    const s = await startServer();
    try {
      const { sessionId, pids } = await startBackgroundWithPids(s, TREE, TREE_PIDS, { pty: true });
      await expectAlive(pids);
      await s.call("process", { action: "kill", sessionId });
      await waitGone(pids, 6000, "the killed PTY session's processes");
    } finally {
      await s.close();
    }
  });

  test("process remove of a running session stops the whole tree", async () => {
    const s = await startServer();
    try {
      const { sessionId, pids } = await startBackgroundWithPids(s, TREE, TREE_PIDS);
      await s.call("process", { action: "remove", sessionId });
      await waitGone(pids, 6000, "the removed session's processes");
    } finally {
      await s.close();
    }
  });

  test("a foreground timeout stops the whole tree", async () => {
    const s = await startServer();
    try {
      const file = join(scratch.dir, "timeout-tree");
      const r = await s.call("exec", { command: `(${TREE}) > ${file}`, timeoutSeconds: 1 });
      assert.equal(r.details.failureKind, "overall-timeout");
      const pids = await pidsFromFile(file, TREE_PIDS);
      await waitGone(pids, 6000, "the timed-out command's processes");
    } finally {
      await s.close();
    }
  });

  test("a background timeout stops the whole tree", async () => {
    const s = await startServer();
    try {
      const { sessionId, pids } = await startBackgroundWithPids(s, TREE, TREE_PIDS, { timeoutSeconds: 1.5 });
      await waitGone(pids, 7000, "the timed-out session's processes");
      const p = await s.call("process", { action: "poll", sessionId });
      assert.equal(p.details.timedOut, true);
    } finally {
      await s.close();
    }
  });

  test("jobs a finished foreground command left behind are stopped", async () => {
    const s = await startServer();
    try {
      const t0 = Date.now();
      const r = await s.call("exec", {
        command:
          "setsid sleep 300 >/dev/null 2>&1 & echo $!; nohup sleep 300 >/dev/null 2>&1 & echo $!; " +
          "sleep 300 >/dev/null 2>&1 & echo $!; sh -c 'sleep 300 >/dev/null 2>&1 & echo $!'; " +
          "setsid sh -c 'trap \"\" TERM; exec sleep 300' >/dev/null 2>&1 & echo $!",
      });
      assert.equal(r.details.status, "completed");
      assert.ok(Date.now() - t0 < 5000, "the result does not wait for the leftovers");
      const pids = pidsIn(r.text);
      assert.equal(pids.length, 5);
      await waitGone(pids, 6000, "the leftover jobs");
    } finally {
      await s.close();
    }
  });
});

describe("ending the server", { concurrency: 3 }, () => {
  /** Starts a background tree, a PTY tree and a foreground tree; returns all their pids. */
  async function populate(s, tag) {
    const bg = await startBackgroundWithPids(s, TREE, TREE_PIDS);
    const pty = await startBackgroundWithPids(s, TREE, TREE_PIDS, { pty: true });
    const file = join(scratch.dir, `fg-${tag}`);
    const fg = s.call("exec", { command: `(${TREE}) > ${file}` }).catch(() => null);
    const fgPids = await pidsFromFile(file, TREE_PIDS);
    const pids = [...bg.pids, ...pty.pids, ...fgPids];
    await expectAlive(pids);
    return { pids, fg };
  }

  test("client disconnect (EOF on stdin) stops every command and the server exits", async () => {
    const s = await startServer();
    try {
      const { pids } = await populate(s, "eof");
      // A poll waiting 30 s must not hold the server up.
      const waiting = await s.call("exec", { command: "sleep 300", background: true });
      s.call("process", { action: "poll", sessionId: waiting.details.sessionId, timeout: 30000 }).catch(() => null);
      pids.push(waiting.details.pid);
      s.child.stdin.end();
      await waitGone(pids, 6000, "commands after EOF");
      await waitFor(async () => !(await isAlive(s.pid)), 6000, "the server to exit after EOF");
    } finally {
      await s.close();
    }
  });

  test("SIGTERM to the server stops every command and the server exits", async () => {
    const s = await startServer();
    try {
      const { pids } = await populate(s, "term");
      process.kill(s.pid, "SIGTERM");
      await waitGone(pids, 6000, "commands after SIGTERM");
      await waitFor(async () => !(await isAlive(s.pid)), 6000, "the server to exit after SIGTERM");
    } finally {
      await s.close();
    }
  });

  test("SIGKILL of the server still stops every command", async () => {
    const s = await startServer();
    try {
      const { pids } = await populate(s, "kill");
      process.kill(s.pid, "SIGKILL");
      await waitGone(pids, 6000, "commands after SIGKILL of the server");
    } finally {
      await s.close();
    }
  });
});
