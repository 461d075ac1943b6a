// `clawexec approvals pending|resolve|say` (and the registration of `watch`, which lives in
// policy_cmd_approvals_watch.cc): the operator's side of the approvals socket, through
// operator/pending_approvals.h (which finds the hub that serves it). This file shows what the
// hub answers; everything an approval carries is shown escaped for display
// (term/display_escape.h): the command is the agent's text.

#include <chrono>
#include <iostream>

#include <CLI/CLI.hpp>

#include "base/strings.h"
#include "base/utf.h"
#include "cli/policy_cmd_common.h"
#include "cli/policy_cmd_queue.h"
#include "json/json.h"
#include "operator/pending_approvals.h"
#include "term/display_escape.h"

namespace clawexec::cli {

namespace bj = boost::json;
namespace op = operator_ops;

std::string shown(const bj::object& o, std::string_view key) { return term::escape_for_display(field_text(o, key)); }

std::string field_text(const bj::object& o, std::string_view key) {
  const bj::value* v = json::find(o, key);
  if (!v) return "";
  if (v->is_string()) return std::string(v->as_string());
  if (v->is_null()) return "";
  return json::serialize(*v);
}

std::string decisions_of(const bj::object& approval) {
  std::vector<std::string> out;
  if (const bj::value* d = json::find(approval, "allowedDecisions"); d && d->is_array()) {
    for (const bj::value& v : d->as_array()) {
      if (v.is_string()) out.emplace_back(v.as_string());
    }
  }
  return out.empty() ? "allow-once|allow-always|deny" : join(out, "|");
}

int report(std::string_view command, const Error& error) {
  if (error.code == ErrorCode::kNotFound) {
    std::cerr << term::escape_for_display(error.message) << "\n";
    return 1;
  }
  return fail(command, error.message);
}

namespace {

std::string expires_in(const bj::object& approval) {
  const bj::value* v = json::find(approval, "expiresAtMs");
  auto at = v ? json::as_number(*v) : std::nullopt;
  if (!at) return "-";
  const double now = static_cast<double>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                             std::chrono::system_clock::now().time_since_epoch())
                                             .count());
  const int64_t seconds = static_cast<int64_t>((*at - now) / 1000);
  if (seconds <= 0) return "expired";
  return seconds >= 60 ? std::to_string(seconds / 60) + "m" : std::to_string(seconds) + "s";
}

std::string pad(const std::string& s, size_t width) {
  const size_t len = utf16_length(s);
  return len >= width ? s + " " : s + std::string(width - len, ' ');
}

int run_pending(bool as_json) {
  const char* command = "approvals pending";
  auto list = op::list_pending_approvals(op::process_operator_env());
  if (!list.ok()) return report(command, list.error());
  if (as_json) {
    bj::array out;
    for (const bj::object& a : *list) out.push_back(a);
    print_json(out);
    return 0;
  }
  if (list->empty()) {
    std::cout << "No pending approvals.\n";
    return 0;
  }
  std::cout << pad("ID", 10) << pad("EXPIRES", 9) << pad("PID", 9) << pad("DECISIONS", 29) << "COMMAND\n";
  for (const bj::object& a : *list) {
    std::string slug = shown(a, "slug");
    if (slug.empty()) slug = term::escape_for_display(field_text(a, "id").substr(0, 8));
    std::cout << pad(slug, 10) << pad(expires_in(a), 9) << pad(shown(a, "pid"), 9)
              << pad(term::escape_for_display(decisions_of(a)), 29) << truncate_middle(shown(a, "command"), 80) << "\n";
    std::cout << "  cwd " << shown(a, "cwd") << "  agent " << shown(a, "agentId") << "  host " << shown(a, "host")
              << "\n";
    // The warnings, one per line after "! " (the auto-reviewer's risk and rationale among them).
    std::string warnings = field_text(a, "warningText");
    for (size_t start = 0; start < warnings.size();) {
      size_t end = warnings.find('\n', start);
      std::string_view line = std::string_view(warnings).substr(start, end == std::string::npos ? std::string::npos : end - start);
      // Marked, so a requester's warning text cannot pass for a row of this table.
      if (!line.empty()) std::cout << "  ! " << term::escape_for_display(line) << "\n";
      if (end == std::string::npos) break;
      start = end + 1;
    }
  }
  return 0;
}

int run_resolve(const std::string& id, const std::string& decision, bool as_json) {
  const char* command = "approvals resolve";
  if (std::optional<int> refused = refuse_under_clawexec(command)) return *refused;
  auto reply = op::resolve_pending_approval(op::process_operator_env(), id, decision);
  if (!reply.ok()) return report(command, reply.error());
  const bool ok = reply->contains("ok") && reply->at("ok") == bj::value(true);
  if (as_json) {
    print_json(*reply);
  } else if (ok) {
    std::cout << "Approval " << decision << " submitted for " << shown(*reply, "id") << ".\n";
  }
  if (!ok && !as_json) return fail(command, field_text(*reply, "error"));
  return ok ? 0 : 1;
}

// `/approve <id> <decision>` or `/exec ...` as text, the way a chat operator would type it.
int run_say(const std::vector<std::string>& words) {
  const char* command = "approvals say";
  if (std::optional<int> refused = refuse_under_clawexec(command)) return *refused;
  std::string text;
  for (const std::string& w : words) text += (text.empty() ? "" : " ") + w;
  auto reply = op::send_operator_text(op::process_operator_env(), text);
  if (!reply.ok()) return report(command, reply.error());
  std::cout << term::escape_for_display(*reply, term::DisplayStyle::kLines) << "\n";
  return reply->rfind("\u274c", 0) == 0 ? 1 : 0;  // replies that start with ❌ are failures
}

}  // namespace

void add_approval_queue_commands(CLI::App& approvals_cmd, int& exit_code) {
  auto* pending = approvals_cmd.add_subcommand("pending", "List the approvals waiting for a decision");
  auto pending_json = std::make_shared<bool>(false);
  pending->add_flag("--json", *pending_json, "Output as JSON");
  pending->callback([&exit_code, pending_json] { exit_code = run_pending(*pending_json); });

  auto* resolve = approvals_cmd.add_subcommand("resolve", "Answer a pending approval");
  auto args = std::make_shared<std::pair<std::string, std::string>>();
  auto resolve_json = std::make_shared<bool>(false);
  resolve->add_option("id", args->first, "Approval id, slug or unique id prefix")->required();
  resolve->add_option("decision", args->second, "allow-once, allow-always or deny")
      ->required()
      ->check(CLI::IsMember({"allow-once", "allow-always", "deny"}));
  resolve->add_flag("--json", *resolve_json, "Output as JSON");
  resolve->callback([&exit_code, args, resolve_json] {
    exit_code = run_resolve(args->first, args->second, *resolve_json);
  });

  auto* say = approvals_cmd.add_subcommand("say", "Send /approve or /exec text to the operator channel");
  auto words = std::make_shared<std::vector<std::string>>();
  say->add_option("text", *words, "The text, e.g. /approve ab12cd34 allow-once")->required();
  say->callback([&exit_code, words] { exit_code = run_say(*words); });

  auto* watch = approvals_cmd.add_subcommand("watch", "Show approval requests as they come and answer them");
  auto watch_json = std::make_shared<bool>(false);
  watch->add_flag("--json", *watch_json, "Print events as JSON lines (never interactive)");
  watch->callback([&exit_code, watch_json] { exit_code = run_watch(*watch_json); });
}

}  // namespace clawexec::cli
