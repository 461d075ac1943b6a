// The node command-surface store and its approval rules: see node_pairing.h.

#include "gateway/node_pairing.h"

#include <algorithm>
#include <utility>

#include "approvals/random.h"
#include "base/utf.h"
#include "exec/node_selection.h"
#include "gateway/scopes.h"
#include "sys/whole_file.h"
#include "term/display_escape.h"

namespace clawexec::gateway {
namespace {

using json::integer_member;
using json::string_array;
using json::string_member;
using json::strings_member;

bool has(const std::vector<std::string>& set, const std::string& s) { return std::find(set.begin(), set.end(), s) != set.end(); }


// `shown`: for operators' eyes (the node chose these strings: terminal escapes are escaped);
// else exact, for the file.
void put_surface(json::Object& o, const NodeSurface& s, bool shown = false) {
  auto text = [shown](const std::string& v) { return shown ? term::escape_for_display(v) : v; };
  o["nodeId"] = s.node_id;
  if (!s.client_id.empty()) o["clientId"] = text(s.client_id);
  if (!s.client_mode.empty()) o["clientMode"] = text(s.client_mode);
  if (!s.display_name.empty()) o["displayName"] = text(s.display_name);
  if (!s.platform.empty()) o["platform"] = text(s.platform);
  if (!s.version.empty()) o["version"] = text(s.version);
  if (!s.device_family.empty()) o["deviceFamily"] = text(s.device_family);
  o["caps"] = string_array(s.caps);
  o["commands"] = string_array(s.commands);
}

NodeSurface get_surface(const json::Object& o) {
  return {string_member(o, "nodeId"),   string_member(o, "clientId"), string_member(o, "clientMode"),
          string_member(o, "displayName"), string_member(o, "platform"), string_member(o, "version"),
          string_member(o, "deviceFamily"), strings_member(o, "caps"),  strings_member(o, "commands")};
}

}  // namespace

bool node_command_needs_admin(const std::string& command) {
  static const std::vector<std::string> kAdmin = {"browser.proxy", "browser.proxy.upload.v1", "fs.listDir"};
  return command.rfind("system.", 0) == 0 || has(kAdmin, command);
}

std::vector<std::string> node_approve_scopes(const std::vector<std::string>& commands) {
  if (commands.empty()) return {"operator.pairing"};
  for (const std::string& c : commands) {
    if (node_command_needs_admin(c)) return {"operator.pairing", "operator.admin"};
  }
  return {"operator.pairing", "operator.write"};
}

Result<std::unique_ptr<NodePairing>> NodePairing::open(std::string path) {
  std::unique_ptr<NodePairing> store(new NodePairing(path));
  std::optional<std::string> text = TRY(sys::read_private_file(path, "gateway node file"));
  if (!text) return store;
  std::optional<json::Value> doc = json::parse(*text);
  const json::Value* list = doc && doc->is_object() ? json::find(doc->get_object(), "nodes") : nullptr;
  if (!list || !list->is_array()) return Error::invalid("gateway node file " + path + ": not {\"version\":1,\"nodes\":[...]}");
  for (const json::Value& v : list->get_array()) {
    if (!v.is_object()) return Error::invalid("gateway node file " + path + ": a node entry is not an object");
    ApprovedNode n{get_surface(v.get_object()), integer_member(v.get_object(), "approvedAtMs").value_or(0)};
    if (n.surface.node_id.empty()) return Error::invalid("gateway node file " + path + ": a node entry lacks nodeId");
    std::string id = n.surface.node_id;
    store->approved_[id] = std::move(n);
  }
  return store;
}

Result<void> NodePairing::save() const {
  json::Array list;
  for (const auto& [id, n] : approved_) {
    json::Object o;
    put_surface(o, n.surface);
    o["approvedAtMs"] = n.approved_at_ms;
    list.emplace_back(std::move(o));
  }
  return sys::write_private_file(path_, json::stringify(json::Object{{"version", 1}, {"nodes", std::move(list)}}, 2) + "\n");
}

Result<NodePairing::Checked> NodePairing::check(const NodeSurface& surface, bool auto_approve, int64_t now_ms) {
  Checked out;
  auto known = approved_.find(surface.node_id);
  std::vector<std::string> missing;
  for (const std::string& c : surface.commands) {
    bool ok = known != approved_.end() && has(known->second.surface.commands, c);
    (ok ? out.allowed : missing).push_back(c);
  }
  if (known == approved_.end() && auto_approve) {
    approved_[surface.node_id] = ApprovedNode{named(surface), now_ms};
    TRY(save());
    out.allowed = surface.commands;
    return out;
  }
  if (missing.empty() && known != approved_.end()) {
    // Keep what the node says about itself current (version, platform), not its approval,
    // and not its name: bindings and `node` arguments pick nodes by name, so the name the
    // operator approved is the one it keeps (another paired node cannot take it over).
    NodeSurface& s = known->second.surface;
    std::vector<std::string> commands = s.commands;
    std::string name = s.display_name;
    s = surface;
    s.commands = std::move(commands);
    s.display_name = std::move(name);
    return out;
  }
  if (known == approved_.end() && surface.commands.empty()) {
    approved_[surface.node_id] = ApprovedNode{named(surface), now_ms};
    TRY(save());
    return out;
  }
  // One pending request per node: refreshed while the declared surface is the same, replaced
  // when it changed.
  for (auto it = pending_.begin(); it != pending_.end(); ++it) {
    if (it->second.surface.node_id != surface.node_id) continue;
    if (it->second.surface.commands == surface.commands && it->second.surface.caps == surface.caps) {
      it->second.surface = surface;
      out.request = it->second;
      return out;
    }
    pending_.erase(it);
    break;
  }
  PendingNode p{approvals::random_uuid(), surface, node_approve_scopes(surface.commands), now_ms};
  pending_[p.request_id] = p;
  out.request = std::move(p);
  out.created = true;
  return out;
}

std::vector<const PendingNode*> NodePairing::pending() const {
  std::vector<const PendingNode*> out;
  for (const auto& [id, p] : pending_) out.push_back(&p);
  std::sort(out.begin(), out.end(), [](const PendingNode* a, const PendingNode* b) { return a->ts < b->ts; });
  return out;
}

const ApprovedNode* NodePairing::approved(const std::string& node_id) const {
  auto it = approved_.find(node_id);
  return it == approved_.end() ? nullptr : &it->second;
}

std::vector<const ApprovedNode*> NodePairing::approved_nodes() const {
  std::vector<const ApprovedNode*> out;
  for (const auto& [id, n] : approved_) out.push_back(&n);
  return out;
}

Result<ApprovedNode> NodePairing::approve(const std::string& request_id, const std::vector<std::string>& caller_scopes,
                                          int64_t now_ms) {
  auto it = pending_.find(request_id);
  if (it == pending_.end()) return Error{ErrorCode::kNotFound, 0, "unknown requestId"};
  if (std::optional<std::string> lacking = missing_scope("operator", it->second.required_scopes, caller_scopes)) {
    return Error{ErrorCode::kPermissionDenied, 0, "missing scope: " + *lacking};
  }
  ApprovedNode n{it->second.surface, now_ms};
  std::string node_id = n.surface.node_id;
  ApprovedNode previous;
  bool had = approved_.count(node_id) > 0;
  if (had) previous = approved_[node_id];
  if (had && !previous.surface.display_name.empty()) n.surface.display_name = previous.surface.display_name;  // see check()
  if (!had) n.surface = named(n.surface);
  approved_[node_id] = n;
  if (Result<void> saved = save(); !saved.ok()) {
    if (had) approved_[node_id] = std::move(previous);
    else approved_.erase(node_id);
    return saved.error();
  }
  pending_.erase(it);
  return n;
}

Result<std::string> NodePairing::reject(const std::string& request_id) {
  auto it = pending_.find(request_id);
  if (it == pending_.end()) return Error{ErrorCode::kNotFound, 0, "unknown requestId"};
  std::string node_id = it->second.surface.node_id;
  pending_.erase(it);
  return node_id;
}

NodeSurface NodePairing::named(NodeSurface surface) const {
  // A new node's own name that would select another node (its name, id or address) is not
  // kept: the node is known by its id until an operator names it.
  if (name_conflict(surface.display_name, surface.node_id)) surface.display_name.clear();
  return surface;
}

Result<void> NodePairing::remove(const std::string& node_id) {
  bool had_pending = false;
  for (auto it = pending_.begin(); it != pending_.end();) {
    if (it->second.surface.node_id != node_id) {
      ++it;
      continue;
    }
    it = pending_.erase(it);
    had_pending = true;
  }
  if (approved_.erase(node_id) == 0) return had_pending ? Result<void>{} : Result<void>(Error{ErrorCode::kNotFound, 0, "unknown nodeId"});
  return save();
}

std::optional<std::string> NodePairing::name_conflict(const std::string& name, const std::string& node_id) const {
  const std::string key = exec::node_name_key(name);
  if (key.empty()) return std::nullopt;
  // What a `node` argument or binding could mean besides a name: an address (exact match,
  // tried before names) or another node's id or id prefix (names outrank prefixes).
  const bool address_like = name.find_first_not_of("0123456789.:abcdefABCDEF[]") == std::string::npos &&
                            (name.find('.') != std::string::npos || name.find(':') != std::string::npos);
  if (address_like) return "node name " + term::escape_for_display(name) + " looks like a network address";
  for (const auto& [other_id, other] : approved_) {
    if (other_id == node_id) continue;
    if (exec::node_name_key(other.surface.display_name) == key) return "node name " + term::escape_for_display(name) + " is already used by node " + other_id;
    if (name == other_id || (name.size() >= 6 && other_id.rfind(name, 0) == 0)) {
      return "node name " + term::escape_for_display(name) + " would select node " + other_id + " (its id)";
    }
  }
  return std::nullopt;
}

Result<ApprovedNode> NodePairing::rename(const std::string& node_id, const std::string& display_name) {
  auto it = approved_.find(node_id);
  if (it == approved_.end()) return Error{ErrorCode::kNotFound, 0, "unknown nodeId"};
  std::string name(js_trim(display_name));
  if (exec::node_name_key(name).empty()) return Error::invalid("displayName required");
  if (std::optional<std::string> conflict = name_conflict(name, node_id)) return Error::invalid(*conflict);
  ApprovedNode& n = it->second;
  std::string previous = std::exchange(n.surface.display_name, name);
  if (Result<void> saved = save(); !saved.ok()) {
    n.surface.display_name = std::move(previous);
    return saved.error();
  }
  return n;
}

json::Object NodePairing::pending_json(const PendingNode& p) {
  json::Object o{{"requestId", p.request_id}};
  put_surface(o, p.surface, true);
  o["requiredApproveScopes"] = string_array(p.required_scopes);
  o["ts"] = p.ts;
  return o;
}

json::Object NodePairing::approved_json(const ApprovedNode& n) {
  json::Object o;
  put_surface(o, n.surface, true);
  o["approvedAtMs"] = n.approved_at_ms;
  return o;
}

}  // namespace clawexec::gateway
