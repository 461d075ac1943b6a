// `clawexec exec`: one command through the same pipeline, printed as text (or the details as
// JSON with --json), exiting with the command's code; --workdir, --timeout (124), --pty, and
// argument words after `--` keeping their quoting. Runs without a process tool, so timeouts carry
// no continuation hint.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { CLAWEXEC, scratchDir, serverEnv, waitFor, waitGone, pidsIn, RETRY_GUIDANCE } from "./lib/harness.mjs";

let scratch;
let state;
before(() => {
  scratch = scratchDir();
  state = scratchDir("clawexec-state-");
});
after(() => {
  scratch.cleanup();
  state.cleanup();
});

/** Runs `clawexec exec ...args`; resolves { code, signal, stdout, stderr, ms }. */
function cli(args, options = {}) {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const child = spawn(CLAWEXEC, ["exec", ...args], {
      env: serverEnv(state.dir, options.env ?? {}),
      cwd: options.cwd ?? scratch.dir,
      stdio: ["ignore", "pipe", "pipe"],
    });
    options.onSpawn?.(child);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 20000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - t0 });
    });
  });
}

describe("clawexec exec", { concurrency: 4 }, () => {
  test("prints the result text and exits 0", async () => {
    const r = await cli(["--", "echo hello"]);
    assert.equal(r.stdout, "hello\n");
    assert.equal(r.code, 0);
  });

  test("exits with the command's exit code and prints the exit-code suffix", async () => {
    const r = await cli(["--", "echo nope; exit 3"]);
    assert.equal(r.stdout, "nope\n\n(Command exited with code 3)\n");
    assert.equal(r.code, 3);
  });

  test("a command that is not found exits 127 with the failure text", async () => {
    const r = await cli(["--", "definitely_not_a_cmd_xyz"]);
    assert.equal(r.code, 127);
    assert.match(r.stdout, /definitely_not_a_cmd_xyz.*not found\n\nCommand not found\n$/);
  });

  test("a command killed by a signal exits 128 + the signal number", async () => {
    const r = await cli(["--", "kill -SEGV $$"]);
    assert.equal(r.stdout, "Command aborted by signal SIGSEGV\n");
    assert.equal(r.code, 139);
  });

  test("--json prints the details object", async () => {
    const r = await cli(["--json", "--", "echo hi; exit 2"]);
    const d = JSON.parse(r.stdout);
    assert.equal(d.status, "completed");
    assert.equal(d.exitCode, 2);
    assert.equal(d.exitReason, "exit");
    assert.equal(d.aggregated, "hi\n\n(Command exited with code 2)");
    assert.equal(d.cwd, realpathSync(scratch.dir));
    assert.equal(r.code, 2);
  });

  test("--workdir runs in that (canonical) directory; a missing one is refused", async () => {
    const dir = join(scratch.dir, "wd");
    mkdirSync(dir);
    symlinkSync(dir, join(scratch.dir, "wd-link"));
    const r = await cli(["--workdir", join(scratch.dir, "wd-link"), "--", "/bin/pwd -P"]);
    assert.equal(r.stdout, realpathSync(dir) + "\n");
    const missing = join(scratch.dir, "missing");
    const m = await cli(["--workdir", missing, "--", "echo should-not-run"]);
    assert.notEqual(m.code, 0);
    assert.match(m.stdout + m.stderr, new RegExp(`workdir "${missing}" is unavailable or not a directory: command was not executed\\.`));
    assert.doesNotMatch(m.stdout, /should-not-run/);
  });

  test("--timeout ends the command, prints the timeout text and exits 124", async () => {
    const r = await cli(["--timeout", "1", "--", "echo begun; sleep 10"]);
    assert.equal(r.code, 124);
    assert.equal(r.stdout, `begun\n\nCommand timed out after 1 seconds.\n\n${RETRY_GUIDANCE}\n`);
    assert.ok(r.ms < 5000, `took ${r.ms} ms`);
  });

  test("--pty runs the command on a 120x30 terminal", async () => {
    const r = await cli(["--pty", "--", "stty size; [ -t 0 ] && echo tty"]);
    assert.equal(r.stdout, "30 120\r\ntty\n");
    assert.equal(r.code, 0);
  });

  test("several words after -- are passed as words, keeping their quoting", async () => {
    const r = await cli(["--", "printf", "%s|", "a b", "c'd", "$HOME", "*", "x;y"]);
    assert.equal(r.stdout, "a b|c'd|$HOME|*|x;y|\n");
    assert.equal(r.code, 0);
  });

  test("a single word after -- is a shell command line", async () => {
    const r = await cli(["--", "echo one && echo two"]);
    assert.equal(r.stdout, "one\ntwo\n");
  });

  test("jobs the command left behind do not outlive the CLI", async () => {
    const r = await cli(["--", "setsid sleep 300 >/dev/null 2>&1 & echo $!; nohup sleep 300 >/dev/null 2>&1 & echo $!"]);
    assert.equal(r.code, 0);
    const pids = pidsIn(r.stdout);
    assert.equal(pids.length, 2);
    await waitGone(pids, 6000, "jobs left by clawexec exec");
  });

  for (const [signal, expectedCode] of [["SIGTERM", 130], ["SIGKILL", null]]) {
    test(`${signal} to clawexec exec stops the command's whole tree`, async () => {
      const file = join(scratch.dir, `cli-${signal}`);
      let child;
      const done = cli(
        ["--", `echo $$ > ${file}; setsid sleep 300 >/dev/null 2>&1 & echo $! >> ${file}; sleep 300`],
        { onSpawn: (c) => (child = c) },
      );
      const pids = await waitFor(() => {
        if (!existsSync(file)) return null;
        const p = pidsIn(readFileSync(file, "utf8"));
        return p.length >= 2 ? p : null;
      }, 5000, "the command's pids");
      child.kill(signal);
      const r = await done;
      if (expectedCode !== null) assert.equal(r.code, expectedCode);
      await waitGone(pids, 6000, `the command's processes after ${signal} to the CLI`);
    });
  }

  test("a missing command is a usage error (exit 2)", async () => {
    const r = await cli([]);
    assert.equal(r.code, 2);
  });
});
