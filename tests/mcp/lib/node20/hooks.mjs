// Module resolution hook: `fs` imported by @modelcontextprotocol/conformance resolves to
// fs-globsync.mjs. Everything else resolves as usual.
const shim = new URL("./fs-globsync.mjs", import.meta.url).href;
export async function resolve(specifier, context, next) {
  if ((specifier === "fs" || specifier === "node:fs") && context.parentURL?.includes("@modelcontextprotocol/conformance")) {
    return { url: shim, shortCircuit: true };
  }
  return next(specifier, context);
}
