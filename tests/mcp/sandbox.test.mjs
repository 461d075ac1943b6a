// The sandbox host through MCP (docs/sandbox.md): `agents.defaults.sandbox.mode` puts a session's
// commands into a long-lived per-scope sandbox built from bubblewrap, namespaces, Landlock and
// seccomp. These tests use real namespaces: they check that a sandbox persists within its scope,
// is separate between scopes, that the escapes an agent would try fail, and that routing and
// elevated follow the reference's table and texts.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync, existsSync, readFileSync, readdirSync, readlinkSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { CLAWEXEC, serverEnv, scratchDir, startServer, waitFor, sleep, isAlive, pollUntilExit } from "./lib/harness.mjs";

/**
 * Pids whose command line matches `re` and that run inside the sandbox whose holder is
 * `holder` (in a pid namespace of the holder or its descendants, other than this test's own):
 * this test's processes, never another's that runs the same command elsewhere on the machine.
 */
function sandboxProcesses(holder, re) {
  const parent = new Map();
  const args = new Map();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
      args.set(Number(d), readFileSync(`/proc/${d}/cmdline`, "utf8").replaceAll("\0", " ").trim());
    } catch {}
  }
  const ns = (pid) => {
    try {
      return readlinkSync(`/proc/${pid}/ns/pid`);
    } catch {
      return null;
    }
  };
  const own = ns(process.pid);
  const sandboxNs = new Set();
  for (const pid of args.keys()) {
    for (let p = pid, n = 0; p > 1 && n < 64; p = parent.get(p), n++) {
      if (p === holder) {
        const x = ns(pid);
        if (x && x !== own) sandboxNs.add(x);
        break;
      }
    }
  }
  return [...args].filter(([pid, a]) => re.test(a) && sandboxNs.has(ns(pid))).map(([pid]) => pid);
}

const sandboxed = (sandbox = {}, extra = {}) => ({
  ...extra,
  agents: { defaults: { sandbox: { mode: "all", ...sandbox } }, ...(extra.agents ?? {}) },
});

async function withServer(options, body) {
  const s = await startServer(options);
  try {
    await body(s);
  } finally {
    await s.close();
  }
}

const run = async (s, command, extra = {}) => {
  const r = await s.call("exec", { command, ...extra });
  return r;
};

describe("sandbox: one long-lived sandbox per scope", () => {
  test("files in /tmp and the workspace persist; the workspace is the scope's directory", async () => {
    await withServer({ config: sandboxed() }, async (s) => {
      const a = await run(s, "echo one > /tmp/kept; echo two > /workspace/file; pwd; hostname; id -u");
      assert.equal(a.isError, false, a.text);
      assert.equal(a.details.status, "completed");
      assert.match(a.text, /^\/workspace\nclawexec-sandbox\n\d+/);
      const b = await run(s, "cat /tmp/kept /workspace/file");
      assert.equal(b.text.trim(), "one\ntwo");
      const { readdirSync } = await import("node:fs");
      const [scope] = readdirSync(join(s.stateDir, "sandboxes"));
      assert.match(scope, /^agent-main-[0-9a-f]{10}$/);
      assert.equal(readFileSync(join(s.stateDir, "sandboxes", scope, "workspace", "file"), "utf8"), "two\n");
    });
  });

  test("a background server is reachable on the sandbox's loopback from the next command", async () => {
    await withServer({ config: sandboxed() }, async (s) => {
      const server = await run(
        s,
        "python3 -c 'import socket;s=socket.socket();s.bind((\"127.0.0.1\",7777));s.listen();c,_=s.accept();c.send(b\"hello-from-sandbox\");c.close()'",
        { background: true },
      );
      assert.equal(server.details.status, "running");
      await sleep(300);
      const client = await run(
        s,
        "python3 -c 'import socket;s=socket.create_connection((\"127.0.0.1\",7777));print(s.recv(100).decode())'",
      );
      assert.match(client.text, /hello-from-sandbox/);
    });
  });

  test("ps shows only the sandbox's processes, not the server", async () => {
    await withServer({ config: sandboxed() }, async (s) => {
      const r = await run(s, "ls /proc | grep -c '^[0-9]'; test -d /proc/" + s.pid + " && echo server-visible; echo end");
      const count = Number(r.text.split("\n")[0]);
      assert.ok(count > 0 && count < 10, r.text);
      assert.doesNotMatch(r.text, /server-visible/);
    });
  });

  test("two agents get separate sandboxes and workspaces", async () => {
    const state = scratchDir("clawexec-state-");
    try {
      writeFileSync(join(state.dir, "openclaw.json"), JSON.stringify(sandboxed()));
      await withServer({ stateDir: state.dir, args: ["--agent", "alpha"] }, async (a) => {
        await withServer({ stateDir: state.dir, args: ["--agent", "beta"] }, async (b) => {
          await run(a, "echo alpha > /workspace/mine; echo alpha > /tmp/mine");
          const r = await run(b, "cat /workspace/mine /tmp/mine 2>&1; echo done");
          assert.doesNotMatch(r.text, /alpha/);
        });
      });
    } finally {
      state.cleanup();
    }
  });
});

