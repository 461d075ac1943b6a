// Node selection for exec host=node, as OpenClaw's: see node_selection.h.

#include "exec/node_selection.h"

#include <algorithm>

#include "base/strings.h"

namespace clawexec::exec {
namespace {

}  // namespace

// normalizeNodeKey: lowercase, every run of characters other than letters and digits becomes
// one "-", no leading or trailing "-". Bytes of multi-byte UTF-8 characters count as letters.
std::string node_name_key(const std::string& value) {
  std::string out;
  bool dash = false;
  for (char c : ascii_lower(value)) {
    bool word = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || static_cast<unsigned char>(c) >= 0x80;
    if (!word) {
      dash = true;
      continue;
    }
    if (dash && !out.empty()) out += '-';
    dash = false;
    out += c;
  }
  return out;
}

namespace {

std::string label_of(const NodeSummary& n) {
  return !n.display_name.empty() ? n.display_name : !n.remote_ip.empty() ? n.remote_ip : n.node_id;
}

std::string join_ids(const std::vector<const NodeSummary*>& nodes) {
  if (nodes.empty()) return "none";
  std::vector<std::string> ids;
  for (const NodeSummary* n : nodes) ids.push_back(n->node_id);
  std::sort(ids.begin(), ids.end());
  return join(ids, ", ");
}

// resolveNodeIdFromCandidates.
Result<std::string> resolve_id(const std::vector<const NodeSummary*>& nodes, const std::string& query) {
  std::string q(trim_ascii(query));
  if (q.empty()) return Error::invalid("node required");
  std::vector<const NodeSummary*> best;
  for (const NodeSummary* n : nodes) {
    if (n->node_id == q) best.push_back(n);
  }
  if (best.empty()) {
    for (const NodeSummary* n : nodes) {
      if (!n->remote_ip.empty() && n->remote_ip == q) best.push_back(n);
    }
  }
  if (best.empty()) {
    std::string normalized = node_name_key(q);
    int top = 0;
    for (const NodeSummary* n : nodes) {
      std::string name = n->display_name.empty() ? std::string() : node_name_key(n->display_name);
      int score = !name.empty() && name == normalized ? 2000 : (q.size() >= 6 && n->node_id.rfind(q, 0) == 0) ? 1000 : 0;
      if (score > top) {
        top = score;
        best.clear();
      }
      if (score > 0 && score == top) best.push_back(n);
    }
  }
  if (best.empty()) {
    std::vector<std::string> known;
    for (const NodeSummary* n : nodes) known.push_back(label_of(*n));
    std::string list = join(known, ", ");
    return Error::invalid("unknown node: " + q + (list.empty() ? std::string() : " (known: " + list + ")"));
  }
  std::vector<const NodeSummary*> connected;
  for (const NodeSummary* n : best) {
    if (n->connected) connected.push_back(n);
  }
  const std::vector<const NodeSummary*>& matches = connected.empty() ? best : connected;
  if (matches.size() == 1) return matches[0]->node_id;
  std::vector<std::string> labels;
  for (const NodeSummary* n : matches) {
    labels.push_back(label_of(*n) + " [node=" + n->node_id + (n->client_id.empty() ? "" : ", client=" + n->client_id) + "]");
  }
  return Error::invalid("ambiguous node: " + q + " (matches: " + join(labels, ", ") + ")");
}

bool eligible(const NodeSummary& n) {
  return n.connected && std::find(n.commands.begin(), n.commands.end(), "system.run") != n.commands.end();
}

}  // namespace

Result<NodeSummary> select_node(const std::vector<NodeSummary>& nodes, const std::optional<std::string>& requested,
                                const std::optional<std::string>& bound) {
  if (nodes.empty()) {
    return Error::rejected("exec host=node requires a paired node (none available). This requires a companion app or node host.");
  }
  std::vector<const NodeSummary*> all;
  for (const NodeSummary& n : nodes) all.push_back(&n);
  std::optional<std::string> bound_id, requested_id;
  if (bound && !bound->empty()) {
    Result<std::string> id = resolve_id(all, *bound);
    if (!id.ok()) return Error::rejected(id.error().message);
    bound_id = *id;
  }
  if (requested && !requested->empty()) {
    Result<std::string> id = resolve_id(all, *requested);
    if (!id.ok()) return Error::rejected("requested node not found: " + *requested + " (" + id.error().message + ")");
    requested_id = *id;
  }
  if (bound_id && requested_id && *bound_id != *requested_id) {
    return Error::rejected("exec node not allowed (bound to " + *bound_id + ", requested resolved to " + *requested_id + ")");
  }
  std::vector<const NodeSummary*> ok;
  for (const NodeSummary* n : all) {
    if (eligible(*n)) ok.push_back(n);
  }
  std::optional<std::string> query = bound_id ? bound_id : requested_id;
  if (query) {
    std::string q(trim_ascii(*query));
    const NodeSummary* exact = nullptr;
    for (const NodeSummary* n : all) {
      if (n->node_id == q) exact = n;
    }
    if (!exact) {
      for (const NodeSummary* n : all) {
        if (iequals(n->node_id, q)) exact = n;
      }
    }
    if (exact) {
      if (!eligible(*exact)) {
        return Error::rejected("exec host=node requires a connected node that supports system.run (" + q +
                               " is not eligible; eligible node ids: " + join_ids(ok) + ").");
      }
      return *exact;
    }
    Result<std::string> id = resolve_id(ok, q);
    if (!id.ok()) return Error::rejected(id.error().message + " (eligible connected system.run node ids: " + join_ids(ok) + ")");
    for (const NodeSummary* n : ok) {
      if (n->node_id == *id) return *n;
    }
    return Error::rejected("node not found: " + q);
  }
  if (ok.size() == 1) return *ok[0];
  if (ok.empty()) {
    return Error::rejected(
        "exec host=node requires a connected node that supports system.run (none available). Start or reconnect the companion "
        "app or node host.");
  }
  std::vector<std::string> labels;
  for (const NodeSummary* n : ok) labels.push_back(n->display_name.empty() ? n->node_id : n->node_id + " (" + n->display_name + ")");
  return Error::rejected("exec host=node requires a node when multiple executable nodes are connected: " + join(labels, ", ") +
                         ". Set exec.node, tools.exec.node, or /exec node=...");
}

std::vector<std::string> node_shell_argv(const std::string& command, const std::string& platform) {
  std::string p = lower_trimmed(platform);
  if (p.rfind("win", 0) == 0) return {"cmd.exe", "/d", "/s", "/c", command};
  if (p == "darwin" || p.rfind("macos", 0) == 0) return {"/bin/sh", "-c", command};
  return {"/bin/sh", "-lc", command};
}

}  // namespace clawexec::exec
