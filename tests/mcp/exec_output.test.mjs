// Output capture (reference §1.8): stdout and stderr merged in arrival order, streaming ANSI
// stripping whose state spans chunks, `\xNN` escaping of other control bytes, removal of Unicode
// format characters, and the aggregate cap (OPENCLAW_BASH_MAX_OUTPUT_CHARS, counted in UTF-16 units).
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { startServer } from "./lib/harness.mjs";

const RETENTION_NOTE = "[earlier output was discarded at the retention cap and cannot be recovered]\n\n";

let s;
before(async () => {
  s = await startServer();
});
after(async () => {
  await s.close();
});

const run = async (command, extra = {}) => (await s.call("exec", { command, ...extra })).text;

describe("merging and sanitising", { concurrency: 4 }, () => {
  test("stdout and stderr are merged in arrival order without labels", async () => {
    const text = await run("echo one; sleep 0.2; echo two >&2; sleep 0.2; echo three; sleep 0.2; echo four >&2");
    assert.equal(text, "one\ntwo\nthree\nfour");
  });

  test("stderr-only output is the result text", async () => {
    assert.equal(await run("echo only-err >&2"), "only-err");
  });

  test("ANSI colour sequences are stripped", async () => {
    assert.equal(await run("printf 'a\\033[31mred\\033[0m\\033[1;32mgreen\\033[m\\n'"), "aredgreen");
  });

  test("OSC title sequences and short ESC sequences are stripped", async () => {
    assert.equal(await run("printf 'a\\033]0;title\\007x\\033(By\\033=z\\n'"), "axyz");
  });

  test("an escape sequence split across output chunks is still stripped", async () => {
    assert.equal(await run("printf 'p\\033['; sleep 0.3; printf '31mX\\n'"), "pX");
    assert.equal(await run("printf 'q\\033]0;ti'; sleep 0.3; printf 'tle\\007Y\\n'"), "qY");
  });

  test("other C0 controls, DEL and C1 controls become literal \\xNN text", async () => {
    assert.equal(await run("printf 'a\\001b\\177c\\302\\205d\\n'"), "a\\x01b\\x7fc\\x85d");
  });

  test("tab and carriage return are kept verbatim (no CR collapsing)", async () => {
    assert.equal(await run("printf 'a\\tb\\rc\\n'"), "a\tb\rc");
    assert.equal(await run("printf '10%%\\r50%%\\r100%%\\n'"), "10%\r50%\r100%");
  });

  test("Unicode format characters (zero-width joiner, BOM) are removed; other text is kept", async () => {
    assert.equal(await run("printf 'z\\342\\200\\215w\\357\\273\\277v \\303\\251\\360\\237\\230\\200\\n'"), "zwv é😀");
  });

  test("PTY output is sanitised the same way", async () => {
    assert.equal(await run("printf '\\033[31mred\\033[0m\\001\\n'", { pty: true }), "red\\x01");
  });
});

describe("aggregate cap from OPENCLAW_BASH_MAX_OUTPUT_CHARS", { concurrency: 3 }, () => {
  test("a cap of 1000 keeps the last 1000 chars and adds the retention note", async () => {
    const t = await startServer({ env: { OPENCLAW_BASH_MAX_OUTPUT_CHARS: "1000" } });
    try {
      const r = await t.call("exec", {
        command: "head -c 2000 /dev/zero | tr '\\0' a; head -c 1000 /dev/zero | tr '\\0' b",
      });
      assert.equal(r.text, RETENTION_NOTE + "b".repeat(1000));
      assert.equal(r.details.aggregated, "b".repeat(1000));
      // The cap counts UTF-16 units: 1000 emoji are 2000 units, so 500 of them remain.
      const e = await t.call("exec", { command: "for i in $(seq 1000); do printf '\\360\\237\\230\\200'; done" });
      assert.equal(e.text, RETENTION_NOTE + "😀".repeat(500));
      const small = await t.call("exec", { command: "head -c 1000 /dev/zero | tr '\\0' c" });
      assert.equal(small.text, "c".repeat(1000));
    } finally {
      await t.close();
    }
  });

  test("a cap below 1000 is clamped to 1000", async () => {
    const t = await startServer({ env: { OPENCLAW_BASH_MAX_OUTPUT_CHARS: "10" } });
    try {
      const r = await t.call("exec", { command: "head -c 1500 /dev/zero | tr '\\0' a" });
      assert.equal(r.text, RETENTION_NOTE + "a".repeat(1000));
    } finally {
      await t.close();
    }
  });

  test("a value that is not a strict integer falls back to the 200 000 default", async () => {
    const t = await startServer({ env: { OPENCLAW_BASH_MAX_OUTPUT_CHARS: "1000abc" } });
    try {
      const r = await t.call("exec", { command: "head -c 5000 /dev/zero | tr '\\0' a" });
      assert.equal(r.text, "a".repeat(5000));
    } finally {
      await t.close();
    }
  });
});

describe("large output", () => {
  test("a command printing 100 MB keeps the last 200 000 chars and the server's memory bounded", async () => {
    const rssKb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${s.pid}/status`, "utf8"))[1]);
    // Growth over the server's own RSS: the sanitizer build idles near 54 MB by itself.
    const baseline = rssKb();
    let peak = baseline;
    const sampler = setInterval(() => {
      try {
        peak = Math.max(peak, rssKb());
      } catch {}
    }, 5);
    try {
      const r = await s.call("exec", { command: "head -c 100000000 /dev/zero | tr '\\0' a; echo; echo tail-end" });
      assert.equal(r.details.status, "completed");
      assert.ok(r.text.startsWith(RETENTION_NOTE));
      assert.ok(r.text.endsWith("a\ntail-end"));
      assert.equal(r.details.aggregated.length, 200000 - 1, "the trimmed aggregate (its final newline removed)");
    } finally {
      clearInterval(sampler);
    }
    assert.ok(peak - baseline < 58 * 1024, `RSS grew by ${peak - baseline} kB (from ${baseline} kB)`);
  });
});