describe("sandbox: escapes fail", () => {
  test("the host HOME, its secrets and other sandboxes are not visible", async () => {
    const home = scratchDir("clawexec-home-");
    try {
      mkdirSync(join(home.dir, ".ssh"));
      writeFileSync(join(home.dir, ".ssh", "id_ed25519"), "PLANTED-HOST-KEY\n");
      await withServer({ config: sandboxed(), env: { HOME: home.dir } }, async (s) => {
        const r = await run(s, `cat ${home.dir}/.ssh/id_ed25519 2>&1; ls /home /root 2>&1; cat /etc/shadow | wc -c; echo end`);
        assert.doesNotMatch(r.text, /PLANTED-HOST-KEY/);
        assert.match(r.text, /No such file or directory/);
        assert.match(r.text, /\n0\nend/);
        // The state dir (approvals socket, config, other sandboxes) lives under /tmp here: private.
        const state = await run(s, `ls ${s.stateDir} 2>&1; echo end`);
        assert.match(state.text, /No such file or directory/);
      });
    } finally {
      home.cleanup();
    }
  });

  test("writes outside the workspace and the private tmpfs fail", async () => {
    await withServer({ config: sandboxed() }, async (s) => {
      const r = await run(
        s,
        "for p in /usr/evil /etc/evil /bin/evil /opt/evil /proc/evil; do touch $p 2>/dev/null && echo WROTE $p; done; " +
          "touch /tmp/ok /var/tmp/ok /run/ok /workspace/ok && echo tmp-ok",
      );
      assert.doesNotMatch(r.text, /WROTE/);
      assert.match(r.text, /tmp-ok/);
    });
  });

  test("workspaceAccess ro: the agent workspace is read-only at /agent", async () => {
    const ws = scratchDir("clawexec-agent-ws-");
    try {
      writeFileSync(join(ws.dir, "README"), "agent workspace\n");
      await withServer({ config: sandboxed({ workspaceAccess: "ro" }), cwd: ws.dir }, async (s) => {
        const r = await run(s, "cat /agent/README; touch /agent/x 2>&1 || echo refused; echo new > /agent/README 2>&1; echo end");
        assert.match(r.text, /agent workspace/);
        assert.match(r.text, /refused/);
        assert.equal(readFileSync(join(ws.dir, "README"), "utf8"), "agent workspace\n");
        assert.equal(existsSync(join(ws.dir, "x")), false);
      });
    } finally {
      ws.cleanup();
    }
  });

  test("workspaceAccess rw: .git/hooks and .git/config stay read-only, commits still work", async () => {
    const ws = scratchDir("clawexec-agent-ws-");
    try {
      await withServer({ config: sandboxed({ workspaceAccess: "rw" }), cwd: ws.dir }, async (s) => {
        // The repository exists before the sandbox is created (its first command).
        const { execFileSync } = await import("node:child_process");
        execFileSync("git", ["init", "-q", ws.dir]);
        const r = await run(
          s,
          "echo 'echo pwned' > .git/hooks/pre-commit 2>&1 || echo hooks-refused; " +
            "echo '[core]' >> .git/config 2>&1 || echo config-refused; " +
            "echo hi > f && git -c user.email=a@b -c user.name=a add f && git -c user.email=a@b -c user.name=a commit -qm m && echo committed",
        );
        assert.match(r.text, /hooks-refused/);
        assert.match(r.text, /config-refused/);
        assert.match(r.text, /committed/);
        assert.equal(existsSync(join(ws.dir, ".git", "hooks", "pre-commit")), false);
      });
    } finally {
      ws.cleanup();
    }
  });

  test("network none: a TCP server on the host's loopback is unreachable", async () => {
    const listener = createServer((c) => c.end("HOST-SECRET\n"));
    await new Promise((r) => listener.listen(0, "127.0.0.1", r));
    const port = listener.address().port;
    try {
      await withServer({ config: sandboxed() }, async (s) => {
        const r = await run(
          s,
          `python3 -c 'import socket;s=socket.create_connection(("127.0.0.1",${port}),timeout=2);print(s.recv(100))' 2>&1; ` +
            "cat /proc/net/dev | grep -c ':'",
        );
        assert.doesNotMatch(r.text, /HOST-SECRET/);
        assert.match(r.text, /Connection refused/);
        assert.match(r.text, /\n1\n?$/); // only lo
      });
    } finally {
      listener.close();
    }
  });

  test("network bridge: outbound through its own namespace; the host's loopback stays unreachable", async () => {
    const { networkInterfaces } = await import("node:os");
    const outside = Object.values(networkInterfaces()).flat().find((a) => a.family === "IPv4" && !a.internal)?.address;
    assert.ok(outside, "this test needs a non-loopback IPv4 address on the host");
    const reachable = createServer((c) => c.end("OUTSIDE-OK\n"));
    const secret = createServer((c) => c.end("HOST-SECRET\n"));
    await new Promise((r) => reachable.listen(0, outside, r));
    await new Promise((r) => secret.listen(0, "127.0.0.1", r));
    const connect = (host, port) =>
      `python3 -c 'import socket;s=socket.create_connection(("${host}",${port}),timeout=3);print(s.recv(100).decode().strip())' 2>&1 | tail -1`;
    try {
      await withServer({ config: sandboxed({ docker: { network: "bridge", extraHosts: ["db.internal:10.1.2.3"] } }) }, async (s) => {
        const r = await run(
          s,
          [
            connect(outside, reachable.address().port),
            connect("127.0.0.1", secret.address().port),
            connect("10.0.2.2", secret.address().port),
            "python3 -c 'import socket;print(socket.gethostbyname(\"db.internal\"))'",
            "cat /etc/resolv.conf",
            "ip -4 -o addr show eth0 2>/dev/null | grep -o 'inet [0-9.]*' || grep -c eth0 /proc/net/dev",
          ].join("; "),
          { timeoutSeconds: 30 },
        );
        const lines = r.text.split("\n");
        assert.equal(lines[0], "OUTSIDE-OK", r.text);
        assert.doesNotMatch(r.text, /HOST-SECRET/);
        assert.match(lines[1], /Connection refused/);
        assert.equal(lines[3], "10.1.2.3");
        assert.equal(lines[4], "nameserver 10.0.2.3");
        assert.match(lines.slice(5).join("\n"), /inet 10\.0\.2\.100|^1$/m);
        const listed = JSON.parse(
          spawnSync(CLAWEXEC, ["sandbox", "list", "--json"], { env: serverEnv(s.stateDir) }).stdout.toString(),
        );
        assert.equal(listed.sandboxes[0].network, "bridge");
      });
    } finally {
      reachable.close();
      secret.close();
    }
  });

  test("docker.dns names the sandbox's nameservers; bad dns and extraHosts values stop the server", async () => {
    await withServer({ config: sandboxed({ docker: { dns: ["192.0.2.53", "2001:db8::53"] } }) }, async (s) => {
      const r = await run(s, "cat /etc/resolv.conf; grep -c . /etc/hosts");
      assert.equal(r.text.trim(), "nameserver 192.0.2.53\nnameserver 2001:db8::53\n3");
    });
    const state = scratchDir("clawexec-state-");
    try {
      writeFileSync(join(state.dir, "openclaw.json"), JSON.stringify(sandboxed({ docker: { dns: ["resolver"], extraHosts: ["x"] } })));
      const r = spawnSync(CLAWEXEC, ["serve"], { input: "", env: serverEnv(state.dir), timeout: 10000 });
      assert.notEqual(r.status, 0);
      assert.match(r.stderr.toString(), /agents\.defaults\.sandbox\.docker\.dns\[0\]: expected an IPv4 or IPv6 address, got "resolver"/);
      assert.match(r.stderr.toString(), /agents\.defaults\.sandbox\.docker\.extraHosts\[0\]: expected "name:ip", got "x"/);
    } finally {
      state.cleanup();
    }
  });

  test("a fork bomb is stopped by docker.pidsLimit; the approvals socket cannot be reached", async () => {
    await withServer({ config: sandboxed({ docker: { pidsLimit: 40 } }) }, async (s) => {
      const r = await run(
        s,
        // dash gives up at the first fork that fails; each "s" is one process that did start.
        "(for i in $(seq 120); do sleep 2 & echo s; done) 2>/tmp/errors | wc -l; sleep 3; " +
          "grep -c -i -E 'fork|resource' /tmp/errors",
        { timeoutSeconds: 30 },
      );
      const [count, refused] = r.text.trim().split("\n").map(Number);
      assert.ok(count <= 40, r.text);
      assert.ok(refused > 0, r.text);
      const sock = await run(
        s,
        `python3 -c 'import socket;s=socket.socket(socket.AF_UNIX);s.connect("${s.stateDir}/exec-approvals.sock")' 2>&1 | tail -1`,
      );
      assert.match(sock.text, /FileNotFoundError|No such file/);
    });
  });

  test("user namespaces, mounts, ptrace, io_uring and bpf are refused", async () => {
    await withServer({ config: sandboxed() }, async (s) => {
      const r = await run(
        s,
        "unshare -U true 2>&1 || echo userns-refused; " +
          "unshare -r true 2>&1 || echo userns2-refused; " +
          "mount -t tmpfs none /tmp 2>&1 || echo mount-refused; " +
          `python3 -c 'import ctypes;l=ctypes.CDLL(None,use_errno=True);print("ptrace",l.ptrace(16,${s.pid},0,0),ctypes.get_errno())'; ` +
          "python3 -c 'import ctypes;l=ctypes.CDLL(None,use_errno=True);print(\"uring\",l.syscall(425,1,0),ctypes.get_errno())'; " +
          "python3 -c 'import ctypes;l=ctypes.CDLL(None,use_errno=True);print(\"bpf\",l.syscall(321,0,0,0),ctypes.get_errno())'; " +
          "grep -E 'CapEff|NoNewPrivs|Seccomp:' /proc/self/status",
      );
      assert.match(r.text, /userns-refused/);
      assert.match(r.text, /userns2-refused/);
      assert.match(r.text, /mount-refused/);
      assert.match(r.text, /ptrace -1 (1|3)\b/); // EPERM (seccomp) — the server's pid is not even in this namespace
      assert.match(r.text, /uring -1 1\b/);
      assert.match(r.text, /bpf -1 1\b/);
      assert.match(r.text, /CapEff:\s+0000000000000000/);
      assert.match(r.text, /NoNewPrivs:\s+1/);
      assert.match(r.text, /Seccomp:\s+2/);
    });
  });

  test("a symlink in the workspace does not reach the host", async () => {
    await withServer({ config: sandboxed() }, async (s) => {
      const r = await run(s, "ln -s /etc/shadow /workspace/link; cat /workspace/link; ln -s / /workspace/root; ls /workspace/root/home 2>&1; echo end");
      assert.doesNotMatch(r.text, /root:/);
      assert.match(r.text, /No such file or directory/);
    });
  });
});

