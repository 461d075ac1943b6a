// exec.approvals.get/set and the exec subset of config.get/patch: see operator_admin.h.

#include "gateway/operator_admin.h"

#include "config/exec_settings.h"
#include "config/json5.h"
#include "hash/sha256.h"
#include "operator/approvals_edit.h"
#include "operator/config_document.h"

namespace clawexec::gateway {
namespace {

std::string config_hash(const std::optional<std::string>& raw) { return hash::sha256_hex(raw.value_or("")); }

const json::Object* object_at(const json::Value& v, std::string_view key) {
  if (!v.is_object()) return nullptr;
  const json::Value* child = json::find(v.get_object(), key);
  return child && child->is_object() ? &child->get_object() : nullptr;
}

// tools.exec and agents.entries.<id>.tools.exec of a config document.
json::Object exec_subset(const json::Value& doc) {
  json::Object out;
  if (const json::Object* tools = object_at(doc, "tools")) {
    if (const json::Value* exec = json::find(*tools, "exec")) out["tools"] = json::Object{{"exec", *exec}};
  }
  json::Object entries;
  if (const json::Object* agents = object_at(doc, "agents")) {
    if (const json::Value* e = json::find(*agents, "entries"); e && e->is_object()) {
      for (const auto& kv : e->get_object()) {
        const json::Object* tools = object_at(kv.value(), "tools");
        const json::Value* exec = tools ? json::find(*tools, "exec") : nullptr;
        if (exec) entries[kv.key()] = json::Object{{"tools", json::Object{{"exec", *exec}}}};
      }
    }
  }
  if (!entries.empty()) out["agents"] = json::Object{{"entries", std::move(entries)}};
  return out;
}

// RFC 7396 merge patch.
void merge_patch(json::Value& target, const json::Value& patch) {
  if (!patch.is_object()) {
    target = patch;
    return;
  }
  if (!target.is_object()) target = json::Object();
  json::Object& t = target.get_object();
  for (const auto& kv : patch.get_object()) {
    if (kv.value().is_null()) {
      t.erase(kv.key());
    } else {
      merge_patch(t[kv.key()], kv.value());
    }
  }
}

// Only tools.exec.* and agents.entries.<id>.tools.exec.* may be patched.
Result<void> check_patch_paths(const json::Object& patch) {
  auto refuse = [](const std::string& path) {
    return Error::invalid("config.patch: only tools.exec and agents.entries.<id>.tools.exec may be changed through the gateway (the patch touches " +
                          path + ")");
  };
  for (const auto& kv : patch) {
    std::string key(kv.key());
    if (key == "tools") {
      if (!kv.value().is_object()) return refuse("tools");
      for (const auto& t : kv.value().get_object()) {
        if (t.key() != "exec") return refuse("tools." + std::string(t.key()));
      }
    } else if (key == "agents") {
      if (!kv.value().is_object()) return refuse("agents");
      for (const auto& a : kv.value().get_object()) {
        if (a.key() != "entries" || !a.value().is_object()) return refuse("agents." + std::string(a.key()));
        for (const auto& e : a.value().get_object()) {
          std::string at = "agents.entries." + std::string(e.key());
          if (!e.value().is_object()) return refuse(at);
          for (const auto& t : e.value().get_object()) {
            if (t.key() != "tools" || !t.value().is_object()) return refuse(at + "." + std::string(t.key()));
            for (const auto& x : t.value().get_object()) {
              if (x.key() != "exec") return refuse(at + ".tools." + std::string(x.key()));
            }
          }
        }
      }
    } else {
      return refuse(key);
    }
  }
  return {};
}

}  // namespace

Result<json::Object> exec_approvals_get(const operator_ops::OperatorEnv& env) {
  approvals::ApprovalsSnapshot snap = TRY(operator_ops::open_store(env).read_snapshot());
  json::Object out = operator_ops::redacted_snapshot(snap);
  json::Object resolved{{"security", "full"}, {"ask", "off"}, {"askFallback", "deny"}, {"autoAllowSkills", false}};
  if (const json::Value* d = json::find(snap.file, "defaults"); d && d->is_object()) {
    for (std::string_view key : {"security", "ask", "askFallback"}) {
      if (const json::Value* v = json::find(d->get_object(), key); v && v->is_string()) resolved[key] = *v;
    }
    if (const json::Value* v = json::find(d->get_object(), "autoAllowSkills"); v && v->is_bool()) resolved["autoAllowSkills"] = *v;
  }
  out["resolvedDefaults"] = std::move(resolved);
  return out;
}

Result<json::Object> exec_approvals_set(const operator_ops::OperatorEnv& env, const json::Value& file,
                                        const std::optional<std::string>& base_hash) {
  if (!file.is_object()) return Error::invalid("invalid exec.approvals.set params: file must be an object");
  approvals::ApprovalsSnapshot current = TRY(operator_ops::open_store(env).read_snapshot());
  if (current.exists && !base_hash) return Error::invalid("exec approvals base hash required; reload and retry");
  if (base_hash && *base_hash != current.hash) return Error::invalid("exec approvals changed; reload and retry");
  Result<operator_ops::SetApprovalsResult> set = operator_ops::set_approvals(env, json::serialize(file), current.hash);
  if (!set.ok()) {
    if (set.error().code == ErrorCode::kRejected) return Error::invalid("exec approvals changed; reload and retry");
    return set.error();
  }
  return exec_approvals_get(env);
}

Result<json::Object> exec_config_get(const operator_ops::OperatorEnv& env) {
  std::optional<std::string> raw = TRY(config::read_config_file(env.config_path));
  json::Value doc = json::Object();
  if (raw) {
    Result<json::Value> parsed = config::parse_json5(*raw);
    if (!parsed.ok()) return Error::invalid("config " + env.config_path + ": " + parsed.error().message);
    doc = std::move(*parsed);
  }
  return json::Object{{"path", env.config_path}, {"exists", raw.has_value()}, {"hash", config_hash(raw)}, {"config", exec_subset(doc)}};
}

Result<json::Object> exec_config_patch(const operator_ops::OperatorEnv& env, std::string_view raw_patch,
                                       const std::optional<std::string>& base_hash) {
  Result<json::Value> patch = config::parse_json5(raw_patch);
  if (!patch.ok()) return Error::invalid("config.patch raw: " + patch.error().message);
  if (!patch->is_object()) return Error::invalid("config.patch raw must be an object");
  TRY(check_patch_paths(patch->get_object()));
  std::optional<std::string> raw = TRY(config::read_config_file(env.config_path));
  if (raw && !base_hash) return Error::invalid("config base hash required; re-run config.get and retry");
  if (base_hash && *base_hash != config_hash(raw)) return Error::invalid("config changed since last load; re-run config.get and retry");
  operator_ops::ConfigDocument current = TRY(operator_ops::read_config_document(env.config_path));
  json::Value next = current.document;
  merge_patch(next, *patch);
  bool changed = next != current.document;
  if (changed) {
    // The exec loader must accept the result, for the global section and every agent's.
    std::string text = json::stringify(next, 2) + "\n";
    std::vector<std::string> agents{"main"};
    if (const json::Object* a = object_at(next, "agents")) {
      if (const json::Value* e = json::find(*a, "entries"); e && e->is_object()) {
        for (const auto& kv : e->get_object()) agents.emplace_back(kv.key());
      }
    }
    for (const std::string& agent : agents) {
      config::ConfigSources sources;
      sources.file_text = text;
      sources.origin = env.config_path;
      sources.agent_id = agent;
      Result<config::LoadedConfig> loaded = config::load_config(sources);
      if (!loaded.ok()) return Error::invalid("config.patch refused, the result would be invalid: " + loaded.error().message);
    }
    // Compare-and-swap: the file must still be what the hash named.
    std::optional<std::string> again = TRY(config::read_config_file(env.config_path));
    if (again != raw) return Error::invalid("config changed since last load; re-run config.get and retry");
    TRY(operator_ops::write_config_document(env.config_path, next));
  }
  json::Object out = TRY(exec_config_get(env));
  out["changed"] = changed;
  return out;
}

}  // namespace clawexec::gateway
