// The control UI's entry point: the login page (the gateway secret, kept in this tab's
// sessionStorage only; a paired browser's device token, kept with its key, logs it in on later
// visits until it is revoked or the user logs out), the screens for an unreachable gateway, a refused secret (the
// gateway's own text) and a pending pairing, the hash navigation between the approvals,
// sessions, nodes, allowlists and audit pages, and reconnects after the connection drops.

import { ApprovalsPage } from "./approvals.js";
import { AuditPage } from "./audit.js";
import * as device from "./device.js";
import { Gateway } from "./gateway.js";
import { NodesPage } from "./nodes.js";
import { PolicyPage } from "./policy.js";
import { SessionsPage } from "./sessions.js";

const STORE = "clawexec.gateway.secret";
const $ = (id) => document.getElementById(id);
let gw = null;
let pages = null;
let retry = null;

function setState(text) {
  $("conn-state").textContent = text;
}

function showPage(name) {
  const loggedIn = gw !== null && pages !== null;
  if (!loggedIn) name = "login";
  for (const p of ["login", "approvals", "sessions", "nodes", "policy", "audit"]) $(`page-${p}`).hidden = p !== name;
  for (const a of document.querySelectorAll("nav a")) {
    if (a.dataset.page === name) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  $("nav").hidden = !loggedIn;
  $("logout").hidden = !loggedIn;
  if (pages) {
    name === "sessions" ? pages.sessions.show() : pages.sessions.hide();
    name === "nodes" ? pages.nodes.show() : pages.nodes.hide();
    if (name === "policy") pages.policy.show();
    if (name === "audit") pages.audit.show();
  }
}

function route() {
  const name = location.hash.replace(/^#/, "") || "approvals";
  showPage(["approvals", "sessions", "nodes", "policy", "audit"].includes(name) ? name : "approvals");
}

const EXPLAIN = {
  unreachable: ["Gateway unreachable", "Is `clawexec gateway` running, and is this the address it prints?"],
  auth: ["The gateway refused the secret", "Check the token (`clawexec gateway status` shows where it is) or the password, and the kind chosen above."],
  pairing: ["Pairing pending", "An operator must approve this browser: on the Nodes page of a control UI opened on the gateway's machine, or with `openclaw devices approve <requestId>`. This page keeps trying and gets in once it is approved."],
  device: ["This browser needs a device identity", "From another machine the gateway accepts only paired devices, and a browser can hold a device key only on https (or localhost). Serve the gateway with TLS (--tls-cert/--tls-key), or open it through an SSH tunnel (ssh -L 18789:127.0.0.1:18789 host) as http://127.0.0.1:18789/."],
  closed: ["The gateway closed the connection", ""],
  request: ["The gateway refused the connection", ""],
};

function showProblem(err) {
  const [title, hint] = EXPLAIN[err.kind] ?? EXPLAIN.request;
  $("login-error").hidden = false;
  $("login-error").dataset.kind = err.kind;
  $("login-error-title").textContent = title;
  const requestId = err.details?.requestId ? ` (request ${err.details.requestId}, device ${err.details.deviceId ?? "?"})` : "";
  $("login-error-text").textContent = err.message + requestId;
  $("login-error-hint").textContent = hint;
}

async function login(kind, secret, { remembered = false } = {}) {
  $("login-submit").disabled = true;
  setState("connecting…");
  let g = new Gateway();
  try {
    if (kind === "device-token") {
      await g.connect(kind, secret, await device.identity());
    } else {
      try {
        await g.connect(kind, secret);
      } catch (err) {
        // Not on the gateway's machine: connect again as this browser's paired device.
        if (err.kind !== "device" || !device.available()) throw err;
        g = new Gateway();
        await g.connect(kind, secret, await device.identity());
      }
    }
  } catch (err) {
    $("login-submit").disabled = false;
    setState("not connected");
    if (remembered && err.kind === "auth") sessionStorage.removeItem(STORE);
    // A device token that no longer works (revoked, rotated, the pairing removed) is forgotten:
    // the login form asks for the secret again.
    if (kind === "device-token" && (err.kind === "auth" || err.kind === "pairing" || err.kind === "device")) {
      await device.forgetToken().catch(() => {});
      showPage("login");
      return;
    }
    if (remembered && err.kind === "unreachable") scheduleRetry(kind, secret);
    // Pairing pending: try again until an operator approved (the secret stays in memory only).
    if (err.kind === "pairing") scheduleRetry(kind, secret, 3000);
    showProblem(err);
    showPage("login");
    return;
  }
  $("login-submit").disabled = false;
  $("login-error").hidden = true;
  if (kind !== "device-token") sessionStorage.setItem(STORE, JSON.stringify({ kind, secret }));
  // Paired as a device: keep the token it was issued for the next visit (a device-less
  // loopback login gets none).
  const issued = g.hello?.auth?.deviceToken;
  if (issued && device.available()) await device.saveToken(issued).catch(() => {});
  gw = g;
  setState(`connected · ${g.hello?.server?.version ? "clawexec " + g.hello.server.version : "gateway"}`);
  pages = {};
  pages.approvals = new ApprovalsPage(g, { onCount: (n) => ($("approval-count").textContent = String(n)) });
  pages.sessions = new SessionsPage(g);
  pages.nodes = new NodesPage(g);
  pages.policy = new PolicyPage(g);
  pages.audit = new AuditPage(g);
  g.onclose = (ev) => {
    setState(`disconnected (${ev.code}); reconnecting…`);
    clearInterval(pages?.approvals?.timer);
    pages?.approvals?.reset();  // listed again after the reconnect
    pages?.sessions?.hide();
    pages?.nodes?.hide();
    gw = null;
    pages = null;
    showPage("login");
    scheduleRetry(kind, secret);
  };
  route();
  try {
    await pages.approvals.load();
  } catch (err) {
    setState(`connected; listing approvals failed: ${err.message}`);
  }
}

function scheduleRetry(kind, secret, ms = 2000) {
  clearTimeout(retry);
  retry = setTimeout(() => login(kind, secret, { remembered: true }), ms);
}

function start() {
  $("login-form").onsubmit = (ev) => {
    ev.preventDefault();
    clearTimeout(retry);
    const kind = new FormData(ev.target).get("kind") === "password" ? "password" : "token";
    const secret = $("secret").value.trim();
    $("secret").value = "";
    if (secret) login(kind, secret);
  };
  $("logout").onclick = () => {
    clearTimeout(retry);
    sessionStorage.removeItem(STORE);
    const g = gw;
    // Logging out forgets this browser: its device token is revoked on the gateway (best
    // effort, before the connection closes) and dropped here.
    if (device.available()) {
      device.savedToken().then(async (t) => {
        if (t && g) await g.call("device.token.revoke", { deviceId: (await device.identity()).id, role: "operator" }).catch(() => {});
        await device.forgetToken().catch(() => {});
        g?.close();
      }, () => g?.close());
    }
    clearInterval(pages?.approvals?.timer);
    pages?.approvals?.reset();
    pages?.sessions?.hide();
    pages?.nodes?.hide();
    gw = null;
    pages = null;
    if (!device.available()) g?.close();
    setState("not connected");
    showPage("login");
  };
  window.addEventListener("hashchange", route);
  showPage("login");
  try {
    const saved = JSON.parse(sessionStorage.getItem(STORE) ?? "null");
    if (saved?.secret) return login(saved.kind === "password" ? "password" : "token", saved.secret, { remembered: true });
  } catch {
    sessionStorage.removeItem(STORE);
  }
  // No secret in this tab: a paired browser logs in with its device token.
  if (device.available()) {
    device.savedToken().then((t) => t && login("device-token", t, { remembered: true }), () => {});
  }
}

start();
