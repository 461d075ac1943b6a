// The shell-derived command environment (reference §3.1, §3.4, §3.5, §3.7; §8.2 #19, #26, #62):
// the login-shell PATH is probed once (again only when a startup file changes) and prepended,
// tools.exec.pathPrepend wins over anything the startup files do, aliases, functions and safe
// exports from the interactive rc file reach commands through a private snapshot that never holds
// secrets, and the caller's channel context arrives as OPENCLAW_CHANNEL_CONTEXT.
//
// Every server runs with a fake HOME (a scratch directory holding the startup files the test
// writes), so nothing depends on the account that runs the suite.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync, readFileSync, mkdirSync, chmodSync, copyFileSync, existsSync, readdirSync, statSync, utimesSync, symlinkSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { startServer, scratchDir, expectThrownExec, background, pollUntilExit, waitFor } from "./lib/harness.mjs";

const BASE_PATH = "/usr/local/bin:/usr/bin:/bin";
const PRINT_PATH = 'printf %s "$PATH"';

/**
 * Runs `fn(server, home)` against a server whose HOME is a fresh scratch directory holding
 * `files` ({relative path: text} or {relative path: {text, mode}}). options.env is added to the
 * server's environment (after HOME and PATH), options.config is its openclaw.json, options.path
 * replaces the server's PATH (a function of the home directory, or a string), options.prepare(home)
 * runs after the files are written and before the server starts.
 */
async function withHome(files, options, fn) {
  const home = scratchDir("clawexec-home-");
  try {
    writeFiles(home.dir, files);
    options.prepare?.(home.dir);
    const path = typeof options.path === "function" ? options.path(home.dir) : options.path ?? BASE_PATH;
    const env = typeof options.env === "function" ? options.env(home.dir) : options.env ?? {};
    const config = typeof options.config === "function" ? options.config(home.dir) : options.config;
    const approvals = typeof options.approvals === "function" ? options.approvals(home.dir) : options.approvals;
    const s = await startServer({
      ...(approvals === undefined ? {} : { approvals }),
      env: { HOME: home.dir, PATH: path, ...env },
      // Variables from the runner's environment that would change what the startup files see.
      unsetEnv: ["ZDOTDIR", "OPENAI_API_KEY", "NVM_DIR", "OPENCLAW_EXEC_SHELL_SNAPSHOT", "OPENCLAW_SHELL_ENV_TIMEOUT_MS", "ENV"]
        .filter((k) => !(k in env)),
      ...(config === undefined ? {} : { config }),
    });
    try {
      return await fn(s, home.dir);
    } finally {
      await s.close();
    }
  } finally {
    home.cleanup();
  }
}

function writeFiles(root, files) {
  for (const [rel, spec] of Object.entries(files)) {
    const file = join(root, rel);
    mkdirSync(dirname(file), { recursive: true });
    const { text, mode } = typeof spec === "string" ? { text: spec, mode: 0o644 } : spec;
    writeFileSync(file, text);
    chmodSync(file, mode ?? 0o644);
  }
}

/** An executable shell script that prints `word`. */
const printer = (word) => ({ text: `#!/bin/sh\necho ${word}\n`, mode: 0o755 });

/** The PATH entries a command sees. */
async function pathEntries(s, extra = {}) {
  const r = await s.call("exec", { command: PRINT_PATH, ...extra });
  assert.equal(r.isError, false, r.text);
  return r.text.split(":");
}

/** Lines in `file` (0 when it does not exist). */
function lineCount(file) {
  if (!existsSync(file)) return 0;
  return readFileSync(file, "utf8").split("\n").filter((l) => l.length > 0).length;
}

function assertNoDuplicates(entries) {
  const seen = new Set();
  for (const e of entries) {
    assert.ok(!seen.has(e), `PATH entry ${e} appears twice in ${entries.join(":")}`);
    seen.add(e);
  }
}

