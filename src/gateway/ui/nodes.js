// The nodes page: pending device pairings and pending node command surfaces with approve /
// reject (device.pair.*, node.pair.*), the nodes (node.list: platform, version, approved
// commands, connected, host-stats meters; rename and remove: node.rename, node.pair.remove), and the "Exec node binding" panel: a default binding ("any node" or a
// node offering system.run) written to tools.exec.node, and per-agent overrides written to
// agents.entries.<id>.tools.exec.node, through config.patch with config.get's base hash (a
// cleared value is removed: null in the merge patch). Pairing events reload the lists.

import { visibleEl } from "./text.js";

const $ = (id) => document.getElementById(id);

function button(text, onclick, className = "") {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  b.className = className;
  b.onclick = onclick;
  return b;
}

function short(id) {
  return String(id ?? "").slice(0, 12);
}

export class NodesPage {
  constructor(gateway) {
    this.gw = gateway;
    this.nodes = [];
    this.config = null;
    this.shown = false;
    $("nodes-refresh").onclick = () => this.load();
    $("binding-form").onsubmit = (ev) => {
      ev.preventDefault();
      this.saveBinding();
    };
    $("binding-add").onclick = () => {
      const id = $("binding-new-agent").value.trim();
      if (!/^[A-Za-z0-9_.-]{1,64}$/.test(id)) {
        $("binding-result").textContent = "An agent id is letters, digits, '.', '_' or '-'.";
        return;
      }
      $("binding-new-agent").value = "";
      if (!this.agentIds().includes(id)) this.extraAgents.push(id);
      this.renderBinding();
    };
    this.extraAgents = [];
    for (const e of ["device.pair.requested", "device.pair.resolved", "node.pair.requested", "node.pair.resolved"]) {
      gateway.on(e, () => this.shown && this.load());
    }
  }

  show() {
    this.shown = true;
    this.load();
  }

  hide() {
    this.shown = false;
  }

  async load() {
    const note = $("nodes-result");
    try {
      const [devices, pairs, nodes, config] = await Promise.all([
        this.gw.call("device.pair.list", {}),
        this.gw.call("node.pair.list", {}),
        this.gw.call("node.list", {}),
        this.gw.call("config.get", {}),
      ]);
      this.nodes = nodes.nodes ?? [];
      this.config = config;
      this.renderPending(devices.pending ?? [], pairs.pending ?? []);
      this.renderNodes();
      this.renderBinding();
    } catch (err) {
      note.textContent = `Loading failed: ${err.message}`;
    }
  }

  renderPending(devices, surfaces) {
    const list = $("pending-pairings");
    const items = [];
    for (const d of devices) {
      const li = document.createElement("li");
      li.className = "card";
      li.dataset.requestId = d.requestId;
      li.dataset.kind = "device";
      li.append(visibleEl("h3", `Device ${d.displayName ?? short(d.deviceId)}`));
      li.append(visibleEl("p", `role ${d.role ?? ""} · scopes ${(d.scopes ?? []).join(", ") || "none"} · ${d.platform ?? ""} · ${d.clientId ?? ""}${d.remoteIp ? " · from " + d.remoteIp : ""}`, "meta"));
      li.append(visibleEl("p", `device ${d.deviceId}`, "meta"));
      li.append(this.decisionRow("device.pair", d.requestId));
      items.push(li);
    }
    for (const s of surfaces) {
      const li = document.createElement("li");
      li.className = "card";
      li.dataset.requestId = s.requestId;
      li.dataset.kind = "node";
      li.append(visibleEl("h3", `Node ${s.displayName ?? short(s.nodeId)} wants commands`));
      li.append(visibleEl("code", (s.commands ?? []).join(" "), "cmd"));
      li.append(visibleEl("p", `node ${s.nodeId} · ${s.platform ?? ""} · approving needs ${(s.requiredApproveScopes ?? []).join(" + ")}`, "meta"));
      li.append(this.decisionRow("node.pair", s.requestId));
      items.push(li);
    }
    list.replaceChildren(...items);
    $("pending-empty").hidden = items.length > 0;
  }

