// `clawexec exec-policy show|set|preset`: keeps the requested policy in the config file
// (tools.exec.host/mode/security/ask) and the approvals file's defaults in step (spec §2.6).
//
// The config side follows the reference's exec-policy CLI: the new (security, ask) pair is
// stored as `mode` when one mode means exactly that pair (and security/ask are removed),
// otherwise as security + ask with `mode` removed, so the file never mixes mode with
// security/ask at one scope (invalid per §2.1). The approvals side sets defaults.security,
// .ask and .askFallback under the store's lock with compare-and-swap on the hash read before;
// if the config write then fails, the defaults written are put back. Every change is listed
// in the output.

#include <iostream>

#include "cli/policy_cmd_common.h"
#include "cli/policy_cmd_effective.h"
#include "cli/policy_cmd_internal.h"
#include "json/json.h"
#include "policy/modes.h"

namespace clawexec::cli {

namespace bj = boost::json;

namespace {

using config::to_string;

struct PolicyInput {
  std::optional<policy::ExecHost> host;
  std::optional<policy::ExecSecurity> security;
  std::optional<policy::ExecAsk> ask;
  std::optional<policy::ExecSecurity> ask_fallback;
};

bj::object policy_json(const PolicyInput& p) {
  bj::object o;
  if (p.host) o["host"] = to_string(*p.host);
  if (p.security) o["security"] = to_string(*p.security);
  if (p.ask) o["ask"] = to_string(*p.ask);
  if (p.ask_fallback) o["askFallback"] = to_string(*p.ask_fallback);
  return o;
}

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

std::vector<std::string> apply_to_config(bj::value& config, const PolicyInput& p) {
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

// Sets the approvals defaults named in `p`; returns the previous values of the changed keys.
approvals::DocumentMutation defaults_mutation(const PolicyInput& p, std::vector<std::string>& changes,
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

Result<bj::object> show_payload(const OperatorEnv& env) {
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

void print_show_text(const bj::object& payload) {
  std::cout << "Config: " << payload.at("configPath").as_string().c_str() << "\n";
  std::cout << "Approvals: " << payload.at("approvalsPath").as_string().c_str()
            << (payload.at("approvalsExists").as_bool() ? "" : " (defaults, no stored overrides)") << "\n";
  for (const bj::value& s : payload.at("effectivePolicy").at("scopes").as_array()) {
    const bj::object& o = s.as_object();
    std::cout << "\n" << o.at("scopeLabel").as_string().c_str() << "\n";
    std::cout << "  host=" << o.at("host").at("requested").as_string().c_str() << " ("
              << o.at("host").at("requestedSource").as_string().c_str() << ")\n";
    for (const char* f : {"security", "ask"}) {
      const bj::object& x = o.at(f).as_object();
      std::cout << "  " << f << ": requested " << x.at("requested").as_string().c_str() << " ("
                << x.at("requestedSource").as_string().c_str() << "), host " << x.at("host").as_string().c_str() << " ("
                << x.at("hostSource").as_string().c_str() << ") -> " << x.at("effective").as_string().c_str() << "\n";
    }
    std::cout << "  askFallback: " << o.at("askFallback").at("effective").as_string().c_str() << " ("
              << o.at("askFallback").at("source").as_string().c_str() << ")\n";
  }
  std::cout << "\n" << payload.at("effectivePolicy").at("note").as_string().c_str() << "\n";
}

int apply_policy(const char* command, const PolicyInput& p, bool as_json, const std::string& label_key,
                 const bj::value& label) {
  if (std::optional<int> refused = refuse_under_clawexec(command)) return *refused;
  OperatorEnv env = operator_env();
  auto config = read_config_document(env.config_path);
  if (!config.ok()) return fail(command, config.error().message);
  bj::value next_config = config->document;
  std::vector<std::string> config_changes = apply_to_config(next_config, p);
  const bj::value& host = next_config.at("tools").at("exec").as_object().contains("host")
                              ? next_config.at("tools").at("exec").at("host")
                              : bj::value(nullptr);
  if (host.is_string() && policy::normalize_exec_target(host) == policy::ExecHost::kNode) {
    return fail(command,
                "Local exec-policy cannot synchronize host=node. Node approvals are fetched from the node at runtime.");
  }
  approvals::ApprovalsStore store = open_store(env);
  auto before = store.read_snapshot();
  if (!before.ok()) return fail(command, before.error().message);
  std::vector<std::string> approvals_changes;
  bj::object previous;
  auto updated = store.update_from(*before, defaults_mutation(p, approvals_changes, previous));
  if (!updated.ok()) return fail(command, updated.error().message);
  if (updated->outcome == approvals::UpdateOutcome::kBaseHashMismatch) {
    return fail(command, "Exec approvals changed; reload and retry.");
  }
  if (!config_changes.empty()) {
    auto written = write_config_document(env.config_path, next_config);
    if (!written.ok()) {
      // Put back what we wrote, if nobody changed it since.
      (void)store.update([&](approvals::Document& doc) -> Result<bool> {
        bj::object& defaults = doc["defaults"].as_object();
        for (const auto& m : previous) {
          if (m.value().is_null()) defaults.erase(m.key());
          else defaults[m.key()] = m.value();
        }
        return !previous.empty();
      }, updated->snapshot.hash);
      return fail(command, written.error().message);
    }
  }
  auto payload = show_payload(env);
  if (!payload.ok()) return fail(command, payload.error().message);
  bj::array cc(config_changes.begin(), config_changes.end());
  bj::array ac(approvals_changes.begin(), approvals_changes.end());
  if (as_json) {
    bj::object out{{label_key, label}};
    for (auto& m : *payload) out[m.key()] = m.value();
    out["configChanges"] = cc;
    out["approvalsChanges"] = ac;
    print_json(out);
    return 0;
  }
  if (config_changes.empty() && approvals_changes.empty()) std::cout << "No changes.\n";
  for (const std::string& line : config_changes) std::cout << "config: " << line << "\n";
  for (const std::string& line : approvals_changes) std::cout << "approvals: " << line << "\n";
  std::cout << "\n";
  print_show_text(*payload);
  return 0;
}

[[noreturn]] void usage_error(const std::string& what) { throw CLI::ValidationError(what); }

}  // namespace

void add_exec_policy_commands(CLI::App& app, int& exit_code) {
  CLI::App* cmd = app.add_subcommand("exec-policy", "Show or synchronize the requested exec policy with host approvals");
  cmd->require_subcommand(1);

  auto* show = cmd->add_subcommand("show", "Show the config policy, host approvals and the effective merge");
  auto show_json = std::make_shared<bool>(false);
  show->add_flag("--json", *show_json, "Output as JSON");
  show->callback([&exit_code, show_json] {
    auto payload = show_payload(operator_env());
    if (!payload.ok()) {
      exit_code = fail("exec-policy show", payload.error().message);
      return;
    }
    if (*show_json) print_json(*payload);
    else print_show_text(*payload);
    exit_code = 0;
  });

  auto* preset = cmd->add_subcommand("preset", "Apply a preset: yolo, cautious or deny-all");
  auto preset_name = std::make_shared<std::string>();
  auto preset_json = std::make_shared<bool>(false);
  preset->add_option("name", *preset_name, "yolo | cautious | deny-all")->required();
  preset->add_flag("--json", *preset_json, "Output as JSON");
  preset->callback([&exit_code, preset_name, preset_json] {
    using policy::ExecAsk;
    using policy::ExecHost;
    using policy::ExecSecurity;
    PolicyInput p;
    if (*preset_name == "yolo") p = {ExecHost::kGateway, ExecSecurity::kFull, ExecAsk::kOff, ExecSecurity::kFull};
    else if (*preset_name == "cautious") p = {ExecHost::kGateway, ExecSecurity::kAllowlist, ExecAsk::kOnMiss, ExecSecurity::kDeny};
    else if (*preset_name == "deny-all") p = {ExecHost::kGateway, ExecSecurity::kDeny, ExecAsk::kOff, ExecSecurity::kDeny};
    else usage_error("Unknown exec-policy preset: " + *preset_name + " (expected yolo, cautious or deny-all)");
    exit_code = apply_policy("exec-policy preset", p, *preset_json, "preset", bj::string(*preset_name));
  });

  auto* set = cmd->add_subcommand("set", "Set individual fields in the config and the approvals defaults");
  struct SetOptions {
    std::optional<std::string> host, security, ask, ask_fallback;
    bool json = false;
  };
  auto opts = std::make_shared<SetOptions>();
  set->add_option("--host", opts->host, "Exec host target: auto|sandbox|gateway (node is not supported here)");
  set->add_option("--security", opts->security, "Exec security: deny|allowlist|full");
  set->add_option("--ask", opts->ask, "Exec ask mode: off|on-miss|always");
  set->add_option("--ask-fallback", opts->ask_fallback, "Host approvals fallback: deny|allowlist|full");
  set->add_flag("--json", opts->json, "Output as JSON");
  set->callback([&exit_code, opts] {
    PolicyInput p;
    if (opts->host) {
      p.host = policy::normalize_exec_target(*opts->host);
      if (!p.host) usage_error("Invalid exec host: " + *opts->host + " (expected auto, sandbox, gateway or node)");
      if (*p.host == policy::ExecHost::kNode) {
        exit_code = fail("exec-policy set",
                         "Local exec-policy cannot synchronize host=node. Node approvals are fetched from the node at "
                         "runtime.");
        return;
      }
    }
    if (opts->security && !(p.security = policy::normalize_exec_security(*opts->security))) {
      usage_error("Invalid exec security: " + *opts->security + " (expected deny, allowlist or full)");
    }
    if (opts->ask && !(p.ask = policy::normalize_exec_ask(*opts->ask))) {
      usage_error("Invalid exec ask mode: " + *opts->ask + " (expected off, on-miss or always)");
    }
    if (opts->ask_fallback && !(p.ask_fallback = policy::normalize_exec_security(*opts->ask_fallback))) {
      usage_error("Invalid exec askFallback: " + *opts->ask_fallback + " (expected deny, allowlist or full)");
    }
    if (!p.host && !p.security && !p.ask && !p.ask_fallback) {
      usage_error("Provide at least one of --host, --security, --ask, or --ask-fallback.");
    }
    exit_code = apply_policy("exec-policy set", p, opts->json, "applied", policy_json(p));
  });
}

}  // namespace clawexec::cli
