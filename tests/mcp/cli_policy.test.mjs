// Operator commands of the policy engine, black-box: `clawexec approvals get|set|allowlist`,
// `exec-policy show|set|preset`, `security audit` and `doctor [--fix]`, each spawned as the real
// binary against a private state dir (config at <state>/openclaw.json). Checks exit codes (0 ok,
// 1 failure, 2 usage), the JSON shapes documented in docs/approvals.md, and what ends up on disk.
import { describe, test, beforeEach, afterEach } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLAWEXEC, scratchDir, serverEnv } from "./lib/harness.mjs";

let state;
beforeEach(() => {
  state = scratchDir("clawexec-policy-");
});
afterEach(() => state.cleanup());

const approvalsPath = () => join(state.dir, "exec-approvals.json");
const configPath = () => join(state.dir, "openclaw.json");
const readJson = (p) => JSON.parse(readFileSync(p, "utf8"));

/** Runs `clawexec ...args`; resolves { code, stdout, stderr, json() }. */
function cli(args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(CLAWEXEC, args, { env: serverEnv(state.dir, options.env ?? {}), stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.stdin.on("error", () => {}); // the command may exit before reading stdin
    child.stdin.end(options.stdin ?? "");
    const timer = setTimeout(() => child.kill("SIGKILL"), 20000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, json: () => JSON.parse(stdout) });
    });
  });
}

