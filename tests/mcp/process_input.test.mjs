// Input to background sessions (reference §2.4 write/send-keys/submit/paste, §2.5, §2.7, §8.2
// #46-#48, #51, #52): texts and byte counts, the exact bytes a PTY program receives (read in raw
// mode and printed as hex), cursor-key mode tracking, and input-wait detection.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, background, pollUntilExit, waitOutput, waitFor } from "./lib/harness.mjs";

let s;
before(async () => {
  s = await startServer();
});
after(async () => {
  await s.close();
});

function expectFailed(r, text) {
  assert.equal(r.text, text);
  assert.equal(r.isError, true);
  assert.equal(r.details.status, "failed");
}

/**
 * Starts a PTY program that switches the terminal to raw mode, optionally prints a cursor-key
 * mode toggle, announces "ready", reads exactly `count` bytes and prints them as hex.
 * Returns { id, received() } where received() waits for the exit and returns the hex string.
 */
async function rawReader(count, modeToggle = "") {
  const command =
    `stty raw -echo; printf '${modeToggle}ready\\n'; ` + `head -c ${count} | od -An -v -tx1 | tr -d ' \\n'; echo; echo END`;
  const b = await background(s, command, { pty: true });
  await waitOutput(s, b.id, /ready/);
  async function received() {
    const all = await waitOutput(s, b.id, /END/);
    const m = /ready\n([0-9a-f]*)\nEND/.exec(all);
    assert.ok(m, `unexpected program output ${JSON.stringify(all)}`);
    return m[1];
  }
  return { id: b.id, received };
}

const hex = (str) => Buffer.from(str, "latin1").toString("hex");
const ESC = "\x1b";

describe("write", { concurrency: 4 }, () => {
  test("write to a non-PTY background session fails: its stdin is not writable (§8.2 #46)", async () => {
    const b = await background(s, "sleep 30");
    expectFailed(await s.call("process", { action: "write", sessionId: b.id, data: "y\n" }), `Session ${b.id} stdin is not writable.`);
    await s.call("process", { action: "kill", sessionId: b.id });
  });

  test("write to a PTY session reports the bytes written and the program receives them", async () => {
    const reader = await rawReader(2);
    const r = await s.call("process", { action: "write", sessionId: reader.id, data: "y\n" });
    assert.equal(r.text, `Wrote 2 bytes to session ${reader.id}.`);
    assert.equal(r.isError, false);
    assert.equal(r.details.status, "running");
    assert.equal(r.details.sessionId, reader.id);
    assert.equal(typeof r.details.name, "string");
    assert.equal(await reader.received(), "790a");
  });

  test("write counts UTF-8 bytes, not characters", async () => {
    const reader = await rawReader(6);
    const r = await s.call("process", { action: "write", sessionId: reader.id, data: "é😀" });
    assert.equal(r.text, `Wrote 6 bytes to session ${reader.id}.`);
    assert.equal(await reader.received(), Buffer.from("é😀").toString("hex"));
  });

  test("write with eof closes stdin: a PTY cat sees end of input and exits", async () => {
    const b = await background(s, "cat", { pty: true });
    const r = await s.call("process", { action: "write", sessionId: b.id, data: "last\n", eof: true });
    assert.equal(r.text, `Wrote 5 bytes to session ${b.id} (stdin closed).`);
    const end = await pollUntilExit(s, b.id, 5000);
    assert.equal(end.details.status, "completed");
    assert.equal(end.details.exitCode, 0);
    assert.match(end.details.aggregated, /last/);
  });

  test("a 1 MiB write reaches a reading PTY program intact", async () => {
    const b = await background(s, "stty raw -echo; echo ready; head -c 1048576 | wc -c", { pty: true });
    await waitOutput(s, b.id, /ready/);
    const r = await s.call("process", { action: "write", sessionId: b.id, data: "x".repeat(1 << 20) });
    assert.equal(r.text, `Wrote 1048576 bytes to session ${b.id}.`);
    const end = await pollUntilExit(s, b.id);
    assert.equal(end.details.aggregated, "ready\n1048576\n");
  });

  test("a write the program does not read does not block other calls", async () => {
    const b = await background(s, "sleep 30", { pty: true });
    const pending = s.call("process", { action: "write", sessionId: b.id, data: "x".repeat(1 << 20) }).catch((e) => e);
    await new Promise((r) => setTimeout(r, 200));
    const t0 = Date.now();
    const e = await s.call("exec", { command: "echo still-serving" });
    assert.equal(e.text, "still-serving");
    assert.ok(Date.now() - t0 < 2000);
    const k = await s.call("process", { action: "kill", sessionId: b.id });
    assert.equal(k.text, `Termination requested for session ${b.id}.`);
    await pending;
  });

  test("write to a finished or unknown session fails with No active session found for <id>", async () => {
    const b = await background(s, "true");
    await pollUntilExit(s, b.id);
    expectFailed(await s.call("process", { action: "write", sessionId: b.id, data: "x" }), `No active session found for ${b.id}`);
    expectFailed(await s.call("process", { action: "write", sessionId: "nope-nope", data: "x" }), "No active session found for nope-nope");
  });
});

