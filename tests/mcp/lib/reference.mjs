// Where the reference OpenClaw lives (../shared/tools/install-reference.sh puts it there; CLAWOC_REF
// overrides): its Node.js and its CLI entry point. Importing this fails when it is missing.
import { existsSync } from "node:fs";
import { join } from "node:path";

export const REF = process.env.CLAWOC_REF ?? join(process.env.HOME ?? "/root", ".cache/clawexec-reference");
export const NODE = join(REF, "node24/package/bin/node");
export const OC = join(REF, "openclaw/node_modules/openclaw/openclaw.mjs");
if (!existsSync(OC)) throw new Error(`the reference OpenClaw is not installed at ${OC}: run ../shared/tools/install-reference.sh`);