  decisionRow(prefix, requestId) {
    const row = document.createElement("div");
    row.className = "actions";
    const act = (what) => async () => {
      row.querySelectorAll("button").forEach((b) => (b.disabled = true));
      try {
        await this.gw.call(`${prefix}.${what}`, { requestId });
        $("nodes-result").textContent = `${prefix} ${what}d`;
      } catch (err) {
        $("nodes-result").textContent = `${prefix}.${what} failed: ${err.message}`;
      }
      this.load();
    };
    row.append(button("Approve", act("approve"), "primary"), button("Reject", act("reject"), "danger"));
    return row;
  }

  renderNodes() {
    const rows = this.nodes.map((n) => {
      const tr = document.createElement("tr");
      tr.dataset.nodeId = n.nodeId;
      tr.dataset.connected = String(Boolean(n.connected));
      const name = visibleEl("td", n.displayName ?? "", "node-name");
      tr.append(name, visibleEl("td", short(n.nodeId)), visibleEl("td", `${n.platform ?? ""} ${n.version ?? ""}`),
        visibleEl("td", (n.commands ?? []).join(" "), "cmd-cell"), visibleEl("td", n.connected ? "connected" : "offline"),
        visibleEl("td", n.paired ? "paired" : "pending"), this.statsCell(n), this.nodeActions(n, name));
      return tr;
    });
    $("nodes-body").replaceChildren(...rows);
    $("nodes-empty").hidden = rows.length > 0;
  }

  // The node's last node.host.stats: load per CPU, memory and disk in use, as meters.
  statsCell(n) {
    const td = document.createElement("td");
    td.className = "stats";
    const st = n.hostStats;
    if (!st || typeof st !== "object") {
      td.textContent = n.connected ? "no stats yet" : "";
      return td;
    }
    const num = (v) => (typeof v === "number" && Number.isFinite(v) ? v : 0);
    const gib = (b) => `${(num(b) / 2 ** 30).toFixed(1)} GiB`;
    const cpus = Math.max(1, num(st.cpuCount));
    const load = Array.isArray(st.loadAverage) ? num(st.loadAverage[0]) : 0;
    const memUsed = num(st.memoryTotalBytes) - num(st.memoryFreeBytes);
    const diskUsed = num(st.diskTotalBytes) - num(st.diskAvailableBytes);
    const meter = (label, value, max, text) => {
      const row = document.createElement("label");
      row.className = "stat";
      const m = document.createElement("meter");
      m.min = 0;
      m.max = max > 0 ? max : 1;
      m.value = Math.max(0, Math.min(value, m.max));
      m.low = m.max * 0.7;
      m.high = m.max * 0.9;
      m.optimum = 0;
      m.dataset.stat = label;
      row.append(`${label} `, m, visibleEl("span", ` ${text}`, "meta"));
      return row;
    };
    td.append(meter("load", load, cpus, `${load.toFixed(2)} / ${cpus} CPU`),
      meter("memory", memUsed, num(st.memoryTotalBytes), `${gib(memUsed)} of ${gib(st.memoryTotalBytes)}`),
      meter("disk", diskUsed, num(st.diskTotalBytes), `${gib(diskUsed)} of ${gib(st.diskTotalBytes)}`));
    return td;
  }

  // Rename (node.rename: an inline field) and Remove (node.pair.remove: asks once more on the
  // same button, so one stray click or Enter does not unpair a node).
  nodeActions(n, nameCell) {
    const td = document.createElement("td");
    td.className = "row-actions";
    const label = n.displayName || short(n.nodeId);
    const rename = button("Rename", () => {
      const input = document.createElement("input");
      input.type = "text";
      input.value = n.displayName ?? "";
      input.maxLength = 200;
      input.setAttribute("aria-label", `New name for node ${label}`);
      const save = async () => {
        try {
          const r = await this.gw.call("node.rename", { nodeId: n.nodeId, displayName: input.value });
          $("nodes-result").textContent = `node ${short(n.nodeId)} renamed to ${r.displayName}`;
        } catch (err) {
          $("nodes-result").textContent = `node.rename failed: ${err.message}`;
        }
        this.load();
      };
      input.onkeydown = (ev) => {
        if (ev.key === "Enter") save();
        if (ev.key === "Escape") this.renderNodes();
      };
      nameCell.replaceChildren(input, button("Save", save, "primary"), button("Cancel", () => this.renderNodes()));
      input.focus();
    });
    rename.setAttribute("aria-label", `Rename node ${label}`);
    const remove = button("Remove", async () => {
      if (remove.dataset.armed !== "1") {
        remove.dataset.armed = "1";
        remove.textContent = "Confirm remove";
        return;
      }
      remove.disabled = true;
      try {
        await this.gw.call("node.pair.remove", { nodeId: n.nodeId });
        $("nodes-result").textContent = `node ${label} removed: it must pair again to connect`;
      } catch (err) {
        $("nodes-result").textContent = `node.pair.remove failed: ${err.message}`;
      }
      this.load();
    }, "danger");
    remove.setAttribute("aria-label", `Remove node ${label}`);
    td.append(rename, remove);
    return td;
  }

