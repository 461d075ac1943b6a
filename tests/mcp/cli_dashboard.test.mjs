// `clawexec dashboard [--json]`: the running gateway's control UI URL (from the status file the
// gateway writes, as `clawexec gateway status` reads it) and how to log in, never the secret
// itself; the URL really serves the UI; with no live gateway it says so and exits 1.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLAWEXEC, scratchDir, serverEnv, waitFor } from "./lib/harness.mjs";
import { startGateway } from "./lib/gateway.mjs";

const dashboard = (env, args = []) => spawnSync(CLAWEXEC, ["dashboard", ...args], { env, encoding: "utf8" });

describe("clawexec dashboard", () => {
  test("prints the UI URL and the login hint of the running gateway, then reports it gone", async () => {
    const g = await startGateway();
    let env;
    try {
      env = g.env;
      const tokenFile = join(g.state.dir, "gateway", "token");
      let r = dashboard(env, ["--json"]);
      assert.equal(r.status, 0, r.stderr);
      const d = JSON.parse(r.stdout);
      assert.equal(d.running, true);
      assert.equal(d.url, `${g.url}/`);
      assert.equal(d.authMode, "token");
      assert.equal(d.tokenFile, tokenFile);
      assert.match(d.login, new RegExp(`contents of ${tokenFile}`));
      assert.ok(!r.stdout.includes(g.token), "the token itself is not printed");
      const page = await fetch(d.url);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /<title>clawexec control<\/title>/);

      r = dashboard(env);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout, `Control UI: ${g.url}/\nLog in: ${d.login}.\n`);
      assert.ok(!r.stdout.includes(g.token));
    } finally {
      await g.stop({ keepState: true });
    }
    const r = dashboard(env, ["--json"]);
    assert.equal(r.status, 1);
    assert.deepEqual(JSON.parse(r.stdout), { running: false });
    const text = dashboard(env);
    assert.equal(text.status, 1);
    assert.match(text.stdout, /^No gateway is running \(no live gateway in .*gateway\.json\)/);
    g.state.cleanup();
  });

  test("a password gateway: the hint names gateway.auth.password and its config file", async () => {
    // startGateway reads a token file, which a password gateway has none of: started here.
    const state = scratchDir("clawexec-gw-");
    writeFileSync(join(state.dir, "openclaw.json"), JSON.stringify({ gateway: { auth: { mode: "password", password: "correct horse battery" } } }));
    const env = serverEnv(state.dir);
    const child = spawn(CLAWEXEC, ["gateway", "--port", "0"], { env, cwd: state.dir, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const exited = new Promise((r) => child.once("exit", r));
    try {
      const url = await waitFor(() => /listening on (http:\/\/[^ ]+) /.exec(stderr)?.[1], 15000, "gateway start");
      const r = dashboard(env, ["--json"]);
      assert.equal(r.status, 0, r.stderr);
      const d = JSON.parse(r.stdout);
      assert.equal(d.url, `${url}/`);
      assert.equal(d.authMode, "password");
      assert.equal(d.tokenFile, undefined);
      assert.equal(d.configPath, join(state.dir, "openclaw.json"));
      assert.equal(d.login, `choose "Password" and enter gateway.auth.password from ${d.configPath}`);
      assert.ok(!r.stdout.includes("correct horse"));
    } finally {
      child.kill("SIGTERM");
      await exited;
      state.cleanup();
    }
  });
});