/** A startup file that counts how often it is sourced and prepends $HOME/<dir> entries. */
const countingProfile = (dirs, padding = "") =>
  `echo sourced >> "$HOME/probe-count"\n` +
  `export PATH="${dirs.map((d) => `$HOME/${d}`).join(":")}:$PATH"\n` +
  padding;

const snapshotDir = (s) => join(s.stateDir, "cache", "shell-snapshots");
function snapshotFiles(s) {
  const dir = snapshotDir(s);
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith(".sh")).map((f) => join(dir, f));
}

/** The call ran `a` without an alias: the shell did not find it. */
function assertNotFound(r) {
  assert.equal(r.isError, true, r.text);
  assert.equal(r.details?.status, "failed", r.text);
  assert.equal(r.details.exitCode, 127, r.text);
}

describe("login-shell PATH (§3.5, §8.2 #19, #26)", { concurrency: 2 }, () => {
  test("the login shell's PATH entries come first, deduplicated, and the probe runs once", async () => {
    await withHome({ ".profile": countingProfile(["login-a", "login-b"]) }, {}, async (s, home) => {
      const entries = await pathEntries(s);
      assert.deepEqual(entries.slice(0, 2), [`${home}/login-a`, `${home}/login-b`], entries.join(":"));
      assert.ok(entries.includes("/usr/bin"), entries.join(":"));
      assert.ok(entries.includes("/bin"), entries.join(":"));
      assertNoDuplicates(entries);
      await pathEntries(s);
      const third = await pathEntries(s);
      assert.deepEqual(third, entries, "the same PATH on every call");
      assert.equal(lineCount(join(home, "probe-count")), 1, "the login shell is probed once");
    });
  });

  test("a changed startup file is probed again on the next call", async () => {
    await withHome({ ".profile": countingProfile(["login-a", "login-b"]) }, {}, async (s, home) => {
      const first = await pathEntries(s);
      assert.equal(first[0], `${home}/login-a`);
      await pathEntries(s);
      assert.equal(lineCount(join(home, "probe-count")), 1);
      writeFiles(home, { ".profile": countingProfile(["login-c", "login-a", "login-b"], "# changed\n") });
      const after = await pathEntries(s);
      assert.deepEqual(after.slice(0, 3), [`${home}/login-c`, `${home}/login-a`, `${home}/login-b`], after.join(":"));
      assertNoDuplicates(after);
      assert.equal(lineCount(join(home, "probe-count")), 2, "probed once more after the change");
      await pathEntries(s);
      assert.equal(lineCount(join(home, "probe-count")), 2, "and cached again");
    });
  });

  test("zsh: ~/.zprofile entries are prepended", async () => {
    const files = { ".zprofile": 'export PATH="$HOME/zlogin:$PATH"\n' };
    await withHome(files, { env: { SHELL: "/usr/bin/zsh" } }, async (s, home) => {
      const entries = await pathEntries(s);
      assert.equal(entries[0], `${home}/zlogin`, entries.join(":"));
      assert.ok(entries.includes("/usr/bin"), entries.join(":"));
      assertNoDuplicates(entries);
    });
  });

  test("a SHELL not listed in /etc/shells is not used for the probe: /bin/sh reads ~/.profile", async () => {
    const files = {
      ".profile": 'export PATH="$HOME/from-profile:$PATH"\n',
      // bash -l would read this one instead of ~/.profile.
      ".bash_profile": 'export PATH="$HOME/from-bash-profile:$PATH"\n',
    };
    const home = scratchDir("clawexec-shells-");
    try {
      const shell = join(home.dir, "bash");
      copyFileSync("/bin/bash", shell);
      chmodSync(shell, 0o755);
      await withHome(files, { env: { SHELL: shell } }, async (s, fake) => {
        const entries = await pathEntries(s);
        assert.ok(entries.includes(`${fake}/from-profile`), entries.join(":"));
        assert.ok(!entries.includes(`${fake}/from-bash-profile`), entries.join(":"));
      });
    } finally {
      home.cleanup();
    }
  });

  test("a probe slower than OPENCLAW_SHELL_ENV_TIMEOUT_MS is abandoned; the command still runs", async () => {
    const files = { ".profile": 'sleep 5\nexport PATH="$HOME/slow-login:$PATH"\n' };
    const t0 = Date.now();
    await withHome(files, { env: { OPENCLAW_SHELL_ENV_TIMEOUT_MS: "300" } }, async (s, home) => {
      const r = await s.call("exec", { command: `echo ok; ${PRINT_PATH}` });
      const elapsed = Date.now() - t0;
      assert.equal(r.isError, false, r.text);
      const [first, path] = r.text.split("\n");
      assert.equal(first, "ok");
      assert.ok(elapsed < 4000, `the call took ${elapsed} ms; the probe must be cut off after 300 ms`);
      assert.ok(!path.split(":").includes(`${home}/slow-login`), path);
      // A startup file that answers in time is probed again once it changed.
      writeFiles(home, { ".profile": 'export PATH="$HOME/fast-login:$PATH"\n' });
      const entries = await pathEntries(s);
      assert.equal(entries[0], `${home}/fast-login`, entries.join(":"));
    });
  });

  test("a per-call PATH is refused before anything runs (§8.2 #19)", async () => {
    await withHome({ ".profile": countingProfile(["login-a"]) }, {}, async (s) => {
      await expectThrownExec(s, { env: { PATH: "/x" } }, "Security Violation: Custom 'PATH' variable is forbidden during host execution.");
    });
  });
});