  agentIds() {
    const entries = this.config?.config?.agents?.entries ?? {};
    return [...new Set(["main", ...Object.keys(entries), ...this.extraAgents])];
  }

  nodeLabel(nodeId) {
    const n = this.nodes.find((x) => x.nodeId === nodeId);
    return n ? `${n.displayName ?? short(nodeId)} (${short(nodeId)})` : `${short(nodeId)} (not connected)`;
  }

  nodeSelect(id, label, current, emptyText) {
    const wrap = document.createElement("div");
    wrap.className = "row";
    const l = document.createElement("label");
    l.htmlFor = id;
    l.textContent = label;
    const select = document.createElement("select");
    select.id = id;
    const options = [["", emptyText], ...this.nodes.filter((n) => (n.commands ?? []).includes("system.run")).map((n) => [n.nodeId, this.nodeLabel(n.nodeId)])];
    if (current && !options.some(([v]) => v === current)) options.push([current, this.nodeLabel(current)]);
    for (const [value, text] of options) {
      const o = document.createElement("option");
      o.value = value;
      o.textContent = text;
      select.append(o);
    }
    select.value = current ?? "";
    select.dataset.initial = current ?? "";
    wrap.append(l, select);
    return wrap;
  }

  renderBinding() {
    const cfg = this.config?.config ?? {};
    const fallback = cfg.tools?.exec?.node ?? "";
    const rows = [this.nodeSelect("binding-default", "Default binding", fallback, "Any node")];
    for (const agent of this.agentIds()) {
      const own = cfg.agents?.entries?.[agent]?.tools?.exec?.node ?? "";
      const row = this.nodeSelect(`binding-agent-${agent}`, `Agent ${agent}`, own, `uses default (${fallback ? this.nodeLabel(fallback) : "any node"})`);
      row.querySelector("select").dataset.agent = agent;
      rows.push(row);
    }
    // Choices not saved yet survive a re-render (adding an agent row, a node coming or going).
    const unsaved = new Map();
    for (const old of $("binding-rows").querySelectorAll("select")) {
      if (old.value !== old.dataset.initial) unsaved.set(old.id, old.value);
    }
    for (const row of rows) {
      const select = row.querySelector("select");
      if (unsaved.has(select.id) && [...select.options].some((o) => o.value === unsaved.get(select.id))) select.value = unsaved.get(select.id);
    }
    $("binding-rows").replaceChildren(...rows);
  }

  async saveBinding() {
    const out = $("binding-result");
    const patch = {};
    const def = $("binding-default");
    if (def.value !== def.dataset.initial) patch.tools = { exec: { node: def.value || null } };
    for (const select of $("binding-rows").querySelectorAll("select[data-agent]")) {
      if (select.value === select.dataset.initial) continue;
      patch.agents ??= { entries: {} };
      patch.agents.entries[select.dataset.agent] = { tools: { exec: { node: select.value || null } } };
    }
    if (!Object.keys(patch).length) {
      out.textContent = "Nothing changed.";
      return;
    }
    try {
      const params = { raw: JSON.stringify(patch) };
      if (this.config?.exists) params.baseHash = this.config.hash;
      await this.gw.call("config.patch", params);
      this.extraAgents = [];
      $("binding-rows").replaceChildren();  // what is saved is the new starting point
      await this.load();
      out.textContent = "Saved.";
    } catch (err) {
      out.textContent = `Saving failed: ${err.message}`;
    }
  }
}
