// Attacks on apply_patch (issue 10 items 5, 6a, 16): a server started, as MCP clients do, with
// its working directory at a fake HOME whose .openclaw is the state dir. The agent must not be
// able to write clawexec's state (the approvals document: raising its own policy), the config
// file, the shim every command is spawned through, shell startup files or git's config and
// hooks, however the path is spelled; a NUL in a path must not make it write another file. In
// every test the attack's effect (a changed policy file, a created file, a command that runs)
// is the failure, and a refused patch must leave every file of it unwritten.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  chmodSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLAWEXEC, CLAWEXEC_SHIM, closeAll, serverEnv, startServer } from "./lib/harness.mjs";

const patch = (body) => `*** Begin Patch\n${body}*** End Patch`;
const marker = () => join(tmpdir(), `clawexec-pwned-${process.pid}-${Math.random().toString(36).slice(2)}`);

// The approvals document of an allowlist policy: only git, ls, cat and python3 run.
const approvalsText = JSON.stringify(
  {
    version: 1,
    defaults: { security: "allowlist", ask: "off", askFallback: "deny" },
    agents: {
      main: {
        allowlist: [
          { pattern: "/usr/bin/git" }, { pattern: "/usr/bin/ls" }, { pattern: "/usr/bin/cat" }, { pattern: "/usr/bin/python3*" },
        ],
      },
    },
  },
  null,
  2,
) + "\n";
// The patch that raises the policy: `"security": "allowlist"` -> `"full"` (the server rewrites
// the document when it starts, adding its socket and entry ids, so only this line is relied on).
const raiseBody = '-    "security": "allowlist",\n+    "security": "full",\n';
const docOf = (h) => readFileSync(join(h.state, "exec-approvals.json"), "utf8");
// Puts the allowlist document back (each test attacks it afresh; the server re-reads it).
const resetDoc = (h) => writeFileSync(join(h.state, "exec-approvals.json"), approvalsText, { mode: 0o600 });
/** The attack's effect: the policy was not raised, and a denied command is still denied. */
const notRaised = (h, s) => async () => {
  assertPolicyUnchanged(h);
  await expectStillDenied(s);
};
function assertPolicyUnchanged(h) {
  const doc = docOf(h);
  assert.match(doc, /"security": "allowlist"/);
  assert.doesNotMatch(doc, /"full"/);
}