describe("the policy engine sees the same PATH (§3.5 with §4)", () => {
  test("under security=allowlist, login-shell and pathPrepend directories resolve, and rendered commands skip the snapshot", async () => {
    const files = {
      ".profile": 'export PATH="$HOME/login-bin:$PATH"\n',
      ".bashrc": "alias logintool='echo from-alias'\n",
      "login-bin/logintool": printer("L"),
      "tools-a/whichone": printer("A"),
    };
    const options = {
      config: (home) => ({ tools: { exec: { security: "allowlist", ask: "off", pathPrepend: [`${home}/tools-a`] } } }),
      approvals: (home) => ({
        version: 1,
        agents: { main: { allowlist: [{ pattern: `${home}/login-bin/*` }, { pattern: `${home}/tools-a/*` }] } },
      }),
    };
    await withHome(files, options, async (s) => {
      const login = await s.call("exec", { command: "logintool" });
      assert.equal(login.text, "L", "resolved through the login PATH and run as that path, not the alias");
      const prepended = await s.call("exec", { command: "whichone" });
      assert.equal(prepended.text, "A");
      await expectThrownExec(s, {}, "exec denied: allowlist miss");
    });
  });
});

describe("tools.exec.pathPrepend (§3.5)", { concurrency: 2 }, () => {
  const tools = { "tools-a/whichone": printer("A"), "tools-b/whichone": printer("B") };
  const prependA = (home) => ({ tools: { exec: { pathPrepend: [`${home}/tools-a`] } } });

  test("prepended entries stay first even when ~/.bashrc puts another directory first", async () => {
    const files = { ...tools, ".bashrc": 'export PATH="$HOME/tools-b:$PATH"\n' };
    // clawexec keeps the PATH ~/.bashrc exports even when the login shell adds entries (the
    // reference re-exports the command's PATH over it); the default server PATH pins that.
    await withHome(files, { config: prependA }, async (s, home) => {
      const r = await s.call("exec", { command: "whichone" });
      assert.equal(r.text, "A");
      const entries = await pathEntries(s);
      assert.deepEqual(entries.slice(0, 2), [`${home}/tools-a`, `${home}/tools-b`], entries.join(":"));
      assertNoDuplicates(entries);
      const marker = await s.call("exec", { command: 'printf %s "${OPENCLAW_PREPEND_PATH-unset}"' });
      assert.equal(marker.text, "unset", "the helper variable is not left for the command");
    });
  });

  test("prepended entries come before the login shell's PATH", async () => {
    const files = { ...tools, ".profile": 'export PATH="$HOME/tools-b:$PATH"\n' };
    await withHome(files, { config: prependA }, async (s, home) => {
      const r = await s.call("exec", { command: "whichone" });
      assert.equal(r.text, "A");
      const entries = await pathEntries(s);
      assert.deepEqual(entries.slice(0, 2), [`${home}/tools-a`, `${home}/tools-b`], entries.join(":"));
      assertNoDuplicates(entries);
    });
  });

  test("a leading ~ in an entry is the server's HOME", async () => {
    const files = { "tools/whichone": printer("T"), "tools-b/whichone": printer("B"), ".profile": 'export PATH="$HOME/tools-b:$PATH"\n' };
    const config = { tools: { exec: { pathPrepend: ["~/tools"] } } };
    await withHome(files, { config }, async (s, home) => {
      const r = await s.call("exec", { command: "whichone" });
      assert.equal(r.text, "T");
      const entries = await pathEntries(s);
      assert.equal(entries[0], `${home}/tools`, entries.join(":"));
    });
  });
});

