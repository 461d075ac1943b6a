// `clawexec exec-policy show|set|preset`: flags in, operator_ops::show_exec_policy /
// apply_exec_policy called, the result printed (every change listed, then the policy after).
// A malformed value or an unknown preset is a usage error (exit 2); host=node is refused
// (exit 1), before the humans-only check, as before.

#include <iostream>

#include "cli/policy_cmd_common.h"
#include "cli/policy_cmd_internal.h"
#include "operator/exec_policy.h"

namespace clawexec::cli {

namespace bj = boost::json;
namespace op = operator_ops;

namespace {

[[noreturn]] void usage_error(const std::string& what) { throw CLI::ValidationError(what); }

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

int run_show(bool as_json) {
  auto payload = op::show_exec_policy(op::process_operator_env());
  if (!payload.ok()) return fail("exec-policy show", payload.error().message);
  if (as_json) print_json(*payload);
  else print_show_text(*payload);
  return 0;
}

int apply_policy(const char* command, const op::PolicyChange& change, bool as_json, std::string_view label_key,
                 const bj::value& label) {
  if (std::optional<int> refused = refuse_under_clawexec(command)) return *refused;
  auto update = op::apply_exec_policy(op::process_operator_env(), change);
  if (!update.ok()) return fail(command, update.error().message);
  if (as_json) {
    print_json(op::to_json(*update, label_key, label));
    return 0;
  }
  if (update->config_changes.empty() && update->approvals_changes.empty()) std::cout << "No changes.\n";
  for (const std::string& line : update->config_changes) std::cout << "config: " << line << "\n";
  for (const std::string& line : update->approvals_changes) std::cout << "approvals: " << line << "\n";
  std::cout << "\n";
  print_show_text(update->policy);
  return 0;
}

}  // namespace

void add_exec_policy_commands(CLI::App& app, int& exit_code) {
  CLI::App* cmd = app.add_subcommand("exec-policy", "Show or synchronize the requested exec policy with host approvals");
  cmd->require_subcommand(1);

  auto* show = cmd->add_subcommand("show", "Show the config policy, host approvals and the effective merge");
  auto show_json = std::make_shared<bool>(false);
  show->add_flag("--json", *show_json, "Output as JSON");
  show->callback([&exit_code, show_json] { exit_code = run_show(*show_json); });

  auto* preset = cmd->add_subcommand("preset", "Apply a preset: yolo, cautious or deny-all");
  auto preset_name = std::make_shared<std::string>();
  auto preset_json = std::make_shared<bool>(false);
  preset->add_option("name", *preset_name, "yolo | cautious | deny-all")->required();
  preset->add_flag("--json", *preset_json, "Output as JSON");
  preset->callback([&exit_code, preset_name, preset_json] {
    auto change = op::exec_policy_preset(*preset_name);
    if (!change.ok()) usage_error(change.error().message);
    exit_code = apply_policy("exec-policy preset", *change, *preset_json, "preset", bj::string(*preset_name));
  });

  auto* set = cmd->add_subcommand("set", "Set individual fields in the config and the approvals defaults");
  auto text = std::make_shared<op::PolicyChangeText>();
  auto set_json = std::make_shared<bool>(false);
  set->add_option("--host", text->host, "Exec host target: auto|sandbox|gateway (node is not supported here)");
  set->add_option("--security", text->security, "Exec security: deny|allowlist|full");
  set->add_option("--ask", text->ask, "Exec ask mode: off|on-miss|always");
  set->add_option("--ask-fallback", text->ask_fallback, "Host approvals fallback: deny|allowlist|full");
  set->add_flag("--json", *set_json, "Output as JSON");
  set->callback([&exit_code, text, set_json] {
    auto change = op::parse_policy_change(*text);
    if (!change.ok() && change.error().code == ErrorCode::kInvalidArgument) usage_error(change.error().message);
    if (!change.ok()) {
      exit_code = fail("exec-policy set", change.error().message);
      return;
    }
    exit_code = apply_policy("exec-policy set", *change, *set_json, "applied", op::to_json(*change));
  });
}

}  // namespace clawexec::cli
