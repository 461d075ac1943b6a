// Resource limits (issue 10 #13b): a client that stops reading cannot make the server buffer
// answers without bound (back-pressure on stdin, answers kept in order), a command larger than
// Linux can pass as one argument is refused before any analysis, and a client cannot keep more
// live sessions than tools.exec.maxLiveSessions.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startRawServer, startServer, scratchDir, sleep, waitFor, pollUntilExit, background } from "./lib/harness.mjs";

/** The server's resident set (VmRSS) in bytes. */
function rssOf(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) * 1024 : 0;
}

const MiB = 1024 * 1024;

describe("a client that reads slowly (issue 10 #13b)", () => {
  test("2000 large `process log` answers: RSS stays bounded while it does not read, then all arrive in order", async (t) => {
    // Under the sanitizer build, freed memory waits in ASan's quarantine (256 MiB by default)
    // and would count as growth; a small quarantine keeps the figure about live memory.
    const asan = [process.env.ASAN_OPTIONS, "quarantine_size_mb=4"].filter(Boolean).join(":");
    const s = await startRawServer({ env: { ASAN_OPTIONS: asan } });
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

describe("command size (issue 10 #13b)", { concurrency: 2 }, () => {
  const LIMIT = 131072 - 8192;
  const tooLong = (bytes) =>
    `exec: the command is ${bytes} bytes; the limit is ${LIMIT} bytes (the shell gets the command as one argument, ` +
    "which Linux caps at 131072 bytes including the server's shell prologue). Write long scripts to a file and run the file instead.";

  test("a 15 MB command is refused at once, naming its size and the limit", async () => {
    const s = await startServer();
    try {
      const command = "echo " + "x".repeat(15 * 1024 * 1024);
      const t0 = Date.now();
      const r = await s.call("exec", { command });
      assert.equal(r.isError, true);
      assert.equal(r.text, tooLong(command.length));
      assert.ok(Date.now() - t0 < 5000, `took ${Date.now() - t0} ms`);
      const ok = await s.call("exec", { command: "echo still-here" });
      assert.equal(ok.text, "still-here");
    } finally {
      await s.close();
    }
  });

  test("one byte over the limit is refused; a command at the limit runs", async () => {
    const s = await startServer();
    try {
      const at = "echo ok #" + "x".repeat(LIMIT - 9);
      assert.equal(at.length, LIMIT);
      const r = await s.call("exec", { command: at });
      assert.equal(r.isError, false, r.text?.slice(0, 300));
      assert.equal(r.text, "ok");
      const over = await s.call("exec", { command: at + "x" });
      assert.equal(over.isError, true);
      assert.equal(over.text, tooLong(LIMIT + 1));
    } finally {
      await s.close();
    }
  });

  test("a command that the snapshot's quoting pushes over Linux's argument limit is refused by name", async () => {
    const home = scratchDir("clawexec-home-");
    writeFileSync(join(home.dir, ".bashrc"), "alias ll='ls -l'\n");
    const s = await startServer({ env: { HOME: home.dir } });
    try {
      // Every ' becomes '\'' inside the snapshot's eval '...': 4 bytes each.
      const command = ": " + "''".repeat(30000);
      const r = await s.call("exec", { command });
      assert.equal(r.isError, true, r.text?.slice(0, 200));
      assert.match(r.text, /^spawn \/\S+: the command as run \(with the shell prologue and quoting\) is \d+ bytes, over Linux's limit of 131071 bytes for one argument \(MAX_ARG_STRLEN\)\. Shorten it or run a script file\.$/);
    } finally {
      await s.close();
      home.cleanup();
    }
  });

  test("a call whose analysis takes seconds does not hold up other calls", async (t) => {
    // The analysis stage itself is made slow (the server's test seam sleeps 1.5 s on the
    // analysis thread before analysing): were it on the io thread, `process list` would wait.
    const s = await startServer({
      config: { tools: { exec: { security: "allowlist", ask: "off" } } },
      approvals: { version: 1, agents: { main: { allowlist: [{ pattern: "/usr/bin/ls" }] } } },
      env: { CLAWEXEC_TEST_ANALYSIS_DELAY_MS: "1500" },
    });
    try {
      const t0 = Date.now();
      const pending = s.call("exec", { command: "ls -d / && ls -d /" }, { timeout: 300000 });
      await sleep(100);
      const t1 = Date.now();
      const list = await s.call("process", { action: "list" });
      const listMs = Date.now() - t1;
      assert.equal(list.isError, false, list.text);
      const r = await pending;
      const heavyMs = Date.now() - t0;
      t.diagnostic(`slow-analysis exec answered after ${heavyMs} ms; process list meanwhile took ${listMs} ms`);
      assert.ok(heavyMs >= 1500, `the exec answered after ${heavyMs} ms: the seam did not delay it`);
      assert.ok(listMs < 1000, `process list waited ${listMs} ms behind a slow analysis`);
      assert.equal(r.text, "/\n/");
    } finally {
      await s.close();
    }
  });

  test("a command of the slowest shape at the size limit is analysed and answered (bench/command_size_bench times it)", async (t) => {
    const s = await startServer({
      config: { tools: { exec: { security: "allowlist", ask: "off" } } },
      approvals: { version: 1, agents: { main: { allowlist: [{ pattern: "/usr/bin/ls" }] } } },
    });
    try {
      const t0 = Date.now();
      const r = await s.call("exec", { command: "sqlite3 x.db;".repeat(Math.floor(LIMIT / 13)) }, { timeout: 300000 });
      const ms = Date.now() - t0;
      t.diagnostic(`analysed and refused in ${ms} ms`);
      assert.equal(r.isError, true, r.text);
    } finally {
      await s.close();
    }
  });
});

describe("live sessions per client (issue 10 #13b)", () => {
  const capText = (n) =>
    `exec: this client already has ${n} running sessions, the limit (tools.exec.maxLiveSessions = ${n}). ` +
    "Wait for one to finish or stop one with `process kill`, or raise the limit.";

  test("tools.exec.maxLiveSessions caps running sessions; a finished or killed one frees its place", async () => {
    const s = await startServer({ config: { tools: { exec: { maxLiveSessions: 3 } } } });
    try {
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push((await background(s, "sleep 30")).id);
      const refused = await s.call("exec", { command: "echo never", background: true });
      assert.equal(refused.isError, true);
      assert.equal(refused.text, capText(3));
      const foreground = await s.call("exec", { command: "echo never" });
      assert.equal(foreground.text, capText(3), "foreground runs count too");
      const killed = await s.call("process", { action: "kill", sessionId: ids[0] });
      assert.equal(killed.isError, false, killed.text);
      await pollUntilExit(s, ids[0]);
      const ok = await s.call("exec", { command: "echo again" });
      assert.equal(ok.isError, false, ok.text);
      assert.equal(ok.text, "again");
    } finally {
      await s.close();
    }
  });

  test("the default (1024) leaves room for a thousand background sessions", async () => {
    const s = await startServer();
    try {
      const started = [];
      for (let i = 0; i < 1000; i++) started.push(s.call("exec", { command: "sleep 60", background: true }));
      const results = await Promise.all(started);
      const refused = results.filter((r) => r.isError);
      assert.equal(refused.length, 0, refused[0]?.text);
    } finally {
      await s.close();
    }
  });
});