describe("send-keys", { concurrency: 4 }, () => {
  test("an unmodified cursor key is refused while the cursor mode is unknown; Enter still works (§8.2 #48)", async () => {
    const b = await background(s, "cat", { pty: true });
    for (const key of ["up", "down", "left", "right", "home", "end"]) {
      expectFailed(
        await s.call("process", { action: "send-keys", sessionId: b.id, keys: [key] }),
        `Session ${b.id} cursor key mode is not known yet. Poll or log until startup output appears, then retry send-keys.`,
      );
    }
    const enter = await s.call("process", { action: "send-keys", sessionId: b.id, keys: ["Enter"] });
    assert.equal(enter.text, `Sent 1 bytes to session ${b.id}.`);
    assert.equal(enter.details.status, "running");
    const page = await s.call("process", { action: "send-keys", sessionId: b.id, keys: ["pageup"] });
    assert.equal(page.text, `Sent 4 bytes to session ${b.id}.`, "page keys are not cursor-mode sensitive");
    const modified = await s.call("process", { action: "send-keys", sessionId: b.id, keys: ["C-up"] });
    assert.equal(modified.text, `Sent 6 bytes to session ${b.id}.`, "modified arrows are not cursor-mode sensitive");
    await s.call("process", { action: "kill", sessionId: b.id });
  });

  test("after the program enables application cursor mode, arrows are sent as SS3 sequences", async () => {
    const reader = await rawReader(6, "\\033[?1h");
    const r = await s.call("process", { action: "send-keys", sessionId: reader.id, keys: ["up", "home"] });
    assert.equal(r.text, `Sent 6 bytes to session ${reader.id}.`);
    assert.equal(await reader.received(), hex(`${ESC}OA${ESC}OH`));
  });

  test("after the program selects normal cursor mode, arrows are sent as CSI sequences", async () => {
    const reader = await rawReader(7, "\\033[?1l");
    await s.call("process", { action: "send-keys", sessionId: reader.id, keys: ["up", "end"] });
    assert.equal(await reader.received(), hex(`${ESC}[A${ESC}[4~`));
  });

  test("named keys, modifiers and plain words are encoded like the reference (§8.2 #51)", async () => {
    const keys = ["C-c", "M-x", "S-Tab", "KPEnter", "C-right", "M-up", "f5", "^A", "hello", "space"];
    const expected = `\x03${ESC}x${ESC}[Z${ESC}OM${ESC}[1;5C${ESC}[1;3A${ESC}[15~\x01hello `;
    const reader = await rawReader(expected.length, "\\033[?1l");
    const r = await s.call("process", { action: "send-keys", sessionId: reader.id, keys });
    assert.equal(r.text, `Sent ${expected.length} bytes to session ${reader.id}.`);
    assert.equal(await reader.received(), hex(expected));
  });

  test("literal, hex and keys are concatenated in that order; bad hex and unknown modified keys warn (§8.2 #52)", async () => {
    const reader = await rawReader(8, "\\033[?1l");
    const r = await s.call("process", {
      action: "send-keys",
      sessionId: reader.id,
      literal: "hi",
      hex: ["0d", "0x0a", "zz"],
      keys: ["Enter", "C-foo"],
    });
    assert.equal(
      r.text,
      `Sent 8 bytes to session ${reader.id}.\nWarnings:\n- Invalid hex byte: zz\n- Unknown key "foo" for modifiers; sending literal.`,
    );
    assert.equal(await reader.received(), hex("hi\r\n\rfoo"));
  });

  test("send-keys with nothing to send fails with No key data provided.", async () => {
    const b = await background(s, "cat", { pty: true });
    expectFailed(await s.call("process", { action: "send-keys", sessionId: b.id, keys: ["  "] }), "No key data provided.");
    expectFailed(await s.call("process", { action: "send-keys", sessionId: b.id }), "No key data provided.");
    await s.call("process", { action: "kill", sessionId: b.id });
  });

  test("send-keys to a non-PTY session fails: stdin is not writable", async () => {
    const b = await background(s, "sleep 30");
    expectFailed(
      await s.call("process", { action: "send-keys", sessionId: b.id, keys: ["Enter"] }),
      `Session ${b.id} stdin is not writable.`,
    );
    await s.call("process", { action: "kill", sessionId: b.id });
  });
});

