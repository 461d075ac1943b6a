// The command environment (reference §3.1-§3.3, §3.6, §7.17, §8.2 #11, #19-#25): rejected
// overrides throw `Security Violation: ...` and run nothing, allowed ones arrive literally, "no
// pager" overrides are normalised, inherited variables are filtered, the OPENCLAW_SHELL and
// OPENCLAW_CLI markers are set, and the shell is chosen from SHELL.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { startServer, startRawServer, scratchDir, expectThrownExec } from "./lib/harness.mjs";

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

const expectThrown = (args, message) => expectThrownExec(s, args, message);

describe("environment overrides (§3.2, §8.2 #19-#24)", { concurrency: 4 }, () => {
  const cases = [
    [{ PATH: "/explicit/bin" }, "Security Violation: Custom 'PATH' variable is forbidden during host execution."],
    [{ LD_DEBUG: "1" }, "Security Violation: Environment variable 'LD_DEBUG' is forbidden during host execution."],
    [
      { HTTPS_PROXY: "http://p:8080", NODE_TLS_REJECT_UNAUTHORIZED: "0" },
      "Security Violation: blocked override keys: HTTPS_PROXY, NODE_TLS_REJECT_UNAUTHORIZED.",
    ],
    [{ CLASSPATH: "/tmp/x" }, "Security Violation: Environment variable 'CLASSPATH' is forbidden during host execution."],
    [{ "BAD-KEY": "1" }, "Security Violation: invalid non-portable override keys: BAD-KEY."],
    [
      { PATH: "/x", "A-B": "1" },
      "Security Violation: Custom 'PATH' variable is forbidden during host execution " +
        "(blocked override keys: PATH; invalid non-portable override keys: A-B).",
    ],
    [{ ld_preload: "/x.so" }, "Security Violation: Environment variable 'LD_PRELOAD' is forbidden during host execution."],
    [{ DYLD_INSERT_LIBRARIES: "x" }, "Security Violation: Environment variable 'DYLD_INSERT_LIBRARIES' is forbidden during host execution."],
    [{ BASH_ENV: "/tmp/x", GIT_CONFIG_COUNT: "1" }, "Security Violation: blocked override keys: BASH_ENV, GIT_CONFIG_COUNT."],
    [{ HOME: "/tmp" }, "Security Violation: Environment variable 'HOME' is forbidden during host execution."],
    // Issue 10 #12: names beyond the reference's lists, and keys that are no environment names.
    [{ GIT_TRACE: "/tmp/x" }, "Security Violation: Environment variable 'GIT_TRACE' is forbidden during host execution."],
    [{ GIT_TRACE2_EVENT: "/tmp/x" }, "Security Violation: Environment variable 'GIT_TRACE2_EVENT' is forbidden during host execution."],
    [{ PERLLIB: "/tmp" }, "Security Violation: Environment variable 'PERLLIB' is forbidden during host execution."],
    [{ PYTHONWARNINGS: "ignore::evil.W", LESS: "+!id" }, "Security Violation: blocked override keys: LESS, PYTHONWARNINGS."],
    [{ "ls()": "() { id; }" }, "Security Violation: invalid non-portable override keys: ls()."],
    [{ "": "x" }, 'Security Violation: invalid non-portable override keys: "".'],
    [{ "9A": "x", "A\u0000B": "y" }, 'Security Violation: invalid non-portable override keys: 9A, "A\\x00B".'],
  ];
  for (const [env, message] of cases) {
    test(`env ${JSON.stringify(env)} is rejected with: ${message}`, async () => {
      await expectThrown({ env }, message);
    });
  }

  test("a numeric env value is converted to a string like the reference agent loop", async () => {
    const r = await s.call("exec", { command: "printf '%s' \"$NUM\"", env: { NUM: 1 } });
    assert.equal(r.text, "1");
  });

  test("allowed overrides reach the command literally, without expansion", async () => {
    const r = await s.call("exec", {
      command: "printf '%s|%s' \"$FOO\" \"$LITERAL\"",
      env: { FOO: "bar baz", LITERAL: "$HOME" },
    });
    assert.equal(r.text, "bar baz|$HOME");
  });
});