describe("sandbox: process lifetime", () => {
  test("timeout and kill stop the command's whole tree inside the sandbox", async () => {
    await withServer({ config: sandboxed() }, async (s) => {
      const r = await run(s, "sleep 30 & sleep 30; echo never", { timeoutSeconds: 1 });
      assert.equal(r.details.status, "failed");
      assert.match(r.text, /timed out/i);
      const left = await run(s, "ps -eo comm | grep -c '^sleep$' || true");
      assert.equal(left.text.trim(), "0");
      const bg = await run(s, "sleep 60", { background: true });
      const id = bg.details.sessionId;
      const killed = await s.call("process", { action: "kill", sessionId: id });
      assert.equal(killed.isError, false);
      await pollUntilExit(s, id);
      const after = await run(s, "ps -eo comm | grep -c '^sleep$' || true");
      assert.equal(after.text.trim(), "0");
    });
  });

  test("pty: true works inside the sandbox", async () => {
    await withServer({ config: sandboxed() }, async (s) => {
      const r = await run(s, "test -t 0 && echo is-a-tty; tty", { pty: true });
      assert.match(r.text, /is-a-tty/);
    });
  });

  test("a client that disconnects leaves no sandbox process behind", async () => {
    const s = await startServer({ config: sandboxed() });
    const bg = await run(s, "sleep 300", { background: true });
    assert.equal(bg.details.status, "running");
    const listed = JSON.parse(spawnSync(CLAWEXEC, ["sandbox", "list", "--json"], { env: serverEnv(s.stateDir) }).stdout.toString());
    const holder = listed.sandboxes[0].holderPid;
    const sleeps = await waitFor(() => {
      const found = sandboxProcesses(holder, /sleep 300/);
      return found.length ? found : null;
    }, 5000, `sleep 300 inside the sandbox of holder ${holder}`);
    const pids = [holder, ...sleeps];
    await s.close(); // end of input: the server stops its sessions and its sandboxes
    await waitFor(async () => (await Promise.all(pids.map(isAlive))).every((a) => !a), 8000, "sandbox processes to die");
  });

  test("killing the server with SIGKILL tears down every sandbox process", async () => {
    const s = await startServer({ config: sandboxed() });
    let pids;
    try {
      const bg = await run(s, "sleep 300 & echo $!; wait", { background: true, yieldMs: 300 });
      assert.equal(bg.details.status, "running");
      const holder = await run(s, "cat /proc/1/status | grep -i '^pid'");
      assert.match(holder.text, /Pid:\s+1/);
      // Host pids of the sandbox's processes: its holder and the command, below the server.
      const listed = JSON.parse(spawnSync(CLAWEXEC, ["sandbox", "list", "--json"], { env: serverEnv(s.stateDir) }).stdout.toString());
      const holderPid = listed.sandboxes[0].holderPid;
      pids = [holderPid, ...sandboxProcesses(holderPid, /sleep 300|bwrap --unshare-user/)];
      assert.ok(pids.length >= 2, JSON.stringify(pids));
      process.kill(s.pid, "SIGKILL");
    } finally {
      await s.close();
    }
    await waitFor(async () => (await Promise.all(pids.map(isAlive))).every((a) => !a), 8000, "sandbox processes to die");
  });
});

