// clawexec.sessions.* on the gateway's operator WebSocket: an operator lists the exec sessions of
// every MCP session (each with its client scope), follows one's output live to its exit, reads
// its log, types into another and kills a third, with the scopes each needs (read; admin for
// input, which is a command no policy analysed; write for kill).
import { describe, test, after, before } from "node:test";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { waitFor } from "./lib/harness.mjs";
import { startGateway, operator } from "./lib/gateway.mjs";

let g;
before(async () => {
  g = await startGateway({ config: { tools: { exec: { security: "full", ask: "off" } } } });
});
after(async () => g && (await g.stop()));

async function agent(name) {
  const transport = new StreamableHTTPClientTransport(new URL(`${g.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${g.token}` } } });
  const client = new Client({ name, version: "1" }, { capabilities: {} });
  await client.connect(transport);
  return {
    client,
    async background(command, extra = {}) {
      const r = await client.callTool({ name: "exec", arguments: { command, background: true, ...extra } });
      const m = /session ([a-z0-9-]+)/.exec(r.content[0].text);
      assert.ok(m, r.content[0].text);
      return m[1];
    },
    process: (args) => client.callTool({ name: "process", arguments: args }),
  };
}

describe("operator view of exec sessions", () => {
  test("list, follow to the end, log, write, kill — across MCP sessions, each with its scope", async () => {
    const a = await agent("a");
    const b = await agent("b");
    const ticker = await a.background("for i in 1 2 3 4 5; do echo tick-$i; sleep 0.3; done");
    const sleeper = await b.background("sleep 60");
    const typed = await b.background("cat", { pty: true });

    const reader = await operator(g, ["operator.read"]);
    const list = await reader.call("clawexec.sessions.list", {});
    assert.equal(list.ok, true, JSON.stringify(list));
    const byId = Object.fromEntries(list.payload.sessions.map((s) => [s.sessionId, s]));
    for (const id of [ticker, sleeper, typed]) assert.ok(byId[id], `${id} listed`);
    assert.equal(byId[ticker].agentId, "main");
    assert.match(byId[ticker].scope, /^mcp-http:/);
    assert.notEqual(byId[ticker].scope, byId[sleeper].scope, "two MCP sessions, two scopes");
    assert.equal(byId[sleeper].scope, byId[typed].scope);
    assert.equal(byId[sleeper].status, "running");

    const follow = await reader.call("clawexec.sessions.follow", { sessionId: ticker });
    assert.equal(follow.ok, true, JSON.stringify(follow));
    const exited = await reader.next((f) => f.event === "clawexec.session.exited" && f.payload.sessionId === ticker, "exited event");
    assert.equal(exited.payload.exitCode, 0);
    assert.equal(exited.payload.status, "completed");
    const chunks = reader.frames.filter((f) => f.event === "clawexec.session.output" && f.payload.sessionId === ticker);
    assert.ok(chunks.length >= 2, `output came in several events (${chunks.length})`);
    const text = chunks.map((f) => f.payload.text).join("");
    assert.match(text, /tick-5/);
    for (let i = 1; i < chunks.length; i++) assert.equal(chunks[i].payload.fromChars, chunks[i - 1].payload.toChars, "contiguous");
    const log = await reader.call("clawexec.sessions.log", { sessionId: ticker });
    assert.equal(log.ok, true, JSON.stringify(log));
    assert.match(log.payload.output, /tick-1\ntick-2\ntick-3\ntick-4\ntick-5/);

    // Input needs operator.admin, kill operator.write.
    let r = await reader.call("clawexec.sessions.write", { sessionId: typed, data: "x" });
    assert.equal(r.error.details.missingScope, "operator.admin");
    r = await reader.call("clawexec.sessions.kill", { sessionId: sleeper });
    assert.equal(r.error.details.missingScope, "operator.write");
    const admin = await operator(g, ["operator.admin"]);
    r = await admin.call("clawexec.sessions.write", { sessionId: typed, data: "typed-by-operator\n" });
    assert.equal(r.ok, true, JSON.stringify(r));
    await waitFor(async () => /typed-by-operator/.test((await admin.call("clawexec.sessions.log", { sessionId: typed })).payload?.output ?? ""), 8000, "the input echoed");
    const writer = await operator(g, ["operator.write"]);
    r = await writer.call("clawexec.sessions.kill", { sessionId: sleeper });
    assert.equal(r.ok, true, JSON.stringify(r));
    const polled = await waitFor(async () => {
      const p = await b.process({ action: "poll", sessionId: sleeper, timeout: 1000 });
      return /SIGKILL|SIGTERM|killed|exited|signal/i.test(p.content[0].text) ? p : null;
    }, 10000, "the agent sees its command killed");
    assert.ok(polled);
    r = await admin.call("clawexec.sessions.kill", { sessionId: typed });
    assert.equal(r.ok, true);

    r = await reader.call("clawexec.sessions.log", { sessionId: "no-such-session" });
    assert.equal(r.error.message, "No session found for no-such-session");
    r = await reader.call("clawexec.sessions.log", {});
    assert.equal(r.error.message, "invalid clawexec.sessions.log params: sessionId (string) required");
    r = await admin.call("clawexec.sessions.write", { sessionId: ticker, action: "remove" });
    assert.equal(r.ok, false, "the action is the method's, not the caller's");
    r = await reader.call("clawexec.sessions.list", { agentId: "nobody" });
    assert.deepEqual(r.payload.sessions, []);
    for (const c of [reader, admin, writer]) c.ws.close();
    await a.client.close();
    await b.client.close();
  });
});
