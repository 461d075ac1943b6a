// Attacks on the analysis (issue 10, items 1-4, 11 and 14): every example and variant must not
// run anything the policy did not approve. A marker file appearing, or a secret's content in
// the output, is the failure. The attacker's world: security=allowlist with ask=on-miss and
// askFallback=deny (so a command that needs a human is refused headless), strictInlineEval, an
// allowlist of git, ls, cat, python3, sleep, and grep/sort among the safe bins.
import { describe, test, after } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { startServer, startRawServer, scratchDir, closeAll, serverEnv, waitFor, CLAWEXEC } from "./lib/harness.mjs";

const servers = [];
const dirs = [];
after(async () => {
  await closeAll(servers);
  for (const d of dirs) d.cleanup();
});

const execConfig = {
  security: "allowlist",
  ask: "on-miss",
  strictInlineEval: true,
  safeBins: ["cut", "uniq", "head", "tail", "tr", "wc", "grep", "sort"],
};
const approvals = {
  version: 1,
  defaults: { security: "allowlist", ask: "on-miss", askFallback: "deny" },
  agents: {
    main: {
      allowlist: ["/usr/bin/git", "/usr/bin/ls", "/usr/bin/cat", "/usr/bin/python3*", "/usr/bin/sleep"].map((pattern) => ({
        pattern,
      })),
    },
  },
};

function world() {
  const d = scratchDir("clawexec-attack-");
  dirs.push(d);
  const secret = join(d.dir, "secret");
  writeFileSync(secret, "TOPSECRET-CONTENT\n");
  return { dir: d.dir, secret, marker: join(d.dir, "pwned") };
}

// Approvals nobody answers expire after 300 ms and askFallback=deny refuses them.
async function server(extra = {}) {
  const s = await startServer({
    config: { tools: { exec: execConfig } },
    approvals,
    ...extra,
    env: { CLAWEXEC_APPROVAL_TIMEOUT_MS: "300", ...(extra.env ?? {}) },
  });
  servers.push(s);
  return s;
}

/** Refused outright, or waiting for a human (whom nobody is). */
const needsHuman = (r) => (r.isError && /exec denied/.test(r.text ?? "")) || r.details?.status === "approval-pending";

/**
 * The command must not be auto-approved: it needs a human, and when nobody answers it is
 * refused, with nothing of it run.
 */
async function expectNotRun(s, w, command, extra = {}) {
  const r = await s.call("exec", { command, workdir: w.dir, ...extra });
  assert.ok(needsHuman(r), `${JSON.stringify(command)} was not refused: ${r.text}`);
  if (r.details?.status === "approval-pending") {
    const denied = `Exec denied (gateway id=${r.details.approvalId}`;
    await waitFor(() => s.notifications.some((n) => String(n.data).startsWith(denied)), 10000, denied);
  }
  assert.equal(existsSync(w.marker), false, `the marker exists after: ${JSON.stringify(command)}\n${r.text}`);
  assert.doesNotMatch(r.text ?? "", /TOPSECRET/, `the secret leaked: ${JSON.stringify(command)}`);
  return r;
}

describe("1. blanks and comments: the analyzer reads every byte as bash and dash do", { concurrency: 4 }, () => {
  for (const blank of ["\r", "\v", "\f"]) {
    test(`true${JSON.stringify(blank).slice(1, -1)}#$(touch marker) is not the builtin true and a comment`, async () => {
      const s = await server();
      const w = world();
      await expectNotRun(s, w, `true${blank}#$(touch ${w.marker})`);
      await expectNotRun(s, w, `ls${blank}#\`touch ${w.marker}\``);
      await expectNotRun(s, w, `true${blank}# $(touch ${w.marker})`);
    });
  }

  test("CRLF line ends keep the CR in the word, as bash does; the next line's # starts a comment", async () => {
    const s = await server();
    const w = world();
    const r = await s.call("exec", { command: `ls /nonexistent-dir\r\n#$(touch ${w.marker})`, workdir: w.dir });
    assert.match(r.text, /cannot access '\/nonexistent-dir'\$'\\r'/);
    assert.equal(existsSync(w.marker), false);
    await expectNotRun(s, w, `ls x #\r\ntouch ${w.marker}`);
  });

  test("an operator inside a comment is not an operator, and a glued # is not a comment", async () => {
    const s = await server();
    const w = world();
    await expectNotRun(s, w, `ls a#$(touch ${w.marker})`);
    // `ls # && \n ls` is two commands in a sequence; both are allowed and both run.
    const r = await s.call("exec", { command: "ls -d / # && touch x\nls -d /", workdir: w.dir });
    assert.equal(r.text, "/\n/");
    assert.equal(existsSync(join(w.dir, "x")), false);
  });
});