describe("clawexec approvals", { concurrency: 1 }, () => {
  test("get without a file reports built-in defaults and the effective policy for main", async () => {
    const r = await cli(["approvals", "get", "--json"]);
    assert.equal(r.code, 0, r.stderr);
    const d = r.json();
    assert.equal(d.path, approvalsPath());
    assert.equal(d.exists, false);
    assert.match(d.hash, /^missing:[0-9a-f]{64}$/);
    assert.deepEqual(d.file, { version: 1, defaults: {}, agents: {} });
    assert.equal(d.agent, "main");
    assert.equal(d.agentPolicy.security.effective, "full");
    assert.equal(d.agentPolicy.askFallback.source, "OpenClaw default (deny)");
    assert.equal(d.effectivePolicy.scopes[0].scopeLabel, "tools.exec");
    assert.match(d.effectivePolicy.note, /^Effective exec policy is the host approvals policy/);
    assert.equal(existsSync(approvalsPath()), false, "get must not create the file");
  });

  test("get --agent reports that agent's scope with the host sources", async () => {
    writeFileSync(approvalsPath(), JSON.stringify({ version: 1, agents: { ops: { security: "allowlist" } } }));
    const d = (await cli(["approvals", "get", "--agent", "ops", "--json"])).json();
    assert.equal(d.agentPolicy.scopeLabel, "agent:ops");
    assert.equal(d.agentPolicy.security.effective, "allowlist");
    assert.equal(d.agentPolicy.security.hostSource, `${approvalsPath()} agents.ops.security`);
    assert.ok(d.effectivePolicy.scopes.some((s) => s.scopeLabel === "agent:ops"));
  });

  test("set --file replaces the document (0600, token kept out of the output)", async () => {
    const doc = join(state.dir, "in.json");
    writeFileSync(doc, JSON.stringify({ defaults: { security: "allowlist", ask: "on-miss" }, agents: { main: { allowlist: ["/usr/bin/rg"] } } }));
    const r = await cli(["approvals", "set", "--file", doc, "--json"]);
    assert.equal(r.code, 0, r.stderr);
    const d = r.json();
    assert.equal(d.changed, true);
    assert.equal(d.file.socket.token, undefined);
    assert.equal(d.file.agents.main.allowlist[0].pattern, "/usr/bin/rg");
    const onDisk = readJson(approvalsPath());
    assert.equal(onDisk.version, 1);
    assert.match(onDisk.socket.token, /^[A-Za-z0-9_-]{32}$/);
    assert.equal(onDisk.socket.path, join(state.dir, "exec-approvals.sock"));
    assert.match(onDisk.agents.main.allowlist[0].id, /^[0-9a-f-]{36}$/);
    assert.equal(statSync(approvalsPath()).mode & 0o777, 0o600);
  });

  test("set --stdin keeps the existing socket token", async () => {
    await cli(["approvals", "set", "--stdin"], { stdin: "{}" });
    const token = readJson(approvalsPath()).socket.token;
    const r = await cli(["approvals", "set", "--stdin"], { stdin: '{defaults: {ask: "always"}} // json5' });
    assert.equal(r.code, 0, r.stderr);
    const onDisk = readJson(approvalsPath());
    assert.equal(onDisk.socket.token, token);
    assert.equal(onDisk.defaults.ask, "always");
  });

  test("set refuses an invalid document, names the problem and leaves the file alone", async () => {
    writeFileSync(approvalsPath(), JSON.stringify({ version: 1, agents: {} }));
    const before = readFileSync(approvalsPath(), "utf8");
    const cases = [
      [{ version: 1, agents: { main: { allowlist: [{ pattern: "x", argPattern: null }] } } }, /argPattern/],
      [{ version: 1, defaults: { ask: "Always" } }, /defaults\.ask/],
      [{ version: 2 }, /version/],
      [[1, 2], /must be an object/],
    ];
    for (const [doc, message] of cases) {
      const r = await cli(["approvals", "set", "--stdin"], { stdin: JSON.stringify(doc) });
      assert.equal(r.code, 1, JSON.stringify(doc));
      assert.match(r.stderr, message);
      assert.equal(readFileSync(approvalsPath(), "utf8"), before);
    }
    const bad = await cli(["approvals", "set", "--stdin"], { stdin: "{oops" });
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /Failed to parse approvals JSON/);
  });

  test("set needs exactly one of --file and --stdin (usage error)", async () => {
    assert.equal((await cli(["approvals", "set"])).code, 2);
    const both = await cli(["approvals", "set", "--stdin", "--file", "x"]);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /either --file or --stdin/);
  });

  test("allowlist add appends once, remove matches pattern and argPattern", async () => {
    let r = await cli(["approvals", "allowlist", "add", "/usr/bin/rg", "--arg-pattern", "^-n", "--json"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json().action, "added");
    assert.equal(r.json().agent, "main");
    r = await cli(["approvals", "allowlist", "add", "/usr/bin/rg", "--arg-pattern", "^-n", "--json"]);
    assert.equal(r.json().action, "unchanged");
    await cli(["approvals", "allowlist", "add", "--agent", "ops", " /usr/bin/ls "]);
    let file = readJson(approvalsPath());
    assert.equal(file.agents.main.allowlist.length, 1);
    assert.equal(file.agents.main.allowlist[0].argPattern, "^-n");
    assert.equal(typeof file.agents.main.allowlist[0].lastUsedAt, "number");
    assert.equal(file.agents.ops.allowlist[0].pattern, "/usr/bin/ls");

    r = await cli(["approvals", "allowlist", "remove", "/usr/bin/rg", "--json"]);
    assert.equal(r.json().action, "not-found", "argPattern must match too");
    r = await cli(["approvals", "allowlist", "remove", "/usr/bin/rg", "--arg-pattern", "^-n", "--json"]);
    assert.equal(r.json().action, "removed");
    assert.equal(r.json().removed, 1);
    file = readJson(approvalsPath());
    assert.equal(file.agents.main, undefined, "an emptied agent is dropped");
  });

  test("allowlist add refuses an invalid --arg-pattern and a blank pattern", async () => {
    const r = await cli(["approvals", "allowlist", "add", "/usr/bin/rg", "--arg-pattern", "(unclosed"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /invalid --arg-pattern \(unclosed/);
    assert.equal(existsSync(approvalsPath()), false);
    assert.equal((await cli(["approvals", "allowlist", "add", "  "])).code, 2);
  });

  test("a corrupt approvals file is reported and never overwritten", async () => {
    writeFileSync(approvalsPath(), "{not json");
    const r = await cli(["approvals", "allowlist", "add", "/usr/bin/rg"]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /exec-approvals\.json/);
    assert.equal(readFileSync(approvalsPath(), "utf8"), "{not json");
  });
});

describe("clawexec exec-policy", { concurrency: 1 }, () => {
  const presets = {
    yolo: { config: { host: "gateway", mode: "full" }, defaults: { security: "full", ask: "off", askFallback: "full" } },
    cautious: { config: { host: "gateway", mode: "ask" }, defaults: { security: "allowlist", ask: "on-miss", askFallback: "deny" } },
    "deny-all": { config: { host: "gateway", mode: "deny" }, defaults: { security: "deny", ask: "off", askFallback: "deny" } },
  };
  for (const [name, want] of Object.entries(presets)) {
    test(`preset ${name} updates the config and the approvals defaults`, async () => {
      const r = await cli(["exec-policy", "preset", name, "--json"]);
      assert.equal(r.code, 0, r.stderr);
      const d = r.json();
      assert.equal(d.preset, name);
      assert.equal(d.configPath, configPath());
      assert.deepEqual(readJson(configPath()).tools.exec, want.config);
      assert.deepEqual(readJson(approvalsPath()).defaults, want.defaults);
      const scope = d.effectivePolicy.scopes[0];
      assert.equal(scope.runtimeApprovalsSource, "local-file");
      assert.equal(scope.allowedDecisions, undefined);
      assert.equal(scope.security.effective, want.defaults.security);
      assert.ok(d.configChanges.length > 0 && d.approvalsChanges.length === 3);
    });
  }

  test("an unknown preset is a usage error", async () => {
    const r = await cli(["exec-policy", "preset", "reckless"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Unknown exec-policy preset: reckless/);
  });

  test("set keeps other keys, drops mode when the pair has no exact mode, and says so", async () => {
    writeFileSync(configPath(), '// my config\n{tools: {exec: {mode: "allowlist", timeoutSeconds: 5}}, gateway: {port: 1},}\n');
    const r = await cli(["exec-policy", "set", "--ask", "always", "--json"]);
    assert.equal(r.code, 0, r.stderr);
    const d = r.json();
    assert.deepEqual(d.applied, { ask: "always" });
    assert.ok(d.configChanges.some((l) => /^tools\.exec\.mode: removed/.test(l)), d.configChanges.join("\n"));
    const config = readJson(configPath());
    assert.deepEqual(config, { tools: { exec: { timeoutSeconds: 5, security: "allowlist", ask: "always" } }, gateway: { port: 1 } });
    assert.equal(readFileSync(configPath(), "utf8"), JSON.stringify(config, null, 2) + "\n");
    assert.equal(readJson(approvalsPath()).defaults.ask, "always");
  });

  test("set writes an exact mode instead of security/ask", async () => {
    writeFileSync(configPath(), JSON.stringify({ tools: { exec: { security: "full", ask: "off" } } }));
    const r = await cli(["exec-policy", "set", "--security", "allowlist", "--ask-fallback", "allowlist", "--json"]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(readJson(configPath()).tools.exec, { mode: "allowlist" });
    assert.deepEqual(readJson(approvalsPath()).defaults, { security: "allowlist", askFallback: "allowlist" });
  });

  test("set rejects host=node, bad values and an empty request", async () => {
    const node = await cli(["exec-policy", "set", "--host", "node"]);
    assert.equal(node.code, 1);
    assert.match(node.stderr, /cannot synchronize host=node/);
    assert.equal(existsSync(configPath()), false);
    const bad = await cli(["exec-policy", "set", "--security", "sometimes"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Invalid exec security: sometimes/);
    const none = await cli(["exec-policy", "set"]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /Provide at least one of --host, --security, --ask, or --ask-fallback/);
  });

  test("show reports the config and approvals paths and every scope", async () => {
    writeFileSync(configPath(), JSON.stringify({ tools: { exec: { security: "allowlist" } }, agents: { entries: { a: {}, b: { tools: { exec: { mode: "full" } } } } } }));
    const r = await cli(["exec-policy", "show", "--json"]);
    assert.equal(r.code, 0, r.stderr);
    const d = r.json();
    assert.equal(d.approvalsExists, false);
    assert.deepEqual(d.effectivePolicy.scopes.map((s) => s.scopeLabel), ["tools.exec", "agent:a", "agent:b"]);
    assert.equal(d.effectivePolicy.scopes[2].mode.requestedSource, "agents.entries.b.tools.exec.mode");
    const text = await cli(["exec-policy", "show"]);
    assert.match(text.stdout, /^Config: /);
  });

  test("an unreadable config is a failure naming the file", async () => {
    writeFileSync(configPath(), "{tools: ");
    const r = await cli(["exec-policy", "show"]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /openclaw\.json/);
  });
});

describe("clawexec security audit", { concurrency: 1 }, () => {
  test("reports exec findings with the reference check ids", async () => {
    const loose = join(state.dir, "loose");
    mkdirSync(loose);
    chmodSync(loose, 0o777);
    writeFileSync(configPath(), JSON.stringify({ tools: { exec: { security: "full", safeBins: ["python3", "jq"], safeBinTrustedDirs: ["/tmp", loose] } } }));
    writeFileSync(approvalsPath(), JSON.stringify({ version: 1, defaults: { autoAllowSkills: true }, agents: { main: { allowlist: [{ pattern: "/usr/bin/python3" }] } } }));
    const r = await cli(["security", "audit", "--json"]);
    assert.equal(r.code, 0, r.stderr);
    const d = r.json();
    const ids = d.findings.map((f) => f.checkId);
    assert.deepEqual(ids, [
      "tools.exec.security_full_configured",
      "tools.exec.auto_allow_skills_enabled",
      "tools.exec.allowlist_interpreter_without_strict_inline_eval",
      "tools.exec.safe_bins_interpreter_unprofiled",
      "tools.exec.safe_bins_broad_behavior",
      "tools.exec.safe_bin_trusted_dirs_risky",
      "tools.exec.safe_bin_trusted_dirs_writable",
    ]);
    assert.deepEqual(d.summary, { critical: 0, warn: 7, info: 0 });
    for (const f of d.findings) assert.deepEqual(Object.keys(f), ["checkId", "severity", "title", "detail", "remediation"]);
    assert.match(d.findings[6].detail, new RegExp(`${loose} \\(world-writable\\)`));
  });

  test("a clean setup has no findings", async () => {
    const r = await cli(["security", "audit", "--json"]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json().findings, []);
    assert.match((await cli(["security", "audit"])).stdout, /^Exec security audit: 0 critical, 0 warn, 0 info/);
  });
});

describe("clawexec doctor", { concurrency: 1 }, () => {
  test("reports safe-bin coverage and trusted-dir hints", async () => {
    const bin = join(state.dir, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "myfilter"), "#!/bin/sh\n");
    chmodSync(join(bin, "myfilter"), 0o755);
    writeFileSync(configPath(), JSON.stringify({ tools: { exec: { safeBins: ["myfilter", "jq", "node"] } } }));
    const r = await cli(["doctor", "--json"], { env: { PATH: `${bin}:/usr/bin:/bin` } });
    assert.equal(r.code, 0, r.stderr);
    const d = r.json();
    assert.deepEqual(d.safeBinCoverage.hits.map((h) => `${h.bin}:${h.kind}`), ["myfilter:missingProfile", "node:missingProfile", "jq:riskySemantics"]);
    assert.ok(d.safeBinCoverage.warnings.includes('- Run "clawexec doctor --fix" to scaffold missing custom safeBinProfiles entries.'));
    assert.deepEqual(d.trustedDirHints.hits.find((h) => h.bin === "myfilter"), { scopePath: "tools.exec", bin: "myfilter", resolvedPath: join(bin, "myfilter") });
    assert.equal(d.fix, undefined);
    assert.equal(readJson(configPath()).tools.exec.safeBinProfiles, undefined, "doctor without --fix writes nothing");
  });

  test("--fix scaffolds custom profiles only and writes the config", async () => {
    writeFileSync(configPath(), JSON.stringify({ tools: { exec: { safeBins: ["node", "jq", "myfilter"] } }, keep: true }));
    const r = await cli(["doctor", "--fix", "--json"]);
    assert.equal(r.code, 0, r.stderr);
    const d = r.json();
    assert.deepEqual(d.fix.changes, ["- tools.exec.safeBinProfiles.myfilter: added scaffold profile {} (review and tighten flags/positionals)."]);
    assert.equal(d.fix.configWritten, true);
    const config = readJson(configPath());
    assert.deepEqual(config.tools.exec.safeBinProfiles, { myfilter: {} });
    assert.equal(config.keep, true);
    const again = (await cli(["doctor", "--fix", "--json"])).json();
    assert.equal(again.fix.configWritten, false);
  });
});
