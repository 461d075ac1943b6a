// `clawexec policy explain`: loads the same configuration and approvals document `serve` uses,
// runs the gateway policy decision for one command (nothing is executed) and prints the report
// documented in docs/approvals.md.

#include "daemon/policy_explain.h"

#include <cstdio>

#include "daemon/setup.h"
#include "env/env_list.h"
#include "exec/policy_gate.h"
#include "exec/service.h"
#include "json/json.h"
#include "sys/sys.h"
#include "term/display_escape.h"

namespace clawexec::daemon {
namespace {

// The text form is read by a human: every value from the command is escaped for display.
std::string text_report(const boost::json::object& r) {
  auto str = [&](const char* k) -> std::string {
    const boost::json::value* v = r.if_contains(k);
    return v && v->is_string() ? term::escape_for_display(v->as_string()) : std::string();
  };
  auto shown = [](const boost::json::value& v) { return term::escape_for_display(v.as_string()); };
  std::string out = "command: " + str("command") + "\n";
  out += "policy: security=" + str("security") + " ask=" + str("ask") + " askFallback=" + str("askFallback") + "\n";
  out += "analysis: " + std::string(r.at("analysisOk").as_bool() ? "ok" : "unanalyzable") + "\n";
  for (const auto& seg : r.at("segments").as_array()) {
    const boost::json::object& s = seg.as_object();
    std::string argv;
    for (const auto& a : s.at("argv").as_array()) argv += (argv.empty() ? "" : " ") + shown(a);
    out += "  segment: " + argv + "\n    resolved: " +
           (s.at("resolvedPath").is_string() ? shown(s.at("resolvedPath")) : "(unresolved)") +
           "\n    satisfied by: " + shown(s.at("satisfiedBy")) + "\n";
  }
  for (const auto& reason : r.at("reasons").as_array()) {
    out += "reason: " + term::escape_for_display(reason.as_string(), term::DisplayStyle::kLines) + "\n";
  }
  out += "decision: " + str("decision") + "\n";
  if (const boost::json::value* review = r.if_contains("autoReview"); review && review->is_object()) {
    const boost::json::value* consulted = review->as_object().if_contains("consulted");
    const boost::json::value* why = review->as_object().if_contains("why");
    if (consulted && consulted->is_bool() && why && why->is_string()) {
      out += std::string("auto review: ") + (consulted->as_bool() ? "consulted" : "not consulted") + ": " + shown(*why) + "\n";
    }
  }
  if (r.contains("commandToRun")) out += "runs: " + str("commandToRun") + "\n";
  if (const boost::json::value* deny = r.if_contains("denyMessage"); deny && deny->is_string()) {
    out += "refused with: " + term::escape_for_display(deny->as_string(), term::DisplayStyle::kLines) + "\n";
  } else if (deny) {
    out += "refused with: \n";
  }
  return out;
}

}  // namespace

int run_policy_explain(const PolicyExplainOptions& options) {
  std::optional<Setup> setup = load_setup_reporting(options.agent_id, "policy explain");
  if (!setup) return 1;
  std::string cwd;
  if (options.cwd) {
    Result<std::string> real = sys::real_path(*options.cwd);
    if (!real.ok() || !sys::is_directory(real.value())) {
      std::fprintf(stderr, "clawexec policy explain: --cwd %s is not a directory\n", options.cwd->c_str());
      return 1;
    }
    cwd = real.value();
  } else {
    Result<std::string> current = sys::current_directory();
    if (!current.ok()) {
      std::fprintf(stderr, "clawexec policy explain: %s\n", current.error().message.c_str());
      return 1;
    }
    cwd = current.value();
  }
  // The PATH a gateway command would get: the login shell's PATH and pathPrepend included.
  std::string path;
  {
    boost::asio::io_context io;
    exec::ExecService service(io, setup->service);
    service.gateway_path([&](std::string p) {
      path = std::move(p);
      io.stop();
    });
    io.run();
  }
  boost::json::object report = exec::explain_policy(setup->service, options.command, cwd, path);
  std::string text = options.json ? json::stringify(boost::json::value(report), 2) + "\n" : text_report(report);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return 0;
}

}  // namespace clawexec::daemon