describe("sandbox: routing, elevated and environment", () => {
  test("auto runs in the sandbox; host=gateway is refused with the reference's text", async () => {
    await withServer({ config: sandboxed() }, async (s) => {
      const r = await run(s, "hostname");
      assert.equal(r.text.trim(), "clawexec-sandbox");
      const g = await s.call("exec", { command: "hostname", host: "gateway" });
      assert.equal(g.isError, true);
      assert.match(
        g.text,
        /exec host not allowed \(requested gateway; configured host is auto; set tools\.exec\.host=gateway to allow this override\)\./,
      );
      const sb = await run(s, "hostname", { host: "sandbox" });
      assert.equal(sb.text.trim(), "clawexec-sandbox");
    });
  });

  test("non-main: the main session runs on the host, another session key in the sandbox", async () => {
    await withServer({ config: sandboxed({ mode: "non-main" }) }, async (s) => {
      const r = await run(s, "hostname");
      assert.notEqual(r.text.trim(), "clawexec-sandbox");
    });
    await withServer({ config: sandboxed({ mode: "non-main" }), args: ["--session-key", "agent:main:telegram:42"] }, async (s) => {
      const r = await run(s, "hostname");
      assert.equal(r.text.trim(), "clawexec-sandbox");
    });
  });

  test("mode off: host=sandbox fails closed with the reference's text", async () => {
    await withServer({}, async (s) => {
      const r = await s.call("exec", { command: "true", host: "sandbox" });
      assert.equal(r.isError, true);
      assert.match(r.text, /exec host=sandbox requires a sandbox runtime for this session\./);
    });
  });

  test("the implicit sandbox deny still runs; approvals never apply in the sandbox", async () => {
    await withServer(
      { config: sandboxed({}, {}), approvals: { version: 1, defaults: { security: "deny" } } },
      async (s) => {
        const r = await run(s, "echo ran");
        assert.equal(r.text.trim(), "ran");
      },
    );
  });

  test("elevated: refused when disabled (runtime=sandboxed), escapes to the host when enabled", async () => {
    await withServer({ config: sandboxed() }, async (s) => {
      const r = await s.call("exec", { command: "hostname", elevated: true });
      assert.equal(r.isError, true);
      assert.match(r.text, /^elevated is not available right now \(runtime=sandboxed\)\.\nFailing gates: allowFrom /);
    });
    await withServer({ config: sandboxed({}, { tools: { elevated: { enabled: false, allowFrom: { mcp: ["*"] } } } }) }, async (s) => {
      const r = await s.call("exec", { command: "hostname", elevated: true });
      assert.match(r.text, /^elevated is not available right now \(runtime=sandboxed\)\.\nFailing gates: enabled /);
    });
    await withServer({ config: sandboxed({}, { tools: { elevated: { allowFrom: { mcp: ["*"] } } } }) }, async (s) => {
      const r = await s.call("exec", { command: "hostname", elevated: true });
      assert.notEqual(r.text.trim(), "clawexec-sandbox");
    });
  });

  test("binds: ro and rw host directories appear; a source swapped for a symlink into /etc is refused", async () => {
    const host = scratchDir("clawexec-binds-");
    try {
      const { mkdirSync: mk, rmSync, symlinkSync } = await import("node:fs");
      mk(join(host.dir, "ro"));
      mk(join(host.dir, "rw"));
      writeFileSync(join(host.dir, "ro", "data"), "ro-data\n");
      const config = sandboxed({ docker: { binds: [`${host.dir}/ro:/mnt/ro:ro`, `${host.dir}/rw:/mnt/rw`] } });
      await withServer({ config }, async (s) => {
        const r = await run(s, "cat /mnt/ro/data; echo x > /mnt/ro/new 2>&1 || echo ro-refused; echo w > /mnt/rw/out && echo rw-ok");
        assert.match(r.text, /^ro-data\n(.|\n)*ro-refused\nrw-ok$/);
        assert.equal(readFileSync(join(host.dir, "rw", "out"), "utf8"), "w\n");
        rmSync(join(host.dir, "rw"), { recursive: true });
        symlinkSync("/etc", join(host.dir, "rw"));
        const refused = await s.call("exec", { command: "ls /mnt/rw" });
        assert.equal(refused.isError, true);
        assert.match(refused.text, /\/etc(.|\n)*checked again before use/);
      });
    } finally {
      host.cleanup();
    }
  });

  test("binds: dangerouslyAllowReservedContainerTargets lets a bind into the workdir through, every call", async () => {
    const host = scratchDir("clawexec-binds-");
    try {
      writeFileSync(join(host.dir, "data"), "reserved-ok\n");
      const docker = { binds: [`${host.dir}:/workspace/extra:ro`], dangerouslyAllowReservedContainerTargets: true };
      await withServer({ config: sandboxed({ docker }) }, async (s) => {
        assert.equal((await run(s, "cat /workspace/extra/data")).text, "reserved-ok");
        assert.equal((await run(s, "cat /workspace/extra/data")).text, "reserved-ok");
      });
      // Without the override the same bind stops the server, naming the key.
      const state = scratchDir("clawexec-state-");
      try {
        writeFileSync(join(state.dir, "openclaw.json"), JSON.stringify(sandboxed({ docker: { binds: docker.binds } })));
        const r = spawnSync(CLAWEXEC, ["serve"], { input: "", env: serverEnv(state.dir), timeout: 10000 });
        assert.notEqual(r.status, 0);
        assert.match(r.stderr.toString(), /agents\.defaults\.sandbox\.docker\.binds\[0\]: \/workspace\/extra is reserved/);
      } finally {
        state.cleanup();
      }
    } finally {
      host.cleanup();
    }
  });

  test("docker.setupCommand runs once per sandbox before its first command; a failed one is retried", async () => {
    const setupCommand = "echo ran >> /workspace/setup.log; echo $HOME > /tmp/setup-home";
    await withServer({ config: sandboxed({ docker: { setupCommand } }) }, async (s) => {
      // Two first calls at once: one setup, both wait for it.
      const [a, b] = await Promise.all([run(s, "cat /workspace/setup.log"), run(s, "cat /tmp/setup-home")]);
      assert.equal(a.text.trim(), "ran");
      assert.equal(b.text.trim(), "/workspace");
      assert.equal((await run(s, "wc -l < /workspace/setup.log")).text.trim(), "1");
    });
    await withServer({ config: sandboxed({ docker: { setupCommand: "echo try >> /workspace/tries; echo broken >&2; exit 3" } }) }, async (s) => {
      const first = await s.call("exec", { command: "echo never" });
      assert.equal(first.isError, true);
      assert.match(first.text, /^sandbox agent:main: docker\.setupCommand exited with code 3:\nbroken$/);
      await s.call("exec", { command: "echo never" });
      const { readFileSync: read, readdirSync } = await import("node:fs");
      const [dir] = readdirSync(join(s.stateDir, "sandboxes"));
      assert.equal(read(join(s.stateDir, "sandboxes", dir, "workspace", "tries"), "utf8"), "try\ntry\n");
    });
  });

  test("an approved sender is elevated by default (elevatedDefault \"on\"); /elevated and elevatedDefault change it", async () => {
    const allow = { tools: { elevated: { allowFrom: { mcp: ["*"] } } } };
    // As in OpenClaw, elevation defaults to "on" for a sender allowFrom approves: its calls leave the sandbox.
    await withServer({ config: sandboxed({}, allow) }, async (s) => {
      assert.notEqual((await run(s, "hostname")).text.trim(), "clawexec-sandbox");
    });
    await withServer({ config: sandboxed({}, { ...allow, agents: { entries: { main: { elevatedDefault: "off" } } } }) }, async (s) => {
      assert.equal((await run(s, "hostname")).text.trim(), "clawexec-sandbox");
      assert.notEqual((await run(s, "hostname", { elevated: true })).text.trim(), "clawexec-sandbox");
    });
    const say = (s, ...args) =>
      spawnSync(CLAWEXEC, ["approvals", "say", ...args], { env: serverEnv(s.stateDir), encoding: "utf8", timeout: 20000 });
    await withServer({ config: sandboxed({}, allow), approvals: { version: 1, agents: {} } }, async (s) => {
      assert.equal(say(s, "/elevated").stdout, "Current elevated level: on.\nOptions: on, off, ask, full.\n");
      assert.equal(say(s, "/elevated", "off").stdout, "⚙️ Elevated mode disabled.\n");
      assert.equal((await run(s, "hostname")).text.trim(), "clawexec-sandbox");
      assert.equal(say(s, "/elev", "maybe").stdout, 'Unrecognized elevated level "maybe". Valid levels: off, on, ask, full.\n');
      assert.equal(say(s, "/elevated", "on").stdout, "⚙️ Elevated mode set to ask (approvals may still apply).\n");
      assert.notEqual((await run(s, "hostname")).text.trim(), "clawexec-sandbox");
    });
    await withServer({ config: sandboxed(), approvals: { version: 1, agents: {} } }, async (s) => {
      const r = say(s, "/elevated", "full");
      assert.match(r.stdout, /^elevated is not available right now \(runtime=sandboxed\)\.\nFailing gates: allowFrom \(tools\.elevated\.allowFrom\.mcp\)\n/);
      assert.match(r.stdout, /\nSee: clawexec sandbox explain --session agent:main:main\n$/);
    });
  });

  test("environment: HOME is the workdir, PATH is prepended after the profile, env-file rules apply", async () => {
    await withServer({ config: sandboxed({ docker: { env: { FROM_CONFIG: "yes" } } }) }, async (s) => {
      const r = await run(s, "echo $HOME; echo $FROM_CONFIG; echo $OPENCLAW_SHELL; echo ${OPENCLAW_PREPEND_PATH:-unset}; echo $PATH", {
        env: { PATH: "/custom/bin", MINE: "1" },
      });
      const lines = r.text.trim().split("\n");
      assert.deepEqual(lines.slice(0, 4), ["/workspace", "yes", "exec", "unset"]);
      assert.match(lines[4], /^\/custom\/bin:/);
      const bad = await s.call("exec", { command: "true", env: { "1BAD": "x" } });
      assert.match(
        bad.text,
        /Invalid container environment variable name "1BAD"; use letters, digits, and underscores without a leading digit\./,
      );
      const multi = await s.call("exec", { command: "true", env: { MULTI: "a\nb" } });
      assert.match(
        multi.text,
        /Container environment variable MULTI must have a single-line value because Docker and Podman --env-file entries are line-delimited\./,
      );
    });
  });

  test("a workdir outside the container workdir or with .. is unavailable", async () => {
    await withServer({ config: sandboxed() }, async (s) => {
      await run(s, "mkdir -p /workspace/sub");
      const ok = await run(s, "pwd", { workdir: "sub" });
      assert.equal(ok.text.trim(), "/workspace/sub");
      for (const workdir of ["/etc", "/workspace/../etc", "/workspace/missing"]) {
        const r = await s.call("exec", { command: "pwd", workdir });
        assert.equal(r.details.status, "failed", workdir);
      }
    });
  });
});

