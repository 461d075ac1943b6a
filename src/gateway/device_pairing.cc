// Device pairing store and its rules: see device_pairing.h.

#include "gateway/device_pairing.h"

#include <algorithm>

#include "approvals/random.h"
#include "gateway/scopes.h"
#include "hash/base64url.h"
#include "sys/sys.h"
#include "sys/whole_file.h"

namespace clawexec::gateway {
namespace {

std::string str(const json::Object& o, std::string_view key) {
  const json::Value* v = json::find(o, key);
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

std::optional<int64_t> num(const json::Object& o, std::string_view key) {
  const json::Value* v = json::find(o, key);
  if (v && v->is_int64()) return v->get_int64();
  if (v && v->is_uint64()) return static_cast<int64_t>(v->get_uint64());
  return std::nullopt;
}

std::vector<std::string> strings(const json::Object& o, std::string_view key) {
  std::vector<std::string> out;
  if (const json::Value* v = json::find(o, key); v && v->is_array()) {
    for (const json::Value& s : v->get_array()) {
      if (s.is_string()) out.emplace_back(s.get_string());
    }
  }
  return out;
}

json::Array to_array(const std::vector<std::string>& items) {
  json::Array out;
  for (const std::string& s : items) out.emplace_back(s);
  return out;
}

bool has(const std::vector<std::string>& set, const std::string& s) { return std::find(set.begin(), set.end(), s) != set.end(); }

// Union, keeping first-seen order.
std::vector<std::string> merged(std::vector<std::string> a, const std::vector<std::string>& b) {
  for (const std::string& s : b) {
    if (!s.empty() && !has(a, s)) a.push_back(s);
  }
  return a;
}

// The scopes a token for `role` carries: operator.* for operators, none of them for others.
std::vector<std::string> role_token_scopes(const std::string& role, const std::vector<std::string>& scopes) {
  std::vector<std::string> out;
  for (const std::string& s : scopes) {
    bool op = s.rfind("operator.", 0) == 0;
    if ((role == "operator") == op && !has(out, s)) out.push_back(s);
  }
  return out;
}

Result<std::string> new_token() {
  unsigned char bytes[32];
  TRY(sys::random_bytes(bytes, sizeof bytes));
  return hash::base64url_encode(bytes, sizeof bytes);
}

void put_info(json::Object& o, const DeviceInfo& info) {
  o["deviceId"] = info.device_id;
  o["publicKey"] = info.public_key;
  if (!info.display_name.empty()) o["displayName"] = info.display_name;
  if (!info.platform.empty()) o["platform"] = info.platform;
  if (!info.device_family.empty()) o["deviceFamily"] = info.device_family;
  if (!info.client_id.empty()) o["clientId"] = info.client_id;
  if (!info.client_mode.empty()) o["clientMode"] = info.client_mode;
  if (!info.remote_ip.empty()) o["remoteIp"] = info.remote_ip;
}

DeviceInfo get_info(const json::Object& o) {
  return {str(o, "deviceId"), str(o, "publicKey"), str(o, "displayName"), str(o, "platform"),
          str(o, "deviceFamily"), str(o, "clientId"), str(o, "clientMode"), str(o, "remoteIp")};
}

json::Object token_summary(const DeviceToken& t) {
  json::Object o{{"role", t.role}, {"scopes", to_array(t.scopes)}, {"createdAtMs", t.created_at_ms}};
  if (t.rotated_at_ms) o["rotatedAtMs"] = *t.rotated_at_ms;
  if (t.revoked_at_ms) o["revokedAtMs"] = *t.revoked_at_ms;
  if (t.last_used_at_ms) o["lastUsedAtMs"] = *t.last_used_at_ms;
  return o;
}

}  // namespace

Result<std::unique_ptr<DevicePairing>> DevicePairing::open(std::string path) {
  std::unique_ptr<DevicePairing> store(new DevicePairing(path));
  std::optional<std::string> text = TRY(sys::read_private_file(path, "gateway device file"));
  if (!text) return store;
  std::optional<json::Value> doc = json::parse(*text);
  const json::Value* list = doc && doc->is_object() ? json::find(doc->get_object(), "paired") : nullptr;
  if (!list || !list->is_array()) return Error::invalid("gateway device file " + path + ": not {\"version\":1,\"paired\":[...]}");
  for (const json::Value& v : list->get_array()) {
    if (!v.is_object()) return Error::invalid("gateway device file " + path + ": a paired entry is not an object");
    const json::Object& o = v.get_object();
    PairedDevice d;
    d.info = get_info(o);
    if (d.info.device_id.empty() || d.info.public_key.empty()) {
      return Error::invalid("gateway device file " + path + ": a paired entry lacks deviceId or publicKey");
    }
    d.role = str(o, "role");
    d.roles = strings(o, "roles");
    d.scopes = strings(o, "scopes");
    d.approved_via = str(o, "approvedVia");
    d.label = str(o, "label");
    d.created_at_ms = num(o, "createdAtMs").value_or(0);
    d.approved_at_ms = num(o, "approvedAtMs").value_or(0);
    if (const json::Value* tokens = json::find(o, "tokens"); tokens && tokens->is_object()) {
      for (const auto& kv : tokens->get_object()) {
        if (!kv.value().is_object()) continue;
        const json::Object& t = kv.value().get_object();
        DeviceToken token{str(t, "token"), str(t, "role"), strings(t, "scopes"), num(t, "createdAtMs").value_or(0),
                          num(t, "rotatedAtMs"), num(t, "revokedAtMs"), num(t, "lastUsedAtMs")};
        if (token.token.empty() || token.role != std::string(kv.key())) {
          return Error::invalid("gateway device file " + path + ": device " + d.info.device_id + " has a malformed token");
        }
        d.tokens[token.role] = std::move(token);
      }
    }
    std::string id = d.info.device_id;
    store->paired_[id] = std::move(d);
  }
  return store;
}

Result<void> DevicePairing::save() const {
  json::Array list;
  for (const auto& [id, d] : paired_) {
    json::Object o;
    put_info(o, d.info);
    o["role"] = d.role;
    o["roles"] = to_array(d.roles);
    o["scopes"] = to_array(d.scopes);
    o["approvedVia"] = d.approved_via;
    if (!d.label.empty()) o["label"] = d.label;
    o["createdAtMs"] = d.created_at_ms;
    o["approvedAtMs"] = d.approved_at_ms;
    json::Object tokens;
    for (const auto& [role, t] : d.tokens) {
      json::Object to = token_summary(t);
      to["token"] = t.token;
      tokens[role] = std::move(to);
    }
    o["tokens"] = std::move(tokens);
    list.emplace_back(std::move(o));
  }
  return sys::write_private_file(path_, json::stringify(json::Object{{"version", 1}, {"paired", std::move(list)}}, 2) + "\n");
}

void DevicePairing::prune(int64_t now_ms) {
  for (auto it = pending_.begin(); it != pending_.end();) {
    if (now_ms - it->second.ts > kDevicePairingTtlMs) {
      it = pending_.erase(it);
    } else {
      ++it;
    }
  }
}

const PairedDevice* DevicePairing::paired(const std::string& device_id) const {
  auto it = paired_.find(device_id);
  return it == paired_.end() ? nullptr : &it->second;
}

std::vector<const PairedDevice*> DevicePairing::paired_devices() const {
  std::vector<const PairedDevice*> out;
  for (const auto& [id, d] : paired_) out.push_back(&d);
  return out;
}

std::vector<const PendingDevice*> DevicePairing::pending(int64_t now_ms) {
  prune(now_ms);
  std::vector<const PendingDevice*> out;
  for (const auto& [id, p] : pending_) out.push_back(&p);
  std::sort(out.begin(), out.end(), [](const PendingDevice* a, const PendingDevice* b) { return a->ts < b->ts; });
  return out;
}

const PendingDevice* DevicePairing::pending_request(const std::string& request_id, int64_t now_ms) {
  prune(now_ms);
  auto it = pending_.find(request_id);
  return it == pending_.end() ? nullptr : &it->second;
}

DevicePairing::Requested DevicePairing::request(const DeviceInfo& info, const std::string& role,
                                                const std::vector<std::string>& scopes, bool silent, int64_t now_ms) {
  prune(now_ms);
  Requested out;
  std::vector<std::string> roles{role}, all_scopes = scopes;
  for (auto it = pending_.begin(); it != pending_.end();) {
    PendingDevice& p = it->second;
    if (p.info.device_id != info.device_id) {
      ++it;
      continue;
    }
    bool covers = has(p.roles, role) && std::all_of(scopes.begin(), scopes.end(), [&](const std::string& s) { return has(p.scopes, s); });
    if (covers && p.info.public_key == info.public_key) {
      p.ts = now_ms;
      p.info = info;
      p.silent = p.silent && silent;
      out.request = p;
      return out;
    }
    roles = merged(p.roles, roles);
    all_scopes = merged(p.scopes, all_scopes);
    out.superseded.push_back(p);
    it = pending_.erase(it);
  }
  PendingDevice p;
  p.request_id = approvals::random_uuid();
  p.info = info;
  p.role = role;
  p.roles = roles;
  p.scopes = all_scopes;
  p.silent = silent;
  p.is_repair = paired_.count(info.device_id) > 0;
  p.ts = now_ms;
  pending_[p.request_id] = p;
  out.request = std::move(p);
  out.created = true;
  return out;
}

Result<PairedDevice> DevicePairing::approve(const std::string& request_id, const std::string& approved_via,
                                            const std::optional<std::vector<std::string>>& caller_scopes, int64_t now_ms) {
  prune(now_ms);
  auto it = pending_.find(request_id);
  if (it == pending_.end()) return Error::invalid("unknown requestId");
  const PendingDevice& p = it->second;
  for (const std::string& s : p.scopes) {
    bool fits = std::any_of(p.roles.begin(), p.roles.end(), [&](const std::string& r) { return s.rfind(r + ".", 0) == 0; });
    if (!fits) return Error::invalid("invalid scope for requested roles: " + s);
  }
  const PairedDevice* existing = paired(p.info.device_id);
  PairedDevice d = existing ? *existing : PairedDevice{};
  std::vector<std::string> operator_scopes = role_token_scopes("operator", p.scopes);
  if (has(p.roles, "operator") && !operator_scopes.empty()) {
    if (caller_scopes) {
      if (auto missing = missing_scope("operator", operator_scopes, *caller_scopes)) return Error::invalid("missing scope: " + *missing);
    }
  }
  d.info = p.info;
  if (!existing) d.created_at_ms = now_ms;
  d.role = p.role;
  d.roles = merged(d.roles, p.roles);
  d.scopes = merged(d.scopes, p.scopes);
  d.approved_via = existing && !existing->approved_via.empty() && existing->approved_via != approved_via ? existing->approved_via
                                                                                                          : approved_via;
  d.approved_at_ms = now_ms;
  for (const std::string& role : p.roles) {
    DeviceToken next;
    next.token = TRY(new_token());
    next.role = role;
    auto old = d.tokens.find(role);
    std::vector<std::string> base = old != d.tokens.end() && !old->second.revoked_at_ms ? old->second.scopes : std::vector<std::string>{};
    next.scopes = role_token_scopes(role, merged(base, p.scopes));
    next.created_at_ms = old != d.tokens.end() ? old->second.created_at_ms : now_ms;
    if (old != d.tokens.end()) next.rotated_at_ms = now_ms;
    d.tokens[role] = std::move(next);
  }
  PairedDevice before = existing ? *existing : PairedDevice{};
  bool had = existing != nullptr;
  paired_[d.info.device_id] = d;
  if (Result<void> saved = save(); !saved.ok()) {
    if (had) {
      paired_[d.info.device_id] = std::move(before);
    } else {
      paired_.erase(d.info.device_id);
    }
    return saved.error();
  }
  pending_.erase(it);
  return d;
}

Result<std::string> DevicePairing::reject(const std::string& request_id, int64_t now_ms) {
  prune(now_ms);
  auto it = pending_.find(request_id);
  if (it == pending_.end()) return Error::invalid("unknown requestId");
  std::string device_id = it->second.info.device_id;
  pending_.erase(it);
  return device_id;
}

Result<void> DevicePairing::remove(const std::string& device_id) {
  auto it = paired_.find(device_id);
  if (it == paired_.end()) return Error::invalid("unknown deviceId");
  PairedDevice before = it->second;
  paired_.erase(it);
  if (Result<void> saved = save(); !saved.ok()) {
    paired_[device_id] = std::move(before);
    return saved.error();
  }
  for (auto p = pending_.begin(); p != pending_.end();) {
    p = p->second.info.device_id == device_id ? pending_.erase(p) : std::next(p);
  }
  return {};
}

Result<void> DevicePairing::rename(const std::string& device_id, const std::string& label) {
  auto it = paired_.find(device_id);
  if (it == paired_.end()) return Error::invalid("unknown deviceId");
  std::string before = it->second.label;
  it->second.label = label;
  if (Result<void> saved = save(); !saved.ok()) {
    it->second.label = before;
    return saved.error();
  }
  return {};
}

Result<DeviceToken> DevicePairing::rotate(const std::string& device_id, const std::string& role,
                                          const std::optional<std::vector<std::string>>& scopes,
                                          const std::optional<std::vector<std::string>>& caller_scopes, int64_t now_ms) {
  auto it = paired_.find(device_id);
  if (it == paired_.end() || !has(it->second.roles, role)) return Error::invalid("device token rotation denied");
  PairedDevice& d = it->second;
  auto old = d.tokens.find(role);
  std::vector<std::string> wanted =
      scopes ? *scopes : (old != d.tokens.end() ? old->second.scopes : role_token_scopes(role, d.scopes));
  if (missing_scope(role, wanted, role_token_scopes(role, d.scopes))) return Error::invalid("device token rotation denied");
  if (caller_scopes && missing_scope(role, wanted, *caller_scopes)) return Error::invalid("device token rotation denied");
  DeviceToken next;
  next.token = TRY(new_token());
  next.role = role;
  next.scopes = wanted;
  next.created_at_ms = old != d.tokens.end() ? old->second.created_at_ms : now_ms;
  next.rotated_at_ms = now_ms;
  std::optional<DeviceToken> before;
  if (old != d.tokens.end()) before = old->second;
  d.tokens[role] = next;
  if (Result<void> saved = save(); !saved.ok()) {
    if (before) {
      d.tokens[role] = *before;
    } else {
      d.tokens.erase(role);
    }
    return saved.error();
  }
  return next;
}

Result<DeviceToken> DevicePairing::revoke(const std::string& device_id, const std::string& role,
                                          const std::optional<std::vector<std::string>>& caller_scopes, int64_t now_ms) {
  auto it = paired_.find(device_id);
  if (it == paired_.end()) return Error::invalid("device token revocation denied");
  auto token = it->second.tokens.find(role);
  if (token == it->second.tokens.end()) return Error::invalid("device token revocation denied");
  if (caller_scopes && missing_scope(role, token->second.scopes, *caller_scopes)) return Error::invalid("device token revocation denied");
  DeviceToken before = token->second;
  token->second.revoked_at_ms = now_ms;
  if (Result<void> saved = save(); !saved.ok()) {
    token->second = before;
    return saved.error();
  }
  return token->second;
}

const DeviceToken* DevicePairing::live_token(const std::string& device_id, const std::string& role) const {
  const PairedDevice* d = paired(device_id);
  if (!d) return nullptr;
  auto it = d->tokens.find(role);
  if (it == d->tokens.end() || it->second.revoked_at_ms) return nullptr;
  return &it->second;
}

Result<const DeviceToken*> DevicePairing::ensure_token(const std::string& device_id, const std::string& role, int64_t now_ms) {
  if (const DeviceToken* t = live_token(device_id, role)) return t;
  auto it = paired_.find(device_id);
  if (it == paired_.end() || !has(it->second.roles, role)) return Error::invalid("device " + device_id + " is not approved for role " + role);
  DeviceToken t = TRY(rotate(device_id, role, role_token_scopes(role, it->second.scopes), std::nullopt, now_ms));
  (void)t;
  return live_token(device_id, role);
}

json::Object DevicePairing::pending_json(const PendingDevice& p) {
  json::Object o{{"requestId", p.request_id}};
  put_info(o, p.info);
  o["role"] = p.role;
  o["roles"] = to_array(p.roles);
  o["scopes"] = to_array(p.scopes);
  o["silent"] = p.silent;
  o["isRepair"] = p.is_repair;
  o["ts"] = p.ts;
  return o;
}

json::Object DevicePairing::paired_json(const PairedDevice& d) {
  json::Object o;
  put_info(o, d.info);
  if (!d.label.empty()) o["operatorLabel"] = d.label;
  o["role"] = d.role;
  o["roles"] = to_array(d.roles);
  o["scopes"] = to_array(d.scopes);
  o["approvedVia"] = d.approved_via;
  o["createdAtMs"] = d.created_at_ms;
  o["approvedAtMs"] = d.approved_at_ms;
  json::Array tokens;
  for (const auto& [role, t] : d.tokens) tokens.emplace_back(token_summary(t));
  o["tokens"] = std::move(tokens);
  return o;
}

}  // namespace clawexec::gateway
