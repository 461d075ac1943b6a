// The node host's key pair and device tokens on disk (identity.h). The key file is the
// node's whole identity as a device: it is created once, mode 0600 inside a 0700 directory,
// and an existing file that does not parse, or whose public key does not belong to its
// private key, is reported rather than replaced. Device tokens are kept per gateway endpoint
// so a node that is moved to another gateway does not present the first one's token.

#include "node/identity.h"

#include "approvals/random.h"
#include "base/time.h"
#include "gateway/device_auth.h"
#include "hash/base64url.h"
#include "hash/ed25519.h"
#include "json/json.h"
#include "sys/file_system.h"
#include "sys/whole_file.h"

namespace clawexec::node {
namespace {

constexpr uint32_t kDirMode = 0700;
constexpr uint32_t kFileMode = 0600;

std::string device_path(const std::string& dir) { return dir + "/device.json"; }
std::string tokens_path(const std::string& dir) { return dir + "/device-auth.json"; }

Result<void> ensure_dir(const std::string& dir) {
  TRY(sys::make_directories(dir));
  std::optional<sys::FileInfo> info = TRY(sys::lstat_path(dir));
  if (!info || info->type != sys::FileType::kDirectory) return Error::invalid("node state directory " + dir + " is not a directory");
  if ((info->mode & 0777) != kDirMode) TRY(sys::change_mode(dir, kDirMode));
  return {};
}

// The file's JSON object, or nullopt when it does not exist.
// The key and the tokens are secrets: a file others can read is refused, not used.
Result<std::optional<json::Object>> read_json_file(const std::string& path) {
  std::optional<std::string> text = TRY(sys::read_private_file(path, "node state file"));
  if (!text) return std::optional<json::Object>();
  std::optional<json::Value> parsed = json::parse(*text);
  if (!parsed || !parsed->is_object()) return Error::invalid(path + " is not a JSON object; move it away to start over");
  return std::optional<json::Object>(std::move(parsed->get_object()));
}

Result<std::string> decode_key(const json::Object& o, std::string_view field, const std::string& path) {
  std::optional<std::string> raw = hash::base64url_decode(json::string_member(o, field));
  if (!raw || raw->size() != hash::kEd25519KeySize) return Error::invalid(path + ": " + std::string(field) + " is not a base64url 32-byte key");
  return *raw;
}

}  // namespace

std::string NodeIdentity::public_key_b64url() const { return hash::base64url_encode(public_key); }

std::string node_dir(const std::string& state_dir) { return state_dir + "/node"; }

Result<std::optional<NodeIdentity>> load_identity(const std::string& dir) {
  const std::string path = device_path(dir);
  std::optional<json::Object> doc = TRY(read_json_file(path));
  if (!doc) return std::optional<NodeIdentity>();
  NodeIdentity id;
  id.public_key = TRY(decode_key(*doc, "publicKey", path));
  id.private_key = TRY(decode_key(*doc, "privateKey", path));
  std::string derived = TRY(hash::ed25519_public_key(id.private_key));
  if (derived != id.public_key) return Error::invalid(path + ": publicKey does not belong to privateKey");
  id.device_id = gateway::device_id_of(id.public_key);
  if (std::string stored = json::string_member(*doc, "deviceId"); !stored.empty() && stored != id.device_id) {
    return Error::invalid(path + ": deviceId is not the sha256 of publicKey");
  }
  id.instance_id = json::string_member(*doc, "instanceId");
  id.created_at_ms = json::integer_member(*doc, "createdAtMs").value_or(0);
  return std::optional<NodeIdentity>(std::move(id));
}

Result<NodeIdentity> load_or_create_identity(const std::string& dir) {
  TRY(ensure_dir(dir));
  if (std::optional<NodeIdentity> existing = TRY(load_identity(dir))) return std::move(*existing);
  hash::Ed25519KeyPair keys = TRY(hash::ed25519_generate());
  NodeIdentity id;
  id.public_key = keys.public_key;
  id.private_key = keys.private_key;
  id.device_id = gateway::device_id_of(id.public_key);
  id.instance_id = approvals::random_uuid();
  id.created_at_ms = epoch_ms();
  json::Object doc{{"version", 1},
                   {"deviceId", id.device_id},
                   {"publicKey", hash::base64url_encode(id.public_key)},
                   {"privateKey", hash::base64url_encode(id.private_key)},
                   {"instanceId", id.instance_id},
                   {"createdAtMs", id.created_at_ms}};
  // Exclusive creation: two node hosts starting at once must not end up with two keys.
  Result<sys::UniqueFd> fd = sys::create_exclusive(device_path(dir), kFileMode);
  if (!fd.ok()) {
    if (std::optional<NodeIdentity> raced = TRY(load_identity(dir))) return std::move(*raced);
    return fd.error();
  }
  TRY(sys::replace_file_atomically(device_path(dir), json::stringify(doc, 2) + "\n", kFileMode));
  return id;
}

Result<std::optional<std::string>> load_device_token(const std::string& dir, const std::string& device_id,
                                                     const std::string& endpoint) {
  std::optional<json::Object> doc = TRY(read_json_file(tokens_path(dir)));
  if (!doc || json::string_member(*doc, "deviceId") != device_id) return std::optional<std::string>();
  const json::Object* tokens = json::object_member(*doc, "tokens");
  const json::Object* entry = tokens ? json::object_member(*tokens, endpoint) : nullptr;
  std::string token = entry ? json::string_member(*entry, "token") : std::string();
  if (token.empty()) return std::optional<std::string>();
  return std::optional<std::string>(token);
}

Result<void> save_device_token(const std::string& dir, const std::string& device_id, const std::string& endpoint,
                               const std::string& token) {
  TRY(ensure_dir(dir));
  std::optional<json::Object> doc = TRY(read_json_file(tokens_path(dir)));
  json::Object out;
  if (doc && json::string_member(*doc, "deviceId") == device_id) out = std::move(*doc);
  out["version"] = 1;
  out["deviceId"] = device_id;
  json::Object tokens;
  if (const json::Object* t = json::object_member(out, "tokens")) tokens = *t;
  if (token.empty()) {
    tokens.erase(endpoint);
  } else {
    tokens[endpoint] = json::Object{{"role", "node"}, {"token", token}, {"updatedAtMs", epoch_ms()}};
  }
  out["tokens"] = std::move(tokens);
  return sys::replace_file_atomically(tokens_path(dir), json::stringify(out, 2) + "\n", kFileMode);
}

}  // namespace clawexec::node
