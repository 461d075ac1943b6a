// Attacks on strictInlineEval (issue 10 items 9 and 10): an agent hands an allowlisted
// interpreter or tool code some other way than -c/-e (python3 -m timeit CODE, a program read
// from stdin or /dev/stdin, a prompt fed later through `process write`, perl -M'x;CODE',
// node --import data:..., sed -f /dev/stdin, git -c alias.x='!cmd', git config writes, tar
// --to-command, ssh -o ProxyCommand=...). Each attack tries to create a marker file; with
// strict inline eval every one must wait for a human (approval-pending), be refused by
// askFallback, and never run. Plain uses of the same programs keep running.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, scratchDir, waitFor, closeAll, serverEnv, CLAWEXEC } from "./lib/harness.mjs";

const servers = [];
let work;
before(() => {
  work = scratchDir("clawexec-inline-attack-");
  writeFileSync(join(work.dir, "data.txt"), "line\n");
  writeFileSync(join(work.dir, "empty.js"), "");
  writeFileSync(join(work.dir, "hello.py"), "print('hello from a file')\n");
  writeFileSync(join(work.dir, "upper.sed"), "s/line/LINE/\n");
  const repo = join(work.dir, "repo");
  spawnSync("git", ["init", "-q", repo]);
  spawnSync("git", ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "--allow-empty", "-m", "first"]);
  spawnSync("tar", ["-cf", join(work.dir, "a.tar"), "-C", work.dir, "data.txt"]);
  // A git "command" the agent wrote: git --exec-path=DIR pwn MARKER runs DIR/git-pwn.
  mkdirSync(join(work.dir, "execdir"));
  writeFileSync(join(work.dir, "execdir", "git-pwn"), '#!/bin/sh\ntouch "$1"\n');
  chmodSync(join(work.dir, "execdir", "git-pwn"), 0o755);
});
after(async () => {
  await closeAll(servers);
  work.cleanup();
});

const ALLOWLIST = ["python3", "perl", "node", "sed", "git", "ls", "cat", "echo", "tar", "ssh", "zip", "vim", "sh"];

/** allowlist mode, strict inline eval, askFallback deny; unanswered approvals expire at once. */
async function attackerServer(exec = {}) {
  const s = await startServer({
    config: { tools: { exec: { security: "allowlist", ask: "on-miss", strictInlineEval: true, ...exec } } },
    approvals: {
      version: 1,
      defaults: { askFallback: "deny" },
      agents: { main: { allowlist: ALLOWLIST.map((pattern) => ({ pattern })) } },
    },
    env: { CLAWEXEC_APPROVAL_TIMEOUT_MS: "300" },
  });
  servers.push(s);
  return s;
}

let counter = 0;
function freshMarker() {
  return join(work.dir, `marker-${++counter}`);
}

/**
 * Runs `command(marker)` and expects it to wait for approval, then be refused by askFallback
 * (a "Exec denied" notification for its approval id), without the marker ever appearing.
 */
async function expectHeld(s, command, extra = {}) {
  const marker = freshMarker();
  const text = command(marker);
  const r = await s.call("exec", { command: text, workdir: work.dir, ...extra });
  const ran = existsSync(marker);
  assert.equal(r.details?.status, "approval-pending", `${text}: ${r.text}`);
  assert.match(r.text, /Warning: strict inline-eval mode requires reviewer or explicit approval for /, text);
  const id = r.details.approvalId;
  await waitFor(() => s.notifications.some((n) => typeof n.data === "string" && n.data.startsWith(`Exec denied (gateway id=${id}`)), 10000, `denial of ${text}`);
  assert.equal(ran || existsSync(marker), false, `${text} must not run`);
}

/**
 * An interactive program in a PTY: it must be held for approval; were it started, the code
 * typed into it through `process write` would create the marker.
 */
async function expectPtyHeld(s, command, typed) {
  const marker = freshMarker();
  const r = await s.call("exec", { command, workdir: work.dir, pty: true, background: true });
  if (r.details?.status === "running") {
    await s.call("process", { action: "write", sessionId: r.details.sessionId, data: typed(marker) });
    await waitFor(() => existsSync(marker), 5000, "the typed code").catch(() => {});
    await s.call("process", { action: "kill", sessionId: r.details.sessionId });
  }
  assert.equal(existsSync(marker), false, `${command} ran the code typed into it`);
  assert.equal(r.details?.status, "approval-pending", `${command}: ${r.text}`);
}

const py = (marker) => `open('${marker}','w')`;
const js = (marker) => `import {writeFileSync} from "fs"; writeFileSync("${marker}","")`;
const req = (marker) => `require("fs").writeFileSync("${marker}","")`;
const pl = (marker) => `open(my $f,">","${marker}")`;

