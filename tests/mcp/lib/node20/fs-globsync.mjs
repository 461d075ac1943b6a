// node:fs with a globSync export, for tools built for Node >= 22 (the conformance suite imports
// fs.globSync at load time but does not call it for the server scenarios we run). Calling it
// here fails loudly rather than pretending.
export * from "node:fs";
import fs from "node:fs";
export default fs;
export function globSync(pattern) {
  throw new Error(`fs.globSync(${JSON.stringify(pattern)}) needs Node.js >= 22`);
}