describe("markers and inherited environment", { concurrency: 3 }, () => {
  test("OPENCLAW_SHELL is exec for every command, even when the caller overrides it (§8.2 #11, §7.17)", async () => {
    const plain = await s.call("exec", { command: "printf '%s' \"${OPENCLAW_SHELL:-}\"" });
    assert.equal(plain.text, "exec");
    const overridden = await s.call("exec", {
      command: "printf '%s' \"${OPENCLAW_SHELL:-}\"",
      env: { OPENCLAW_SHELL: "other" },
    });
    assert.equal(overridden.text, "exec");
    const pty = await s.call("exec", { command: "printf '%s' \"${OPENCLAW_SHELL:-}\"", pty: true });
    assert.equal(pty.text, "exec");
  });

  test("host commands get the OPENCLAW_CLI=1 marker (§3.3)", async () => {
    const r = await s.call("exec", { command: "printf '%s' \"${OPENCLAW_CLI:-unset}\"" });
    assert.equal(r.text, "1");
  });

  test("blocked variables in the server's environment are hidden from commands; allowed ones pass (§8.2 #25)", async () => {
    const t = await startServer({
      env: {
        SSLKEYLOGFILE: "/tmp/k.log",
        NODE_OPTIONS: "--no-warnings",
        EDITOR: "vi-editor-marker",
        CLAWEXEC_TEST_PLAIN: "visible-value",
        HTTPS_PROXY: "http://proxy.invalid:3128",
      },
    });
    try {
      const r = await t.call("exec", {
        command:
          "printf '%s|%s|%s|%s|%s' \"${SSLKEYLOGFILE:-}\" \"${NODE_OPTIONS:-}\" " +
          "\"${EDITOR:-}\" \"${CLAWEXEC_TEST_PLAIN:-}\" \"${HTTPS_PROXY:-}\"",
      });
      assert.equal(r.text, "|||visible-value|http://proxy.invalid:3128");
      assert.doesNotMatch(r.text, /k\.log/);
    } finally {
      await t.close();
    }
  });
});

describe("pager and git normalisation", { concurrency: 2 }, () => {
  test("PAGER and GIT_PAGER overrides asking for no pager (cat or empty) are accepted as empty", async () => {
    const r = await s.call("exec", {
      command: "printf '[%s][%s]' \"${PAGER-unset}\" \"${GIT_PAGER-unset}\"",
      env: { PAGER: "cat", GIT_PAGER: "" },
    });
    assert.equal(r.text, "[][]");
  });

  test("a PAGER override naming a real pager is rejected", async () => {
    await expectThrown(
      { env: { PAGER: "less" } },
      "Security Violation: Environment variable 'PAGER' is forbidden during host execution.",
    );
  });

  test("inherited git protocol settings are hardened", async () => {
    const t = await startServer({ env: { GIT_ALLOW_PROTOCOL: "file:git:https:ext", GIT_PROTOCOL_FROM_USER: "yes" } });
    try {
      const r = await t.call("exec", { command: "printf '[%s][%s]' \"$GIT_ALLOW_PROTOCOL\" \"$GIT_PROTOCOL_FROM_USER\"" });
      assert.equal(r.text, "[git:https][0]");
    } finally {
      await t.close();
    }
  });
});

