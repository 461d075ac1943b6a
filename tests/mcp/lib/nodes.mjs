// Helpers shared by the node tests: an MCP agent on a gateway's /mcp endpoint, its `exec` calls
// read as { text, details, isError }, and the live processes whose command line holds a marker
// (one pid space for every network namespace, so a node's commands are seen from here).
import { readFileSync, readdirSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { STRUCTURED_CONTENT_CAPABILITY } from "./harness.mjs";

/**
 * An MCP client of gateway `g` ({url, token}); options.agentId sets X-OpenClaw-Agent-Id.
 * The client's logging notifications (the "Exec finished ..." notices) collect in
 * `client.notices` as strings.
 */
export async function agent(g, options = {}) {
  const headers = { Authorization: `Bearer ${g.token}` };
  if (options.agentId) headers["X-OpenClaw-Agent-Id"] = options.agentId;
  const transport = new StreamableHTTPClientTransport(new URL(`${g.url}/mcp`), { requestInit: { headers } });
  const client = new Client({ name: "agent", version: "1" }, { capabilities: { ...STRUCTURED_CONTENT_CAPABILITY } });
  client.notices = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => client.notices.push(String(n.params.data)));
  await client.connect(transport);
  return client;
}

/** One `exec` call: { text, details, isError }. */
export async function execText(client, args) {
  const r = await client.callTool({ name: "exec", arguments: args });
  return { text: r.content[0].text, details: r.structuredContent, isError: r.isError === true };
}

/** Pids of live (not zombie) processes whose command line contains `marker`, this one excluded. */
export function pidsWith(marker) {
  const out = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, "utf8").replace(/\0/g, " ");
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      if (cmd.includes(marker) && state !== "Z" && Number(name) !== process.pid) out.push(Number(name));
    } catch {}
  }
  return out;
}
