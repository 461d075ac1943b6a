// The exec approvals editor: the approvals document (exec-approvals.json) of the gateway or of
// a node (exec.approvals.get/set, exec.approvals.node.get/set), edited as a whole and saved with
// the base hash it was read with, so a change made meanwhile elsewhere is refused
// ("... changed; reload and retry") instead of overwritten. Defaults and each agent's
// security / ask / askFallback / autoAllowSkills, and each agent's allowlist entries (pattern,
// argPattern, source, last used) added and removed. The gateway validates the document. The
// "what would happen" box asks clawexec.policy.explain about a typed command. A preset (the
// ones `clawexec exec-policy preset` knows, listed by clawexec.policy.presets) fills the
// defaults' security / ask / askFallback in the edited document; Save stores it as any edit.

import { visibleEl } from "./text.js";

const $ = (id) => document.getElementById(id);
const CHOICES = {
  security: ["deny", "allowlist", "full"],
  ask: ["off", "on-miss", "always"],
  askFallback: ["deny", "allowlist", "full"],
};

function labelled(id, text, control) {
  const wrap = document.createElement("div");
  wrap.className = "row";
  const l = document.createElement("label");
  l.htmlFor = id;
  l.textContent = text;
  control.id = id;
  wrap.append(l, control);
  return wrap;
}

export class PolicyPage {
  constructor(gateway) {
    this.gw = gateway;
    this.loaded = null;  // { hash, exists, file }
    this.doc = null;
    $("policy-reload").onclick = () => this.load();
    $("policy-target").onchange = () => this.load();
    $("policy-form").onsubmit = (ev) => {
      ev.preventDefault();
      this.save();
    };
    $("explain-form").onsubmit = (ev) => {
      ev.preventDefault();
      this.explain();
    };
    $("policy-apply-preset").onclick = () => this.applyPreset();
    $("policy-add-agent").onclick = () => {
      const id = $("policy-new-agent").value.trim();
      if (!/^[A-Za-z0-9_.*-]{1,64}$/.test(id)) return ($("policy-result").textContent = "An agent id is letters, digits, '.', '_', '-' or '*'.");
      $("policy-new-agent").value = "";
      this.doc.agents ??= {};
      this.doc.agents[id] ??= {};
      this.render();
    };
  }

  target() {
    const v = $("policy-target").value;
    return v ? { get: "exec.approvals.node.get", set: "exec.approvals.node.set", extra: { nodeId: v } } : { get: "exec.approvals.get", set: "exec.approvals.set", extra: {} };
  }

  async show() {
    try {
      const nodes = (await this.gw.call("node.list", {})).nodes ?? [];
      const select = $("policy-target");
      const current = select.value;
      const options = [["", "This gateway"], ...nodes.filter((n) => n.connected && (n.commands ?? []).includes("system.execApprovals.get")).map((n) => [n.nodeId, `Node ${n.displayName ?? n.nodeId.slice(0, 12)}`])];
      select.replaceChildren(...options.map(([v, t]) => Object.assign(document.createElement("option"), { value: v, textContent: t })));
      select.value = options.some(([v]) => v === current) ? current : "";
    } catch {
      // node.list failing leaves the gateway target, which load() reports on.
    }
    await this.loadPresets();
    await this.load();
  }

  async loadPresets() {
    if (this.presets) return;
    try {
      this.presets = (await this.gw.call("clawexec.policy.presets", {})).presets ?? [];
    } catch (err) {
      $("policy-result").textContent = `Listing the presets failed: ${err.message}`;
      return;
    }
    const describe = (p) => `${p.name}: security=${p.security} ask=${p.ask} askFallback=${p.askFallback}`;
    $("policy-preset").replaceChildren(Object.assign(document.createElement("option"), { value: "", textContent: "(choose)" }),
      ...this.presets.map((p) => Object.assign(document.createElement("option"), { value: p.name, textContent: describe(p) })));
  }

  applyPreset() {
    const p = (this.presets ?? []).find((x) => x.name === $("policy-preset").value);
    if (!p || !this.doc) return;
    this.doc.defaults ??= {};
    for (const key of ["security", "ask", "askFallback"]) if (p[key]) this.doc.defaults[key] = p[key];
    this.render();
    $("policy-result").textContent = `Preset ${p.name} applied to the defaults; not saved yet.`;
  }

  async load() {
    const t = this.target();
    $("policy-result").textContent = "";
    try {
      const got = await this.gw.call(t.get, t.extra);
      this.loaded = got;
      this.doc = structuredClone(got.file ?? { version: 1 });
      this.doc.version ??= 1;
      $("policy-path").textContent = `${got.path ?? ""}${got.exists ? "" : " (not created yet)"} · hash ${String(got.hash ?? "").slice(0, 12)}`;
      this.render();
    } catch (err) {
      $("policy-result").textContent = `Reading the approvals failed: ${err.message}`;
    }
  }

  settingsControls(prefix, holder) {
    const box = document.createElement("div");
    for (const key of Object.keys(CHOICES)) {
      const select = document.createElement("select");
      for (const v of ["", ...CHOICES[key]]) select.append(Object.assign(document.createElement("option"), { value: v, textContent: v || "(inherit)" }));
      select.value = holder[key] ?? "";
      select.onchange = () => (select.value ? (holder[key] = select.value) : delete holder[key]);
      box.append(labelled(`${prefix}-${key}`, key, select));
    }
    const check = document.createElement("input");
    check.type = "checkbox";
    check.checked = holder.autoAllowSkills === true;
    check.onchange = () => (check.checked ? (holder.autoAllowSkills = true) : delete holder.autoAllowSkills);
    box.append(labelled(`${prefix}-autoAllowSkills`, "autoAllowSkills", check));
    return box;
  }

