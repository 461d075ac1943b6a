// exec result kinds over MCP (reference §1.5): completed (exit 0, exit N, no output), failed
// (127, 126, overall timeout, signal death), workdir unavailable, symlinked workdir, running
// (background and yield) and the retention-cap note.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, realpathSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import {
  startServer,
  scratchDir,
  isAlive,
  RETRY_GUIDANCE,
  CONTINUATION_HINT,
  runningText,
} from "./lib/harness.mjs";

const WORKDIR_TAIL =
  " is unavailable or not a directory: command was not executed. workdir is treated as a literal path; shell " +
  'expansions such as "~" are not applied. Use an existing directory, omit an explicit workdir to use the ' +
  "default cwd, or update the configured default cwd.";

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

describe("completed results", { concurrency: 4 }, () => {
  test("exit 0 completes with the trimmed output as text and the reference details", async () => {
    const r = await s.call("exec", { command: "printf '\\n  hello\\n world  \\n\\n'" });
    assert.equal(r.text, "hello\n world");
    assert.equal(r.isError, false);
    assert.equal(r.details.status, "completed");
    assert.equal(r.details.exitCode, 0);
    assert.equal(r.details.exitSignal, null);
    assert.equal(r.details.exitReason, "exit");
    assert.equal(r.details.aggregated, "hello\n world");
    assert.equal(r.details.noOutputTimedOut, false);
    assert.equal(typeof r.details.durationMs, "number");
    assert.ok(r.details.durationMs >= 0);
    assert.equal(r.details.cwd, realpathSync(s.stateDir));
    assert.equal("failureKind" in r.details, false);
    assert.equal(r.raw.content.length, 1);
    assert.equal(r.raw.content[0].type, "text");
  });

  test("a non-zero exit is still completed and carries the (Command exited with code N) suffix", async () => {
    const r = await s.call("exec", { command: "echo nope; exit 1" });
    assert.equal(r.text, "nope\n\n(Command exited with code 1)");
    assert.equal(r.details.status, "completed");
    assert.equal(r.details.exitCode, 1);
    assert.equal(r.details.aggregated, "nope\n\n(Command exited with code 1)");
    assert.equal(r.isError, false);
  });

  test("a silent non-zero exit reports (no output) followed by the exit-code suffix", async () => {
    const r = await s.call("exec", { command: "exit 3" });
    assert.equal(r.text, "(no output)\n\n(Command exited with code 3)");
    assert.equal(r.details.status, "completed");
    assert.equal(r.details.exitCode, 3);
    assert.equal(r.isError, false);
  });

  test("a command without output completes with the text (no output) and an empty aggregate", async () => {
    const r = await s.call("exec", { command: "true" });
    assert.equal(r.text, "(no output)");
    assert.equal(r.details.aggregated, "");
    assert.equal(r.details.exitCode, 0);
    assert.equal(r.isError, false);
  });

  test("a non-PTY command's stdin is closed: read sees end of input at once", async () => {
    const t0 = Date.now();
    const r = await s.call("exec", { command: "read -r line; echo \"read-rc=$?\"; cat; echo after-cat" });
    assert.equal(r.text, "read-rc=1\nafter-cat");
    assert.ok(Date.now() - t0 < 3000);
  });

  test("a command that is not found somewhere in a list does not make the run fail", async () => {
    const r = await s.call("exec", { command: "definitely_not_a_cmd_xyz 2>/dev/null; echo after" });
    assert.equal(r.text, "after");
    assert.equal(r.details.status, "completed");
  });
});

