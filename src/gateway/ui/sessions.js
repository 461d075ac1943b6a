// The sessions page: every exec session on the gateway (clawexec.sessions.list, refreshed while
// the page is shown), and for the selected one a live log: the last page from
// clawexec.sessions.log, earlier pages on demand, new output from clawexec.session.output
// events after clawexec.sessions.follow (characters already shown by the log are skipped by
// offset). Output renders through AnsiRenderer (colours as classes, text as text nodes): the
// gateway strips escape sequences from session output and sends the colours beside the text as
// `styles` ([[offset, params], ...]), which the renderer applies between pieces of text; one
// renderer follows the session, so a colour begun in one chunk goes on in the next. The log
// keeps at most MAX_NODES nodes so a command printing without end cannot freeze the page.
// Input: a line (submit), common keys (sendKeys), kill.

import { AnsiRenderer, visibleEl } from "./text.js";

const PAGE_LINES = 500;
const MAX_NODES = 20000;

function runtime(ms) {
  if (typeof ms !== "number") return "";
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

export class SessionsPage {
  constructor(gateway) {
    this.gw = gateway;
    this.body = document.getElementById("sessions-body");
    this.detail = document.getElementById("session-detail");
    this.log = document.getElementById("session-log");
    this.selected = null;  // { sessionId, agentId, shownChars, firstLine, running }
    this.refreshTimer = null;
    document.getElementById("sessions-refresh").onclick = () => this.refresh();
    document.getElementById("session-kill").onclick = () => this.act("clawexec.sessions.kill", {}, "kill sent");
    document.getElementById("log-earlier").onclick = () => this.earlier();
    document.getElementById("session-input").onsubmit = (ev) => {
      ev.preventDefault();
      const input = document.getElementById("session-text");
      this.act("clawexec.sessions.submit", { data: input.value }, "line sent").then(() => (input.value = ""));
    };
    for (const b of this.detail.querySelectorAll("button[data-keys]")) {
      b.onclick = () => this.act("clawexec.sessions.sendKeys", { keys: [b.dataset.keys] }, `${b.textContent} sent`);
    }
    gateway.on("clawexec.session.output", (e) => this.output(e));
    gateway.on("clawexec.session.exited", (e) => this.exited(e));
  }

  show() {
    this.refresh();
    clearInterval(this.refreshTimer);
    this.refreshTimer = setInterval(() => !document.hidden && this.refresh(), 3000);
  }

  hide() {
    clearInterval(this.refreshTimer);
    this.refreshTimer = null;
  }

  async refresh() {
    let sessions;
    try {
      sessions = (await this.gw.call("clawexec.sessions.list", {})).sessions ?? [];
    } catch (err) {
      document.getElementById("sessions-empty").hidden = false;
      document.getElementById("sessions-empty").textContent = `Cannot list sessions: ${err.message}`;
      return;
    }
    sessions.sort((a, b) => (b.startedAt ?? 0) - (a.startedAt ?? 0));
    document.getElementById("sessions-empty").hidden = sessions.length > 0;
    const rows = sessions.map((s) => this.row(s));
    this.body.replaceChildren(...rows);
  }

  row(s) {
    const tr = document.createElement("tr");
    tr.tabIndex = 0;
    tr.dataset.sessionId = s.sessionId;
    tr.dataset.status = s.status;
    if (this.selected?.sessionId === s.sessionId && this.selected?.agentId === s.agentId) tr.setAttribute("aria-selected", "true");
    const host = s.nodeId ? `node ${s.nodeId}` : s.host ?? "gateway";
    const exit = s.exitSignal ? s.exitSignal : s.exitCode ?? "";
    tr.append(visibleEl("td", s.command ?? "", "cmd-cell"), visibleEl("td", s.agentId ?? ""), visibleEl("td", host),
      visibleEl("td", s.status ?? ""), visibleEl("td", runtime(s.runtimeMs)), visibleEl("td", String(exit)));
    const open = () => this.select(s);
    tr.onclick = open;
    tr.onkeydown = (ev) => (ev.key === "Enter" || ev.key === " ") && (ev.preventDefault(), open());
    return tr;
  }

  async select(s) {
    if (this.selected) this.gw.call("clawexec.sessions.unfollow", { sessionId: this.selected.sessionId, agentId: this.selected.agentId }).catch(() => {});
    const sel = { sessionId: s.sessionId, agentId: s.agentId, shownChars: 0, firstLine: 0, running: s.status === "running", nodes: 0, trimmed: false };
    this.selected = sel;
    this.renderer = new AnsiRenderer(this.log);
    this.log.replaceChildren();
    this.detail.hidden = false;
    const title = document.getElementById("session-title");
    title.replaceChildren();
    title.append(visibleEl("span", s.command ?? s.sessionId));
    // The cwd and agent are the agent's choice: shown visibly (bidi and controls as markers).
    document.getElementById("session-meta").replaceChildren(
      visibleEl("span", `session ${s.sessionId} · agent ${s.agentId} · ${s.cwd ?? ""} · ${s.status}${s.pid ? " · pid " + s.pid : ""}`));
    document.getElementById("session-result").textContent = "";
    for (const tr of this.body.children) tr.setAttribute("aria-selected", String(tr.dataset.sessionId === s.sessionId));
    const ids = { sessionId: s.sessionId, agentId: s.agentId };
    try {
      await this.gw.call("clawexec.sessions.follow", ids);
    } catch (err) {
      document.getElementById("session-result").textContent = `follow failed: ${err.message}`;
    }
    try {
      const page = await this.gw.call("clawexec.sessions.log", { ...ids, limit: PAGE_LINES });
      if (this.selected !== sel) return;
      // Follow events count characters from the start of the stream; so does streamChars (the
      // log's totalChars counts only what the session still holds, 200 000 at most).
      sel.shownChars = page.streamChars ?? page.totalChars ?? 0;
      sel.firstLine = Math.max(0, (page.totalLines ?? 0) - PAGE_LINES);
      const text = page.output ?? "";
      // The log is whole lines; the output that follows starts on the next one.
      this.append(text && !text.endsWith("\n") ? text + "\n" : text, page.styles);
    } catch (err) {
      this.log.append(visibleEl("span", `(${err.message})\n`, "dim"));
    }
    document.getElementById("log-earlier").disabled = sel.firstLine === 0;
  }

  append(text, styles) {
    const follow = document.getElementById("log-follow").checked;
    const frag = this.renderer.render(text, styles);
    this.selected.nodes += frag.childNodes.length;
    this.log.append(frag);
    if (this.selected.nodes > MAX_NODES) {
      // Keep the newest output; what is cut can be read with the CLI (`process log`).
      let cut = this.selected.nodes - MAX_NODES / 2;
      while (cut-- > 0 && this.log.firstChild) this.log.firstChild.remove();
      this.selected.nodes = this.log.childNodes.length;
      this.selected.trimmed = true;
      document.getElementById("log-earlier").disabled = true;
      this.log.prepend(visibleEl("span", "[earlier output trimmed from this view]\n", "dim"));
    }
    if (follow) this.log.scrollTop = this.log.scrollHeight;
  }

  output(e) {
    const sel = this.selected;
    if (!sel || e.sessionId !== sel.sessionId || e.agentId !== sel.agentId) return;
    let text = e.text ?? "";
    let styles = Array.isArray(e.styles) ? e.styles : [];
    if (typeof e.toChars === "number" && e.toChars <= sel.shownChars) return;
    if (typeof e.fromChars === "number" && e.fromChars < sel.shownChars) {
      // Skip what the log showed. Its colours are applied again at the start: an SGR sets
      // attributes, so repeating the ones already applied changes nothing.
      const cut = Math.min(sel.shownChars - e.fromChars, text.length);
      text = text.slice(cut);
      styles = styles.map((m) => (Array.isArray(m) && Number.isInteger(m[0]) ? [Math.max(0, m[0] - cut), m[1]] : m));
    }
    if (e.dropped) this.log.append(visibleEl("span", `\n[${e.dropped} characters skipped]\n`, "dim"));
    sel.shownChars = e.toChars ?? sel.shownChars + text.length;
    this.append(text, styles);
  }

  exited(e) {
    const sel = this.selected;
    if (sel && e.sessionId === sel.sessionId && e.agentId === sel.agentId) {
      sel.running = false;
      const how = e.exitSignal ? `signal ${e.exitSignal}` : e.exitCode !== undefined && e.exitCode !== null ? `exit code ${e.exitCode}` : "";
      document.getElementById("session-result").textContent = `session ended: ${e.status ?? ""}${how ? " (" + how + ")" : ""}`;
    }
    this.refresh();
  }

  async earlier() {
    const sel = this.selected;
    if (!sel || sel.firstLine === 0 || sel.trimmed) return;
    const offset = Math.max(0, sel.firstLine - PAGE_LINES);
    const page = await this.gw.call("clawexec.sessions.log", { sessionId: sel.sessionId, agentId: sel.agentId, offset, limit: sel.firstLine - offset });
    if (this.selected !== sel) return;
    // Its own renderer: the page starts in the colours in effect there (the gateway sends them
    // at its start) and does not disturb the followed output's state.
    const frag = new AnsiRenderer(this.log).render(page.output.endsWith("\n") ? page.output : page.output + "\n", page.styles);
    sel.nodes += frag.childNodes.length;
    this.log.prepend(frag);
    sel.firstLine = offset;
    document.getElementById("log-earlier").disabled = offset === 0;
  }

  async act(method, extra, done) {
    const sel = this.selected;
    const out = document.getElementById("session-result");
    if (!sel) return;
    try {
      await this.gw.call(method, { sessionId: sel.sessionId, agentId: sel.agentId, ...extra });
      out.textContent = done;
    } catch (err) {
      out.textContent = `${method.split(".").pop()} failed: ${err.message}`;
    }
  }
}