  allowlist(agentId, agent) {
    const wrap = document.createElement("div");
    const table = document.createElement("table");
    table.className = "allowlist";
    table.dataset.agent = agentId;
    const head = document.createElement("tr");
    for (const h of ["Pattern", "argPattern", "Source", "Last used", ""]) head.append(Object.assign(document.createElement("th"), { scope: "col", textContent: h }));
    const thead = document.createElement("thead");
    thead.append(head);
    table.append(thead);
    const body = document.createElement("tbody");
    (agent.allowlist ?? []).forEach((entry, i) => {
      const tr = document.createElement("tr");
      tr.dataset.pattern = entry.pattern ?? "";
      const used = entry.lastUsedAt ? new Date(entry.lastUsedAt).toLocaleString() : "";
      const remove = Object.assign(document.createElement("button"), { type: "button", textContent: "Remove", className: "danger" });
      remove.setAttribute("aria-label", `Remove ${entry.pattern ?? "entry"}`);
      remove.onclick = () => {
        agent.allowlist.splice(i, 1);
        this.render();
      };
      const cell = document.createElement("td");
      cell.append(remove);
      tr.append(visibleEl("td", entry.pattern ?? "", "cmd-cell"), visibleEl("td", entry.argPattern ?? "", "cmd-cell"), visibleEl("td", entry.source ?? ""), visibleEl("td", used), cell);
      body.append(tr);
    });
    table.append(body);
    const add = document.createElement("div");
    add.className = "row";
    const pattern = Object.assign(document.createElement("input"), { type: "text", spellcheck: false, placeholder: "/usr/bin/git" });
    const argPattern = Object.assign(document.createElement("input"), { type: "text", spellcheck: false, placeholder: "optional regex" });
    const button = Object.assign(document.createElement("button"), { type: "button", textContent: "Add entry" });
    button.id = `policy-add-${agentId}`;
    button.onclick = () => {
      if (!pattern.value.trim()) return;
      agent.allowlist ??= [];
      const entry = { pattern: pattern.value.trim() };
      if (argPattern.value.trim()) entry.argPattern = argPattern.value.trim();
      agent.allowlist.push(entry);
      this.render();
    };
    add.append(labelled(`policy-pattern-${agentId}`, "Pattern", pattern), labelled(`policy-argpattern-${agentId}`, "argPattern", argPattern), button);
    const scroller = document.createElement("div");
    scroller.className = "table-wrap";
    scroller.append(table);
    wrap.append(scroller, add);
    return wrap;
  }

  render() {
    const doc = this.doc;
    doc.defaults ??= {};
    const parts = [visibleEl("h3", "Defaults"), this.settingsControls("policy-defaults", doc.defaults)];
    for (const [id, agent] of Object.entries(doc.agents ?? {})) {
      const section = document.createElement("section");
      section.className = "card";
      section.dataset.agent = id;
      section.append(visibleEl("h3", `Agent ${id}`), this.settingsControls(`policy-agent-${id}`, agent), this.allowlist(id, agent));
      parts.push(section);
    }
    $("policy-body").replaceChildren(...parts);
  }

  async explain() {
    const out = $("explain-out");
    const command = $("explain-command").value;
    if (!command.trim()) return;
    const params = { command };
    if ($("explain-agent").value.trim()) params.agentId = $("explain-agent").value.trim();
    out.replaceChildren(visibleEl("p", "asking…", "meta"));
    let r;
    try {
      r = await this.gw.call("clawexec.policy.explain", params);
    } catch (err) {
      out.replaceChildren(visibleEl("p", `Explaining failed: ${err.message}`, "warn"));
      return;
    }
    const decision = visibleEl("p", `decision: ${r.decision}`, "decision");
    decision.dataset.decision = r.decision ?? "";
    const parts = [decision, visibleEl("p", `policy: security=${r.security} ask=${r.ask} askFallback=${r.askFallback} · agent ${r.agent}`, "meta"),
      visibleEl("p", `analysis: ${r.analysisOk ? "ok" : "unanalyzable"}`, "meta")];
    const list = document.createElement("ul");
    for (const seg of r.segments ?? []) {
      list.append(visibleEl("li", `${(seg.argv ?? []).join(" ")} → ${seg.resolvedPath ?? "(unresolved)"} · satisfied by ${seg.satisfiedBy}`, "cmd-cell"));
    }
    parts.push(list);
    for (const reason of r.reasons ?? []) parts.push(visibleEl("p", `reason: ${reason}`, "meta", { lines: true }));
    if (r.enforcedCommand) parts.push(visibleEl("p", `runs: ${r.enforcedCommand}`, "cmd-cell"));
    out.replaceChildren(...parts);
  }

  async save() {
    const t = this.target();
    const params = { ...t.extra, file: this.doc };
    if (this.loaded?.exists) params.baseHash = this.loaded.hash;
    try {
      await this.gw.call(t.set, params);
      await this.load();
      $("policy-result").textContent = "Saved.";
    } catch (err) {
      $("policy-result").textContent = `Saving failed: ${err.message}`;
    }
  }
}
