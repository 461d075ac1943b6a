// A scripted OpenClaw node host for gateway tests: connects with a signed device identity (as
// OpenClaw's node host does: client node-host, role node, caps system, the five system
// commands), records every node.invoke.request it gets and answers each with `handler`
// (command, params, request) → {payload} | {error:{code,message}} | {events:[...], payload} |
// null (no answer: the request stays unanswered).
import { connect, deviceConnect, makeDevice } from "./gateway.mjs";

export const SYSTEM_COMMANDS = ["system.run", "system.run.prepare", "system.which", "system.execApprovals.get", "system.execApprovals.set"];

/**
 * Connects a fake node to gateway `g`. opts: device (reuse an identity), name, commands,
 * handler, auth (default the shared token), platform. Returns the connection with `device`,
 * `requests` (the invoke requests received) and `answer(request, result)`.
 */
export async function fakeNode(g, opts = {}) {
  const device = opts.device ?? makeDevice();
  const client = { id: "node-host", displayName: opts.name ?? "fake-node", version: "test", platform: opts.platform ?? "linux", deviceFamily: "Linux", mode: "node" };
  const c = await connect(g.wsUrl, (challenge) => ({
    ...deviceConnect(device, challenge, { client, auth: opts.auth ?? { token: g.token } }),
    caps: ["system"],
    commands: opts.commands ?? SYSTEM_COMMANDS,
  }));
  c.device = device;
  c.requests = [];
  let n = 0;
  c.answer = (request, result) => {
    for (const e of result.events ?? []) {
      c.send({ type: "req", id: `ev${++n}`, method: "node.event", params: { event: e.event, payloadJSON: JSON.stringify(e.payload) } });
    }
    const params = result.error
      ? { id: request.id, nodeId: device.id, ok: false, error: result.error }
      : { id: request.id, nodeId: device.id, ok: true, payloadJSON: JSON.stringify(result.payload ?? null) };
    c.send({ type: "req", id: `res${++n}`, method: "node.invoke.result", params: { ...params, ...(result.override ?? {}) } });
  };
  c.ws.on("message", (d) => {
    const f = JSON.parse(d.toString());
    if (f.type !== "event" || f.event !== "node.invoke.request") return;
    const request = { ...f.payload, params: JSON.parse(f.payload.paramsJSON) };
    c.requests.push(request);
    const result = opts.handler ? opts.handler(request.command, request.params, request) : null;
    if (result) c.answer(request, result);
  });
  return c;
}

/**
 * A node handler that prepares like OpenClaw's node host and hands system.run to `run`.
 * `snapshot` overrides fields of the plan's policySnapshot (the node's own policy).
 */
export function preparingHandler(run, snapshot = {}) {
  return (command, params) => {
    if (command === "system.run.prepare") {
      const argv = params.command;
      return {
        payload: {
          plan: {
            argv,
            cwd: params.cwd ?? "/node/cwd",
            commandText: argv.length === 3 ? `${argv[0]} ${argv[1]} "${argv[2]}"` : argv.join(" "),
            commandPreview: argv[2] ?? null,
            agentId: params.agentId,
            sessionKey: params.sessionKey,
            policySnapshot: { security: "full", ask: "off", askFallback: "deny", autoAllowSkills: false, allowlistRules: [], ...snapshot },
          },
          execPolicy: { security: params.security ?? "full", ask: params.ask ?? "off" },
        },
      };
    }
    if (command === "system.run") return run(params);
    return { error: { code: "UNAVAILABLE", message: "command not supported" } };
  };
}