describe("shell startup snapshot (§3.7, §8.2 #62)", { concurrency: 2 }, () => {
  const bashrc = (aliasText = "alias-ok") =>
    `alias a='printf ${aliasText}'\n` +
    "f(){ printf fn-ok; }\n" +
    'export PATH="$HOME/snapshot/bin:$PATH"\n' +
    "export OPENAI_API_KEY=sk-test-123456\n";

  test("aliases, functions and PATH from ~/.bashrc reach commands; secrets do not", async () => {
    await withHome({ ".bashrc": bashrc() }, {}, async (s, home) => {
      const r = await s.call("exec", { command: "f; printf ' '; a" });
      assert.equal(r.isError, false, r.text);
      assert.equal(r.text, "fn-ok alias-ok");
      const entries = await pathEntries(s);
      assert.ok(entries.includes(`${home}/snapshot/bin`), entries.join(":"));
      const key = await s.call("exec", { command: 'printf %s "${OPENAI_API_KEY-unset}"' });
      assert.equal(key.text, "unset");

      assert.equal(statSync(snapshotDir(s)).mode & 0o777, 0o700, "the snapshot directory is private");
      const files = snapshotFiles(s);
      assert.ok(files.length >= 1, "a snapshot file was written");
      for (const file of files) {
        assert.equal(statSync(file).mode & 0o777, 0o600, `${file} is private`);
        const text = readFileSync(file, "utf8");
        assert.ok(!text.includes("OPENAI_API_KEY"), `${file} names the secret`);
        assert.ok(!text.includes("sk-test-123456"), `${file} holds the secret's value`);
      }
    });
  });

  test("a changed ~/.bashrc is captured again", async () => {
    await withHome({ ".bashrc": bashrc() }, {}, async (s, home) => {
      assert.equal((await s.call("exec", { command: "a" })).text, "alias-ok");
      writeFiles(home, { ".bashrc": bashrc("alias-two") });
      assert.equal((await s.call("exec", { command: "a" })).text, "alias-two");
    });
  });

  test("rc state that looks like a secret writes no snapshot; commands run without it", async () => {
    const files = { ".bashrc": "alias gh2='GITHUB_TOKEN=ghp_x gh'\nalias a='printf alias-ok'\n" };
    await withHome(files, {}, async (s, home) => {
      assertNotFound(await s.call("exec", { command: "a" }));
      assert.deepEqual(snapshotFiles(s), []);
      const ok = await s.call("exec", { command: "echo ok" });
      assert.equal(ok.isError, false, ok.text);
      assert.equal(ok.text, "ok");
      // Without the secret-looking alias the same rc file is captured (the refusal above was the
      // secret check, not a missing snapshot).
      writeFiles(home, { ".bashrc": "alias gh2='gh --version'\nalias a='printf alias-ok'\n" });
      assert.equal((await s.call("exec", { command: "a" })).text, "alias-ok");
      assert.equal(snapshotFiles(s).length >= 1, true, "a snapshot is written for the clean rc file");
    });
  });

  for (const value of ["0", "off", "FALSE"]) {
    test(`OPENCLAW_EXEC_SHELL_SNAPSHOT=${value} in the server's environment disables the snapshot`, async () => {
      await withHome({ ".bashrc": bashrc() }, { env: { OPENCLAW_EXEC_SHELL_SNAPSHOT: value } }, async (s) => {
        assertNotFound(await s.call("exec", { command: "a" }));
        assert.deepEqual(snapshotFiles(s), []);
      });
    });
  }

  test("zsh: an alias and a function from ~/.zshrc work", async () => {
    const files = { ".zshrc": "alias a='printf alias-ok'\nf() { printf fn-ok; }\n" };
    await withHome(files, { env: { SHELL: "/usr/bin/zsh" } }, async (s) => {
      const r = await s.call("exec", { command: "f; printf ' '; a" });
      assert.equal(r.isError, false, r.text);
      assert.equal(r.text, "fn-ok alias-ok");
    });
  });

  test("a per-call value of a safe name exported by ~/.bashrc wins over the snapshot's", async () => {
    await withHome({ ".bashrc": "export NVM_DIR=/from/rc\n" }, {}, async (s) => {
      const plain = await s.call("exec", { command: 'printf %s "$NVM_DIR"' });
      assert.equal(plain.text, "/from/rc", "the snapshot exports the safe name");
      const r = await s.call("exec", { command: 'printf %s "$NVM_DIR"', env: { NVM_DIR: "/from/call" } });
      assert.equal(r.text, "/from/call");
    });
  });

  test("background runs see the snapshot too", async () => {
    await withHome({ ".bashrc": bashrc() }, {}, async (s) => {
      const b = await background(s, "f; printf ' '; a");
      const end = await pollUntilExit(s, b.id);
      assert.equal(end.details.status, "completed", end.text);
      const log = await s.call("process", { action: "log", sessionId: b.id });
      assert.equal(log.text, "fn-ok alias-ok");
    });
  });
});