describe("2. substitutions anywhere make a command unanalyzable", { concurrency: 4 }, () => {
  const forms = (m) => [
    `x=\${y:-$(touch ${m})}; true`,
    `x=$((1+$(touch ${m}))); true`,
    `x=$[$(touch ${m})]; true`,
    `x="\${y:-'$(touch ${m})'}"; true`,
    `x=\${y:-\`touch ${m}\`} true`,
    `x=\${y:-\${z:-$(touch ${m})}}; ls`,
    `a[$(touch ${m})]=1; true`,
    `ls "\${x:-$(touch ${m})}"`,
    `cat <(touch ${m})`,
    `x=\${y:-<(touch ${m})}; true`,
  ];
  test("in ${...}, $((...)), $[...], double quotes, array subscripts and assignments, at any depth", async () => {
    const s = await server();
    const w = world();
    for (const command of forms(w.marker)) await expectNotRun(s, w, command);
  });

  test("policy explain calls each of them unanalyzable", () => {
    const w = world();
    const state = scratchDir("clawexec-state-");
    dirs.push(state);
    writeFileSync(join(state.dir, "openclaw.json"), JSON.stringify({ tools: { exec: execConfig } }));
    writeFileSync(join(state.dir, "exec-approvals.json"), JSON.stringify(approvals));
    for (const command of forms(w.marker)) {
      const r = spawnSync(CLAWEXEC, ["policy", "explain", "--json", "--", command], { env: serverEnv(state.dir), encoding: "utf8" });
      const report = JSON.parse(r.stdout);
      assert.equal(report.analysisOk, false, command);
      assert.notEqual(report.decision, "allow", command);
    }
  });
});

describe("3. what runs is the canonical rendering, never the original text", { concurrency: 4 }, () => {
  test("grep --label $'\\'' -e {needle,secret}: the braces never expand into file operands", async () => {
    const s = await server();
    const w = world();
    await expectNotRun(s, w, `grep --label $'\\'' -e {needle,${w.secret}}`);
    await expectNotRun(s, w, `sort $'\\'' -o {${w.marker},/dev/null}`);
    await expectNotRun(s, w, `grep $'\\'' -e T ${w.dir}/secre?`);
    await expectNotRun(s, w, `grep $'\\'' -e T ${w.dir}/sec*`);
    await expectNotRun(s, w, `sort -o$'\\'' {${w.marker},x}`);
  });

  test("a tilde never expands into the home directory's files", async () => {
    const w = world();
    const s = await server({ env: { HOME: w.dir } });
    await expectNotRun(s, w, `grep $'\\'' -e T ~/secret`);
    await expectNotRun(s, w, `grep $'\\'' -e T x=~/secret`);
  });

  test("an approved safe-bin command runs exactly its analysed argv (the quote trick stays one pattern)", async () => {
    const s = await server();
    const w = world();
    // bash reads one pattern argument; grep gets exactly that and reads stdin (nothing), never the file.
    const r = await s.call("exec", { command: `grep -e $'\\'. -e T ${w.secret} -e \\''\\'.`, workdir: w.dir });
    assert.doesNotMatch(r.text, /TOPSECRET/);
  });

  test("ANSI-C quoting is decoded as bash 5.2 does before the policy sees it", async () => {
    const s = await server();
    const w = world();
    writeFileSync(join(w.dir, "abc"), "abc-content\n");
    writeFileSync(join(w.dir, "B"), "B-content\n");
    assert.equal((await s.call("exec", { command: "cat $'a\\x{62}c'", workdir: w.dir })).text, "abc-content");
    assert.equal((await s.call("exec", { command: "cat $'\\x{4142}'", workdir: w.dir })).text, "B-content");
  });
});