describe("failed results", { concurrency: 4 }, () => {
  test("exit 127 (command not found) fails with failureKind shell-command-not-found", async () => {
    const r = await s.call("exec", { command: "definitely_not_a_cmd_xyz" });
    assert.equal(r.isError, true);
    assert.equal(r.details.status, "failed");
    assert.equal(r.details.exitCode, 127);
    assert.equal(r.details.failureKind, "shell-command-not-found");
    assert.equal(r.details.exitReason, "exit");
    assert.equal(r.details.timedOut, false);
    assert.match(r.text, /^[^\n]*definitely_not_a_cmd_xyz[^\n]*not found\n\nCommand not found$/);
    assert.match(r.details.aggregated, /definitely_not_a_cmd_xyz/);
  });

  test("exit 126 fails with failureKind shell-not-executable and the permission text", async () => {
    const r = await s.call("exec", { command: "exit 126" });
    assert.equal(r.isError, true);
    assert.equal(r.text, "Command not executable (permission denied)");
    assert.equal(r.details.status, "failed");
    assert.equal(r.details.exitCode, 126);
    assert.equal(r.details.failureKind, "shell-not-executable");
  });

  test("running a file without the execute bit fails as shell-not-executable with the shell's message", async () => {
    const file = join(scratch.dir, "not-executable.sh");
    writeFileSync(file, "#!/bin/sh\necho should-not-run\n");
    chmodSync(file, 0o644);
    const r = await s.call("exec", { command: file });
    assert.equal(r.details.failureKind, "shell-not-executable");
    assert.equal(r.details.exitCode, 126);
    assert.match(r.text, /Permission denied\n\nCommand not executable \(permission denied\)$/);
    assert.doesNotMatch(r.text, /should-not-run/);
  });

  test("an overall timeout fails with the timeout text, timedOut and the SIGTERM signal", async () => {
    const t0 = Date.now();
    const r = await s.call("exec", { command: "sleep 5", timeoutSeconds: 1 });
    const elapsed = Date.now() - t0;
    assert.equal(
      r.text,
      `Command timed out after 1 seconds.\n\n${RETRY_GUIDANCE}\n\n${CONTINUATION_HINT}`,
    );
    assert.equal(r.isError, true);
    assert.equal(r.details.status, "failed");
    assert.equal(r.details.failureKind, "overall-timeout");
    assert.equal(r.details.exitReason, "overall-timeout");
    assert.equal(r.details.timedOut, true);
    assert.equal(r.details.exitCode, null);
    assert.equal(r.details.exitSignal, "SIGTERM");
    assert.ok(elapsed >= 900 && elapsed < 4000, `timed out after ${elapsed} ms`);
    assert.ok(r.details.durationMs >= 900 && r.details.durationMs < 4000);
  });

  test("a timed-out command's earlier output precedes the timeout text; fractional seconds are kept", async () => {
    const r = await s.call("exec", { command: "echo started; sleep 5", timeoutSeconds: 0.5 });
    assert.ok(
      r.text.startsWith("started\n\nCommand timed out after 0.5 seconds.\n\n" + RETRY_GUIDANCE),
      r.text,
    );
    assert.equal(r.details.aggregated, "started");
    assert.equal(r.details.timedOut, true);
  });

  test("a command that ignores SIGTERM is killed with SIGKILL about 5 s after the timeout", async () => {
    const t0 = Date.now();
    const r = await s.call("exec", {
      command: "trap '' TERM; echo armed; while :; do sleep 0.05; done",
      timeoutSeconds: 0.5,
    });
    const elapsed = Date.now() - t0;
    assert.equal(r.details.failureKind, "overall-timeout");
    assert.equal(r.details.exitSignal, "SIGKILL");
    assert.ok(r.text.startsWith("armed\n\nCommand timed out after 0.5 seconds."), r.text);
    assert.ok(elapsed >= 5000 && elapsed < 9000, `SIGKILL came after ${elapsed} ms`);
  });

  test("death by a signal fails with failureKind signal and the signal name", async () => {
    const r = await s.call("exec", { command: "kill -SEGV $$" });
    assert.equal(r.text, "Command aborted by signal SIGSEGV");
    assert.equal(r.isError, true);
    assert.equal(r.details.status, "failed");
    assert.equal(r.details.failureKind, "signal");
    assert.equal(r.details.exitReason, "signal");
    assert.equal(r.details.exitSignal, "SIGSEGV");
    assert.equal(r.details.exitCode, null);
    assert.equal(r.details.timedOut, false);
  });

  test("output printed before a signal death precedes the abort text", async () => {
    const r = await s.call("exec", { command: "echo before; kill -TERM $$" });
    assert.equal(r.text, "before\n\nCommand aborted by signal SIGTERM");
    assert.equal(r.details.exitSignal, "SIGTERM");
    assert.equal(r.details.failureKind, "signal");
  });
});

describe("working directory", { concurrency: 4 }, () => {
  async function expectUnavailable(workdir) {
    const marker = join(scratch.dir, `ran-${Math.random().toString(36).slice(2)}`);
    const r = await s.call("exec", { command: `touch ${marker}; echo ran`, workdir });
    assert.equal(r.text, `workdir "${workdir}"${WORKDIR_TAIL}`);
    assert.equal(r.isError, true);
    assert.equal(r.details.status, "failed");
    assert.equal(r.details.failureKind, "runtime-error");
    assert.equal(r.details.exitCode, null);
    assert.equal(existsSync(marker), false, "the command must not run");
  }

  test("a whitespace-only workdir is unavailable and the command is not executed", async () => {
    await expectUnavailable("   ");
  });

  test("a missing workdir is unavailable and the command is not executed", async () => {
    await expectUnavailable(join(scratch.dir, "does", "not", "exist"));
  });

  test("a workdir that is a regular file is unavailable and the command is not executed", async () => {
    const file = join(scratch.dir, "plain-file");
    writeFileSync(file, "x");
    await expectUnavailable(file);
  });

  test("a workdir containing a NUL byte is unavailable (not cut at the NUL)", async () => {
    await expectUnavailable(`${scratch.dir}\u0000/nonexistent`);
  });

  test("a workdir is not tilde-expanded", async () => {
    await expectUnavailable("~/definitely-not-here-xyz");
  });

  test("a symlinked workdir runs in the canonical target directory", async () => {
    const target = join(scratch.dir, "real-target");
    mkdirSync(target);
    const link = join(scratch.dir, "link-to-target");
    symlinkSync(target, link);
    const r = await s.call("exec", { command: "/bin/pwd -P; pwd", workdir: link });
    const canonical = realpathSync(target);
    assert.equal(r.details.cwd, canonical);
    assert.equal(r.text, `${canonical}\n${canonical}`);
  });

  test("an empty workdir uses the server's default cwd", async () => {
    const r = await s.call("exec", { command: "/bin/pwd -P", workdir: "" });
    assert.equal(r.text, realpathSync(s.stateDir));
    assert.equal(r.details.cwd, realpathSync(s.stateDir));
  });

  test("a relative workdir resolves against the server's working directory", async () => {
    const base = join(scratch.dir, "server-cwd");
    mkdirSync(join(base, "sub"), { recursive: true });
    const t = await startServer({ cwd: base });
    try {
      const plain = await t.call("exec", { command: "/bin/pwd -P" });
      assert.equal(plain.text, realpathSync(base));
      const r = await t.call("exec", { command: "/bin/pwd -P", workdir: "./sub/../sub" });
      assert.equal(r.text, realpathSync(join(base, "sub")));
      assert.equal(r.details.cwd, realpathSync(join(base, "sub")));
    } finally {
      await t.close();
    }
  });

  test("surrounding whitespace around a workdir is trimmed", async () => {
    const dir = join(scratch.dir, "trimmed");
    mkdirSync(dir);
    const r = await s.call("exec", { command: "/bin/pwd -P", workdir: `  ${dir}  ` });
    assert.equal(r.text, realpathSync(dir));
  });
});

