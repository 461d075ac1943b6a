// The browser side of the gateway's operator WebSocket (OpenClaw's protocol v4): wait for
// connect.challenge, send connect as OpenClaw's Control UI does (client id
// "openclaw-control-ui"), then requests with ids matched to their answers and events handed to
// listeners. A refusal keeps the gateway's own error (message, details.code) so the login page
// can show it; a socket that never opens is "unreachable". With `device` (device.js) the
// connect carries a signed device proof.

import { proof } from "./device.js";

const SCOPES = ["operator.admin", "operator.read", "operator.write", "operator.approvals", "operator.pairing"];

export class GatewayError extends Error {
  constructor(kind, message, detail = {}) {
    super(message);
    this.kind = kind;  // "unreachable" | "auth" | "pairing" | "device" | "closed" | "request"
    this.code = detail.code ?? "";
    this.details = detail.details ?? {};
  }
}

function classify(error) {
  const code = error?.details?.code ?? "";
  if (error?.code === "NOT_PAIRED" && code === "DEVICE_IDENTITY_REQUIRED") return "device";
  if (error?.code === "NOT_PAIRED") return "pairing";
  if (/^AUTH_/.test(code) || /^unauthorized/.test(error?.message ?? "")) return "auth";
  return "request";
}

export class Gateway {
  constructor(url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/`) {
    this.url = url;
    this.ws = null;
    this.pending = new Map();
    this.listeners = new Map();
    this.onclose = null;
    this.seq = 0;
    this.hello = null;
  }

  /**
   * Connects with the shared secret (kind "token" or "password") or, with `device`, its device
   * token (kind "device-token"); resolves with hello-ok, rejects with a GatewayError.
   */
  connect(kind, secret, device = null) {
    return new Promise((resolve, reject) => {
      let settled = false;
      let opened = false;
      const fail = (err) => {
        if (!settled) {
          settled = true;
          reject(err);
        }
      };
      const ws = new WebSocket(this.url);
      this.ws = ws;
      ws.addEventListener("open", () => (opened = true));
      ws.addEventListener("error", () => {});
      ws.addEventListener("close", (ev) => {
        for (const [, p] of this.pending) p.reject(new GatewayError("closed", "the connection closed"));
        this.pending.clear();
        if (!opened) return fail(new GatewayError("unreachable", `cannot reach the gateway at ${this.url}`));
        if (!settled) return fail(new GatewayError("closed", `the gateway closed the connection (${ev.code}${ev.reason ? ": " + ev.reason : ""})`));
        if (this.onclose) this.onclose(ev);
      });
      ws.addEventListener("message", (ev) => {
        let frame;
        try {
          frame = JSON.parse(ev.data);
        } catch {
          return;
        }
        if (!settled && frame.type === "event" && frame.event === "connect.challenge") {
          const auth = kind === "password" ? { password: secret } : kind === "device-token" ? { deviceToken: secret } : { token: secret };
          const params = {
            minProtocol: 4,
            maxProtocol: 4,
            client: { id: "openclaw-control-ui", displayName: "clawexec control", version: "1", platform: "web", mode: "webchat" },
            role: "operator",
            scopes: SCOPES,
            caps: ["exec-approvals"],
            auth,
            userAgent: navigator.userAgent.slice(0, 200),
          };
          const send = (p) => ws.send(JSON.stringify({ type: "req", id: "connect", method: "connect", params: p }));
          if (!device) return send(params);
          proof(device, params, frame.payload ?? {}).then(
            (d) => send({ ...params, device: d }),
            (err) => {
              fail(new GatewayError("device", `signing the device proof failed: ${err.message}`));
              ws.close();
            },
          );
          return;
        }
        if (!settled && frame.type === "res" && frame.id === "connect") {
          if (frame.ok) {
            settled = true;
            this.hello = frame.payload;
            return resolve(frame.payload);
          }
          const e = frame.error ?? {};
          return fail(new GatewayError(classify(e), e.message ?? "connect refused", { code: e.details?.code ?? e.code, details: e.details }));
        }
        this.dispatch(frame);
      });
    });
  }

  dispatch(frame) {
    if (frame.type === "res") {
      const p = this.pending.get(frame.id);
      if (!p) return;
      this.pending.delete(frame.id);
      if (frame.ok) p.resolve(frame.payload);
      else p.reject(new GatewayError("request", frame.error?.message ?? "request failed", { code: frame.error?.code, details: frame.error?.details }));
    } else if (frame.type === "event") {
      for (const fn of this.listeners.get(frame.event) ?? []) {
        try {
          fn(frame.payload ?? {});
        } catch (err) {
          console.error(err);
        }
      }
    }
  }

  /** Calls `method`; resolves with its payload, rejects with a GatewayError. */
  call(method, params = {}) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return Promise.reject(new GatewayError("closed", "not connected"));
    const id = `ui-${++this.seq}`;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ type: "req", id, method, params }));
    });
  }

  on(event, fn) {
    if (!this.listeners.has(event)) this.listeners.set(event, []);
    this.listeners.get(event).push(fn);
  }

  close() {
    this.onclose = null;
    this.ws?.close(1000, "logout");
  }
}
