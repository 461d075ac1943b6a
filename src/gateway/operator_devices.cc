// The device half of the operator protocol: the device proof and device token at connect, the
// pairing requests they raise (with OpenClaw's loopback auto-approval), and the `device.pair.*`
// / `device.token.*` methods with the reference's authorization rules:
//  * operator.admin may manage any device;
//  * a caller authenticated by its own device token (and not admin) sees and manages only its
//    own device, and never a node role;
//  * approving a device that asks for a non-operator role (a node) needs operator.admin;
//  * an operator token's scopes must be held by whoever approves or rotates it.
// Removing a device, or rotating or revoking its token, disconnects its live connections.

#include <algorithm>

#include "base/strings.h"
#include "base/time.h"
#include "gateway/auth.h"
#include "gateway/device_auth.h"
#include "gateway/operator_internal.h"

namespace clawexec::gateway {
namespace {

struct PairingReasonText {
  std::string_view reason;
  std::string_view requirement;
  std::string_view hint;
};

constexpr PairingReasonText kPairingReasons[] = {
    {"not-paired", "device is not approved yet", "Approve this device from the pending pairing requests."},
    {"role-upgrade", "device is asking for a higher role than currently approved",
     "Review the requested role upgrade, then approve the pending request."},
    {"scope-upgrade", "device is asking for more scopes than currently approved",
     "Review the requested scopes, then approve the pending upgrade."},
};

const PairingReasonText& reason_text(std::string_view reason) {
  for (const PairingReasonText& r : kPairingReasons) {
    if (r.reason == reason) return r;
  }
  return kPairingReasons[0];
}

bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

json::Object resolved_payload(const std::string& request_id, const std::string& device_id, std::string_view decision) {
  return json::Object{{"requestId", request_id}, {"deviceId", device_id}, {"decision", decision}, {"ts", epoch_ms()}};
}

}  // namespace

bool OperatorHub::admit_device(const std::shared_ptr<Connection>& c, const std::string& id, const json::Object& params,
                               const json::Object& client, bool shared_secret_ok) {
  auto refuse = [&](std::string_view code, const std::string& message, const std::string& close_reason, json::Object details) {
    c->send(res_error(id, code, message, std::move(details)));
    c->socket->close(1008, close_reason);
    return false;
  };
  const json::Object* device = obj(params, "device");
  if (!device) {
    return refuse("INVALID_REQUEST", "invalid connect params: device must be an object", "invalid-handshake", json::Object{});
  }
  const json::Object* auth = obj(params, "auth");
  DeviceProof proof{str(*device, "id"), str(*device, "publicKey"), str(*device, "signature"), int_member(*device, "signedAt"),
                    str(*device, "nonce")};
  std::string signature_token = auth ? str(*auth, "token") : std::string();
  if (signature_token.empty() && auth) signature_token = str(*auth, "deviceToken");
  if (signature_token.empty() && auth) signature_token = str(*auth, "bootstrapToken");
  DeviceClaims claims{c->client_id, c->client_mode, c->role, c->scopes, signature_token, str(client, "platform"),
                      str(client, "deviceFamily")};
  DeviceCheck check = verify_device_proof(proof, claims, c->nonce, epoch_ms());
  if (!check.ok) {
    return refuse("INVALID_REQUEST", check.message, check.message, json::Object{{"code", check.code}, {"reason", check.reason}});
  }
  DevicePairing& store = *options_.devices;
  const int64_t now = epoch_ms();
  if (!shared_secret_ok) {
    const DeviceToken* live = store.live_token(proof.id, c->role);
    std::string given = auth ? str(*auth, "deviceToken") : std::string();
    if (!live || !secret_equals(given, live->token)) {
      if (options_.limiter) options_.limiter->record_failure(c->peer_address, c->loopback, steady_ms());
      return refuse("INVALID_REQUEST", "unauthorized: device token mismatch", "unauthorized: device token mismatch",
                    json::Object{{"code", "AUTH_DEVICE_TOKEN_MISMATCH"}});
    }
    c->device_token_auth = true;
  }
  c->device_id = proof.id;

  const PairedDevice* paired = store.paired(proof.id);
  std::string reason;
  if (!paired) {
    reason = "not-paired";
  } else if (!has(paired->roles, c->role)) {
    reason = "role-upgrade";
  } else if (c->role == "operator" && missing_scope("operator", c->scopes, paired->scopes)) {
    reason = "scope-upgrade";
  }
  if (!reason.empty()) {
    // OpenClaw's silent local pairing: a loopback peer that is not a browser, unless turned off;
    // a scope upgrade only with the shared secret; a paired device asking for a new non-operator
    // role always goes to a human.
    bool silent = c->loopback && !c->has_origin && options_.auto_approve_local && !(paired && c->role != "operator") &&
                  (reason != "scope-upgrade" || shared_secret_ok);
    DeviceInfo info{proof.id, check.public_key_b64url, str(client, "displayName"), str(client, "platform"),
                    str(client, "deviceFamily"), c->client_id, c->client_mode, c->loopback ? "" : c->peer_address};
    DevicePairing::Requested requested = store.request(info, c->role, c->scopes, silent, now);
    for (const PendingDevice& old : requested.superseded) {
      broadcast("device.pair.resolved", resolved_payload(old.request_id, old.info.device_id, "rejected"), "operator.pairing");
    }
    if (requested.created) broadcast("device.pair.requested", DevicePairing::pending_json(requested.request), "operator.pairing");
    if (silent) {
      Result<PairedDevice> approved = store.approve(requested.request.request_id, "silent", std::nullopt, now);
      if (!approved.ok()) {
        return refuse("UNAVAILABLE", "device pairing failed: " + approved.error().message, "device pairing failed", json::Object{});
      }
      broadcast("device.pair.resolved", resolved_payload(requested.request.request_id, proof.id, "approved"), "operator.pairing");
    } else {
      const PairingReasonText& text = reason_text(reason);
      std::string message = "pairing required: " + std::string(text.requirement);
      return refuse("NOT_PAIRED", message, message + " (requestId: " + requested.request.request_id + ")",
                    json::Object{{"code", "PAIRING_REQUIRED"},
                                 {"reason", reason},
                                 {"requestId", requested.request.request_id},
                                 {"remediationHint", text.hint},
                                 {"deviceId", proof.id},
                                 {"requestedRole", c->role}});
    }
  }
  Result<const DeviceToken*> token = store.ensure_token(proof.id, c->role, now);
  if (!token.ok()) return refuse("UNAVAILABLE", "device token: " + token.error().message, "device token unavailable", json::Object{});
  c->issued_device_token = (*token)->token;
  c->issued_at_ms = (*token)->rotated_at_ms.value_or((*token)->created_at_ms);
  return true;
}

void OperatorHub::close_device(const std::string& device_id, std::optional<std::string> role, const std::string& why) {
  std::vector<std::shared_ptr<Connection>> doomed;
  for (auto& [cid, c] : connections_) {
    if (c->device_id == device_id && (!role || c->role == *role)) doomed.push_back(c);
  }
  for (auto& c : doomed) c->socket->close(1008, why);
}

void OperatorHub::device_method(const std::shared_ptr<Connection>& c, const std::string& id, const std::string& method,
                                const json::Object& params) {
  DevicePairing& store = *options_.devices;
  const int64_t now = epoch_ms();
  const bool admin = c->admin();
  // A caller that authenticated with its own device token and is not admin acts for that device.
  const std::string own = c->device_token_auth && !admin ? c->device_id : std::string();
  auto invalid = [&](const std::string& message) { c->send(res_error(id, "INVALID_REQUEST", message)); };
  auto required = [&](std::string_view key) -> std::optional<std::string> {
    std::string v(trim_ascii(str(params, key)));
    if (v.empty()) {
      invalid("invalid " + method + " params: " + std::string(key) + " (non-empty string) is required");
      return std::nullopt;
    }
    return v;
  };

  if (method == "device.pair.list") {
    json::Array pending, paired;
    for (const PendingDevice* p : store.pending(now)) {
      if (own.empty() || p->info.device_id == own) pending.emplace_back(DevicePairing::pending_json(*p));
    }
    for (const PairedDevice* d : store.paired_devices()) {
      if (!own.empty() && d->info.device_id != own) continue;
      json::Object o = DevicePairing::paired_json(*d);
      bool connected = std::any_of(connections_.begin(), connections_.end(),
                                   [&](const auto& kv) { return kv.second->authenticated && kv.second->device_id == d->info.device_id; });
      o["connected"] = connected;
      paired.emplace_back(std::move(o));
    }
    return c->send(res_ok(id, json::Object{{"pending", std::move(pending)}, {"paired", std::move(paired)}}));
  }
  if (method == "device.pair.approve" || method == "device.pair.reject") {
    std::optional<std::string> request_id = required("requestId");
    if (!request_id) return;
    const bool approve = method == "device.pair.approve";
    const std::string denied = approve ? "device pairing approval denied" : "device pairing rejection denied";
    const PendingDevice* pending = store.pending_request(*request_id, now);
    if (!admin && approve && !pending) return invalid(denied);
    if (!own.empty() && (!pending || pending->info.device_id != own)) return invalid(denied);
    if (!admin && approve && pending &&
        std::any_of(pending->roles.begin(), pending->roles.end(), [](const std::string& r) { return r != "operator"; })) {
      return invalid(denied);
    }
    if (!approve) {
      Result<std::string> device_id = store.reject(*request_id, now);
      if (!device_id.ok()) return invalid(device_id.error().message);
      broadcast("device.pair.resolved", resolved_payload(*request_id, *device_id, "rejected"), "operator.pairing");
      return c->send(res_ok(id, json::Object{{"requestId", *request_id}, {"deviceId", *device_id}}));
    }
    Result<PairedDevice> device = store.approve(*request_id, "owner", c->scopes, now);
    if (!device.ok()) return invalid(device.error().message);
    broadcast("device.pair.resolved", resolved_payload(*request_id, device->info.device_id, "approved"), "operator.pairing");
    return c->send(res_ok(id, json::Object{{"requestId", *request_id}, {"device", DevicePairing::paired_json(*device)}}));
  }

  std::optional<std::string> device_id = required("deviceId");
  if (!device_id) return;
  const PairedDevice* target = store.paired(*device_id);
  const bool cross_device = !own.empty() && own != *device_id;
  const bool node_target = target && std::any_of(target->roles.begin(), target->roles.end(), [](const std::string& r) { return r != "operator"; });
  if (method == "device.pair.remove" || method == "device.pair.rename") {
    const std::string denied = method == "device.pair.remove" ? "device pairing removal denied" : "device pairing rename denied";
    std::string label;
    if (method == "device.pair.rename") {
      label = std::string(trim_ascii(str(params, "label")));
      if (label.empty()) return invalid("label required");
    }
    if (cross_device || (!own.empty() && node_target)) return invalid(denied);
    if (method == "device.pair.rename") {
      if (Result<void> r = store.rename(*device_id, label); !r.ok()) return invalid(r.error().message);
      broadcast("device.pair.changed", json::Object{}, "operator.pairing");
      return c->send(res_ok(id, json::Object{{"deviceId", *device_id}, {"label", label}}));
    }
    if (Result<void> r = store.remove(*device_id); !r.ok()) return invalid(r.error().message);
    // A removed node device's approved command surface goes with it: paired again, it is
    // approved again, not silently given what its former pairing had.
    if (Result<void> r = options_.nodes->remove(*device_id); r.ok()) {
      broadcast("node.pair.resolved",
                json::Object{{"requestId", ""}, {"nodeId", *device_id}, {"decision", "removed"}, {"ts", now}}, "operator.pairing");
    }
    c->send(res_ok(id, json::Object{{"deviceId", *device_id}}));
    broadcast("device.pair.changed", json::Object{}, "operator.pairing");
    return close_device(*device_id, std::nullopt, "device pairing removed");
  }

  // device.token.rotate / device.token.revoke
  std::optional<std::string> role = required("role");
  if (!role) return;
  const bool rotate = method == "device.token.rotate";
  const std::string denied = rotate ? "device token rotation denied" : "device token revocation denied";
  if (cross_device || (!admin && *role != "operator")) return invalid(denied);
  std::optional<std::vector<std::string>> caller;
  if (*role == "operator") caller = c->scopes;
  if (rotate) {
    std::string list_error;
    std::optional<std::vector<std::string>> scopes = frames::string_list(params, "scopes", &list_error);
    if (!list_error.empty()) return invalid("invalid device.token.rotate params: " + list_error);
    Result<DeviceToken> t = store.rotate(*device_id, *role, scopes, caller, now);
    if (!t.ok()) return invalid(t.error().message);
    const bool in_band = c->device_id == *device_id && c->device_token_auth;
    json::Object out{{"deviceId", *device_id}, {"role", t->role}};
    if (in_band) out["token"] = t->token;
    out["scopes"] = frames::to_array(t->scopes);
    out["rotatedAtMs"] = t->rotated_at_ms.value_or(t->created_at_ms);
    out["tokenDelivery"] = in_band ? "in-band" : "withheld-cross-device";
    c->send(res_ok(id, std::move(out)));
    return close_device(*device_id, *role, "device token rotated");
  }
  Result<DeviceToken> t = store.revoke(*device_id, *role, caller, now);
  if (!t.ok()) return invalid(t.error().message);
  c->send(res_ok(id, json::Object{{"deviceId", *device_id}, {"role", t->role}, {"revokedAtMs", t->revoked_at_ms.value_or(now)}}));
  close_device(*device_id, *role, "device token revoked");
}

}  // namespace clawexec::gateway
