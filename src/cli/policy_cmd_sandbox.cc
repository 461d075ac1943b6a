// `clawexec sandbox list|explain|recreate|prune`: thin shells around operator/sandbox_ops.h;
// this file parses flags and prints. Everything a session could have chosen (scope keys,
// paths) is escaped for the terminal. recreate and prune end sandboxes, so, like the approval
// commands, they refuse to run under a clawexec command (an agent's).

#include <cstdio>
#include <iostream>
#include <memory>

#include "base/time.h"
#include "cli/policy_cmd_common.h"
#include "cli/policy_cmd_internal.h"
#include "operator/sandbox_ops.h"
#include "term/display_escape.h"

namespace clawexec::cli {

namespace op = operator_ops;

namespace {

// One field on one line: line breaks are escaped too, so a scope key cannot fake list lines.
std::string shown(std::string_view text) { return term::escape_for_display(text, term::DisplayStyle::kField); }

std::string duration(int64_t ms) {
  if (ms < 0) ms = 0;
  int64_t s = ms / 1000;
  char out[32];
  if (s < 120) {
    std::snprintf(out, sizeof out, "%llds", static_cast<long long>(s));
  } else if (s < 7200) {
    std::snprintf(out, sizeof out, "%lldm", static_cast<long long>(s / 60));
  } else if (s < 172800) {
    std::snprintf(out, sizeof out, "%lldh", static_cast<long long>(s / 3600));
  } else {
    std::snprintf(out, sizeof out, "%lldd", static_cast<long long>(s / 86400));
  }
  return out;
}

int run_list(bool as_json) {
  Result<op::SandboxListing> listing = op::list_sandboxes(op::process_operator_env());
  if (!listing.ok()) return fail("sandbox list", listing.error().message);
  const int64_t now = epoch_ms();
  if (as_json) {
    boost::json::array sandboxes;
    for (const auto& r : listing->sandboxes) sandboxes.emplace_back(op::to_json(r, now));
    boost::json::array roots(listing->roots.begin(), listing->roots.end());
    print_json(boost::json::object{{"roots", std::move(roots)}, {"sandboxes", std::move(sandboxes)}});
    return 0;
  }
  if (listing->sandboxes.empty()) {
    std::cout << "No sandboxes.\n";
    return 0;
  }
  for (const auto& r : listing->sandboxes) {
    std::cout << shown(r.scope) << "  " << (r.running ? "running" : "stopped") << "  age " << duration(now - r.created_ms)
              << "  idle " << duration(now - r.last_used_ms) << "  server pid " << r.server_pid << "\n"
              << "  workspace " << shown(r.workspace) << " at " << shown(r.workdir) << ", network " << shown(r.network)
              << (r.limits.empty() ? std::string() : ", limits: " + shown(r.limits)) << "\n";
  }
  return 0;
}

int run_explain(const std::string& agent, const std::string& session, bool as_json) {
  Result<op::SandboxExplanation> e = op::explain_sandbox(op::process_operator_env(), agent, session);
  if (!e.ok()) return fail("sandbox explain", e.error().message);
  if (as_json) {
    print_json(op::to_json(*e));
    return 0;
  }
  boost::json::object j = op::to_json(*e);
  std::cout << "Agent: " << shown(e->agent_id) << "\nSession: " << shown(e->session_key)
            << (e->main_session ? " (the agent's main session)" : "") << "\n"
            << "Sandbox mode: " << j["mode"].as_string().c_str() << " -> "
            << (e->sandboxed ? "this session runs in a sandbox" : "this session runs on the host") << "\n";
  if (e->sandboxed) {
    std::cout << "Sandbox: " << shown(e->scope) << " (" << shown(e->state_dir) << ")\n"
              << "Workspace access: " << j["workspaceAccess"].as_string().c_str() << ", mounted at "
              << shown(e->settings.workdir) << "\nNetwork: " << j["network"].as_string().c_str() << "\n";
    if (e->running) {
      std::cout << "Running: yes, held by server pid " << e->running->server_pid << ", idle "
                << duration(epoch_ms() - e->running->last_used_ms)
                << (e->running->limits.empty() ? std::string() : ", limits: " + shown(e->running->limits)) << "\n";
    } else {
      std::cout << "Running: no (made on the session's first sandboxed command)\n";
    }
    std::cout << "This machine: "
              << (e->unavailable.empty() ? std::string("can build it") : "cannot build it: " + shown(e->unavailable))
              << "\n";
    for (const std::string& line : sandbox::describe_probe(e->probe)) std::cout << "  " << shown(line) << "\n";
  }
  std::string tools;
  for (const std::string& t : e->tools) tools += (tools.empty() ? "" : ", ") + t;
  std::cout << "Tools offered: " << (tools.empty() ? "none" : tools) << "\n";
  for (const std::string& d : e->denied_tools) std::cout << "  denied: " << shown(d) << "\n";
  std::cout << "Elevated: " << e->elevated << "\n";
  for (const std::string& w : e->warnings) std::cout << "Warning: " << shown(w) << "\n";
  std::cout << "Fix-it keys: agents.defaults.sandbox.mode, agents.entries.*.sandbox.*, tools.sandbox.tools.allow, "
               "tools.sandbox.tools.deny, tools.elevated.allowFrom.<provider>\n";
  return 0;
}

int run_recreate(const op::SandboxSelector& which, bool as_json) {
  if (std::optional<int> refused = refuse_under_clawexec("sandbox recreate")) return *refused;
  Result<std::vector<std::string>> stopped = op::recreate_sandboxes(op::process_operator_env(), which);
  if (!stopped.ok()) return fail("sandbox recreate", stopped.error().message);
  if (as_json) {
    print_json(boost::json::object{{"stopped", boost::json::array(stopped->begin(), stopped->end())}});
    return 0;
  }
  if (stopped->empty()) std::cout << "No running sandbox matched.\n";
  for (const std::string& s : *stopped) {
    std::cout << "Stopped " << shown(s) << "; its next command gets a new sandbox from the current config.\n";
  }
  return 0;
}

int run_prune(bool as_json) {
  if (std::optional<int> refused = refuse_under_clawexec("sandbox prune")) return *refused;
  Result<op::PruneReport> report = op::prune_sandboxes(op::process_operator_env(), epoch_ms());
  if (!report.ok()) return fail("sandbox prune", report.error().message);
  if (as_json) {
    print_json(boost::json::object{{"stopped", boost::json::array(report->stopped.begin(), report->stopped.end())},
                                   {"removed", boost::json::array(report->removed.begin(), report->removed.end())}});
    return 0;
  }
  for (const std::string& s : report->stopped) std::cout << "Stopped " << shown(s) << " (past its maximum age)\n";
  for (const std::string& s : report->removed) std::cout << "Removed the record of stopped " << shown(s) << "\n";
  if (report->stopped.empty() && report->removed.empty()) std::cout << "Nothing to prune.\n";
  return 0;
}

}  // namespace

void add_sandbox_commands(CLI::App& app, int& exit_code) {
  CLI::App* cmd = app.add_subcommand("sandbox", "List, explain, recreate and prune the per-scope sandboxes");
  cmd->require_subcommand(1);
  auto list_json = std::make_shared<bool>(false);
  auto* list = cmd->add_subcommand("list", "Show every sandbox under the configured workspaceRoots");
  list->add_flag("--json", *list_json, "Output as JSON");
  list->callback([&exit_code, list_json] { exit_code = run_list(*list_json); });

  struct ExplainFlags {
    std::string agent, session;
    bool json = false;
  };
  auto ef = std::make_shared<ExplainFlags>();
  auto* explain = cmd->add_subcommand("explain", "Show what a session gets: sandbox, tools, elevated, machine support");
  explain->add_option("--agent", ef->agent, "Agent id (default main)");
  explain->add_option("--session", ef->session, "Session key (default agent:<id>:main)");
  explain->add_flag("--json", ef->json, "Output as JSON");
  explain->callback([&exit_code, ef] { exit_code = run_explain(ef->agent, ef->session, ef->json); });

  struct RecreateFlags {
    op::SandboxSelector which;
    bool json = false;
  };
  auto rf = std::make_shared<RecreateFlags>();
  auto* recreate = cmd->add_subcommand("recreate", "End running sandboxes; their next command gets a new one");
  recreate->add_flag("--all", rf->which.all, "Every running sandbox");
  recreate->add_option("--session", rf->which.scope, "The sandbox of this scope key (a session key, agent:<id>, shared)");
  recreate->add_option("--agent", rf->which.agent, "The sandboxes of this agent");
  recreate->add_flag("--json", rf->json, "Output as JSON");
  recreate->callback([&exit_code, rf] { exit_code = run_recreate(rf->which, rf->json); });

  auto prune_json = std::make_shared<bool>(false);
  auto* prune = cmd->add_subcommand("prune", "Stop sandboxes past prune.maxAgeDays and drop records of stopped ones");
  prune->add_flag("--json", *prune_json, "Output as JSON");
  prune->callback([&exit_code, prune_json] { exit_code = run_prune(*prune_json); });
}

}  // namespace clawexec::cli
