// Script preflight (reference §3.8, §8.2 cases 34-37): with any policy other than the default
// host=gateway security=full ask=off, python/node scripts a command starts directly are read from
// the working directory and refused when they hold shell variables meant for a shell; tangled
// interpreter invocations fail closed. Here ask=on-miss enables the preflight while security=full
// still runs everything without approval. The scripts need python3 and node on PATH.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, scratchDir } from "./lib/harness.mjs";

const PREFLIGHT_CONFIG = { tools: { exec: { ask: "on-miss" } } };

const COMPLEX_MESSAGE =
  "exec preflight: complex interpreter invocation detected; refusing to run without script preflight validation. " +
  "Use a direct `python <file>.py` or `node <file>.js` command.";

const LAST_LINE = "(If this is inside a string literal on purpose, escape it or restructure the code.)";

function pythonFinding(token, where) {
  const name = token.slice(1);
  return [
    `exec preflight: detected likely shell variable injection (${token}) in python script: ${where}.`,
    `In Python, use os.environ.get("${name}") instead of raw ${token}.`,
    LAST_LINE,
  ].join("\n");
}

function nodeFinding(token, where) {
  const name = token.slice(1);
  return [
    `exec preflight: detected likely shell variable injection (${token}) in node script: ${where}.`,
    `In Node.js, use process.env["${name}"] instead of raw ${token}.`,
    LAST_LINE,
  ].join("\n");
}

// A thrown exec error: isError, exactly `message`, no structured details.
function assertRefused(r, message) {
  assert.equal(r.isError, true, r.text);
  assert.equal(r.text, message);
  assert.equal(r.details, undefined, "a thrown error has no structured details");
}

// The command ran: a structured result, not a preflight refusal.
function assertRan(r) {
  assert.ok(r.details, `expected a result, got: ${r.text}`);
  assert.ok(!String(r.text).includes("exec preflight"), r.text);
}

let scratch, work, outside;
before(() => {
  scratch = scratchDir("clawexec-preflight-");
  work = join(scratch.dir, "work");
  outside = join(scratch.dir, "outside");
  mkdirSync(work);
  mkdirSync(outside);
  writeFileSync(join(work, "bad.py"), "payload = $DM_JSON\n");
  writeFileSync(join(work, "bad.js"), "const value = $DM_JSON;\n");
  writeFileSync(join(work, "ok.py"), 'print("$HOME")\n');
  writeFileSync(join(work, "shell.js"), "\nNODE=production node server.js\n");
  writeFileSync(join(work, "multi.py"), 'import os\n"""\n$DOC_TEXT\n"""\nvalue = f"{$IN_FIELD}"\n');
  writeFileSync(join(outside, "x.py"), "x = $OUTSIDE\n");
  symlinkSync(join(outside, "x.py"), join(work, "escape.py"));
});
after(() => scratch.cleanup());

describe("script preflight enabled (ask=on-miss)", { concurrency: 4 }, () => {
  let s;
  before(async () => {
    s = await startServer({ config: PREFLIGHT_CONFIG });
  });
  after(async () => {
    await s.close();
  });

  test("a python script with a shell variable is refused (§8.2 case 34)", async () => {
    const r = await s.call("exec", { command: "python bad.py", workdir: work });
    assertRefused(r, pythonFinding("$DM_JSON", "bad.py:1"));
  });

  test("a node script with a shell variable is refused (§8.2 case 35)", async () => {
    const r = await s.call("exec", { command: 'node "bad.js"', workdir: work });
    assertRefused(r, nodeFinding("$DM_JSON", "bad.js:1"));
  });

  test("a pipeline into python is refused as a complex invocation (§8.2 case 36)", async () => {
    for (const command of ["cat bad.py | python", "if true; then python bad.py; fi", "bash -c \"python 'bad.py'\""]) {
      const r = await s.call("exec", { command, workdir: work });
      assertRefused(r, COMPLEX_MESSAGE);
    }
  });

  test("inline node code and quoted mentions still run (§8.2 case 36)", async () => {
    const inline = await s.call("exec", { command: 'node -e "console.log(123)"', workdir: work });
    assertRan(inline);
    assert.ok(inline.text.includes("123"), inline.text);
    const quoted = await s.call("exec", { command: "echo 'python bad.py | python'", workdir: work });
    assertRan(quoted);
    assert.equal(quoted.text, "python bad.py | python");
  });

  test("a shell variable inside a python string literal is allowed (§8.2 case 37)", async () => {
    const r = await s.call("exec", { command: "python3 ok.py", workdir: work });
    assertRan(r);
    assert.equal(r.details.status, "completed", r.text);
  });

  test("an env prefix does not hide the script", async () => {
    const r = await s.call("exec", { command: "env FOO=1 python3 bad.py", workdir: work });
    assertRefused(r, pythonFinding("$DM_JSON", "bad.py:1"));
  });

  test("the line of the first hit in code is reported, skipping strings and docstrings", async () => {
    const r = await s.call("exec", { command: "python3 multi.py", workdir: work });
    assertRefused(r, pythonFinding("$IN_FIELD", "multi.py:5"));
  });

  test("a node file that starts with a shell command is refused", async () => {
    const r = await s.call("exec", { command: "node shell.js", workdir: work });
    assertRefused(
      r,
      "exec preflight: JS file starts with shell syntax (NODE=production node server.js). This looks like a shell " +
        "command, not JavaScript.",
    );
  });

  test("a script outside the working directory is not checked", async () => {
    for (const command of ["python3 ../outside/x.py", `python3 ${join(outside, "x.py")}`, "python3 escape.py"]) {
      const r = await s.call("exec", { command, workdir: work });
      assertRan(r);
      assert.ok(r.text.includes("SyntaxError"), `${command}: python ran the file: ${r.text}`);
    }
  });
});

describe("script preflight with the default policy", () => {
  test("gateway/full/off does not preflight: the script runs", async () => {
    const s = await startServer();
    try {
      const r = await s.call("exec", { command: "python3 bad.py", workdir: work });
      assertRan(r);
      assert.ok(r.text.includes("SyntaxError"), r.text);
      const pipeline = await s.call("exec", { command: "cat bad.py | python3", workdir: work });
      assertRan(pipeline);
    } finally {
      await s.close();
    }
  });
});
