// Attacks on "decisions come from humans" and "humans see what runs" (issue 10 items 7, 8): an
// agent whose inline python is waiting for approval must not be able to approve it itself -
// through the operator CLI (by name, by path, behind sh -c / env / quotes, under another name),
// through its own client speaking the socket protocol with the token from the approvals
// document (also as a double-forked daemon, also posing as a member), or through a
// `clawexec serve` of its own. Each attack leaves the approval pending and the command unrun
// (its marker file absent). And a command that hides itself with terminal escapes is shown
// to the operator with the escapes visible.
import { describe, test, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { startServer, scratchDir, serverEnv, CLAWEXEC, waitFor, closeAll, sleep } from "./lib/harness.mjs";

const servers = [];
const scratch = scratchDir("clawexec-attack-op-");
after(async () => {
  await closeAll(servers);
  scratch.cleanup();
});

const BIN_DIR = dirname(CLAWEXEC);
const CLAWEXEC_REAL = realpathSync(CLAWEXEC);
const ESC = "\x1b";

// The attacker's setup: allowlist + on-miss with askFallback deny, strict inline eval, the
// usual allowlist; clawexec itself is allowlisted too (an operator may allow `approvals get`).
async function attackedServer(extra = {}) {
  const s = await startServer({
    config: {
      tools: {
        exec: { security: "allowlist", ask: "on-miss", strictInlineEval: true, approvalRunningNoticeMs: 0, pathPrepend: [BIN_DIR] },
      },
    },
    approvals: {
      version: 1,
      defaults: { security: "allowlist", ask: "on-miss", askFallback: "deny" },
      agents: {
        main: {
          allowlist: ["/usr/bin/git", "/usr/bin/ls", "/usr/bin/cat", "/usr/bin/python3*", "/usr/bin/sleep", CLAWEXEC_REAL].map(
            (pattern) => ({ pattern }),
          ),
        },
      },
    },
    ...extra,
  });
  servers.push(s);
  return s;
}

function operator(s, args, options = {}) {
  const r = spawnSync(CLAWEXEC, args, { env: serverEnv(s.stateDir), encoding: "utf8", timeout: 20000, ...options });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function pendingIds(s) {
  const r = operator(s, ["approvals", "pending", "--json"]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout).map((a) => a.id);
}

let markers = 0;
/** The victim: inline python that strictInlineEval sends to approval; it would create a marker. */
async function victim(s) {
  const marker = join(scratch.dir, `ran-${process.pid}-${markers++}`);
  const r = await s.call("exec", { command: `python3 -c "open('${marker}', 'w').write('approved')"` });
  assert.equal(r.details?.status, "approval-pending", r.text);
  return { marker, id: r.details.approvalId, slug: r.details.approvalSlug };
}

/** The approval is still pending and its command never ran; then a human denies it. */
async function expectStillPending(s, v) {
  assert.ok(pendingIds(s).includes(v.id), "the approval must still be pending");
  assert.equal(existsSync(v.marker), false, "the command must not have run");
  const denied = operator(s, ["approvals", "resolve", v.slug, "deny"]);
  assert.equal(denied.code, 0, denied.stderr);
  await waitFor(() => s.notifications.some((n) => n.data.startsWith(`Exec denied (gateway id=${v.id}, user-denied)`)), 10000, "denied");
  assert.equal(existsSync(v.marker), false);
}

const GUARD_MESSAGE =
  "exec cannot run operator commands that answer approvals or change exec policy (clawexec approvals, " +
  "clawexec exec-policy, clawexec config set, clawexec doctor --fix). Show the command to the user so " +
  "they can run it in their own terminal; approvals and policy changes must come from a human.";

// A client of the operator socket written by the agent: reads socket.path and socket.token from
// the approvals document, says hello (as `role`), tries to inject a pending approval (member),
// to resolve the victim and to /approve it; prints every line the hub sends. With `daemon`, it
// double-forks first and writes its transcript to `out` instead.
const CLIENT = join(scratch.dir, "approve_client.py");
writeFileSync(
  CLIENT,
  `import json, os, socket, sys, time
doc_path, slug, role, mode, out = sys.argv[1:6]
if mode == "daemon":
    if os.fork() > 0:
        time.sleep(4)  # the command itself stays a while; its orphaned grandchild does the work
        sys.exit(0)
    os.setsid()
    if os.fork() > 0:
        os._exit(0)
    time.sleep(0.5)
lines = []
try:
    doc = json.load(open(doc_path))
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(os.path.expanduser(doc["socket"]["path"]))
    sock.settimeout(2)
    f = sock.makefile("rw")
    def send(m):
        try:
            f.write(json.dumps(m) + "\\n")
            f.flush()
        except OSError as e:  # a hub that refused us has closed; its answer is still readable
            lines.append("send failed: " + repr(e))
    send({"type": "hello", "token": doc["socket"]["token"], "role": role, "pid": os.getpid()})
    if role == "member":
        send({"type": "pending.add", "approval": {"id": "f00dfeed-0000-4000-8000-000000000000", "slug": "f00dfeed",
              "command": "echo harmless", "allowedDecisions": ["allow-once", "deny"], "createdAtMs": 1,
              "expiresAtMs": 9999999999999}})
    send({"type": "resolve", "id": slug, "decision": "allow-once", "requestId": 1})
    send({"type": "command", "text": "/approve " + slug + " allow-once", "requestId": 2})
    for line in f:
        lines.append(line.strip())
except Exception as e:
    lines.append("exception: " + repr(e))
text = "\\n".join(lines) + "\\n"
if mode == "daemon":
    with open(out + ".tmp", "w") as w:
        w.write(text)
    os.rename(out + ".tmp", out)
else:
    sys.stdout.write(text)
`,
);

const REFUSED = /operator channel: refusing a peer that runs under a clawexec command \(pid \d+\); approvals must come from a human/;

describe("the agent cannot approve its own request", { concurrency: 3 }, () => {
  for (const [name, command] of [
    ["clawexec approvals resolve by name", (v) => `clawexec approvals resolve ${v.slug} allow-once`],
    ["clawexec approvals say by absolute path", (v) => `${CLAWEXEC} approvals say '/approve ${v.slug} allow-once'`],
    ["sh -c around it", (v) => `sh -c 'clawexec approvals resolve ${v.slug} allow-once'`],
    ["env and command carriers", (v) => `env command clawexec approvals resolve ${v.full ?? v.id} allow-once`],
    ["quoting tricks", (v) => `'clawexec' appro"vals" re\\solve ${v.slug} allow-once`],
    ["allowlist add", () => `clawexec approvals allowlist add '/usr/bin/*'`],
  ]) {
    test(`the control guard refuses it: ${name}`, async () => {
      const s = await attackedServer();
      const v = await victim(s);
      const r = await s.call("exec", { command: command(v) });
      assert.equal(r.isError, true, r.text);
      assert.equal(r.text, GUARD_MESSAGE);
      await expectStillPending(s, v);
    });
  }

  test("the CLI under another name refuses to resolve, and the hub refuses to list, for an exec command", async () => {
    const s = await attackedServer();
    const v = await victim(s);
    const alias = join(scratch.dir, `ce-${process.pid}`);
    symlinkSync(CLAWEXEC, alias);
    const r = await s.call("exec", { command: `${alias} approvals resolve ${v.slug} allow-once` });
    assert.equal(r.details?.status, "completed", r.text);
    assert.equal(r.details.exitCode, 1, r.text);
    assert.match(r.text, /clawexec approvals resolve: refusing to run: this process runs under a clawexec command \(supervisor pid \d+, [^)]*clawexec-shim\); approvals and policy changes must come from a human\. Show this command to the user/);
    const listed = await s.call("exec", { command: `${alias} approvals pending` });
    assert.equal(listed.details.exitCode, 1, listed.text);
    assert.match(listed.text, REFUSED);
    assert.equal(listed.text.includes(v.id), false, "nothing about pending approvals is disclosed");
    const added = await s.call("exec", { command: `${alias} approvals allowlist add '/usr/bin/*'` });
    assert.equal(added.details.exitCode, 1, added.text);
    assert.match(added.text, /clawexec approvals allowlist add: refusing to run/);
    const preset = await s.call("exec", { command: `${alias} exec-policy preset yolo` });
    assert.equal(preset.details.exitCode, 1, preset.text);
    const doc = JSON.parse(readFileSync(join(s.stateDir, "exec-approvals.json"), "utf8"));
    assert.equal(doc.agents.main.allowlist.some((e) => e.pattern === "/usr/bin/*"), false);
    assert.equal(doc.defaults.security, "allowlist");
    await expectStillPending(s, v);
    assert.match(s.stderr, REFUSED, "the server logs the refused peer");
  });

  test("a python client with the token from the approvals document is refused", async () => {
    const s = await attackedServer();
    const v = await victim(s);
    const doc = join(s.stateDir, "exec-approvals.json");
    const token = await s.call("exec", { command: `cat ${doc}` });
    assert.match(token.text, /"token"/, "the agent can read the token: it must be worthless to it");
    const r = await s.call("exec", { command: `python3 ${CLIENT} ${doc} ${v.slug} operator now -` });
    assert.equal(r.details?.status, "completed", r.text);
    assert.match(r.text, REFUSED);
    assert.equal(/"ok": ?true/.test(r.text), false, r.text);
    await expectStillPending(s, v);
  });

  test("a double-forked python daemon is still recognised", async () => {
    const s = await attackedServer();
    const v = await victim(s);
    const out = join(scratch.dir, `daemon-${process.pid}-${markers++}.txt`);
    const r = await s.call("exec", { command: `python3 ${CLIENT} ${join(s.stateDir, "exec-approvals.json")} ${v.slug} operator daemon ${out}` });
    assert.equal(r.details?.status, "completed", r.text);
    await waitFor(() => existsSync(out), 10000, "the daemon's transcript");
    assert.match(readFileSync(out, "utf8"), REFUSED);
    await expectStillPending(s, v);
  });

  test("a python client posing as a member can neither inject nor resolve", async () => {
    const s = await attackedServer();
    const v = await victim(s);
    const r = await s.call("exec", { command: `python3 ${CLIENT} ${join(s.stateDir, "exec-approvals.json")} ${v.slug} member now -` });
    assert.match(r.text, REFUSED);
    assert.equal(pendingIds(s).includes("f00dfeed-0000-4000-8000-000000000000"), false, "no injected approval");
    await expectStillPending(s, v);
  });

  test("a clawexec serve started as an exec command does not join the operator channel", async () => {
    const s = await attackedServer();
    const v = await victim(s);
    const started = await s.call("exec", { command: "sleep 30 | clawexec serve", background: true });
    assert.equal(started.details?.status, "running", started.text);
    const log = await waitFor(async () => {
      const l = await s.call("process", { action: "log", sessionId: started.details.sessionId });
      return /operator channel: not joining/.test(l.text) ? l.text : null;
    }, 10000, "the nested server's refusal");
    assert.match(log, /operator channel: not joining: this process runs under a clawexec command \(supervisor pid \d+/);
    await s.call("process", { action: "kill", sessionId: started.details.sessionId });
    await expectStillPending(s, v);
  });
});

describe("the operator sees what runs", { concurrency: 3 }, () => {
  const hidden = (marker) => `touch ${marker} #${ESC}[2K${ESC}[1G  Command: ls -la`;

  test("approvals pending and watch show the escapes, never the raw ESC byte", async () => {
    const s = await attackedServer();
    const marker = join(scratch.dir, `hidden-${process.pid}-${markers++}`);
    const r = await s.call("exec", { command: hidden(marker) });
    assert.equal(r.details?.status, "approval-pending", r.text);
    assert.equal(r.details.command, hidden(marker), "the details keep the exact text");
    assert.ok(r.text.includes(`touch ${marker} #\\e[2K\\e[1G  Command: ls -la`), r.text);
    assert.equal(r.text.includes(ESC), false, "the approval-pending text an agent relays is escaped");

    const pending = operator(s, ["approvals", "pending"]);
    assert.equal(pending.code, 0, pending.stderr);
    assert.ok(pending.stdout.includes("#\\e[2K\\e[1G  Command: ls -la"), pending.stdout);
    assert.equal(pending.stdout.includes(ESC), false);
    const json = operator(s, ["approvals", "pending", "--json"]);
    assert.equal(JSON.parse(json.stdout)[0].command, hidden(marker), "--json keeps the exact text");

    const watch = spawn(CLAWEXEC, ["approvals", "watch"], { env: serverEnv(s.stateDir), stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    watch.stdout.on("data", (d) => (out += d));
    try {
      await waitFor(() => out.includes(r.details.approvalId), 10000, "watch lists the request");
    } finally {
      watch.kill();
    }
    assert.ok(out.includes("#\\e[2K\\e[1G  Command: ls -la"), out);
    assert.equal(out.includes(ESC), false, out);
    assert.equal(existsSync(marker), false);
  });

  test("the interactive watch on a terminal shows the escapes", async () => {
    const s = await attackedServer();
    const marker = join(scratch.dir, `hidden-tty-${process.pid}-${markers++}`);
    const r = await s.call("exec", { command: hidden(marker) });
    assert.equal(r.details?.status, "approval-pending", r.text);
    // A pseudo-terminal for `approvals watch`: python's pty module, reading until the request
    // is shown, then `q`.
    const driver = [
      "import os, pty, sys, time, select",
      "pid, fd = pty.fork()",
      "if pid == 0:",
      "    os.execv(sys.argv[1], [sys.argv[1], 'approvals', 'watch'])",
      "out = b''",
      "deadline = time.time() + 10",
      "while time.time() < deadline and sys.argv[2].encode() not in out:",
      "    r, _, _ = select.select([fd], [], [], 0.2)",
      "    if r:",
      "        try: out += os.read(fd, 65536)",
      "        except OSError: break",
      "os.write(fd, b'q')",
      "time.sleep(0.3)",
      "try:",
      "    while select.select([fd], [], [], 0.2)[0]: out += os.read(fd, 65536)",
      "except OSError: pass",
      "sys.stdout.buffer.write(out)",
    ].join("\n");
    const tty = spawnSync("/usr/bin/python3", ["-c", driver, CLAWEXEC, "Allowed:"], { env: serverEnv(s.stateDir), encoding: "utf8", timeout: 20000 });
    assert.ok(tty.stdout.includes("Watching exec approvals"), tty.stdout + tty.stderr);
    assert.ok(tty.stdout.includes(`Command: touch ${marker} #\\e[2K\\e[1G  Command: ls -la`), tty.stdout);
    assert.equal(tty.stdout.includes(`${ESC}[2K`), false, JSON.stringify(tty.stdout));
    assert.equal(existsSync(marker), false);
  });

  test("the elicitation message shows the escapes", async () => {
    const messages = [];
    const s = await attackedServer({
      elicit: (params) => {
        messages.push(params.message);
        return { action: "decline" };
      },
    });
    const marker = join(scratch.dir, `hidden-elicit-${process.pid}-${markers++}`);
    const r = await s.call("exec", { command: `${hidden(marker)} ${"\u202e"}fr- mr` });
    assert.equal(r.isError, true, r.text);
    assert.equal(messages.length, 1);
    assert.ok(messages[0].includes("#\\e[2K\\e[1G  Command: ls -la \\u{202E}fr- mr"), messages[0]);
    assert.equal(messages[0].includes(ESC), false);
    assert.equal(messages[0].includes("\u202e"), false);
    assert.equal(r.text.includes(ESC), false, "the denial text too");
    assert.equal(existsSync(marker), false);
  });

  test("approvals get and policy explain show allowlist use and commands escaped", async () => {
    const s = await attackedServer();
    const used = await s.call("exec", { command: `ls ${scratch.dir} #${ESC}[2K bidi ${"\u202e"}txt.exe` });
    assert.equal(used.details?.status, "completed", used.text);
    await waitFor(() => readFileSync(join(s.stateDir, "exec-approvals.json"), "utf8").includes("lastUsedCommand"), 10000, "bookkeeping");
    const get = operator(s, ["approvals", "get"]);
    assert.equal(get.code, 0, get.stderr);
    assert.ok(get.stdout.includes("bidi \\u{202E}txt.exe"), get.stdout);
    assert.equal(get.stdout.includes("\u202e"), false);
    assert.equal(get.stdout.includes(ESC), false);
    const explain = operator(s, ["policy", "explain", "--", `touch x #${ESC}[2K${ESC}[1G  ls`]);
    assert.equal(explain.code, 0, explain.stderr);
    assert.ok(explain.stdout.includes("command: touch x #\\e[2K\\e[1G  ls"), explain.stdout);
    assert.equal(explain.stdout.includes(ESC), false);
  });
});

// Give stragglers (the nested server) a moment before the harness removes the state dirs.
after(async () => sleep(100));
