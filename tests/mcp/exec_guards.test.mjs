// Control-command guards (reference §1.4 step 11, §3.9, §8.2 #29, #30): shell commands that would
// resolve an approval (`/approve <id> <decision>`) or start an interactive channel login are
// rejected before anything runs, however they are wrapped.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { startServer, scratchDir } from "./lib/harness.mjs";

const APPROVE_MESSAGE =
  "exec cannot run /approve commands. Show the /approve command to the user as chat text, or route it through " +
  "the approval command handler instead of shell execution.";
const LOGIN_MESSAGE =
  "exec cannot run interactive OpenClaw channel login commands. Run `openclaw channels login` in a terminal on " +
  "the gateway host, or use the channel-specific login agent tool when available (for WhatsApp: `whatsapp_login`).";

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

describe("control-command guards", { concurrency: 4 }, () => {
  const approveCases = [
    "echo ok && /approve abc123 allow-once",
    "echo ok | /approve abc123 deny",
    "FOO=1 /approve abc123 allow-once",
    "env -i /approve abc123 deny",
    "env -S '/approve abc123 deny'",
    "command -p /approve abc123 deny",
    "exec -a openclaw /approve abc123 deny",
  ];
  for (const command of approveCases) {
    test(`an /approve command is refused: ${command}`, async () => {
      const marker = join(scratch.dir, `ran-${Math.random().toString(36).slice(2)}`);
      const r = await s.call("exec", { command: `touch ${marker}; ${command}` });
      assert.equal(r.isError, true);
      assert.equal(r.text, APPROVE_MESSAGE);
      assert.equal(r.details, undefined);
      assert.equal(existsSync(marker), false, "nothing runs");
    });
  }

  for (const command of ["openclaw channels login", "npx openclaw channels login --channel whatsapp"]) {
    test(`an interactive channel login is refused: ${command}`, async () => {
      const r = await s.call("exec", { command });
      assert.equal(r.isError, true);
      assert.equal(r.text, LOGIN_MESSAGE);
    });
  }

  test("text that merely mentions /approve still runs", async () => {
    const r = await s.call("exec", { command: "echo '/approve is a chat command'" });
    assert.equal(r.text, "/approve is a chat command");
  });
});

describe("live state databases (gateway host)", () => {
  const SQLITE_MESSAGE =
    "external sqlite3 cannot open databases under the active OpenClaw state directory. Use OpenClaw commands " +
    "for live state, or inspect a private backup copy outside `OPENCLAW_STATE_DIR`.";

  test("sqlite3 on a database inside the state directory is refused before anything runs", async () => {
    const s = await startServer();
    try {
      for (const command of [
        `sqlite3 ${s.stateDir}/sessions.db .tables`,
        `cd /tmp && sqlite3 "file:${s.stateDir}/tasks.sqlite?mode=ro" 'select 1'`,
      ]) {
        const r = await s.call("exec", { command });
        assert.equal(r.isError, true, command);
        assert.equal(r.details, undefined, command);
        assert.equal(r.text, SQLITE_MESSAGE, command);
      }
      // Outside the state directory, and in-memory databases, are fine (the guard lets them run).
      const outside = await s.call("exec", { command: "sqlite3 /tmp/elsewhere.db .tables; echo ran-$?" });
      assert.match(outside.text, /ran-/);
      const memory = await s.call("exec", { command: "sqlite3 :memory: 'select 1'; echo ran-$?" });
      assert.match(memory.text, /ran-/);
    } finally {
      await s.close();
    }
  });
});