/** One test per attack, all against one attacker server; `exec` overrides tools.exec. */
function attacks(title, cases, exec = {}) {
  describe(title, { concurrency: 4 }, () => {
    let s;
    before(async () => {
      s = await attackerServer(exec);
    });
    for (const [name, command] of cases) {
      test(name, async () => expectHeld(s, command));
    }
  });
}

function ptyAttacks(title, cases, exec = {}) {
  describe(title, { concurrency: 4 }, () => {
    let s;
    before(async () => {
      s = await attackerServer(exec);
    });
    for (const [command, typed] of cases) {
      test(`${command} in a PTY, then process write`, async () => expectPtyHeld(s, command, typed));
    }
  });
}

attacks("python3 handed code without -c", [
  ["-m timeit evaluates its arguments", (m) => `python3 -m timeit -n1 -r1 "${py(m)}"`],
  ["-m in a cluster (-Im)", (m) => `python3 -Im timeit -n1 -r1 "${py(m)}"`],
  ["-m unittest calls a named callable (pdb.set_trace opens a prompt)", () => `python3 -m unittest pdb.set_trace`],
  ["-m pytest --pdb opens the debugger", () => `python3 -m pytest --pdb`],
  ["no program: it is read from stdin", (m) => `echo "${py(m)}" | python3`],
  ["program '-'", (m) => `echo "${py(m)}" | python3 -`],
  ["program /dev/stdin", (m) => `echo "${py(m)}" | python3 /dev/stdin`],
  ["program /dev/fd/0 after a switch", (m) => `echo "${py(m)}" | python3 -B /dev/fd/0`],
  ["program /proc/self/fd/0", (m) => `echo "${py(m)}" | python3 /proc/self/fd/0`],
  ["program /dev/./stdin after --", (m) => `echo "${py(m)}" | python3 -- /dev/./stdin`],
  ["-i reads a prompt after the script", (m) => `echo "${py(m)}" | python3 -i hello.py`],
  ["$'-\\x{63}' is -c (bash 5.2 decodes \\x{63} to c)", (m) => `python3 $'-\\x{63}' "${py(m)}"`],
]);

attacks("perl handed code without -e", [
  ["-M'strict;CODE'", (m) => `perl -M'strict;${pl(m)}' /dev/null`],
  ["-m'Module ();CODE'", (m) => `perl -m'POSIX ();${pl(m)}' /dev/null`],
  ["'-w -e CODE': two switches in one argument", (m) => `perl '-w -e ${pl(m)}'`],
  ["no program: it is read from stdin", (m) => `echo '${pl(m)}' | perl`],
  ["program '-' after a switch", (m) => `echo '${pl(m)}' | perl -w -`],
]);

attacks("node handed code without -e", [
  ["--import of a data: URL", (m) => `node --import 'data:text/javascript,${js(m)}' empty.js`],
  ["--import=data: URL", (m) => `node --import='data:text/javascript,${js(m)}' empty.js`],
  ["--experimental-loader of a data: URL", (m) => `node --experimental-loader 'data:text/javascript,${js(m)}' empty.js`],
  ["--experimental_loader (node reads _ as -)", (m) => `node --experimental_loader 'data:text/javascript,${js(m)}' empty.js`],
  ["no program: it is read from stdin", (m) => `echo '${req(m)}' | node`],
  ["program '-'", (m) => `echo '${req(m)}' | node -`],
]);

attacks("sed scripts from stdin or in long or attached -e forms", [
  ["-f /dev/stdin", (m) => `echo '1e touch ${m}' | sed -f /dev/stdin data.txt`],
  ["-nf /dev/stdin (clustered)", (m) => `echo '1e touch ${m}' | sed -nf /dev/stdin data.txt`],
  ["--file=- ", (m) => `echo '1e touch ${m}' | sed --file=- data.txt`],
  ["--expression= without an input file", (m) => `echo x | sed --expression='1e touch ${m}'`],
  ["--expr= (abbreviated)", (m) => `echo x | sed --expr='1e touch ${m}'`],
  ["-ne'...' (attached, clustered)", (m) => `echo x | sed -ne'1e touch ${m}'`],
]);

attacks("a shell reading its program from stdin", [
  ["sh with no script", (m) => `echo 'touch ${m}' | sh`],
  ["sh -s", (m) => `echo 'touch ${m}' | sh -s`],
]);

ptyAttacks("interactive interpreters and editors in a PTY", [
  ["python3 -i", (m) => `${py(m)}\n`],
  ["python3", (m) => `${py(m)}\n`],
  ["node -i", (m) => `${req(m)}\n`],
  ["node", (m) => `${req(m)}\n`],
  ["vim", (m) => `:!touch ${m}\n`],
]);