/** A fake HOME with .openclaw/{exec-approvals.json, openclaw.json}; removed by cleanup(). */
function fakeHome(execConfig = {}) {
  const home = mkdtempSync(join(tmpdir(), "clawexec-attack-home-"));
  const state = join(home, ".openclaw");
  mkdirSync(state);
  writeFileSync(join(state, "exec-approvals.json"), approvalsText, { mode: 0o600 });
  writeFileSync(join(state, "openclaw.json"), JSON.stringify({ tools: { exec: { strictInlineEval: true, ...execConfig } } }));
  const servers = [];
  return {
    home,
    state,
    servers,
    // The home's servers first: they write to the state dir (shell snapshots) while they run.
    cleanup: async () => {
      await closeAll(servers);
      rmSync(home, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}

async function serverIn(h, { cwd = h.home, env = {} } = {}) {
  const s = await startServer({ stateDir: h.state, cwd, env: { HOME: h.home, OPENCLAW_STATE_DIR: h.state, ...env } });
  h.servers.push(s);
  return s;
}

/**
 * Sends `body` after an innocent Add in the same patch; `effects` (the attack's consequences,
 * checked first) must not have happened, the patch must be refused with a message matching
 * `why`, and the innocent file must not be written.
 */
async function expectRefused(s, dir, body, why, effects = async () => {}) {
  const innocent = `innocent-${Math.random().toString(36).slice(2)}.txt`;
  const r = await s.call("apply_patch", { input: patch(`*** Add File: ${innocent}\n+x\n${body}`) });
  await effects(r);
  assert.equal(r.isError, true, `the patch must be refused, got: ${r.text}`);
  assert.match(r.text, why);
  assert.equal(existsSync(join(dir, innocent)), false, "nothing of a refused patch is written");
  return r.text;
}

/** A denied command stays denied: it does not run. */
async function expectStillDenied(s) {
  const m = marker();
  const r = await s.call("exec", { command: `touch ${m}` });
  assert.equal(existsSync(m), false, `a denied command ran after the patch: ${r.text}`);
  rmSync(m, { force: true });
  assert.match(r.text, /denied/);
}

const STATE = /^apply_patch: refusing to write .*: it is in clawexec's state directory .*\(exec approvals, config, snapshots\), which apply_patch never writes$/;

describe("the approvals document (workspace = HOME)", () => {
  let h, s;
  before(async () => {
    h = fakeHome();
    s = await serverIn(h);
  });
  after(async () => h.cleanup());

  test("raising the policy through .openclaw/exec-approvals.json is refused and the next denied command stays denied", async () => {
    await expectStillDenied(s);
    const text = await expectRefused(s, h.home, `*** Update File: .openclaw/exec-approvals.json\n@@\n${raiseBody}`, STATE, async () => {
      await expectStillDenied(s);
      assertPolicyUnchanged(h);
    });
    assert.match(text, /^apply_patch: refusing to write \.openclaw\/exec-approvals\.json: /);
  });

  for (const spelling of [
    "~/.openclaw/exec-approvals.json",
    "ABS/.openclaw/exec-approvals.json",
    "sub/../.openclaw/exec-approvals.json",
    "./.openclaw//exec-approvals.json",
    "@.openclaw/exec-approvals.json",
  ]) {
    test(`spelled ${spelling}`, async () => {
      resetDoc(h);
      const path = spelling.replace("ABS", h.home);
      await expectRefused(s, h.home, `*** Update File: ${path}\n@@\n${raiseBody}`, STATE, notRaised(h, s));
    });
  }

  test("delete, replace, move away and move onto the document are refused", async () => {
    resetDoc(h);
    writeFileSync(join(h.home, "mine.json"), approvalsText.replace('"allowlist"', '"full"'));
    await expectRefused(s, h.home, "*** Delete File: .openclaw/exec-approvals.json\n", STATE);
    await expectRefused(s, h.home, "*** Delete File: .openclaw/exec-approvals.json\n*** Add File: .openclaw/exec-approvals.json\n+{}\n", STATE);
    await expectRefused(s, h.home, `*** Update File: .openclaw/exec-approvals.json\n*** Move to: moved.json\n@@\n${raiseBody}`, STATE);
    await expectRefused(s, h.home, "*** Update File: mine.json\n*** Move to: .openclaw/exec-approvals.json\n@@\n {\n+\n", STATE);
    await expectRefused(s, h.home, "*** Add File: .openclaw/new-token\n+x\n", STATE);
    await expectRefused(s, h.home, "*** Add File: .openclaw/cache/shell-snapshots/bash.sh\n+touch /tmp/x\n", STATE);
    assertPolicyUnchanged(h);
    assert.equal(existsSync(join(h.home, "moved.json")), false);
    assert.equal(existsSync(join(h.state, "new-token")), false);
    await expectStillDenied(s);
  });
});

describe("the approvals document with workspaceOnly: false", () => {
  let h, s, project;
  before(async () => {
    h = fakeHome({ applyPatch: { workspaceOnly: false } });
    project = join(h.home, "project");
    mkdirSync(project);
    symlinkSync(h.state, join(project, "state-link"));
    symlinkSync(join(h.state, "exec-approvals.json"), join(project, "doc-link"));
    s = await serverIn(h, { cwd: project });
  });
  after(async () => h.cleanup());

  test("through '..' from a project directory", async () => {
    resetDoc(h);
    await expectRefused(s, project, `*** Update File: ../.openclaw/exec-approvals.json\n@@\n${raiseBody}`, STATE, notRaised(h, s));
  });

  test("through a symlinked directory", async () => {
    resetDoc(h);
    const text = await expectRefused(s, project, `*** Update File: state-link/exec-approvals.json\n@@\n${raiseBody}`, STATE, notRaised(h, s));
    assert.match(text, /\(resolves to .*\/\.openclaw\/exec-approvals\.json\)/);
    await expectRefused(s, project, "*** Add File: state-link/extra.json\n+{}\n", STATE);
    assertPolicyUnchanged(h);
    await expectStillDenied(s);
  });

  test("through a symlink as the final component, or a hard link", async () => {
    resetDoc(h);
    rmSync(join(project, "doc-hardlink"), { force: true });
    linkSync(join(h.state, "exec-approvals.json"), join(project, "doc-hardlink"));
    await expectRefused(s, project, `*** Update File: doc-link\n@@\n${raiseBody}`, STATE);
    await expectRefused(s, project, "*** Delete File: doc-link\n*** Add File: doc-link\n+{}\n", STATE);
    await expectRefused(s, project, `*** Update File: doc-hardlink\n@@\n${raiseBody}`, /refusing to write doc-hardlink: it is a hard link \(2 links\) to a file in clawexec's state directory/);
    assertPolicyUnchanged(h);
    await expectStillDenied(s);
  });

  test("the server binary itself, by absolute path", async () => {
    // An Add onto it: harmless even where it is not refused, because the file exists.
    await expectRefused(s, project, `*** Add File: ${CLAWEXEC}\n+x\n`, /it is clawexec's executable .*clawexec \(the server/);
  });
});

describe("the state directory as the workspace", () => {
  test("a server whose working directory is the state dir cannot patch the document in it", async () => {
    const h = fakeHome();
    try {
      const s = await serverIn(h, { cwd: h.state });
      await expectRefused(s, h.state, `*** Update File: exec-approvals.json\n@@\n${raiseBody}`, STATE, notRaised(h, s));
      await expectRefused(s, h.state, "*** Add File: notes.txt\n+x\n", STATE);
      assertPolicyUnchanged(h);
      await expectStillDenied(s);
    } finally {
      await h.cleanup();
    }
  });
});

describe("the config file outside the state dir", () => {
  test("$OPENCLAW_CONFIG_PATH in the workspace is not writable", async () => {
    const h = fakeHome();
    try {
      mkdirSync(join(h.home, "conf"));
      const configPath = join(h.home, "conf", "openclaw.json");
      const configText = '{\n  "tools": {\n    "exec": {\n      "mode": "allowlist"\n    }\n  }\n}\n';
      writeFileSync(configPath, configText);
      const s = await serverIn(h, { env: { OPENCLAW_CONFIG_PATH: configPath } });
      const text = await expectRefused(
        s, h.home, '*** Update File: conf/openclaw.json\n@@\n-      "mode": "allowlist"\n+      "mode": "full"\n',
        /^apply_patch: refusing to write conf\/openclaw\.json: it is clawexec's config file .*openclaw\.json, which apply_patch never writes$/,
      );
      assert.ok(text);
      await expectRefused(s, h.home, "*** Delete File: conf/openclaw.json\n", /clawexec's config file/);
      assert.equal(readFileSync(configPath, "utf8"), configText);
    } finally {
      await h.cleanup();
    }
  });
});

describe("clawexec's executables", () => {
  test("the shim the server spawns through cannot be replaced", async () => {
    const h = fakeHome();
    try {
      // A wrapper shim in the workspace (kept executable by an Update, which keeps mode bits).
      mkdirSync(join(h.home, "bin"));
      const shim = join(h.home, "bin", "clawexec-shim");
      const shimText = `#!/bin/sh\nexec ${CLAWEXEC_SHIM} "$@"\n`;
      writeFileSync(shim, shimText);
      chmodSync(shim, 0o755);
      const s = await serverIn(h, { env: { CLAWEXEC_SHIM: shim } });
      const m = marker();
      await expectRefused(
        s, h.home, `*** Update File: bin/clawexec-shim\n@@\n-exec ${CLAWEXEC_SHIM} "$@"\n+touch ${m}; exec ${CLAWEXEC_SHIM} "$@"\n`,
        /^apply_patch: refusing to write bin\/clawexec-shim: it is clawexec's executable .*clawexec-shim \(the server, or the shim it runs every command through\), which apply_patch never writes$/,
        async () => {
          // The server runs the shim as a long-lived spawner; the next server (or a restarted
          // spawner) execs the file.
          const next = await serverIn(h, { env: { CLAWEXEC_SHIM: shim } });
          const r = await next.call("exec", { command: "/usr/bin/ls /" });
          const ran = existsSync(m);
          rmSync(m, { force: true });
          assert.equal(ran, false, "the agent's shim ran");
          assert.equal(r.isError, false, r.text);
        },
      );
      assert.equal(readFileSync(shim, "utf8"), shimText);
    } finally {
      await h.cleanup();
    }
  });
});

describe("shell startup files and git", () => {
  let h, s;
  before(async () => {
    h = fakeHome();
    mkdirSync(join(h.home, "project"));
    spawnSync("/usr/bin/git", ["init", "-q", join(h.home, "project")]);
    spawnSync("/usr/bin/git", ["init", "-q", "--bare", join(h.home, "bare")]);
    s = await serverIn(h);
  });
  after(async () => h.cleanup());

  const SHELL = /it is a shell startup file, run by the shells the server starts; an operator can allow this with tools\.exec\.applyPatch\.allowProtectedPaths: \["shell-startup"\]$/;
  const GIT = /an operator can allow this with tools\.exec\.applyPatch\.allowProtectedPaths: \["git"\]$/;

  test("~/.profile and the other startup files are refused", async () => {
    const m = marker();
    await expectRefused(s, h.home, `*** Add File: .profile\n+touch ${m}\n`, SHELL);
    for (const name of ["~/.bashrc", ".bash_profile", ".zshenv", ".zshrc", ".config/fish/config.fish", ".bashrc.d/x.sh"]) {
      await expectRefused(s, h.home, `*** Add File: ${name}\n+touch ${m}\n`, SHELL);
    }
    assert.equal(existsSync(join(h.home, ".profile")), false);
    assert.equal(existsSync(m), false);
  });

  test("hooks, config and any path through a .git directory are refused", async () => {
    const m = marker();
    await expectRefused(s, h.home, `*** Add File: project/.git/hooks/pre-commit\n+#!/bin/sh\n+touch ${m}\n`, GIT);
    const configBefore = readFileSync(join(h.home, "project/.git/config"), "utf8");
    await expectRefused(s, h.home, "*** Update File: project/.git/config\n@@\n [core]\n+\tfsmonitor = touch /tmp/x\n", GIT);
    await expectRefused(s, h.home, "*** Add File: project/sub/.git\n+gitdir: ../../bare\n", GIT);
    await expectRefused(s, h.home, "*** Add File: .gitconfig\n+[core]\n+\tpager = touch /tmp/x\n", GIT);
    await expectRefused(s, h.home, "*** Add File: .config/git/config\n+[core]\n+\tpager = touch /tmp/x\n", GIT);
    assert.equal(readFileSync(join(h.home, "project/.git/config"), "utf8"), configBefore);
    assert.equal(existsSync(join(h.home, "project/.git/hooks/pre-commit")), false);
    assert.equal(existsSync(join(h.home, ".gitconfig")), false);
  });

  test("a bare repository without .git in its name, existing or assembled in one patch, is refused", async () => {
    await expectRefused(s, h.home, "*** Add File: bare/hooks/reference-transaction\n+touch /tmp/x\n", /which git treats as a git directory/);
    await expectRefused(s, h.home, "*** Update File: bare/config\n@@\n [core]\n+\tfsmonitor = touch /tmp/x\n", /which git treats as a git directory/);
    await expectRefused(
      s, h.home, "*** Add File: fake/HEAD\n+ref: refs/heads/main\n*** Add File: fake/refs/heads/.keep\n+\n*** Add File: fake/config\n+[core]\n",
      /refusing to write fake\/.*which git treats as a git directory/,
    );
    assert.equal(existsSync(join(h.home, "fake")), false);
  });

  test("ordinary files in the repository's work tree are still written", async () => {
    const r = await s.call("apply_patch", { input: patch("*** Add File: project/src/main.c\n+int main() {}\n*** Add File: project/.gitignore\n+build/\n") });
    assert.equal(r.isError, false, r.text);
    assert.equal(readFileSync(join(h.home, "project/src/main.c"), "utf8"), "int main() {}\n");
  });
});

describe("tools.exec.applyPatch.allowProtectedPaths", () => {
  test("shell-startup and git open those classes, never the state dir", async () => {
    const h = fakeHome({ applyPatch: { allowProtectedPaths: ["shell-startup", "git"] } });
    try {
      spawnSync("/usr/bin/git", ["init", "-q", join(h.home, "project")]);
      const s = await serverIn(h);
      const r = await s.call("apply_patch", {
        input: patch("*** Add File: .profile\n+export EDITOR=vi\n*** Add File: project/.git/hooks/pre-commit\n+#!/bin/sh\n"),
      });
      assert.equal(r.isError, false, r.text);
      assert.equal(readFileSync(join(h.home, ".profile"), "utf8"), "export EDITOR=vi\n");
      await expectRefused(s, h.home, `*** Update File: .openclaw/exec-approvals.json\n@@\n${raiseBody}`, STATE);
      await expectRefused(s, h.home, "*** Add File: .ssh/authorized_keys\n+ssh-ed25519 AAAA\n", /\["ssh"\]$/);
      await expectStillDenied(s);
    } finally {
      await h.cleanup();
    }
  });

  test("an unknown value is a startup error naming the key", async () => {
    const h = fakeHome({ applyPatch: { allowProtectedPaths: ["git", "state-dir"] } });
    try {
      const r = spawnSync(CLAWEXEC, ["apply-patch", "--workdir", h.home], {
        input: patch("*** Add File: a.txt\n+a\n"),
        env: serverEnv(h.state, { HOME: h.home }),
      });
      assert.equal(r.status, 1);
      assert.match(r.stderr.toString(), /tools\.exec\.applyPatch\.allowProtectedPaths\[1\]: expected one of "shell-startup", "git", "ssh", got "state-dir"/);
      assert.equal(existsSync(join(h.home, "a.txt")), false);
    } finally {
      await h.cleanup();
    }
  });
});

describe("paths with NUL or control characters", () => {
  test("a NUL in a path is refused at its header line instead of writing a truncated name", async () => {
    const h = fakeHome();
    try {
      const s = await serverIn(h);
      const r = await s.call("apply_patch", { input: patch("*** Add File: ab\0cd\n+x\n") });
      assert.equal(r.isError, true, r.text);
      assert.equal(r.text, "Invalid patch hunk at line 2: the path in '*** Add File: ab\\0cd' contains a NUL byte; a file path cannot contain NUL or control characters");
      assert.equal(existsSync(join(h.home, "ab")), false);
      assert.equal(existsSync(join(h.home, "ab\ncd")), false);
      const esc = await s.call("apply_patch", { input: patch("*** Add File: a\x1b[8mb\n+x\n") });
      assert.equal(esc.isError, true);
      assert.match(esc.text, /contains the control character \\x1b/);
    } finally {
      await h.cleanup();
    }
  });
});

describe("clawexec apply-patch", () => {
  test("refuses the same protected paths as the tool", async () => {
    const h = fakeHome();
    try {
      const r = spawnSync(CLAWEXEC, ["apply-patch", "--workdir", h.home], {
        input: patch(`*** Update File: .openclaw/exec-approvals.json\n@@\n${raiseBody}*** Add File: .profile\n+x\n`),
        env: serverEnv(h.state, { HOME: h.home }),
      });
      assert.equal(r.status, 1);
      assert.match(r.stderr.toString(), /^apply_patch: refusing to write \.openclaw\/exec-approvals\.json: it is in clawexec's state directory/);
      assertPolicyUnchanged(h);
      assert.equal(existsSync(join(h.home, ".profile")), false);
    } finally {
      await h.cleanup();
    }
  });
});
