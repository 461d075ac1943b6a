// OpenClaw's own exec and process tools served over MCP stdio, for a like-for-like transport
// comparison with `clawexec serve`.
//
// OpenClaw 2026.9.x ships no entry point that serves `exec` over MCP: `openclaw mcp serve`
// exposes chat channels through a gateway, and its standalone tools server
// (dist/mcp/openclaw-tools-serve.js) only accepts the ids "cron" and "openclaw". It does ship
// the generic building blocks that server is made of (dist/tools-stdio-server-*.mjs:
// createToolsMcpServer, connectToolsMcpServerToStdio, on the official MCP SDK). This script
// hands those the exec/process tool instances that reference-exec.mjs uses in-process
// (security=full, ask=off), so every request goes through OpenClaw's MCP server code and its
// tool wrappers. Bench harness only: it imports the installed bundle, nothing is copied.
//
// Usage: node24 openclaw_exec_mcp.mjs   (speaks newline-delimited JSON-RPC on stdin/stdout)
import { readdirSync, readFileSync } from "node:fs";

const root = process.env.CLAWEXEC_REFERENCE || `${process.env.HOME}/.cache/clawexec-reference`;
const dist = `${root}/openclaw/node_modules/openclaw/dist`;

// The bundle's chunk names carry content hashes; pick the chunk by what it exports.
function chunkExporting(prefix, marker) {
  const name = readdirSync(dist).find(
    (f) => f.startsWith(prefix) && f.endsWith(".mjs") && readFileSync(`${dist}/${f}`, "utf8").includes(marker),
  );
  if (!name) throw new Error(`no ${prefix}*.mjs exporting ${marker} in ${dist}`);
  return `${dist}/${name}`;
}

const stdio = await import(chunkExporting("tools-stdio-server-", "createToolsMcpServer as n"));
const tools = await import(chunkExporting("bash-tools-", "createExecTool as r"));

const exec = tools.r({ cwd: process.cwd(), security: "full", ask: "off" });
const processTool = tools.t({});
const server = stdio.n({ name: "openclaw-exec-bench", tools: [exec, processTool] });
await stdio.t(server);
process.exit(0);
