// The exec-policy operations. The config side follows the reference's exec-policy CLI: the new
// (security, ask) pair is stored as `mode` when one mode means exactly that pair, otherwise as
// security + ask with `mode` removed (a scope that mixes them is invalid per §2.1). The
// approvals side sets the defaults under the store's lock with compare-and-swap on the hash
// read before; if the config write then fails, the defaults written are put back (when nobody
// changed the file since). Every change is described in a line for the operator.

#include "operator/exec_policy.h"

#include "config/exec_settings.h"
#include "json/json.h"
#include "operator/approvals_edit.h"
#include "operator/config_document.h"
#include "operator/effective_policy_report.h"

namespace clawexec::operator_ops {

namespace bj = boost::json;

namespace {

using config::to_string;

std::string quoted(const bj::value& v) { return json::stringify(v); }

// resolveExactExecModeFromPolicy: the mode that stands for exactly (security, ask), if any.
std::optional<policy::ExecMode> exact_mode(policy::ExecSecurity security, policy::ExecAsk ask) {
  if (ask == policy::ExecAsk::kAlways || (security == policy::ExecSecurity::kFull && ask == policy::ExecAsk::kOnMiss)) {
    return std::nullopt;
  }
  return policy::resolve_exec_mode_from_policy(security, ask);
}

// Sets `key` of `exec` to `value`, recording the change.
void set_key(bj::object& exec, std::string_view key, std::string_view value, std::vector<std::string>& changes) {
  auto it = exec.find(key);
  if (it != exec.end() && it->value().is_string() && it->value().as_string() == value) return;
  std::string line = "tools.exec." + std::string(key) + ": ";
  line += it == exec.end() ? "set to " + quoted(bj::string(value)) : quoted(it->value()) + " -> " + quoted(bj::string(value));
  exec[key] = value;
  changes.push_back(std::move(line));
}

void remove_key(bj::object& exec, std::string_view key, std::string_view why, std::vector<std::string>& changes) {
  auto it = exec.find(key);
  if (it == exec.end()) return;
  changes.push_back("tools.exec." + std::string(key) + ": removed (was " + quoted(it->value()) + ")" + std::string(why));
  exec.erase(it);
}

std::vector<std::string> apply_to_config(bj::value& config, const PolicyChange& p) {
  std::vector<std::string> changes;
  bj::object& root = config.as_object();
  if (!root["tools"].is_object()) root["tools"] = bj::object();
  bj::object& tools = root["tools"].as_object();
  if (!tools["exec"].is_object()) tools["exec"] = bj::object();
  bj::object& exec = tools["exec"].as_object();
  if (p.host) set_key(exec, "host", to_string(*p.host), changes);
  if (!p.security && !p.ask) return changes;
  auto field = [&exec](std::string_view key) -> const bj::value* {
    auto it = exec.find(key);
    return it == exec.end() || it->value().is_null() ? nullptr : &it->value();
  };
  std::optional<policy::ExecMode> mode = field("mode") ? policy::normalize_exec_mode(*field("mode")) : std::nullopt;
  auto sec = field("security") ? policy::normalize_exec_security(*field("security")) : std::nullopt;
  auto ask = field("ask") ? policy::normalize_exec_ask(*field("ask")) : std::nullopt;
  policy::ResolvedModePolicy current = policy::resolve_exec_mode_policy(
      mode, sec.value_or(policy::ExecSecurity::kFull), ask.value_or(policy::ExecAsk::kOff));
  policy::ExecSecurity next_security = p.security.value_or(current.security);
  policy::ExecAsk next_ask = p.ask.value_or(current.ask);
  if (auto next_mode = exact_mode(next_security, next_ask)) {
    set_key(exec, "mode", to_string(*next_mode), changes);
    remove_key(exec, "security", " - the mode says it", changes);
    remove_key(exec, "ask", " - the mode says it", changes);
  } else {
    remove_key(exec, "mode", " - mode cannot be combined with security/ask", changes);
    set_key(exec, "security", to_string(next_security), changes);
    set_key(exec, "ask", to_string(next_ask), changes);
  }
  return changes;
}

// Sets the approvals defaults named in `p`; records the previous values of the changed keys
// (null: the key was absent) so that a failed config write can put them back.
approvals::DocumentMutation defaults_mutation(const PolicyChange& p, std::vector<std::string>& changes,
                                              bj::object& previous) {
  return [&p, &changes, &previous](approvals::Document& doc) -> Result<bool> {
    changes.clear();  // what this application of the edit changed
    previous = {};
    doc["version"] = 1;
    if (!doc["defaults"].is_object()) doc["defaults"] = bj::object();
    bj::object& defaults = doc["defaults"].as_object();
    bool changed = false;
    auto put = [&](std::string_view key, std::optional<std::string_view> value) {
      if (!value) return;
      auto it = defaults.find(key);
      if (it != defaults.end() && it->value().is_string() && it->value().as_string() == *value) return;
      previous[key] = it == defaults.end() ? bj::value(nullptr) : it->value();
      changes.push_back("defaults." + std::string(key) + ": " +
                        (it == defaults.end() ? "set to " : quoted(it->value()) + " -> ") + quoted(bj::string(*value)));
      defaults[key] = *value;
      changed = true;
    };
    put("security", p.security ? std::optional<std::string_view>(to_string(*p.security)) : std::nullopt);
    put("ask", p.ask ? std::optional<std::string_view>(to_string(*p.ask)) : std::nullopt);
    put("askFallback", p.ask_fallback ? std::optional<std::string_view>(to_string(*p.ask_fallback)) : std::nullopt);
    return changed;
  };
}

// Puts back the defaults `previous` recorded, if the file is still the one written at `hash`.
void restore_defaults(approvals::ApprovalsStore& store, const bj::object& previous, const std::string& hash) {
  ignore_error(store.update(
      [&](approvals::Document& doc) -> Result<bool> {
        bj::object& defaults = doc["defaults"].as_object();
        for (const auto& m : previous) {
          if (m.value().is_null()) defaults.erase(m.key());
          else defaults[m.key()] = m.value();
        }
        return !previous.empty();
      },
      hash));
}

bool config_host_is_node(const bj::value& config) {
  const bj::object& exec = config.at("tools").at("exec").as_object();
  auto host = exec.find("host");
  return host != exec.end() && host->value().is_string() &&
         policy::normalize_exec_target(host->value()) == policy::ExecHost::kNode;
}

}  // namespace

const std::vector<ExecPolicyPreset>& exec_policy_presets() {
  using policy::ExecAsk;
  using policy::ExecHost;
  using policy::ExecSecurity;
  static const std::vector<ExecPolicyPreset> presets = {
      {"yolo", {ExecHost::kGateway, ExecSecurity::kFull, ExecAsk::kOff, ExecSecurity::kFull}},
      {"cautious", {ExecHost::kGateway, ExecSecurity::kAllowlist, ExecAsk::kOnMiss, ExecSecurity::kDeny}},
      {"deny-all", {ExecHost::kGateway, ExecSecurity::kDeny, ExecAsk::kOff, ExecSecurity::kDeny}},
  };
  return presets;
}

Result<PolicyChange> exec_policy_preset(std::string_view name) {
  for (const ExecPolicyPreset& preset : exec_policy_presets()) {
    if (preset.name == name) return preset.change;
  }
  return Error::invalid("Unknown exec-policy preset: " + std::string(name) +
                        " (expected yolo, cautious or deny-all)");
}

Result<PolicyChange> parse_policy_change(const PolicyChangeText& text) {
  PolicyChange p;
  if (text.host) {
    p.host = policy::normalize_exec_target(*text.host);
    if (!p.host) return Error::invalid("Invalid exec host: " + *text.host + " (expected auto, sandbox, gateway or node)");
    if (*p.host == policy::ExecHost::kNode) return Error::rejected(std::string(kNodeNotLocalMessage));
  }
  if (text.security && !(p.security = policy::normalize_exec_security(*text.security))) {
    return Error::invalid("Invalid exec security: " + *text.security + " (expected deny, allowlist or full)");
  }
  if (text.ask && !(p.ask = policy::normalize_exec_ask(*text.ask))) {
    return Error::invalid("Invalid exec ask mode: " + *text.ask + " (expected off, on-miss or always)");
  }
  if (text.ask_fallback && !(p.ask_fallback = policy::normalize_exec_security(*text.ask_fallback))) {
    return Error::invalid("Invalid exec askFallback: " + *text.ask_fallback + " (expected deny, allowlist or full)");
  }
  if (!p.host && !p.security && !p.ask && !p.ask_fallback) {
    return Error::invalid("Provide at least one of --host, --security, --ask, or --ask-fallback.");
  }
  return p;
}

bj::object to_json(const PolicyChange& change) {
  bj::object o;
  if (change.host) o["host"] = to_string(*change.host);
  if (change.security) o["security"] = to_string(*change.security);
  if (change.ask) o["ask"] = to_string(*change.ask);
  if (change.ask_fallback) o["askFallback"] = to_string(*change.ask_fallback);
  return o;
}

Result<bj::object> show_exec_policy(const OperatorEnv& env) {
  ConfigDocument config = TRY(read_config_document(env.config_path));
  approvals::ApprovalsSnapshot snap = TRY(open_store(env).read_snapshot());
  bj::value raw = bj::object();
  if (snap.raw) raw = json::parse(*snap.raw).value_or(bj::object());
  return bj::object{{"configPath", env.config_path},
                    {"approvalsPath", snap.path},
                    {"approvalsExists", snap.exists},
                    {"effectivePolicy", effective_policy_report(config.document, raw, snap.file, snap.path,
                                                                ReportStyle::kExecPolicy)}};
}

bj::object to_json(const ExecPolicyUpdate& update, std::string_view label_key, const bj::value& label) {
  bj::object out{{label_key, label}};
  for (const auto& m : update.policy) out[m.key()] = m.value();
  out["configChanges"] = bj::array(update.config_changes.begin(), update.config_changes.end());
  out["approvalsChanges"] = bj::array(update.approvals_changes.begin(), update.approvals_changes.end());
  return out;
}

Result<ExecPolicyUpdate> apply_exec_policy(const OperatorEnv& env, const PolicyChange& change) {
  ConfigDocument config = TRY(read_config_document(env.config_path));
  ExecPolicyUpdate out;
  bj::value next_config = config.document;
  out.config_changes = apply_to_config(next_config, change);
  if (config_host_is_node(next_config)) return Error::rejected(std::string(kNodeNotLocalMessage));
  approvals::ApprovalsStore store = open_store(env);
  approvals::ApprovalsSnapshot before = TRY(store.read_snapshot());
  bj::object previous;
  approvals::UpdateResult updated =
      TRY(store.update_from(before, defaults_mutation(change, out.approvals_changes, previous)));
  if (updated.outcome == approvals::UpdateOutcome::kBaseHashMismatch) {
    return Error::rejected(std::string(kApprovalsChangedMessage));
  }
  if (!out.config_changes.empty()) {
    auto written = write_config_document(env.config_path, next_config);
    if (!written.ok()) {
      restore_defaults(store, previous, updated.snapshot.hash);
      return std::move(written).error();
    }
  }
  out.policy = TRY(show_exec_policy(env));
  return out;
}

}  // namespace clawexec::operator_ops