describe("shell selection (§3.6)", { concurrency: 4 }, () => {
  const argv = "tr '\\0' ' ' < /proc/$$/cmdline";
  // The shell's own argv, without the startup snapshot's prologue (tested below).
  async function shellLine(shell) {
    const t = await startServer({ env: { SHELL: shell, OPENCLAW_EXEC_SHELL_SNAPSHOT: "0" } });
    try {
      return (await t.call("exec", { command: argv })).text;
    } finally {
      await t.close();
    }
  }

  test("SHELL=/bin/bash runs bash --noprofile --norc -c <command>", async () => {
    assert.equal(await shellLine("/bin/bash"), `/bin/bash --noprofile --norc -c ${argv}`);
  });

  test("with the startup snapshot, bash sources it and evals the command (§3.7)", async () => {
    const t = await startServer({ env: { SHELL: "/bin/bash" } });
    try {
      const line = (await t.call("exec", { command: argv })).text;
      const snap = `${t.stateDir}/cache/shell-snapshots/`;
      const m = /^\/bin\/bash --noprofile --norc -c if \[ -r '([^']+)' \]; then \. '([^']+)'; fi\neval '(.*)'$/s.exec(line);
      assert.ok(m, line);
      assert.equal(m[1], m[2]);
      assert.ok(m[1].startsWith(snap) && /^[0-9a-f]{64}\.sh$/.test(m[1].slice(snap.length)), m[1]);
      assert.equal(m[3].replaceAll("'\\''", "'"), argv, "the command is single-quoted for eval");
    } finally {
      await t.close();
    }
  });

  test("SHELL=/bin/sh runs sh -c <command>", async () => {
    assert.equal(await shellLine("/bin/sh"), `/bin/sh -c ${argv}`);
  });

  test("a fish SHELL is replaced by bash from PATH", async () => {
    assert.match(await shellLine("/usr/bin/fish"), /^\S*\/bash --noprofile --norc -c tr /);
  });

  test("a nologin or false SHELL is replaced by sh from PATH", async () => {
    assert.match(await shellLine("/bin/false"), /^\S*\/sh -c tr /);
    assert.match(await shellLine("/usr/sbin/nologin"), /^\S*\/sh -c tr /);
  });

  test("without SHELL the command runs under sh from PATH", async () => {
    const raw = await startRawServer({ unsetEnv: ["SHELL"] });
    try {
      await raw.initialize();
      const r = await raw.callTool("exec", { command: argv });
      assert.match(r.text, /^\S*\/sh -c tr /);
    } finally {
      await raw.close();
    }
  });
});

// Issue 10 #12: GIT_TRACE* make git write to any path they name; an allowlisted git must not be
// turned into a file writer, neither through the call's `env` nor through the command line.
describe("an allowlisted git cannot be made to write a trace file (issue 10 #12)", { concurrency: 2 }, () => {
  const strict = {
    config: { tools: { exec: { security: "allowlist", ask: "off", strictInlineEval: true } } },
    approvals: { version: 1, agents: { main: { allowlist: [{ pattern: "/usr/bin/git" }] } } },
  };

  // git writes most traces only once it found a repository.
  let repo;
  before(() => {
    repo = join(scratch.dir, "repo");
    mkdirSync(repo, { recursive: true });
    execFileSync("git", ["init", "-q", repo]);
  });

  for (const key of ["GIT_TRACE", "GIT_TRACE2", "GIT_TRACE_SETUP", "GIT_TRACE2_EVENT"]) {
    test(`env ${key}=<file> with \`git status\` is refused and writes nothing`, async () => {
      const t = await startServer(strict);
      const marker = join(scratch.dir, `trace-${key}`);
      try {
        const ok = await t.call("exec", { command: "git --version" });
        assert.equal(ok.isError, false, `git is allowlisted: ${ok.text}`);
        const r = await t.call("exec", { command: "git status", workdir: repo, env: { [key]: marker } });
        assert.equal(existsSync(marker), false, "git wrote the trace file");
        assert.equal(r.isError, true, r.text);
        assert.equal(r.text, `Security Violation: Environment variable '${key}' is forbidden during host execution.`);
      } finally {
        rmSync(marker, { force: true });
        await t.close();
      }
    });
  }

  test("GIT_TRACE=<file> as a command prefix (or through env) is not auto-allowed", async () => {
    const t = await startServer(strict);
    const marker = join(scratch.dir, "trace-prefix");
    try {
      for (const command of [`GIT_TRACE=${marker} git status`, `env GIT_TRACE=${marker} git status`]) {
        const r = await t.call("exec", { command, workdir: repo });
        assert.equal(r.isError, true, r.text);
        assert.match(r.text, /^exec denied: allowlist miss/);
        assert.equal(existsSync(marker), false, `git wrote the trace file for ${command}`);
      }
    } finally {
      rmSync(marker, { force: true });
      await t.close();
    }
  });
});