describe("OPENCLAW_CHANNEL_CONTEXT (§3.4)", { concurrency: 3 }, () => {
  const PRINT_CONTEXT = 'printf %s "${OPENCLAW_CHANNEL_CONTEXT-unset}"';

  /** exec with the given request _meta channel context (omitted when undefined). */
  async function execWithContext(s, context, args = {}) {
    const params = { name: "exec", arguments: { command: PRINT_CONTEXT, ...args } };
    if (context !== undefined) params._meta = { "openclaw/channelContext": context };
    const raw = await s.client.callTool(params);
    return { text: raw.content?.[0]?.text, isError: raw.isError === true };
  }

  const cases = [
    [{ sender: { id: "u-1" }, chat: { id: "c-9" } }, '{"sender":{"id":"u-1"},"chat":{"id":"c-9"}}'],
    [{ sender: { id: "u-1" } }, '{"sender":{"id":"u-1"}}'],
    [{ chat: { id: "c-9" } }, '{"chat":{"id":"c-9"}}'],
    [{ sender: { id: "   " }, chat: { id: "c-9" } }, '{"chat":{"id":"c-9"}}'],
    [{ sender: { id: "u-1" }, chat: { id: "" } }, '{"sender":{"id":"u-1"}}'],
    [{ sender: { id: " u-1 " }, chat: { id: "\tc-9\n" } }, '{"sender":{"id":"u-1"},"chat":{"id":"c-9"}}'],
    [{ sender: { id: " " }, chat: { id: "\t" } }, "unset"],
    [undefined, "unset"],
  ];
  for (const [context, expected] of cases) {
    test(`channel context ${JSON.stringify(context)} → ${expected}`, async () => {
      await withHome({}, {}, async (s) => {
        const r = await execWithContext(s, context);
        assert.equal(r.isError, false, r.text);
        assert.equal(r.text, expected);
      });
    });
  }

  test("the channel context overrides a per-call value of the same name", async () => {
    await withHome({}, {}, async (s) => {
      const plain = await execWithContext(s, undefined, { env: { OPENCLAW_CHANNEL_CONTEXT: "x" } });
      assert.equal(plain.text, "x", "without a channel context the per-call value arrives");
      const r = await execWithContext(s, { sender: { id: "u-1" }, chat: { id: "c-9" } }, { env: { OPENCLAW_CHANNEL_CONTEXT: "x" } });
      assert.equal(r.isError, false, r.text);
      assert.equal(r.text, '{"sender":{"id":"u-1"},"chat":{"id":"c-9"}}');
    });
  });
});

