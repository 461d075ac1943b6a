#pragma once
// Device pairing for the gateway: which Ed25519 device identities are approved, for which roles
// and scopes, and the device tokens issued to them; plus the pending requests an operator
// approves or rejects (`device.pair.*`, `device.token.*` of OpenClaw's protocol).
//
// Paired devices and their tokens persist in `<state>/gateway/devices.json` (0600 in a 0700
// directory, replaced atomically, so a crash never leaves half a file); a token is a secret the
// gateway must present again in hello-ok, so it is kept, not hashed. Pending requests live in
// memory and expire after five minutes, as OpenClaw's: a device that is still waiting simply
// asks again on its next connect.
//
// The rules are the reference's: a request from a device that already has one pending is
// refreshed when the old one covers it, otherwise the two are merged into a new request that
// supersedes the old; approving grants the union of roles and scopes; an operator token's
// scopes must be held by the approver (operator.admin holds all); a node device may only be
// approved by operator.admin (checked by the caller, which knows who is asking).

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "json/json.h"

namespace clawexec::gateway {

inline constexpr int64_t kDevicePairingTtlMs = 5 * 60 * 1000;

/// What a connect says about its device.
struct DeviceInfo {
  std::string device_id;
  std::string public_key;  // canonical base64url of the raw key
  std::string display_name;
  std::string platform;
  std::string device_family;
  std::string client_id;
  std::string client_mode;
  std::string remote_ip;  // "" for loopback
};

struct DeviceToken {
  std::string token;
  std::string role;
  std::vector<std::string> scopes;
  int64_t created_at_ms = 0;
  std::optional<int64_t> rotated_at_ms;
  std::optional<int64_t> revoked_at_ms;
  std::optional<int64_t> last_used_at_ms;
};

struct PendingDevice {
  std::string request_id;
  DeviceInfo info;
  std::string role;
  std::vector<std::string> roles;
  std::vector<std::string> scopes;
  bool silent = false;
  bool is_repair = false;
  int64_t ts = 0;
};

struct PairedDevice {
  DeviceInfo info;
  std::string role;
  std::vector<std::string> roles;
  std::vector<std::string> scopes;  // the approved scopes
  std::string approved_via;         // owner | silent
  std::string label;                // operator-given name ("" = none)
  int64_t created_at_ms = 0;
  int64_t approved_at_ms = 0;
  std::map<std::string, DeviceToken> tokens;  // by role
};

class DevicePairing {
 public:
  /// Loads `path` (absent = nothing paired). A malformed file or one readable by group/others is
  /// an error naming it.
  static Result<std::unique_ptr<DevicePairing>> open(std::string path);

  const PairedDevice* paired(const std::string& device_id) const;
  std::vector<const PairedDevice*> paired_devices() const;
  /// Pending requests still within their five minutes, oldest first.
  std::vector<const PendingDevice*> pending(int64_t now_ms);
  const PendingDevice* pending_request(const std::string& request_id, int64_t now_ms);

  struct Requested {
    PendingDevice request;
    bool created = false;                  // false: an existing request was refreshed
    std::vector<PendingDevice> superseded;  // requests this one replaced
  };
  /// A connect from a device that needs approval for `role` with `scopes`.
  Requested request(const DeviceInfo& info, const std::string& role, const std::vector<std::string>& scopes, bool silent,
                    int64_t now_ms);

  /// Approves a pending request. `caller_scopes` are the approver's scopes (nullopt: the gateway
  /// itself, for silent local approval). Errors: "unknown requestId", "missing scope: <s>",
  /// "invalid scope for requested roles: <s>", or a persistence failure.
  Result<PairedDevice> approve(const std::string& request_id, const std::string& approved_via,
                               const std::optional<std::vector<std::string>>& caller_scopes, int64_t now_ms);
  /// Drops a pending request; returns its device id. Error: "unknown requestId".
  Result<std::string> reject(const std::string& request_id, int64_t now_ms);
  /// Forgets a paired device (and its pending requests). Error: "unknown deviceId".
  Result<void> remove(const std::string& device_id);
  Result<void> rename(const std::string& device_id, const std::string& label);
  /// A new token for the device's role (scopes default to the current ones and must stay within
  /// the approved scopes and, when given, the caller's). Error: "device token rotation denied".
  Result<DeviceToken> rotate(const std::string& device_id, const std::string& role,
                             const std::optional<std::vector<std::string>>& scopes,
                             const std::optional<std::vector<std::string>>& caller_scopes, int64_t now_ms);
  /// Marks the role's token revoked. Error: "device token revocation denied".
  Result<DeviceToken> revoke(const std::string& device_id, const std::string& role,
                             const std::optional<std::vector<std::string>>& caller_scopes, int64_t now_ms);

  /// The live (not revoked) token of the device for `role`, if any.
  const DeviceToken* live_token(const std::string& device_id, const std::string& role) const;
  /// Makes sure the device has a live token for `role` (issued at approval; re-issued here only
  /// if it was revoked and the device is still approved for the role).
  Result<const DeviceToken*> ensure_token(const std::string& device_id, const std::string& role, int64_t now_ms);

  /// OpenClaw's wire shapes: a pending request, and a paired device with its token summaries
  /// (never the token strings).
  static json::Object pending_json(const PendingDevice& p);
  static json::Object paired_json(const PairedDevice& d);

 private:
  explicit DevicePairing(std::string path) : path_(std::move(path)) {}
  Result<void> save() const;
  void prune(int64_t now_ms);

  std::string path_;
  std::map<std::string, PairedDevice> paired_;
  std::map<std::string, PendingDevice> pending_;  // by request id
};

}  // namespace clawexec::gateway