describe("sandbox: the agent workspace mount", () => {
  test("workspaceAccess rw refuses a server started in the home directory (it would expose ~/.ssh)", async () => {
    const home = scratchDir("clawexec-home-");
    try {
      mkdirSync(join(home.dir, ".ssh"));
      writeFileSync(join(home.dir, ".ssh", "id_ed25519"), "PLANTED-HOST-KEY\n");
      await withServer({ config: sandboxed({ workspaceAccess: "rw" }), env: { HOME: home.dir }, cwd: home.dir }, async (s) => {
        const r = await s.call("exec", { command: "cat .ssh/id_ed25519" });
        assert.equal(r.isError, true);
        assert.doesNotMatch(r.text, /PLANTED-HOST-KEY/);
        assert.match(r.text, /workspaceAccess "rw": the host path .* exposes .*\/\.[a-z]+, which a sandbox must not see/);
      });
    } finally {
      home.cleanup();
    }
  });

  test("workspaceAccess rw refuses a workspaceRoot inside the agent workspace (records and other scopes)", async () => {
    const ws = scratchDir("clawexec-agent-ws-");
    try {
      const config = sandboxed({ workspaceAccess: "rw", workspaceRoot: join(ws.dir, ".sandboxes") });
      await withServer({ config, cwd: ws.dir }, async (s) => {
        const r = await s.call("exec", { command: "true" });
        assert.equal(r.isError, true);
        assert.match(r.text, /workspaceRoot .*\.sandboxes lies inside the writable agent workspace/);
      });
    } finally {
      ws.cleanup();
    }
  });
});