// Issue 10 item 6b: the server never runs a startup file that changed since it started unless
// the call's policy is security=full ask=off (where the agent could run the file itself). The
// writes below stand for a write the policy allowed (an allowlisted command, an operator's
// apply_patch key): the test writes the file directly after the server started.
describe("startup files changed after start-up are not run under a strict policy (issue 10 #6b)", { concurrency: 3 }, () => {
  const strictConfig = { tools: { exec: { security: "allowlist", ask: "off", strictInlineEval: true } } };
  const strictApprovals = {
    version: 1,
    agents: { main: { allowlist: [{ pattern: "/usr/bin/id" }, { pattern: "/usr/bin/ls" }, { pattern: "/usr/bin/printf" }] } },
  };
  const strict = { config: strictConfig, approvals: strictApprovals };
  const markerIn = (home) => join(home, "pwned");
  const planting = (home, extra = "") => `touch '${markerIn(home)}'\nexport PATH="$HOME/planted:$PATH"\n${extra}`;
  const warned = (s, file) => s.stderr.includes(`shell startup file ${file} changed since this server started`) && s.stderr.includes("Restart the server");
  // The warning goes to stderr, a pipe of its own: it may reach the test after the call's answer.
  const waitWarned = (s, file) => waitFor(() => warned(s, file), 5000, `the warning about ${file}`);

  /** One call that needs the login PATH, so the start-up probe has finished. */
  async function settle(s) {
    const r = await s.call("exec", { command: "/usr/bin/printf ok" });
    assert.equal(r.isError, false, r.text);
  }

  test("a ~/.profile created after start is not run by `exec id` under allowlist; the server warns once", async () => {
    await withHome({}, strict, async (s, home) => {
      await settle(s);
      writeFiles(home, { ".profile": planting(home) });
      const r = await s.call("exec", { command: "id" });
      assert.equal(r.isError, false, r.text);
      assert.equal(existsSync(markerIn(home)), false, "the changed ~/.profile ran");
      await s.call("exec", { command: "id" });
      await waitWarned(s, join(home, ".profile"));
      const count = s.stderr.split(`shell startup file ${join(home, ".profile")} changed`).length - 1;
      assert.equal(count, 1, `warned once, not per call:\n${s.stderr}`);
    });
  });

  test("a denied command does not run a changed ~/.profile either", async () => {
    await withHome({ ".profile": "# trusted\n" }, strict, async (s, home) => {
      await settle(s);
      writeFiles(home, { ".profile": planting(home) });
      await expectThrownExec(s, { command: "touch /tmp/never-clawexec" }, "exec denied: allowlist miss");
      assert.equal(existsSync(markerIn(home)), false, "the changed ~/.profile ran");
    });
  });

  test("a login probe that failed at start-up is not retried after a change", async () => {
    await withHome({ ".profile": "exit 3\n" }, strict, async (s, home) => {
      await settle(s);
      writeFiles(home, { ".profile": planting(home) });
      const r = await s.call("exec", { command: "id" });
      assert.equal(r.isError, false, r.text);
      assert.equal(existsSync(markerIn(home)), false, "the changed ~/.profile ran");
    });
  });

  test("a per-call ask=always makes the call strict under a full configuration", async () => {
    await withHome({ ".profile": "# trusted\n" }, {}, async (s, home) => {
      await settle(s);
      writeFiles(home, { ".profile": planting(home) });
      await s.call("exec", { command: "id", ask: "always" });
      assert.equal(existsSync(markerIn(home)), false, "the changed ~/.profile ran");
    });
  });

  test("a changed ~/.bashrc is not captured again for a strict call that would use the snapshot", async () => {
    const files = { ".bashrc": "alias a='printf trusted'\n" };
    await withHome(files, strict, async (s, home) => {
      await settle(s);
      writeFiles(home, { ".bashrc": `touch '${markerIn(home)}'\nalias a='printf planted'\n` });
      // Exactly the enforced rendering: the command runs unchanged, so the snapshot is wanted.
      const r = await s.call("exec", { command: "/usr/bin/ls /" });
      assert.equal(r.isError, false, r.text);
      assert.equal(existsSync(markerIn(home)), false, "the changed ~/.bashrc ran");
      await waitWarned(s, join(home, ".bashrc"));
    });
  });

  // Variants: other files the probe or capture reads, another shell, a symlink retargeted.
  const variants = [
    { name: "~/.bash_profile created", shell: "/bin/bash", write: (home) => writeFiles(home, { ".bash_profile": planting(home) }) },
    { name: "zsh: ~/.zprofile created", shell: "/usr/bin/zsh", write: (home) => writeFiles(home, { ".zprofile": planting(home) }) },
    { name: "zsh: ~/.zshenv created", shell: "/usr/bin/zsh", write: (home) => writeFiles(home, { ".zshenv": planting(home) }) },
    {
      name: "~/.profile symlink retargeted",
      shell: "/bin/bash",
      files: { "dotfiles/profile": "# trusted\n", "dotfiles/evil": "# planted later\n" },
      prepare: (home) => symlinkSync(join(home, "dotfiles/profile"), join(home, ".profile")),
      write: (home) => {
        writeFileSync(join(home, "dotfiles/evil"), planting(home));
        rmSync(join(home, ".profile"));
        symlinkSync(join(home, "dotfiles/evil"), join(home, ".profile"));
      },
    },
  ];
  for (const v of variants) {
    test(`${v.name} after start is not run by a strict call`, async () => {
      const options = { ...strict, env: { SHELL: v.shell }, ...(v.prepare ? { prepare: v.prepare } : {}) };
      await withHome(v.files ?? {}, options, async (s, home) => {
        await settle(s);
        v.write(home);
        const r = await s.call("exec", { command: "id" });
        assert.equal(r.isError, false, r.text);
        assert.equal(existsSync(markerIn(home)), false, "the changed startup file ran");
        await waitFor(() => /shell startup file \S+ changed since this server started/.test(s.stderr), 5000, "the warning");
      });
    });
  }

  test("under security=full ask=off the changed file is run again, even with its mtime reset", async () => {
    // Whole seconds, so that setting the mtime back restores it exactly.
    const stamp = 1_700_000_000;
    const prepare = (home) => utimesSync(join(home, ".profile"), stamp, stamp);
    await withHome({ ".profile": 'export PATH="$HOME/one:$PATH"\n' }, { prepare }, async (s, home) => {
      const before = await pathEntries(s);
      assert.equal(before[0], `${home}/one`);
      const file = join(home, ".profile");
      // Same size, same inode, same mtime: only the content tells.
      writeFileSync(file, 'export PATH="$HOME/two:$PATH"\n');
      utimesSync(file, stamp, stamp);
      assert.equal(statSync(file).mtimeMs, stamp * 1000);
      const after = await pathEntries(s);
      assert.equal(after[0], `${home}/two`, after.join(":"));
      writeFiles(home, { ".profile": planting(home) });
      await pathEntries(s);
      assert.equal(existsSync(markerIn(home)), true, "a full policy re-runs the changed file");
      assert.ok(!s.stderr.includes("changed since this server started"), s.stderr);
    });
  });
});
