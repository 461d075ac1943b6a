// The approvals page: a live queue of pending exec approvals, fed by the gateway's
// exec.approval.requested / exec.approval.resolved events (one exec.approval.list at login and
// after a reconnect; no polling). Each card shows the command (its executables emphasised when
// the gateway sends highlighting spans), cwd, host, node, agent and
// warnings inertly (text.js), the time left counting down, and only the decisions the request
// allows. A new approval while the tab is hidden raises a browser notification, once the
// operator enabled them with a click.

import { appendVisible, visibleEl } from "./text.js";

const LABELS = { "allow-once": "Allow once", "allow-always": "Allow always", deny: "Deny" };

/**
 * The command as a <code>, with the executables the analysis found (`spans`: UTF-16
 * [startIndex, endIndex) ranges, when commandHighlighting is on) in <b class="exe">. Every piece
 * is text (appendVisible); spans that are out of order, overlap or run past the end are ignored.
 */
export function commandEl(command, spans) {
  const code = document.createElement("code");
  code.className = "cmd";
  const text = String(command ?? "");
  let at = 0;
  for (const s of Array.isArray(spans) ? spans : []) {
    const start = s?.startIndex;
    const end = s?.endIndex;
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < at || end <= start || end > text.length) continue;
    if (start > at) appendVisible(code, text.slice(at, start));
    const exe = document.createElement("b");
    exe.className = "exe";
    code.append(appendVisible(exe, text.slice(start, end)));
    at = end;
  }
  if (at < text.length) appendVisible(code, text.slice(at));
  return code;
}

export class ApprovalsPage {
  constructor(gateway, { onCount }) {
    this.gw = gateway;
    this.onCount = onCount;
    this.items = new Map();  // id -> { approval, el }
    this.list = document.getElementById("approvals-list");
    this.resolved = document.getElementById("resolved-list");
    this.empty = document.getElementById("approvals-empty");
    this.timer = setInterval(() => this.tick(), 1000);
    gateway.on("exec.approval.requested", (a) => this.add(a));
    gateway.on("exec.approval.resolved", (r) => this.settled(r.id, r.decision ?? null, r.resolvedBy));
    const notify = document.getElementById("notify-enable");
    notify.hidden = !("Notification" in window) || Notification.permission === "granted";
    notify.onclick = async () => {
      const answer = await Notification.requestPermission();
      notify.hidden = answer === "granted";
    };
  }

  async load() {
    const pending = await this.gw.call("exec.approval.list", {});
    for (const a of pending ?? []) this.add(a, { quiet: true });
  }

  add(a, { quiet = false } = {}) {
    if (!a?.id || this.items.has(a.id)) return;
    const el = this.card(a);
    this.items.set(a.id, { approval: a, el });
    this.list.append(el);
    this.update();
    if (!quiet && document.hidden && "Notification" in window && Notification.permission === "granted") {
      // The notification's text is plain text for the system to show; the command is cut.
      const n = new Notification("Exec approval needed", { body: String(a.request?.command ?? "").slice(0, 120), tag: a.id });
      n.onclick = () => window.focus();
    }
  }

  card(a) {
    const r = a.request ?? {};
    const li = document.createElement("li");
    li.className = "card approval";
    li.dataset.id = a.id;
    li.append(visibleEl("h3", `${r.host ?? "gateway"} · agent ${r.agentId ?? "?"}`));
    li.append(commandEl(r.command, r.commandSpans));
    const dl = document.createElement("dl");
    dl.className = "facts";
    const fact = (name, value) => {
      if (value === undefined || value === null || value === "") return;
      const dt = document.createElement("dt");
      dt.textContent = name;
      dl.append(dt, visibleEl("dd", value));
    };
    fact("cwd", r.cwd);
    fact("host", r.host);
    fact("node", r.nodeId);
    fact("agent", r.agentId);
    fact("resolved", r.resolvedPath);
    // The environment names the agent set: part of what runs (never the values).
    if (Array.isArray(r.envKeys) && r.envKeys.length) fact("env", r.envKeys.join(", "));
    fact("security", r.security);
    fact("ask", r.ask);
    fact("id", a.id);
    li.append(dl);
    if (r.warningText) li.append(visibleEl("p", r.warningText, "warn", { lines: true }));
    const left = document.createElement("p");
    left.className = "time-left meta";
    li.append(left);
    const actions = document.createElement("div");
    actions.className = "actions";
    const allowed = Array.isArray(r.allowedDecisions) ? r.allowedDecisions : ["allow-once", "deny"];
    for (const d of ["allow-once", "allow-always", "deny"]) {
      if (!allowed.includes(d)) continue;
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = LABELS[d];
      b.dataset.decision = d;
      b.className = d === "deny" ? "danger" : "primary";
      b.onclick = () => this.decide(a.id, d, li);
      actions.append(b);
    }
    li.append(actions);
    const status = document.createElement("p");
    status.className = "meta decision-status";
    status.setAttribute("role", "status");
    li.append(status);
    this.countdown(a, left);
    return li;
  }

  countdown(a, el) {
    if (!a.expiresAtMs) {
      el.textContent = "";
      return;
    }
    const s = Math.max(0, Math.round((a.expiresAtMs - Date.now()) / 1000));
    const m = Math.floor(s / 60);
    el.textContent = `time left ${m}:${String(s % 60).padStart(2, "0")}`;
  }

  tick() {
    for (const { approval, el } of this.items.values()) this.countdown(approval, el.querySelector(".time-left"));
  }

  async decide(id, decision, li) {
    const buttons = li.querySelectorAll("button");
    buttons.forEach((b) => (b.disabled = true));
    const status = li.querySelector(".decision-status");
    status.textContent = `sending ${LABELS[decision]}…`;
    try {
      await this.gw.call("exec.approval.resolve", { id, decision });
      status.textContent = "";
    } catch (err) {
      status.textContent = `${LABELS[decision]} failed: ${err.message}`;
      buttons.forEach((b) => (b.disabled = false));
    }
  }

  settled(id, decision, resolvedBy) {
    const item = this.items.get(id);
    if (!item) return;
    this.items.delete(id);
    item.el.remove();
    const li = document.createElement("li");
    li.className = "card resolved";
    li.dataset.id = id;
    const outcome = document.createElement("strong");
    outcome.className = `outcome-${decision ?? "expired"}`;
    outcome.textContent = decision ? LABELS[decision] ?? decision : "expired / withdrawn";
    li.append(outcome, document.createTextNode(" · "));
    appendVisible(li, item.approval.request?.command ?? "");
    if (resolvedBy) li.append(visibleEl("span", ` · by ${resolvedBy}`, "meta"));
    this.resolved.prepend(li);
    while (this.resolved.children.length > 20) this.resolved.lastElementChild.remove();
    this.update();
  }

  update() {
    this.empty.hidden = this.items.size > 0;
    this.onCount(this.items.size);
  }

  reset() {
    for (const { el } of this.items.values()) el.remove();
    this.items.clear();
    this.update();
  }
}
