// `clawexec policy explain`: the documented JSON report (docs/policy.md) of how the gateway
// policy decides a command, with the same config and approvals document `serve` uses; nothing
// runs.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync, existsSync, realpathSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { CLAWEXEC, scratchDir, serverEnv } from "./lib/harness.mjs";

let state;
let work;
before(() => {
  state = scratchDir("clawexec-state-");
  work = scratchDir();
  writeFileSync(
    join(state.dir, "openclaw.json"),
    JSON.stringify({ tools: { exec: { security: "allowlist", ask: "off", commandHighlighting: true } } }),
  );
  writeFileSync(
    join(state.dir, "exec-approvals.json"),
    JSON.stringify({ version: 1, agents: { main: { allowlist: [{ pattern: "ls" }, { pattern: "python3" }] } } }),
  );
});
after(() => {
  state.cleanup();
  work.cleanup();
});

function explain(args) {
  const r = spawnSync(CLAWEXEC, ["policy", "explain", ...args], {
    env: serverEnv(state.dir),
    cwd: work.dir,
    encoding: "utf8",
    timeout: 20000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const explainJson = (command, extra = []) => {
  const r = explain(["--json", ...extra, "--", command]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
};

describe("clawexec policy explain", { concurrency: 4 }, () => {
  test("an allowlisted pipeline with a safe bin is allowed and runs as its canonical rendering", () => {
    const r = explainJson("ls -la | head -n 3");
    assert.equal(r.command, "ls -la | head -n 3");
    assert.equal(r.cwd, realpathSync(work.dir));
    assert.equal(r.analysisOk, true);
    assert.equal(r.security, "allowlist");
    assert.equal(r.ask, "off");
    assert.equal(r.allowlistSatisfied, true);
    assert.equal(r.decision, "allow");
    assert.deepEqual(r.segments.map((s) => [s.argv, s.satisfiedBy, s.pattern]), [
      [["ls", "-la"], "allowlist", "ls"],
      [["head", "-n", "3"], "safeBin", null],
    ]);
    for (const s of r.segments) assert.equal(s.resolvedPath, realpathSync(s.resolvedPath));
    const ls = r.segments[0].resolvedPath;
    const head = r.segments[1].resolvedPath;
    assert.equal(r.commandToRun, `'${ls}' '-la' | '${head}' '-n' '3'`);
    assert.deepEqual(r.highlights, [
      { startIndex: 0, endIndex: 2 },
      { startIndex: 9, endIndex: 13 },
    ]);
  });

  test("a segment nobody covers is a deny with the reference text", () => {
    const r = explainJson("ls && rm -rf build");
    assert.equal(r.decision, "deny");
    assert.equal(r.denyMessage, "exec denied: allowlist miss");
    assert.equal(r.segments[1].satisfiedBy, "none");
    assert.ok(r.reasons.includes("allowlist-miss"));
  });

  test("an unanalyzable command says why and lists what it could see", () => {
    const r = explainJson("ls $(cat list)");
    assert.equal(r.analysisOk, false);
    assert.equal(r.decision, "deny");
    assert.equal(r.reasons[0], "unanalyzable: command-substitution");
    assert.deepEqual(r.segments.map((s) => s.argv[0]), ["ls", "cat"]);
  });

  test("inline eval is reported per segment", () => {
    const r = explainJson("python3 -c 'print(1)'");
    assert.deepEqual(r.segments[0].inlineEval, { interpreter: "python3", flag: "-c" });
    assert.equal(r.segments[0].satisfiedBy, "allowlist");
    assert.equal(r.allowAlways.kind, "one-shot");
  });

  test("dispatch wrappers that are looked through are listed", () => {
    const r = explainJson("nice -n 5 ls");
    assert.deepEqual(r.segments[0].wrappers, ["nice"]);
    assert.equal(r.segments[0].executable, "ls");
    assert.equal(r.decision, "allow");
  });

  test("nothing runs", () => {
    const marker = join(work.dir, "explained-only");
    const r = explain(["--", `touch ${marker}`]);
    assert.equal(r.code, 0);
    assert.equal(existsSync(marker), false);
    assert.match(r.stdout, /^command: touch /);
    assert.match(r.stdout, /decision: deny/);
  });

  test("a --cwd that is not a directory is an error naming it", () => {
    const r = explain(["--cwd", join(work.dir, "nope"), "--", "ls"]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /--cwd .*nope is not a directory/);
  });

  test("a missing command is a usage error", () => {
    const r = explain([]);
    assert.equal(r.code, 2);
  });
});

describe("policy explain resolves with the PATH gateway commands get", () => {
  test("pathPrepend and the login shell's PATH take part in executable resolution", () => {
    const st = scratchDir("clawexec-state-");
    const home = scratchDir("clawexec-home-");
    try {
      const tools = join(home.dir, "tools");
      const login = join(home.dir, "login-bin");
      mkdirSync(tools);
      mkdirSync(login);
      for (const f of [join(tools, "mytool"), join(login, "logintool")]) writeFileSync(f, "#!/bin/sh\necho hi\n", { mode: 0o755 });
      writeFileSync(join(home.dir, ".profile"), `export PATH="${login}:$PATH"\n`);
      writeFileSync(
        join(st.dir, "openclaw.json"),
        JSON.stringify({ tools: { exec: { security: "allowlist", ask: "off", pathPrepend: ["~/tools"] } } }),
      );
      writeFileSync(
        join(st.dir, "exec-approvals.json"),
        JSON.stringify({ version: 1, agents: { main: { allowlist: [{ pattern: `${tools}/*` }, { pattern: `${login}/*` }] } } }),
      );
      const run = (command) => {
        const r = spawnSync(CLAWEXEC, ["policy", "explain", "--json", "--", command], {
          env: serverEnv(st.dir, { HOME: home.dir, PATH: "/usr/bin:/bin" }),
          cwd: work.dir,
          encoding: "utf8",
          timeout: 20000,
        });
        assert.equal(r.status, 0, r.stderr);
        return JSON.parse(r.stdout);
      };
      const prepended = run("mytool");
      assert.equal(prepended.segments[0].resolvedPath, join(tools, "mytool"));
      assert.equal(prepended.decision, "allow");
      const fromLogin = run("logintool");
      assert.equal(fromLogin.segments[0].resolvedPath, join(login, "logintool"));
      assert.equal(fromLogin.decision, "allow");
    } finally {
      st.cleanup();
      home.cleanup();
    }
  });
});
