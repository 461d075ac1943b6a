// PTY runs (reference §1.7): a real terminal of 120x30, TERM defaulting to xterm-256color,
// cursor-position (DSR) replies, interactive programs driven with write/submit/send-keys, signals
// from control keys, and the fallback to pipes (with the reference warning) when the PTY fails.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, startRawServer, background, pollUntilExit, waitOutput, runningText } from "./lib/harness.mjs";

let s;
before(async () => {
  s = await startServer();
});
after(async () => {
  await s.close();
});

describe("terminal", { concurrency: 4 }, () => {
  test("pty:true runs the command on a terminal of 30 rows and 120 columns", async () => {
    const r = await s.call("exec", { command: "stty size; [ -t 0 ] && [ -t 1 ] && [ -t 2 ] && echo all-tty", pty: true });
    assert.equal(r.text, "30 120\r\nall-tty");
    assert.equal(r.details.status, "completed");
  });

  test("without pty the command has no terminal", async () => {
    const r = await s.call("exec", { command: "[ -t 0 ] || [ -t 1 ] || echo no-tty" });
    assert.equal(r.text, "no-tty");
  });

  test("PTY output keeps the terminal's CRLF line ends and merges stderr", async () => {
    const r = await s.call("exec", { command: "echo a; echo b >&2; exit 5", pty: true });
    assert.equal(r.text, "a\r\nb\n\n(Command exited with code 5)");
    assert.equal(r.details.exitCode, 5);
  });

  test("a cursor-position request (ESC[6n and ESC[?6n) is answered with ESC[1;1R", async () => {
    const r = await s.call("exec", {
      command:
        "stty -echo; printf '\\033[6n'; read -t 3 -rs -d R a; printf 'got:%s\\n' \"${a#?}\"; " +
        "printf '\\033[?6n'; read -t 3 -rs -d R b; printf 'got2:%s\\n' \"${b#?}\"",
      pty: true,
    });
    assert.equal(r.text, "got:[1;1\r\ngot2:[1;1");
  });
});

describe("TERM", { concurrency: 4 }, () => {
  async function termWith(serverOptions, extra = {}) {
    const t = await startServer(serverOptions);
    try {
      return (await t.call("exec", { command: "printf '%s' \"$TERM\"", pty: true, ...extra })).text;
    } finally {
      await t.close();
    }
  }

  test("TERM defaults to xterm-256color when the server has none", async () => {
    const raw = await startRawServer({ unsetEnv: ["TERM"] });
    try {
      await raw.initialize();
      const r = await raw.callTool("exec", { command: "printf '%s' \"$TERM\"", pty: true });
      assert.equal(r.text, "xterm-256color");
    } finally {
      await raw.close();
    }
  });

  test("an empty TERM in the server's environment becomes xterm-256color", async () => {
    assert.equal(await termWith({ env: { TERM: "" } }), "xterm-256color");
  });

  test("TERM=dumb in the server's environment becomes xterm-256color", async () => {
    assert.equal(await termWith({ env: { TERM: "dumb" } }), "xterm-256color");
  });

  test("another inherited TERM is kept and a per-call TERM wins", async () => {
    assert.equal(await termWith({ env: { TERM: "screen" } }), "screen");
    assert.equal(await termWith({ env: { TERM: "dumb" } }, { env: { TERM: "vt100" } }), "vt100");
  });
});

describe("interactive programs", { concurrency: 4 }, () => {
  test("a read loop is driven with write, submit and send-keys until it quits", async () => {
    const b = await background(
      s,
      'while IFS= read -r line; do echo "got:$line"; [ "$line" = quit ] && break; done; echo bye',
      { pty: true },
    );
    await s.call("process", { action: "write", sessionId: b.id, data: "hello\n" });
    await waitOutput(s, b.id, /got:hello/);
    await s.call("process", { action: "write", sessionId: b.id, data: "abc" });
    const sub = await s.call("process", { action: "submit", sessionId: b.id });
    assert.equal(sub.text, `Submitted session ${b.id} (sent CR).`);
    await waitOutput(s, b.id, /got:abc/);
    const keys = await s.call("process", { action: "send-keys", sessionId: b.id, literal: "quit", keys: ["Enter"] });
    assert.equal(keys.text, `Sent 5 bytes to session ${b.id}.`);
    const end = await pollUntilExit(s, b.id);
    assert.equal(end.details.status, "completed");
    assert.equal(end.details.exitCode, 0);
    assert.match(end.details.aggregated, /got:quit\r\nbye\r\n$/);
  });

  test("a python input() prompt is answered through write", async () => {
    const b = await background(s, "python3 -c 'x = input(\"name? \"); print(\"hi \" + x)'", { pty: true });
    await waitOutput(s, b.id, /name\? $/);
    await s.call("process", { action: "write", sessionId: b.id, data: "bob\n" });
    const end = await pollUntilExit(s, b.id);
    assert.equal(end.details.exitCode, 0);
    assert.match(end.details.aggregated, /hi bob/);
  });

  test("send-keys C-c interrupts the foreground program of the terminal", async () => {
    const b = await background(s, "echo started; sleep 30", { pty: true });
    await waitOutput(s, b.id, /started/);
    await s.call("process", { action: "send-keys", sessionId: b.id, keys: ["C-c"] });
    const end = await pollUntilExit(s, b.id, 5000);
    assert.equal(end.details.status, "failed");
    assert.equal(end.details.exitSignal, "SIGINT");
    assert.match(end.text, /Process exited with signal SIGINT\.$/);
  });
});

describe("PTY fallback", () => {
  let f;
  before(async () => {
    f = await startServer({ env: { CLAWEXEC_PTMX: "/nonexistent/ptmx" } });
  });
  after(async () => {
    await f.close();
  });
  const warningRe = (command) =>
    new RegExp(
      "^Warning: PTY spawn failed \\(.+\\); retrying without PTY for `" +
        command.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") +
        "`\\.\\n\\n",
    );

  test("when the PTY cannot be opened the run falls back to pipes and warns", async () => {
    const command = "echo hi; [ -t 0 ] || echo no-tty";
    const r = await f.call("exec", { command, pty: true });
    assert.match(r.text, warningRe(command));
    assert.ok(r.text.endsWith("\n\nhi\nno-tty"), r.text);
    assert.equal(r.details.status, "completed");
    assert.equal(r.details.aggregated, "hi\nno-tty");
  });

  test("a fallback background run keeps stdin open for write and eof", async () => {
    const r = await f.call("exec", { command: "cat", pty: true, background: true });
    assert.match(r.text, warningRe("cat"));
    assert.ok(r.text.endsWith(runningText(r.details.sessionId, r.details.pid)), r.text);
    const id = r.details.sessionId;
    const list = await f.call("process", { action: "list" });
    assert.equal(list.details.sessions[0].stdinWritable, true);
    const w = await f.call("process", { action: "write", sessionId: id, data: "abc\n", eof: true });
    assert.equal(w.text, `Wrote 4 bytes to session ${id} (stdin closed).`);
    const end = await pollUntilExit(f, id);
    assert.equal(end.details.exitCode, 0);
    assert.equal(end.details.aggregated, "abc\n");
  });

  test("commands without pty are unaffected by a broken PTY device", async () => {
    const r = await f.call("exec", { command: "echo plain" });
    assert.equal(r.text, "plain");
  });
});
