// Where the reference OpenClaw lives (../shared/tools/install-reference.sh puts it there; CLAWOC_REF
// overrides): its Node.js and its CLI entry point. Importing this fails when it is missing.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

export const REF = process.env.CLAWOC_REF ?? join(process.env.HOME ?? "/root", ".cache/clawexec-reference");
export const NODE = join(REF, "node24/package/bin/node");
export const OC = join(REF, "openclaw/node_modules/openclaw/openclaw.mjs");
if (!existsSync(OC)) throw new Error(`the reference OpenClaw is not installed at ${OC}: run ../shared/tools/install-reference.sh`);

/** The environment OpenClaw's CLI and node host get in these tests: a private HOME and state. */
export const ocEnv = (home, extra = {}) => ({
  PATH: "/usr/bin:/bin", HOME: home, OPENCLAW_STATE_DIR: join(home, "state"), OPENCLAW_NO_AUTO_UPDATE: "1",
  OPENCLAW_DISABLE_BONJOUR: "1", NO_COLOR: "1", ...extra,
});

/**
 * Runs `openclaw <group> <args...> --url <url> --token <token> --json` with HOME `home`:
 * { status, json (the first JSON value printed, or null), out (stdout + stderr) }.
 */
export function openclawCli(group, args, { url, token, home }) {
  const r = spawnSync(NODE, [OC, group, ...args, "--url", url, "--token", token, "--json"], {
    env: ocEnv(home), encoding: "utf8", timeout: 90000,
  });
  const out = r.stdout.trim();
  const start = out.search(/[[{]/);
  return { status: r.status, json: start >= 0 ? JSON.parse(out.slice(start)) : null, out: r.stdout + r.stderr };
}
