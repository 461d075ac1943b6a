// The official MCP conformance suite (@modelcontextprotocol/conformance) against the gateway's
// streamable-HTTP endpoint, for every server scenario that applies to a tools-only server:
// server-initialize, ping, logging-set-level, tools-list, server-sse-multiple-streams and
// dns-rebinding-protection. The suite's client sends no credentials, so it talks to the gateway
// through a loopback proxy that adds the Bearer token and changes nothing else (the Host and
// Origin headers the DNS-rebinding scenario forges pass through untouched).
import { describe, test, after, before } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { startGateway } from "./lib/gateway.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const SUITE = join(here, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const NEEDS_SHIM = Number(process.versions.node.split(".")[0]) < 22;

let g;
let proxy;
before(async () => {
  g = await startGateway({});
  const target = new URL(g.url);
  proxy = http.createServer((req, res) => {
    const up = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, authorization: `Bearer ${g.token}` } },
      (r) => {
        res.writeHead(r.statusCode, r.headers);
        r.pipe(res);
      },
    );
    up.on("error", () => res.destroy());
    res.on("close", () => up.destroy());
    req.pipe(up);
  });
  await new Promise((resolve) => proxy.listen(0, "127.0.0.1", resolve));
});
after(async () => {
  proxy?.closeAllConnections?.();
  await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve()));
  await g?.stop();
});

function runScenario(scenario) {
  const args = [...(NEEDS_SHIM ? ["--import", join(here, "lib/node20/register.mjs")] : []), SUITE, "server",
    "--url", `http://127.0.0.1:${proxy.address().port}/mcp`, "--scenario", scenario];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" } });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, out: out.replace(/\x1b\[[0-9;]*m/g, "") });
    });
  });
}

describe("MCP conformance suite against /mcp", () => {
  for (const [scenario, checks] of [
    ["server-initialize", 1],
    ["ping", 1],
    ["logging-set-level", 1],
    ["tools-list", 1],
    ["server-sse-multiple-streams", 2],
    ["dns-rebinding-protection", 2],
  ]) {
    test(scenario, async () => {
      const r = await runScenario(scenario);
      const m = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(r.out);
      assert.ok(m, r.out);
      assert.equal(Number(m[3]), 0, r.out);
      assert.equal(Number(m[1]), checks, r.out);
      assert.equal(Number(m[2]), checks, r.out);
      assert.doesNotMatch(r.out, /FAILURE/, r.out);
      assert.equal(r.code, 0, r.out);
    });
  }
});