attacks("git configuration injection and code-carrying options", [
  ["-c alias.x='!cmd'", (m) => `git -c alias.x='!touch ${m}' x`],
  ["-c Alias.X='!cmd' (keys are case-insensitive)", (m) => `git -c Alias.X='!touch ${m}' x`],
  ["-c core.fsmonitor", (m) => `git -C repo -c core.fsmonitor='touch ${m}; false' status`],
  ["--config-env alias.x=VAR through env", (m) => `env CMD='!touch ${m}' git --config-env=alias.x=CMD x`],
  ["ls-remote --upload-pack", (m) => `git ls-remote --upload-pack='touch ${m}; false' repo`],
  ["ls-remote --upl (abbreviated)", (m) => `git ls-remote --upl='touch ${m}; false' repo`],
  ["--exec-path=DIR", (m) => `git --exec-path=${join(work.dir, "execdir")} pwn ${m}`],
  ["config alias.y '!cmd' (then git y)", (m) => `git -C repo config alias.y '!touch ${m}'`],
  ["config --add core.fsmonitor", (m) => `git -C repo config --add core.fsmonitor 'touch ${m}; false'`],
  ["config --local core.hooksPath", () => `git -C repo config --local core.hooksPath hooks`],
  ["config set core.sshCommand (git 2.46 syntax)", (m) => `git -C repo config set core.sshCommand 'touch ${m}'`],
]);

attacks("other tools whose options name a command", [
  ["tar --to-command", (m) => `tar -xf a.tar --to-command='touch ${m}'`],
  ["tar --to-c (abbreviated)", (m) => `tar -xf a.tar --to-c='touch ${m}'`],
  ["tar -I", (m) => `tar -cf out.tar -I 'touch ${m}; cat' data.txt`],
  ["tar --checkpoint-action=exec=", (m) => `tar -cf out.tar --checkpoint=1 --checkpoint-action=exec='touch ${m}' data.txt`],
  ["zip -TT", (m) => `zip -q out.zip data.txt -T -TT 'touch ${m}; true'`],
  ["ssh -o ProxyCommand", (m) => `ssh -o ProxyCommand='touch ${m}' -o BatchMode=yes nowhere.invalid`],
  ["vim -es -c '!cmd'", (m) => `vim -es -c '!touch ${m}' -c 'q!'`],
]);

attacks(
  "security=full with strictInlineEval",
  [
    ["python3 -m timeit", (m) => `python3 -m timeit -n1 -r1 "${py(m)}"`],
    ["a program piped into sh", (m) => `echo 'touch ${m}' | sh`],
    ["git -c alias", (m) => `git -c alias.x='!touch ${m}' x`],
  ],
  { security: "full", ask: "off" },
);

ptyAttacks("security=full with strictInlineEval, in a PTY", [["python3 -i", (m) => `${py(m)}\n`]], {
  security: "full",
  ask: "off",
});

describe("plain uses of the same programs", { concurrency: 4 }, () => {
  let s;
  before(async () => {
    s = await attackerServer();
  });
  const cases = [
    ["python3 hello.py", "hello from a file"],
    ["python3 --version", /^Python 3/],
    ["git -C repo -c color.ui=never status --short", ""],
    ["git -C repo config --get core.bare", "false"],
    ["git -C repo config user.email agent@example.invalid", ""],
    ["git -C repo log --oneline -1", / first$/],
    ["sed -f upper.sed data.txt", "LINE"],
    ["sed -f /dev/null data.txt", "line"],
    ["node empty.js", ""],
    ["tar -tf a.tar", "data.txt"],
  ];
  for (const [command, expected] of cases) {
    test(`${command} runs without approval`, async () => {
      const r = await s.call("exec", { command, workdir: work.dir });
      assert.equal(r.isError, false, `${command}: ${r.text}`);
      assert.notEqual(r.details?.status, "approval-pending", `${command}: ${r.text}`);
      const text = r.text === "(no output)" ? "" : r.text;
      if (expected instanceof RegExp) assert.match(text, expected);
      else assert.equal(text, expected);
    });
  }
});

describe("policy explain", () => {
  test("names the strict inline-eval reason for a code-carrying option", () => {
    const state = scratchDir("clawexec-state-");
    try {
      writeFileSync(join(state.dir, "openclaw.json"), JSON.stringify({ tools: { exec: { security: "allowlist", strictInlineEval: true } } }));
      writeFileSync(join(state.dir, "exec-approvals.json"), JSON.stringify({ version: 1, agents: { main: { allowlist: [{ pattern: "git" }] } } }));
      const r = spawnSync(CLAWEXEC, ["policy", "explain", "--json", "--", "git -c alias.x='!id' x"], {
        env: serverEnv(state.dir),
        cwd: work.dir,
        encoding: "utf8",
      });
      assert.equal(r.status, 0, r.stderr);
      const report = JSON.parse(r.stdout);
      assert.equal(report.decision, "ask");
      assert.ok(report.reasons.includes("strict-inline-eval: git -c alias.x"), JSON.stringify(report.reasons));
      assert.deepEqual(report.segments[0].inlineEval, { interpreter: "git", flag: "-c alias.x" });
      assert.equal(report.askFallbackResult.approved, false);
    } finally {
      state.cleanup();
    }
  });
});