describe("sandbox: records, `clawexec sandbox` and pruning", () => {
  const cli = async (stateDir, ...args) => {
    const r = spawnSync(CLAWEXEC, args, { env: serverEnv(stateDir), timeout: 20000 });
    return { status: r.status, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
  };
  const listJson = async (stateDir) => JSON.parse((await cli(stateDir, "sandbox", "list", "--json")).stdout);

  test("list shows the running sandbox; recreate ends it and the next command gets a fresh one", async () => {
    await withServer({ config: sandboxed() }, async (s) => {
      await run(s, "echo kept > /tmp/mark");
      const bg = await run(s, "sleep 120", { background: true });
      let listed = await listJson(s.stateDir);
      assert.equal(listed.sandboxes.length, 1);
      const [box] = listed.sandboxes;
      assert.equal(box.scope, "agent:main");
      assert.equal(box.running, true);
      assert.equal(box.serverPid, s.pid);
      assert.equal(box.workdir, "/workspace");
      const human = await cli(s.stateDir, "sandbox", "list");
      assert.match(human.stdout, /^agent:main {2}running {2}age \d+s {2}idle \d+s {2}server pid \d+\n/);
      assert.equal((await cli(s.stateDir, "sandbox", "recreate")).status, 1, "a selector is required");
      const r = await cli(s.stateDir, "sandbox", "recreate", "--session", "agent:main", "--json");
      assert.deepEqual(JSON.parse(r.stdout), { stopped: ["agent:main"] });
      // Everything inside died with it, the background command included.
      const ended = await pollUntilExit(s, bg.details.sessionId);
      assert.equal(ended.details.status, "failed");
      const again = await run(s, "cat /tmp/mark 2>&1 || echo gone");
      assert.match(again.text, /gone/);
      listed = await listJson(s.stateDir);
      assert.equal(listed.sandboxes.length, 1);
      assert.notEqual(listed.sandboxes[0].holderPid, box.holderPid);
    });
  });

  test("a server's clean exit removes its records; after SIGKILL the record reads stopped until prune", async () => {
    const state = scratchDir("clawexec-state-");
    try {
      const a = await startServer({ config: sandboxed(), stateDir: state.dir });
      await run(a, "true");
      await a.close();
      assert.deepEqual((await listJson(state.dir)).sandboxes, []);
      const b = await startServer({ config: sandboxed(), stateDir: state.dir });
      await run(b, "true");
      process.kill(b.pid, "SIGKILL");
      await b.close();
      await waitFor(async () => (await listJson(state.dir)).sandboxes[0]?.running === false, 8000, "the record to read stopped");
      const pruned = JSON.parse((await cli(state.dir, "sandbox", "prune", "--json")).stdout);
      assert.deepEqual(pruned, { stopped: [], removed: ["agent:main"] });
      assert.deepEqual((await listJson(state.dir)).sandboxes, []);
    } finally {
      state.cleanup();
    }
  });

  test("clawexec sandbox prune stops a running sandbox past its agent's prune.maxAgeDays", async () => {
    // The server starts with both limits off (no timer of its own); the file then gets a tiny
    // maximum age, which only the CLI reads.
    const off = { prune: { idleHours: 0, maxAgeDays: 0 } };
    await withServer({ config: sandboxed(off) }, async (s) => {
      const bg = await run(s, "sleep 120", { background: true });
      let pruned = JSON.parse((await cli(s.stateDir, "sandbox", "prune", "--json")).stdout);
      assert.deepEqual(pruned, { stopped: [], removed: [] });
      writeFileSync(join(s.stateDir, "openclaw.json"), JSON.stringify(sandboxed({ prune: { maxAgeDays: 0.00001 } })));
      await sleep(1200);
      pruned = JSON.parse((await cli(s.stateDir, "sandbox", "prune", "--json")).stdout);
      assert.deepEqual(pruned, { stopped: ["agent:main"], removed: [] });
      const ended = await pollUntilExit(s, bg.details.sessionId);
      assert.equal(ended.details.status, "failed");
    });
  });

  test("the server prunes an idle sandbox (prune.idleHours) but not one a command still runs in", async () => {
    // 0.0005 h = 1.8 s.
    await withServer({ config: sandboxed({ prune: { idleHours: 0.0005 } }) }, async (s) => {
      await run(s, "echo a > /tmp/idle-mark");
      await waitFor(async () => (await listJson(s.stateDir)).sandboxes.length === 0, 8000, "the idle sandbox to be pruned");
      assert.match((await run(s, "cat /tmp/idle-mark 2>&1 || echo gone")).text, /gone/);
      const bg = await run(s, "sleep 4; echo still-here", { background: true });
      await run(s, "echo b > /tmp/busy-mark");
      await sleep(3000);
      // Idle for longer than the limit, but the background command still holds it.
      assert.match((await run(s, "cat /tmp/busy-mark")).text, /^b$/);
      const done = await pollUntilExit(s, bg.details.sessionId);
      assert.equal(done.details.status, "completed");
      const log = await s.call("process", { action: "log", sessionId: bg.details.sessionId });
      assert.match(log.text, /still-here/);
    });
  });

  test("explain says what a session gets; doctor and security audit report the sandbox", async () => {
    const config = sandboxed(
      { mode: "non-main" },
      { tools: { sandbox: { tools: { deny: ["process"] } }, elevated: { allowFrom: { mcp: ["*"] } } } },
    );
    await withServer({ config }, async (s) => {
      const main = JSON.parse((await cli(s.stateDir, "sandbox", "explain", "--json")).stdout);
      assert.equal(main.sandboxed, false);
      assert.deepEqual(main.tools, ["exec", "process", "apply_patch"]);
      const other = JSON.parse((await cli(s.stateDir, "sandbox", "explain", "--session", "agent:main:telegram:1", "--json")).stdout);
      assert.equal(other.sandboxed, true);
      assert.equal(other.scope, "agent:main");
      assert.deepEqual(other.tools, ["exec", "apply_patch"]);
      assert.deepEqual(other.deniedTools, ["process (tools.sandbox.tools.deny)"]);
      assert.equal(other.unavailable, "");
      assert.match(other.elevated, /^allowed for local MCP clients/);
      const text = await cli(s.stateDir, "sandbox", "explain", "--session", "agent:main:telegram:1");
      assert.match(text.stdout, /Sandbox mode: non-main -> this session runs in a sandbox\n/);
      const doctor = await cli(s.stateDir, "doctor");
      assert.match(doctor.stdout, /^sandbox: sandboxed agents: main\n/m);
      assert.match(doctor.stdout, /^sandbox: sandbox: can be built on this machine$/m);
      const audit = JSON.parse((await cli(s.stateDir, "security", "audit", "--json")).stdout);
      const ids = audit.findings.map((f) => f.checkId);
      assert.ok(ids.includes("sandbox.elevated_allow_all"), ids.join(","));
    });
    const state = scratchDir("clawexec-state-");
    try {
      writeFileSync(join(state.dir, "openclaw.json"), JSON.stringify(sandboxed({ docker: { binds: ["/etc:/host-etc:ro"], network: "host" } })));
      const audit = JSON.parse((await cli(state.dir, "security", "audit", "--json")).stdout);
      const critical = audit.findings.filter((f) => f.severity === "critical").map((f) => f.checkId);
      assert.ok(critical.includes("sandbox.dangerous_bind_mount"), critical.join(","));
      assert.ok(critical.includes("sandbox.dangerous_network_mode"), critical.join(","));
      const audit_of = async (config) => {
        writeFileSync(join(state.dir, "openclaw.json"), JSON.stringify(config));
        const r = JSON.parse((await cli(state.dir, "security", "audit", "--json")).stdout);
        return r.findings.filter((f) => f.checkId.startsWith("sandbox.")).map((f) => `${f.severity}:${f.checkId}`);
      };
      assert.deepEqual(await audit_of(sandboxed({ scope: "sometimes" })), ["critical:sandbox.invalid_config"]);
      assert.deepEqual(await audit_of(sandboxed({ workspaceAccess: "rw" })), ["info:sandbox.workspace_rw"]);
      assert.deepEqual(await audit_of({ agents: { defaults: { sandbox: { docker: { pidsLimit: 10 } } } } }), [
        "warn:sandbox.docker_config_mode_off",
      ]);
      // The agent's own allowFrom must be open too for elevated to be open to anyone.
      const narrowed = sandboxed({}, {
        tools: { elevated: { allowFrom: { mcp: ["*"] } } },
        agents: { entries: { main: { tools: { elevated: { allowFrom: { mcp: ["alice"] } } } } } },
      });
      assert.deepEqual(await audit_of(narrowed), []);
      writeFileSync(join(state.dir, "openclaw.json"), JSON.stringify(sandboxed({ docker: { pidsLimit: 50 } })));
      const doctor = JSON.parse((await cli(state.dir, "doctor", "--json")).stdout);
      assert.ok(
        doctor.sandbox.some((l) => /^resource limits \(main\): a cgroup of each sandbox's own enforces them/.test(l)),
        doctor.sandbox.join("\n"),
      );
    } finally {
      state.cleanup();
    }
  });
});
