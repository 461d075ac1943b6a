// Renaming and removing paired nodes (OpenClaw's `node.rename` and `node.pair.remove`, both
// operator.pairing), for the CLI and the control UI's Nodes page.
//
// A rename gives the node the name bindings and `node` arguments select it by; a name that
// would select another node is refused, so a rename cannot redirect another node's traffic.
// Removing a node forgets its approved command surface and its device's node pairing (the
// whole device when node is its only role, else only its node token), closes its connections,
// and announces `node.pair.resolved {decision:"removed"}`: reconnecting needs pairing again.
// A caller that authenticated with its own device token (and is not admin) manages only its
// own device, as for device.pair.*.

#include <algorithm>

#include "base/strings.h"
#include "base/time.h"
#include "gateway/operator_internal.h"
#include "term/display_escape.h"

namespace clawexec::gateway {

void OperatorHub::node_admin_method(const std::shared_ptr<Connection>& c, const std::string& id, const std::string& method,
                                    const json::Object& params) {
  auto invalid = [&](const std::string& message) { c->send(res_error(id, "INVALID_REQUEST", message)); };
  const std::string node_id(trim_ascii(str(params, "nodeId")));
  if (node_id.empty()) return invalid("invalid " + method + " params: nodeId (non-empty string) is required");
  const bool admin = c->admin();
  const bool cross_device = c->device_token_auth && !admin && c->device_id != node_id;
  DevicePairing& devices = *options_.devices;
  const PairedDevice* device = devices.paired(node_id);

  if (method == "node.rename") {
    if (cross_device) return invalid("node rename denied");
    const json::Value* name = json::find(params, "displayName");
    if (!name || !name->is_string()) return invalid("invalid node.rename params: displayName (string) is required");
    Result<ApprovedNode> renamed = options_.nodes->rename(node_id, std::string(name->get_string()));
    if (!renamed.ok()) return invalid(renamed.error().message);
    broadcast("node.pair.resolved",
              json::Object{{"requestId", ""}, {"nodeId", node_id}, {"decision", "renamed"}, {"ts", epoch_ms()}}, "operator.pairing");
    return c->send(res_ok(id, json::Object{{"nodeId", node_id}, {"displayName", term::escape_for_display(renamed->surface.display_name)}}));
  }

  // node.pair.remove
  const bool node_device = device && std::find(device->roles.begin(), device->roles.end(), "node") != device->roles.end();
  if (!node_device && !options_.nodes->approved(node_id)) return invalid("unknown nodeId");
  if (cross_device) return invalid("node pairing removal denied");
  if (Result<void> r = options_.nodes->remove(node_id); !r.ok() && r.error().code != ErrorCode::kNotFound) {
    return invalid(r.error().message);
  }
  if (node_device) {
    const bool only_node = std::all_of(device->roles.begin(), device->roles.end(), [](const std::string& r) { return r == "node"; });
    if (only_node) {
      if (Result<void> r = devices.remove(node_id); !r.ok()) return invalid(r.error().message);
    } else if (devices.live_token(node_id, "node")) {
      if (Result<DeviceToken> r = devices.revoke(node_id, "node", std::nullopt, epoch_ms()); !r.ok()) return invalid(r.error().message);
    }
    broadcast("device.pair.changed", json::Object{}, "operator.pairing");
  }
  broadcast("node.pair.resolved", json::Object{{"requestId", ""}, {"nodeId", node_id}, {"decision", "removed"}, {"ts", epoch_ms()}},
            "operator.pairing");
  c->send(res_ok(id, json::Object{{"nodeId", node_id}}));
  close_device(node_id, std::string("node"), "node pairing removed");
}

}  // namespace clawexec::gateway