describe("4. the shell that runs is the shell that was analysed", { concurrency: 2 }, () => {
  const trick = (secret) => `grep -e $'\\'. -e T ${secret} -e \\''\\'.`;

  test("SHELL=/bin/sh (dash): the quote trick is read as dash reads it and the file operand is refused", async () => {
    const s = await server({ env: { SHELL: "/bin/sh" } });
    const w = world();
    await expectNotRun(s, w, trick(w.secret));
  });

  test("SHELL unset: the same", async () => {
    const s = await startRawServer({ unsetEnv: ["SHELL"], config: { tools: { exec: execConfig } }, approvals });
    servers.push(s);
    await s.initialize();
    const w = world();
    // A raw client has no approval route: the call is refused headless at once.
    const r = await s.callTool("exec", { command: trick(w.secret), workdir: w.dir });
    assert.doesNotMatch(r.text ?? "", /TOPSECRET/);
    assert.ok(needsHuman(r), r.text);
    const r2 = await s.callTool("exec", { command: `true\r#$(touch ${w.marker})`, workdir: w.dir });
    assert.ok(needsHuman(r2), r2.text);
    assert.equal(existsSync(w.marker), false);
  });

  test("an auto-approved command with $'...' runs the same under dash as under bash", async () => {
    for (const shell of ["/bin/bash", "/bin/sh"]) {
      const s = await server({ env: { SHELL: shell } });
      const w = world();
      writeFileSync(join(w.dir, "$a"), "dollar-a\n");
      writeFileSync(join(w.dir, "a"), "plain-a\n");
      // bash: $'a' is "a"; dash: a literal $ and then 'a', i.e. "$a". Each is analysed as its
      // shell reads it, and the rendering runs that reading.
      const r = await s.call("exec", { command: "cat $'a'", workdir: w.dir });
      assert.equal(r.text, shell === "/bin/bash" ? "plain-a" : "dollar-a", shell);
    }
  });
});

describe("11. standalone assignments are never analysed through", { concurrency: 4 }, () => {
  test("HOME=/tmp/evil; git status does not run an attacker's .gitconfig", async () => {
    const s = await server();
    const w = world();
    const evil = join(w.dir, "evil");
    mkdirSync(evil);
    writeFileSync(join(evil, ".gitconfig"), `[core]\n\tfsmonitor = touch ${w.marker}\n[alias]\n\tstatus = !touch ${w.marker}\n`);
    spawnSync("git", ["init", "-q", join(w.dir, "repo")]);
    const repo = join(w.dir, "repo");
    for (const command of [
      `HOME=${evil}; git status`,
      `HOME=${evil}
git status`,
      `XDG_CONFIG_HOME=${evil}; git status`,
      `GIT_CONFIG_GLOBAL=${evil}/.gitconfig; git status`,
      `x=1; HOME=${evil} && git status`,
      `export HOME=${evil}; git status`,
      `readonly HOME=${evil}; git status`,
    ]) {
      await expectNotRun(s, { ...w, dir: repo }, command);
    }
  });
});

describe("14. wrappers are kept, [ ] is the safe builtin, explain and exec agree", { concurrency: 4 }, () => {
  test("timeout 1 sleep 3 stops after a second", async () => {
    const s = await server();
    const started = Date.now();
    const r = await s.call("exec", { command: "timeout 1 sleep 3" });
    const took = Date.now() - started;
    assert.ok(took < 2500, `took ${took} ms: ${r.text}`);
    assert.match(r.text, /code 124/);
  });

  test("nice, nohup, env and exec -a stay in what runs", async () => {
    const s = await server();
    const w = world();
    // /proc/self/stat field 19 is the nice value of the cat that reads it.
    const niced = await s.call("exec", { command: "nice -n 7 cat /proc/self/stat", workdir: w.dir });
    const fields = niced.text.slice(niced.text.lastIndexOf(")") + 2).split(" ");
    assert.equal(fields[16], "7", niced.text);
    const named = await s.call("exec", { command: "exec -a renamed cat /proc/self/cmdline", workdir: w.dir });
    assert.match(named.text, /^renamed\\x00\/proc\/self\/cmdline/);
    const env = await s.call("exec", { command: "env - cat /proc/self/environ", workdir: w.dir });
    assert.equal(env.text, "(no output)");
  });

  test("[ -n x ] is the documented safe builtin; [ -z x ] fails as test does", async () => {
    const s = await server();
    const yes = await s.call("exec", { command: "[ -n x ] && ls -d /" });
    assert.equal(yes.isError, false, yes.text);
    assert.equal(yes.text, "/");
    const no = await s.call("exec", { command: "[ -z x ]" });
    assert.match(no.text, /code 1/);
    const missing = await s.call("exec", { command: "[ -n x" });
    assert.ok(needsHuman(missing), missing.text);
  });

  test("policy explain and exec reach the same verdict", async () => {
    const s = await server();
    const w = world();
    const state = scratchDir("clawexec-state-");
    dirs.push(state);
    writeFileSync(join(state.dir, "openclaw.json"), JSON.stringify({ tools: { exec: execConfig } }));
    writeFileSync(join(state.dir, "exec-approvals.json"), JSON.stringify(approvals));
    for (const command of [
      "[ -n x ]",
      "[ -n x",
      "ls -d / && [ -d / ]",
      "timeout 1 sleep 0",
      "true\r#x",
      "grep -e x",
      `grep -e x ${w.secret}`,
      "cat $'a\\x{62}c'",
      "ls *",
      "x=1; ls",
      "! ls -d /",
      "ls -d / |& cat",
    ]) {
      const explained = JSON.parse(
        spawnSync(CLAWEXEC, ["policy", "explain", "--json", "--cwd", w.dir, "--", command], {
          env: serverEnv(state.dir),
          encoding: "utf8",
        }).stdout,
      );
      const r = await s.call("exec", { command, workdir: w.dir });
      assert.equal(explained.decision === "allow", !needsHuman(r), `${JSON.stringify(command)}: explain ${explained.decision}, exec ${r.text}`);
    }
  });
});

