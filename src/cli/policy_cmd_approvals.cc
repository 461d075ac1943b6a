// `clawexec approvals get|set|allowlist add|remove`: flags in, operator_ops::get_approvals /
// set_approvals / edit_allowlist called, the result printed. Flag values that are wrong
// (a blank --agent or pattern, an --arg-pattern the matcher would not accept) are usage errors
// (exit 2), checked before anything is read; the operations check them again for callers
// without flags.

#include <fstream>
#include <iostream>
#include <iterator>

#include "base/utf.h"
#include "cli/policy_cmd_common.h"
#include "cli/policy_cmd_internal.h"
#include "json/json.h"
#include "operator/allowlist_edit.h"
#include "operator/approvals_edit.h"
#include "policy/arg_pattern.h"
#include "term/display_escape.h"

namespace clawexec::cli {

namespace bj = boost::json;
namespace op = operator_ops;

namespace {

[[noreturn]] void usage_error(const std::string& what) { throw CLI::ValidationError(what); }

void print_get_text(const bj::object& out) {
  // The document holds the agent's text (lastUsedCommand): shown escaped, JSON escapes kept.
  std::cout << "Approvals: " << term::escape_for_display(std::string(out.at("path").as_string()))
            << (out.at("exists").as_bool() ? "" : " (missing: built-in defaults apply)") << "\n";
  std::cout << "Hash: " << out.at("hash").as_string().c_str() << "\n\n"
            << term::escape_for_display(json::stringify(out.at("file"), 2), term::DisplayStyle::kJsonText) << "\n";
  if (out.contains("agentPolicy")) {
    const bj::object& p = out.at("agentPolicy").as_object();
    std::cout << "\nEffective policy for agent " << out.at("agent").as_string().c_str()
              << ": security=" << p.at("security").at("effective").as_string().c_str()
              << " ask=" << p.at("ask").at("effective").as_string().c_str()
              << " askFallback=" << p.at("askFallback").at("effective").as_string().c_str() << "\n";
  }
  std::cout << term::escape_for_display(std::string(out.at("effectivePolicy").at("note").as_string()),
                                        term::DisplayStyle::kLines)
            << "\n";
}

int run_get(const std::string& agent, bool as_json) {
  auto out = op::get_approvals(op::process_operator_env(), agent);
  if (!out.ok()) return fail("approvals get", out.error().message);
  if (as_json) print_json(*out);
  else print_get_text(*out);
  return 0;
}

// The document text from --file or stdin, as read (the operation checks its size).
Result<std::string> read_input(const std::optional<std::string>& file) {
  std::string text;
  if (file) {
    std::ifstream in(*file, std::ios::binary);
    if (!in) return Error::invalid("read " + *file + ": cannot open the file");
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } else {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  }
  return text;
}

int run_set(const std::optional<std::string>& file, bool as_json) {
  const char* command = "approvals set";
  if (std::optional<int> refused = refuse_under_clawexec(command)) return *refused;
  auto text = read_input(file);
  if (!text.ok()) return fail(command, text.error().message);
  auto result = op::set_approvals(op::process_operator_env(), *text);
  if (!result.ok()) return fail(command, result.error().message);
  if (as_json) print_json(op::to_json(*result));
  else std::cout << (result->changed ? "Wrote " : "Unchanged: ") << result->snapshot.at("path").as_string().c_str() << "\n";
  return 0;
}

struct AllowlistOptions {
  std::string agent = "main";
  std::string pattern;
  std::optional<std::string> arg_pattern;
  bool json = false;
};

int run_allowlist(const AllowlistOptions& o, op::AllowlistAction action) {
  const bool add = action == op::AllowlistAction::kAdd;
  const char* command = add ? "approvals allowlist add" : "approvals allowlist remove";
  if (std::optional<int> refused = refuse_under_clawexec(command)) return *refused;
  if (js_trim(o.agent).empty()) usage_error("--agent must not be blank");
  if (js_trim(o.pattern).empty()) usage_error("Pattern required.");
  if (add && o.arg_pattern && !o.arg_pattern->empty()) {
    std::optional<std::string> invalid = policy::arg_pattern_error(*o.arg_pattern);
    if (invalid) usage_error("invalid --arg-pattern " + *o.arg_pattern + ": " + *invalid);
  }
  auto result = op::edit_allowlist(op::process_operator_env(), {action, o.agent, o.pattern, o.arg_pattern});
  if (!result.ok()) return fail(command, result.error().message);
  if (o.json) print_json(op::to_json(*result));
  else std::cout << term::escape_for_display(result->message) << "\n";
  return 0;
}

}  // namespace

void add_approvals_commands(CLI::App& app, int& exit_code) {
  CLI::App* cmd = app.add_subcommand("approvals", "Inspect and edit the exec approvals document");
  cmd->require_subcommand(1);

  auto* get = cmd->add_subcommand("get", "Show the approvals document and the effective policy");
  auto get_agent = std::make_shared<std::string>("main");
  auto get_json = std::make_shared<bool>(false);
  get->add_option("--agent", *get_agent, "Agent whose effective policy to show (default main)");
  get->add_flag("--json", *get_json, "Output as JSON");
  get->callback([&exit_code, get_agent, get_json] {
    std::string agent(js_trim(*get_agent));
    if (agent.empty()) usage_error("--agent must not be blank");
    exit_code = run_get(agent, *get_json);
  });

  auto* set = cmd->add_subcommand("set", "Replace the approvals document (strictly validated)");
  auto set_file = std::make_shared<std::optional<std::string>>();
  auto set_flags = std::make_shared<std::pair<bool, bool>>(false, false);  // stdin, json
  set->add_option("--file", *set_file, "Read the document from this file");
  set->add_flag("--stdin", set_flags->first, "Read the document from standard input");
  set->add_flag("--json", set_flags->second, "Output as JSON");
  set->callback([&exit_code, set_file, set_flags] {
    if (!*set_file && !set_flags->first) usage_error("Provide --file or --stdin.");
    if (*set_file && set_flags->first) usage_error("Use either --file or --stdin (not both).");
    exit_code = run_set(*set_file, set_flags->second);
  });

  auto* allowlist = cmd->add_subcommand("allowlist", "Edit an agent's allowlist");
  allowlist->require_subcommand(1);
  for (op::AllowlistAction action : {op::AllowlistAction::kAdd, op::AllowlistAction::kRemove}) {
    const bool add = action == op::AllowlistAction::kAdd;
    auto* sub = allowlist->add_subcommand(add ? "add" : "remove",
                                          add ? "Add a pattern (with an optional argPattern)"
                                              : "Remove the entries with this pattern and argPattern");
    auto opts = std::make_shared<AllowlistOptions>();
    sub->add_option("--agent", opts->agent, "Agent id (default main; \"*\" for every agent)");
    sub->add_option("--arg-pattern", opts->arg_pattern, "Regular expression the arguments must match");
    sub->add_flag("--json", opts->json, "Output as JSON");
    sub->add_option("pattern", opts->pattern, "Executable path or name glob")->required();
    sub->callback([&exit_code, opts, action] { exit_code = run_allowlist(*opts, action); });
  }
}

}  // namespace clawexec::cli