describe("submit and paste", { concurrency: 4 }, () => {
  test("submit sends a carriage return (§8.2 #47)", async () => {
    const reader = await rawReader(1);
    const r = await s.call("process", { action: "submit", sessionId: reader.id });
    assert.equal(r.text, `Submitted session ${reader.id} (sent CR).`);
    assert.equal(r.details.status, "running");
    assert.equal(await reader.received(), "0d");
  });

  test("paste wraps the text in bracketed-paste markers by default", async () => {
    const reader = await rawReader(14);
    const r = await s.call("process", { action: "paste", sessionId: reader.id, text: "ab" });
    assert.equal(r.text, `Pasted 2 chars to session ${reader.id}.`);
    assert.equal(await reader.received(), hex(`${ESC}[200~ab${ESC}[201~`));
  });

  test("paste with bracketed:false sends the raw text", async () => {
    const reader = await rawReader(3);
    const r = await s.call("process", { action: "paste", sessionId: reader.id, text: "a\nb", bracketed: false });
    assert.equal(r.text, `Pasted 3 chars to session ${reader.id}.`);
    assert.equal(await reader.received(), hex("a\nb"));
  });

  test("an empty bracketed paste still sends both markers; an empty raw paste fails", async () => {
    const reader = await rawReader(12);
    expectFailed(
      await s.call("process", { action: "paste", sessionId: reader.id, text: "", bracketed: false }),
      "No paste text provided.",
    );
    const r = await s.call("process", { action: "paste", sessionId: reader.id, text: "" });
    assert.equal(r.text, `Pasted 0 chars to session ${reader.id}.`);
    assert.equal(await reader.received(), hex(`${ESC}[200~${ESC}[201~`));
  });

  test("paste counts UTF-16 units", async () => {
    const b = await background(s, "cat", { pty: true });
    const r = await s.call("process", { action: "paste", sessionId: b.id, text: "😀é" });
    assert.equal(r.text, `Pasted 3 chars to session ${b.id}.`);
    await s.call("process", { action: "kill", sessionId: b.id });
  });
});

describe("input-wait detection (§2.7)", () => {
  const HINT_RE =
    /\n\nNo new output for \d+s; this session may be waiting for input\. Use process write, send-keys, submit, or paste to provide input\.$/;

  test("an idle PTY session with writable stdin is flagged as waiting for input", async () => {
    const t = await startServer({ env: { OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS: "1000" } });
    try {
      const b = await background(t, "cat", { pty: true });
      const early = await t.call("process", { action: "poll", sessionId: b.id });
      assert.equal(early.details.waitingForInput, false);
      assert.equal(early.details.stdinWritable, true);
      assert.equal(early.text, "(no new output)\n\nProcess still running.");
      await waitFor(async () => (await t.call("process", { action: "list" })).details.sessions[0].waitingForInput, 5000);
      const p = await t.call("process", { action: "poll", sessionId: b.id });
      assert.match(p.text, /^\(no new output\)/);
      assert.match(p.text, HINT_RE);
      assert.equal(p.details.waitingForInput, true);
      assert.ok(p.details.idleMs >= 1000);
      const log = await t.call("process", { action: "log", sessionId: b.id });
      assert.match(log.text, /^\(no output yet\)\n\nNo new output for \d+s;/);
      assert.equal(log.details.waitingForInput, true);
      const list = await t.call("process", { action: "list" });
      assert.match(list.text, new RegExp(`^${b.id} running   \\d+s \\[input-wait\\] :: cat$`));
      await t.call("process", { action: "write", sessionId: b.id, data: "wake\n" });
      const after = await t.call("process", { action: "poll", sessionId: b.id, timeout: 2000 });
      assert.equal(after.details.waitingForInput, false, "new output resets the idle time");
      assert.match(after.text, /wake/);
      await t.call("process", { action: "kill", sessionId: b.id });
    } finally {
      await t.close();
    }
  });

  test("an idle session whose stdin is not writable is never flagged", async () => {
    const t = await startServer({ env: { OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS: "1000" } });
    try {
      const b = await background(t, "sleep 30");
      await new Promise((r) => setTimeout(r, 1400));
      const p = await t.call("process", { action: "poll", sessionId: b.id });
      assert.equal(p.details.waitingForInput, false);
      assert.equal(p.text, "(no new output)\n\nProcess still running.");
      const list = await t.call("process", { action: "list" });
      assert.doesNotMatch(list.text, /input-wait/);
      await t.call("process", { action: "kill", sessionId: b.id });
    } finally {
      await t.close();
    }
  });
});
