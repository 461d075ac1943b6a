// A scripted OpenAI-compatible chat model on loopback, for interop runs of OpenClaw's real
// agent: the first completion of a conversation calls the `exec` tool with `args`; once a tool
// result is in the conversation it answers "done: <tool result>". Serves /v1/models and
// /v1/chat/completions (SSE when the request streams). Records every request body.
import { createServer } from "node:http";

export async function startFakeModel(args) {
  const requests = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      const j = body ? JSON.parse(body) : {};
      requests.push({ url: req.url, body: j });
      if (req.url.endsWith("/models")) {
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(JSON.stringify({ object: "list", data: [{ id: "fake", object: "model" }] }));
      }
      const messages = j.messages ?? [];
      const toolResult = [...messages].reverse().find((m) => m.role === "tool");
      const id = `chatcmpl-${requests.length}`;
      const created = Math.floor(Date.now() / 1000);
      const call = { id: `call_${requests.length}`, type: "function", function: { name: "exec", arguments: JSON.stringify(args) } };
      const text = toolResult ? `done: ${typeof toolResult.content === "string" ? toolResult.content : JSON.stringify(toolResult.content)}` : null;
      if (j.stream) {
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        const chunk = (delta, finish) =>
          res.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: "fake", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
        if (text === null) {
          chunk({ role: "assistant", content: null, tool_calls: [{ index: 0, ...call }] }, null);
          chunk({}, "tool_calls");
        } else {
          chunk({ role: "assistant", content: text }, null);
          chunk({}, "stop");
        }
        return res.end("data: [DONE]\n\n");
      }
      const message = text === null ? { role: "assistant", content: null, tool_calls: [call] } : { role: "assistant", content: text };
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id, object: "chat.completion", created, model: "fake", choices: [{ index: 0, message, finish_reason: text === null ? "tool_calls" : "stop" }], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } }));
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { port: server.address().port, requests, close: () => new Promise((r) => server.close(r)) };
}