describe("running results", { concurrency: 4 }, () => {
  test("background:true returns a running result at once with session id, pid and an empty tail", async () => {
    const t0 = Date.now();
    const r = await s.call("exec", { command: "sleep 30", background: true });
    assert.ok(Date.now() - t0 < 1500);
    assert.equal(r.isError, false);
    assert.equal(r.details.status, "running");
    assert.match(r.details.sessionId, /^[a-z]+-[a-z]+(-[a-z0-9]+)*$/);
    assert.equal(typeof r.details.pid, "number");
    assert.equal(await isAlive(r.details.pid), true);
    assert.equal(r.text, runningText(r.details.sessionId, r.details.pid));
    assert.ok(Math.abs(r.details.startedAt - Date.now()) < 5000, "startedAt is epoch ms");
    assert.equal(r.details.cwd, realpathSync(s.stateDir));
    assert.equal(r.details.tail, "");
    await s.call("process", { action: "kill", sessionId: r.details.sessionId });
  });

  test("a small yieldMs backgrounds a long command and the tail holds its output so far", async () => {
    const t0 = Date.now();
    const r = await s.call("exec", { command: "echo early; sleep 30", yieldMs: 400 });
    const elapsed = Date.now() - t0;
    assert.equal(r.details.status, "running");
    assert.ok(elapsed >= 350 && elapsed < 3000, `yielded after ${elapsed} ms`);
    assert.equal(r.details.tail, "early\n");
    assert.equal(r.text, runningText(r.details.sessionId, r.details.pid));
    const p = await s.call("process", { action: "poll", sessionId: r.details.sessionId });
    assert.equal(p.text, "early\n\nProcess still running.", "output from before the yield is still unread");
    await s.call("process", { action: "kill", sessionId: r.details.sessionId });
  });

  test("the tail of a yielded run is the last 2000 chars of its output", async () => {
    const r = await s.call("exec", {
      command: "head -c 1000 /dev/zero | tr '\\0' a; head -c 2000 /dev/zero | tr '\\0' b; sleep 30",
      yieldMs: 500,
    });
    assert.equal(r.details.status, "running");
    assert.equal(r.details.tail, "b".repeat(2000));
    await s.call("process", { action: "kill", sessionId: r.details.sessionId });
  });

  test("yieldMs 0 is clamped to a short yield window instead of waiting for the command", async () => {
    const t0 = Date.now();
    const r = await s.call("exec", { command: "sleep 5", yieldMs: 0 });
    assert.equal(r.details.status, "running");
    assert.ok(Date.now() - t0 < 1500);
    await s.call("process", { action: "kill", sessionId: r.details.sessionId });
  });

  test("a command that finishes inside the yield window returns the foreground result", async () => {
    const r = await s.call("exec", { command: "sleep 0.2; echo quick", yieldMs: 5000 });
    assert.equal(r.details.status, "completed");
    assert.equal(r.text, "quick");
  });
});

describe("retention cap", () => {
  test("more than 200 000 chars of output keeps the last 200 000 and prepends the retention note", async () => {
    const r = await s.call("exec", {
      command: "head -c 150000 /dev/zero | tr '\\0' a; head -c 100000 /dev/zero | tr '\\0' b",
    });
    const note = "[earlier output was discarded at the retention cap and cannot be recovered]\n\n";
    assert.ok(r.text.startsWith(note), r.text.slice(0, 120));
    const body = r.text.slice(note.length);
    assert.equal(body.length, 200000);
    assert.equal(body, "a".repeat(100000) + "b".repeat(100000));
    assert.equal(r.details.aggregated.length, 200000);
    assert.equal(r.details.status, "completed");
  });

  test("exactly 200 000 chars of output carries no retention note", async () => {
    const r = await s.call("exec", { command: "head -c 200000 /dev/zero | tr '\\0' c" });
    assert.equal(r.text, "c".repeat(200000));
  });
});