describe("the canonical rendering is what auto-approved commands run", { concurrency: 4 }, () => {
  test("|& is rendered as 2>&1 | under bash; dash has no |& and needs a human", async () => {
    const bash = await server({ env: { SHELL: "/bin/bash" } });
    const r = await bash.call("exec", { command: "ls /nonexistent-clawexec |& wc -l" });
    assert.equal(r.text, "1");
    const dash = await server({ env: { SHELL: "/bin/sh" } });
    assert.ok(needsHuman(await dash.call("exec", { command: "ls /nonexistent-clawexec |& wc -l" })));
  });

  test("the executable is pinned: `cd sub && ./tool` runs the tool the analysis matched", async () => {
    const w = world();
    writeFileSync(join(w.dir, "tool"), "#!/bin/sh\necho approved-tool\n", { mode: 0o755 });
    mkdirSync(join(w.dir, "sub"));
    writeFileSync(join(w.dir, "sub", "tool"), `#!/bin/sh\ntouch ${w.marker}\n`, { mode: 0o755 });
    const doc = structuredClone(approvals);
    doc.agents.main.allowlist.push({ pattern: join(w.dir, "tool") });
    const s = await server({ approvals: doc });
    const r = await s.call("exec", { command: "cd sub && ./tool", workdir: w.dir });
    assert.equal(r.text, "approved-tool");
    assert.equal(existsSync(w.marker), false);
  });
});

describe("a command too large to analyse", { concurrency: 1 }, () => {
  test("is never auto-approved: refused for its size, nothing of it run", async () => {
    const s = await server();
    const w = world();
    const r = await s.call("exec", { command: `ls ${"a".repeat(100 * 1024)} ${"b".repeat(30 * 1024)} #$(touch ${w.marker})` });
    assert.equal(r.isError, true);
    assert.match(r.text, /^exec: the command is \d+ bytes; the limit is/);
    assert.equal(existsSync(w.marker), false);
  });
});

describe("pagers and editors an approved command starts cannot run what the agent types", { concurrency: 2 }, () => {
  // git in a repository whose log does not fit a screen: git starts its pager (less) in a PTY,
  // and `!cmd` typed into less would run cmd; `git commit` would start vi, where `:!cmd` would.
  function repo(w) {
    const dir = join(w.dir, "repo");
    const git = (...args) =>
      spawnSync("git", args, {
        cwd: dir,
        env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" },
      });
    mkdirSync(dir);
    git("init", "-q");
    for (let i = 0; i < 60; i++) git("commit", "-q", "--allow-empty", "-m", `commit ${i}`);
    return dir;
  }
  const gitIdentity = { GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };

  async function typeInto(s, command, workdir, typed) {
    const r = await s.call("exec", { command, workdir, pty: true, background: true });
    assert.equal(r.details?.status, "running", r.text);
    await new Promise((resolve) => setTimeout(resolve, 700));
    await s.call("process", { action: "write", sessionId: r.details.sessionId, data: typed });
    await new Promise((resolve) => setTimeout(resolve, 700));
    await s.call("process", { action: "kill", sessionId: r.details.sessionId });
  }

  test("`!cmd` typed into git log's pager does not run", async () => {
    const w = world();
    const dir = repo(w);
    const s = await server({ env: gitIdentity });
    await typeInto(s, "git log", dir, `!touch ${w.marker}\n`);
    assert.equal(existsSync(w.marker), false);
  });

  test("`:!cmd` typed into git commit's editor does not run", async () => {
    const w = world();
    const dir = repo(w);
    const s = await server({ env: gitIdentity });
    await typeInto(s, "git commit --allow-empty", dir, `\x1b:!touch ${w.marker}\r`);
    assert.equal(existsSync(w.marker), false);
  });

  test("restricted policies give commands cat as pager, secure less and no editor", async () => {
    const s = await server();
    const r = await s.call("exec", { command: "cat /proc/self/environ" });
    const vars = new Set(r.text.split("\\x00"));
    for (const v of ["PAGER=cat", "GIT_PAGER=cat", "MANPAGER=cat", "LESSSECURE=1", "GIT_EDITOR=false", "EDITOR=false"]) {
      assert.ok(vars.has(v), `${v} in ${r.text}`);
    }
  });
});
