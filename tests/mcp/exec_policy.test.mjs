// The policy engine on the exec tool (approvals spec §2, §4, §5, §6, §7.1, §7.4, §7.5): the
// approvals document floors the configured policy, allowlisted commands run as their enforced
// rendering, misses and unanalyzable commands are refused with the reference texts, commands
// that would need a human are settled by askFallback, and allowlist use is recorded.
import { describe, test, after } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync, readFileSync, mkdirSync, chmodSync, existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { spawnSync } from "node:child_process";
import { startServer, scratchDir, expectThrownExec, waitFor, serverEnv, CLAWEXEC, closeAll } from "./lib/harness.mjs";

const servers = [];
after(async () => {
  await closeAll(servers);
});

/**
 * A server with tools.exec = execConfig and the given approvals document. Approvals nobody
 * answers expire after 300 ms, so the askFallback outcome arrives quickly as a notification.
 */
async function serverWith(execConfig, approvals) {
  const s = await startServer({
    config: { tools: { exec: execConfig } },
    approvals,
    env: { CLAWEXEC_APPROVAL_TIMEOUT_MS: "300" },
  });
  servers.push(s);
  return s;
}

/** The call waits for approval; nobody answers; askFallback refuses with `reason`. */
async function expectFallbackDenied(s, args, reason) {
  const marker = join(tmpdir(), `clawexec-ran-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const command = args.command ?? `touch ${marker}`;
  const r = await s.call("exec", { ...args, command });
  assert.equal(r.details?.status, "approval-pending", r.text);
  const expected = `Exec denied (gateway id=${r.details.approvalId}, ${reason}): ${command}`;
  await waitFor(() => s.notifications.some((n) => n.data === expected), 10000, expected);
  assert.equal(existsSync(marker), false, "the command must not run");
}

/** The call waits for approval; nobody answers; askFallback runs it. */
async function expectFallbackRuns(s, args, output) {
  const r = await s.call("exec", args);
  assert.equal(r.details?.status, "approval-pending", r.text);
  const prefix = `Exec finished (gateway id=${r.details.approvalId}, `;
  await waitFor(() => s.notifications.some((n) => n.data.startsWith(prefix)), 10000, prefix);
  assert.match(s.notifications.find((n) => n.data.startsWith(prefix)).data, new RegExp(`code 0\\)\\n${output}$`));
}

const allowlistDoc = (entries, defaults = {}) => ({ version: 1, defaults, agents: { main: { allowlist: entries } } });

function headless(security, ask, fallback) {
  return (
    "exec denied: Headless runs cannot wait for interactive exec approval.\n" +
    `Effective host exec policy: security=${security} ask=${ask} askFallback=${fallback}\n` +
    "Stricter values from tools.exec and $OPENCLAW_STATE_DIR/exec-approvals.json both apply.\n" +
    "Fix one of these:\n" +
    '- align both files to security="full" and ask="off" for trusted local automation\n' +
    "- keep allowlist mode and add an explicit allowlist entry for this command\n" +
    "- enable Web UI, terminal UI, or chat exec approvals and rerun interactively\n" +
    'Tip: run "clawexec doctor" and "clawexec approvals get" to inspect the effective policy.'
  );
}

describe("security=allowlist", { concurrency: 4 }, () => {
  test("an allowlisted command and a safe-bin pipeline run; the result is the command's", async () => {
    const s = await serverWith({ security: "allowlist", ask: "off" }, allowlistDoc([{ pattern: "printf" }]));
    const r = await s.call("exec", { command: "printf 'a\\nb\\n' | head -n 1" });
    assert.equal(r.isError, false);
    assert.equal(r.text, "a");
  });

  test("a segment that no entry covers refuses the whole chain with `exec denied: allowlist miss`", async () => {
    const s = await serverWith({ security: "allowlist", ask: "off" }, allowlistDoc([{ pattern: "printf" }]));
    await expectThrownExec(s, { command: `printf x && touch ${join(tmpdir(), "clawexec-never")}` }, "exec denied: allowlist miss");
    assert.equal(existsSync(join(tmpdir(), "clawexec-never")), false);
  });

  test("an unanalyzable command ($VAR argument) is a miss even when its program is allowlisted", async () => {
    const s = await serverWith({ security: "allowlist", ask: "off" }, allowlistDoc([{ pattern: "touch" }]));
    await expectThrownExec(s, { command: "touch $HOME/clawexec-unanalyzable" }, "exec denied: allowlist miss");
  });

  test("a path entry matches the resolved real path, not the name", async () => {
    const dir = scratchDir();
    try {
      mkdirSync(join(dir.dir, "bin"));
      const tool = join(dir.dir, "bin", "tool");
      writeFileSync(tool, "#!/bin/sh\necho tool-ran \"$@\"\n");
      chmodSync(tool, 0o755);
      const s = await serverWith({ security: "allowlist", ask: "off" }, allowlistDoc([{ pattern: `${dir.dir}/bin/*` }]));
      const r = await s.call("exec", { command: "./bin/tool x", workdir: dir.dir });
      assert.equal(r.text, "tool-ran x");
      await expectThrownExec(s, { command: "ls", workdir: dir.dir }, "exec denied: allowlist miss");
    } finally {
      dir.cleanup();
    }
  });

  test("an allowlisted command runs as its enforced rendering (the resolved path)", async () => {
    const dir = scratchDir();
    try {
      mkdirSync(join(dir.dir, "bin"));
      const tool = join(dir.dir, "bin", "who");
      writeFileSync(tool, '#!/bin/sh\necho "$0"\n');
      chmodSync(tool, 0o755);
      const s = await serverWith({ security: "allowlist", ask: "off" }, allowlistDoc([{ pattern: `${dir.dir}/bin/who` }]));
      // $0 shows the path the shell ran: the enforced rendering replaced "./bin/who".
      const r = await s.call("exec", { command: "./bin/who", workdir: dir.dir });
      assert.equal(r.text, `${dir.dir}/bin/who`);
    } finally {
      dir.cleanup();
    }
  });

  test("using an entry records lastUsedAt, lastUsedCommand and lastResolvedPath", async () => {
    const s = await serverWith({ security: "allowlist", ask: "off" }, allowlistDoc([{ pattern: "printf" }]));
    const before = Date.now();
    await s.call("exec", { command: "printf used" });
    // Bookkeeping is written off the io thread, right after the command starts.
    const read = () => JSON.parse(readFileSync(join(s.stateDir, "exec-approvals.json"), "utf8")).agents.main.allowlist[0];
    await waitFor(() => read().lastUsedCommand !== undefined, 5000, "the allowlist use to be recorded");
    const entry = read();
    assert.equal(entry.lastUsedCommand, "printf used");
    assert.match(entry.lastResolvedPath, /\/printf$/);
    assert.ok(entry.lastUsedAt >= before);
    assert.match(entry.id, /^[0-9a-f-]{36}$/);
  });
});

describe("effective policy", { concurrency: 4 }, () => {
  test("the approvals document can only tighten: defaults.security=deny refuses everything", async () => {
    const s = await serverWith({ security: "full", ask: "off" }, { version: 1, defaults: { security: "deny" } });
    await expectThrownExec(s, {}, "exec denied: host=gateway security=deny");
  });

  test("a corrupt approvals document fails closed", async () => {
    const s = await serverWith({ security: "full", ask: "off" });
    writeFileSync(join(s.stateDir, "exec-approvals.json"), "{ not json");
    await expectThrownExec(s, {}, "exec denied: host=gateway security=deny");
    assert.equal(readFileSync(join(s.stateDir, "exec-approvals.json"), "utf8"), "{ not json");
  });

  test("tools.exec.mode=deny refuses, and the per-call security cannot loosen it", async () => {
    const s = await serverWith({ mode: "deny" });
    await expectThrownExec(s, { security: "full" }, "exec denied: host=gateway security=deny");
  });

  test("per-call security=deny is ignored (model-supplied security never changes policy)", async () => {
    const s = await serverWith({ security: "full", ask: "off" });
    const r = await s.call("exec", { command: "echo still-runs", security: "deny" });
    assert.equal(r.text, "still-runs");
  });

  test("a per-call ask=always hardens the policy: unanswered, askFallback=deny refuses", async () => {
    const s = await serverWith({ security: "allowlist", ask: "off" }, allowlistDoc([{ pattern: "printf" }]));
    await expectFallbackDenied(s, { command: "printf x", ask: "always" }, "approval-timeout");
  });

  test("askFallback=full lets a command that needs approval run (under security=full)", async () => {
    const s = await serverWith({ security: "full", ask: "always" }, allowlistDoc([], { askFallback: "full" }));
    await expectFallbackRuns(s, { command: "echo fell-back" }, "fell-back");
  });

  test("askFallback is clamped by security: full under security=allowlist acts as allowlist", async () => {
    const s = await serverWith({ security: "allowlist", ask: "on-miss" }, allowlistDoc([], { askFallback: "full" }));
    await expectFallbackDenied(s, {}, "approval-timeout: allowlist-miss");
  });

  test("askFallback=allowlist runs only what the allowlist covers", async () => {
    const s = await serverWith(
      { security: "allowlist", ask: "on-miss" },
      allowlistDoc([{ pattern: "printf" }], { askFallback: "allowlist" }),
    );
    await expectFallbackRuns(s, { command: "printf ok", ask: "always" }, "ok");
    await expectFallbackDenied(s, {}, "approval-timeout: allowlist-miss");
  });

  test("the one-shot CLI has no approval route: askFallback decides at once (headless text)", () => {
    const state = scratchDir("clawexec-state-");
    try {
      writeFileSync(join(state.dir, "openclaw.json"), JSON.stringify({ tools: { exec: { security: "allowlist", ask: "on-miss" } } }));
      const r = spawnSync(CLAWEXEC, ["exec", "--", "echo never"], { env: serverEnv(state.dir), encoding: "utf8", timeout: 20000 });
      assert.equal(r.status, 1);
      assert.equal(r.stdout + r.stderr, "clawexec exec: " + headless("allowlist", "on-miss", "deny") + "\n");
    } finally {
      state.cleanup();
    }
  });

  test("mode=ask with an allowlist hit runs without asking", async () => {
    const s = await serverWith({ mode: "ask" }, allowlistDoc([{ pattern: "printf" }]));
    const r = await s.call("exec", { command: "printf hit" });
    assert.equal(r.text, "hit");
  });
});

describe("strictInlineEval", { concurrency: 4 }, () => {
  test("an interpreter's inline program needs approval even under security=full", async () => {
    const s = await serverWith({ security: "full", ask: "off", strictInlineEval: true });
    const marker = join(tmpdir(), `clawexec-inline-${process.pid}`);
    rmSync(marker, { force: true });
    await expectFallbackDenied(s, { command: `python3 -c "open('${marker}','w')"` }, "approval-timeout");
    assert.equal(existsSync(marker), false);
  });

  test("even askFallback=full cannot approve a strict inline-eval hit", async () => {
    const s = await serverWith(
      { security: "full", ask: "off", strictInlineEval: true },
      { version: 1, defaults: { askFallback: "full" } },
    );
    await expectFallbackDenied(s, { command: "python3 -c 'print(1)'" }, "approval-timeout");
  });

  test("without strictInlineEval the same command runs", async () => {
    const s = await serverWith({ security: "full", ask: "off" });
    const r = await s.call("exec", { command: "python3 -c 'print(40+2)'" });
    assert.equal(r.text, "42");
  });
});

describe("safe bins", { concurrency: 4 }, () => {
  test("unprofiled and interpreter safe bins are reported once at startup and never auto-allowed", async () => {
    const s = await serverWith({ security: "allowlist", ask: "off", safeBins: ["python3", "mytool", "head"] }, allowlistDoc([]));
    assert.match(
      s.stderr,
      /exec: ignoring unprofiled safeBins entries \(mytool, python3\); use allowlist or define tools\.exec\.safeBinProfiles\.<bin>/,
    );
    assert.match(s.stderr, /exec: interpreter\/runtime binaries in safeBins \(python3\) are unsafe without explicit hardened profiles/);
    await expectThrownExec(s, { command: "python3 --version" }, "exec denied: allowlist miss");
    const ok = await s.call("exec", { command: "printf 'x\\ny\\n' | head -n 1", security: "full" });
    assert.equal(ok.isError, true, "printf is not a safe bin: the pipeline is a miss");
  });

  test("a profiled safe bin used in its allowed shape runs; a file operand makes it a miss", async () => {
    const s = await serverWith({ security: "allowlist", ask: "off" }, allowlistDoc([{ pattern: "printf" }]));
    const r = await s.call("exec", { command: "printf 'a b c\\n' | wc -w" });
    assert.equal(r.text.trim(), "3");
    await expectThrownExec(s, { command: "wc -l /etc/passwd" }, "exec denied: allowlist miss");
  });
});
