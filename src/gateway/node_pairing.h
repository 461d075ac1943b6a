#pragma once
// The second pairing layer of OpenClaw's node protocol: which commands of a paired node device
// an operator approved (the node's "command surface"). A node that declares commands nobody
// approved yet gets a pending request (no expiry, as OpenClaw's) and, until an operator approves
// it with `node.pair.approve`, only the commands approved before count; a new node has none.
//
// Approving a surface that holds a system command (`system.run`, `system.which`, ...) needs
// operator.pairing and operator.admin; other commands need pairing and write; an empty surface
// pairing alone (OpenClaw's node-pairing-authz rule). Approved surfaces persist in
// `<state>/gateway/nodes.json` (0600, replaced atomically); pending requests live in memory: a
// node still waiting asks again when it reconnects.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "json/json.h"

namespace clawexec::gateway {

/// What a node's connect says about itself.
struct NodeSurface {
  std::string node_id;  // its device id
  std::string client_id;
  std::string client_mode;
  std::string display_name;
  std::string platform;
  std::string version;
  std::string device_family;
  std::vector<std::string> caps;
  std::vector<std::string> commands;
};

struct PendingNode {
  std::string request_id;
  NodeSurface surface;
  std::vector<std::string> required_scopes;
  int64_t ts = 0;
};

struct ApprovedNode {
  NodeSurface surface;  // commands = the approved ones
  int64_t approved_at_ms = 0;
};

/// A command only admins may approve on a node's surface, or invoke on a node: `system.*`,
/// the browser proxy and file listing.
bool node_command_needs_admin(const std::string& command);

/// The scopes an approver needs for a surface of `commands`.
std::vector<std::string> node_approve_scopes(const std::vector<std::string>& commands);

class NodePairing {
 public:
  /// Loads `path` (absent = nothing approved). A malformed file or one readable by group or
  /// others is an error naming it.
  static Result<std::unique_ptr<NodePairing>> open(std::string path);

  struct Checked {
    std::vector<std::string> allowed;     // declared commands that are approved
    std::optional<PendingNode> request;   // set when part of the surface awaits approval
    bool created = false;                 // the request is new (announce it)
  };
  /// A node connected declaring `surface`. With `auto_approve` (a local peer under
  /// gateway.nodes.pairing.autoApproveLocal) a surface nobody approved before is approved at
  /// once; a surface that grows is never approved silently.
  Result<Checked> check(const NodeSurface& surface, bool auto_approve, int64_t now_ms);

  std::vector<const PendingNode*> pending() const;
  const ApprovedNode* approved(const std::string& node_id) const;
  std::vector<const ApprovedNode*> approved_nodes() const;

  /// Approves a pending request when `caller_scopes` cover its required scopes. Errors name
  /// the request: "unknown requestId", "missing scope: operator.admin".
  Result<ApprovedNode> approve(const std::string& request_id, const std::vector<std::string>& caller_scopes, int64_t now_ms);
  /// Drops a pending request; returns its node id.
  Result<std::string> reject(const std::string& request_id);
  /// Forgets a node's approved surface and pending requests (its device was removed). Error:
  /// "unknown nodeId" when there was neither.
  Result<void> remove(const std::string& node_id);
  /// Gives an approved node the name operators, bindings and `node` arguments know it by (the
  /// node's own later connects keep it). Errors: "unknown nodeId", "displayName required", and
  /// a name that would select another node: its name ("... is already used by node <id>"), its
  /// id or an id prefix ("... would select node <id> (its id)"), or an address.
  Result<ApprovedNode> rename(const std::string& node_id, const std::string& display_name);

  /// OpenClaw's `node.pair.list` shapes.
  static json::Object pending_json(const PendingNode& p);
  static json::Object approved_json(const ApprovedNode& n);

 private:
  explicit NodePairing(std::string path) : path_(std::move(path)) {}
  /// Why `name` for `node_id` could make a `node` argument or binding select another node (the
  /// same name once normalised, another node's id or an id prefix of 6+ characters, an
  /// address), or nullopt.
  std::optional<std::string> name_conflict(const std::string& name, const std::string& node_id) const;
  /// `surface` with its self-chosen name dropped when that name conflicts.
  NodeSurface named(NodeSurface surface) const;
  Result<void> save() const;

  std::string path_;
  std::map<std::string, ApprovedNode> approved_;  // by node id
  std::map<std::string, PendingNode> pending_;    // by request id
};

}  // namespace clawexec::gateway
