// `clawexec approvals get|set|allowlist add|remove`: the approvals document (spec §1) seen and
// edited by an operator. Every write goes through approvals::ApprovalsStore (locked, atomic,
// 0600, compare-and-swap against the hash read first, retried while only the servers'
// bookkeeping moved), so a command never loses a concurrent change and never overwrites a
// corrupt file. `set` validates strictly (§1.3) before anything
// is written; `allowlist add` follows the add/upgrade rules of §1.7 and refuses an argPattern
// that is not a valid regular expression for the matcher.

#include <chrono>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "approvals/bookkeeping.h"
#include "approvals/random.h"
#include "base/utf.h"
#include "policy/arg_pattern.h"
#include "cli/policy_cmd_common.h"
#include "cli/policy_cmd_effective.h"
#include "cli/policy_cmd_internal.h"
#include "config/json5.h"
#include "json/json.h"
#include "term/display_escape.h"

namespace clawexec::cli {

namespace bj = boost::json;

namespace {

constexpr size_t kMaxDocumentBytes = 1048576;

[[noreturn]] void usage_error(const std::string& what) { throw CLI::ValidationError(what); }

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

bj::value raw_json(const approvals::ApprovalsSnapshot& snap) {
  if (!snap.raw) return bj::object();
  return json::parse(*snap.raw).value_or(bj::object());
}

int run_get(const std::string& agent, bool as_json) {
  const char* command = "approvals get";
  OperatorEnv env = operator_env();
  auto snap = open_store(env).read_snapshot();
  if (!snap.ok()) return fail(command, snap.error().message);
  bj::object out = redacted_snapshot(*snap);
  bj::value raw = raw_json(*snap);
  auto config = read_config_document(env.config_path);
  if (config.ok()) {
    out["effectivePolicy"] = effective_policy_report(config->document, raw, snap->file, snap->path, ReportStyle::kApprovalsGet);
    out["agent"] = agent;
    out["agentPolicy"] = agent_policy_snapshot(config->document, raw, snap->file, snap->path, agent);
  } else {
    out["effectivePolicy"] = bj::object{{"scopes", bj::array()}, {"note", "Config unavailable: " + config.error().message}};
  }
  if (as_json) {
    print_json(out);
    return 0;
  }
  // The document holds the agent's text (lastUsedCommand): shown escaped, JSON escapes kept.
  std::cout << "Approvals: " << term::escape_for_display(snap->path)
            << (snap->exists ? "" : " (missing: built-in defaults apply)") << "\n";
  std::cout << "Hash: " << snap->hash << "\n\n"
            << term::escape_for_display(json::stringify(out.at("file"), 2), term::DisplayStyle::kJsonText) << "\n";
  if (out.contains("agentPolicy")) {
    const bj::object& p = out.at("agentPolicy").as_object();
    std::cout << "\nEffective policy for agent " << agent << ": security=" << p.at("security").at("effective").as_string().c_str()
              << " ask=" << p.at("ask").at("effective").as_string().c_str()
              << " askFallback=" << p.at("askFallback").at("effective").as_string().c_str() << "\n";
  }
  std::cout << term::escape_for_display(std::string(out.at("effectivePolicy").at("note").as_string()),
                                        term::DisplayStyle::kLines)
            << "\n";
  return 0;
}

Result<std::string> read_input(const std::optional<std::string>& file) {
  std::string text;
  if (file) {
    std::ifstream in(*file, std::ios::binary);
    if (!in) return Error::invalid("read " + *file + ": cannot open the file");
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } else {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  }
  if (text.size() > kMaxDocumentBytes) {
    return Error::invalid("Exec approvals input exceeds " + std::to_string(kMaxDocumentBytes) + " bytes.");
  }
  return text;
}

// Parses and strictly validates a document for `set` (missing "version" means 1).
Result<bj::value> parse_for_set(const std::string& text) {
  auto parsed = config::parse_json5(text);
  if (!parsed.ok()) return Error::invalid("Failed to parse approvals JSON: " + parsed.error().message);
  if (!parsed->is_object()) return Error::invalid("Exec approvals JSON must be an object.");
  if (!parsed->as_object().contains("version")) parsed->as_object()["version"] = 1;
  auto valid = approvals::validate_document(*parsed);
  if (!valid.ok()) return Error::invalid("invalid approvals document: " + valid.error().message);
  return std::move(*parsed);
}

// The normalised document with the socket path and token kept from the current file (or the
// default path and a fresh token), as the reference's mergeExecApprovalsSocketDefaults does.
Result<approvals::Document> with_socket_defaults(approvals::Document next, const approvals::Document& current,
                                                 const std::string& default_socket) {
  auto get = [](const approvals::Document& doc, std::string_view key) -> std::optional<std::string> {
    auto s = doc.find("socket");
    if (s == doc.end() || !s->value().is_object()) return std::nullopt;
    auto v = s->value().as_object().find(key);
    if (v == s->value().as_object().end() || !v->value().is_string()) return std::nullopt;
    return std::string(v->value().as_string());
  };
  std::string path = get(next, "path").value_or(get(current, "path").value_or(default_socket));
  std::optional<std::string> token = get(next, "token");
  if (!token) token = get(current, "token");
  if (!token) token = TRY(approvals::generate_socket_token());
  next["socket"] = bj::object{{"path", path}, {"token", *token}};
  return next;
}

int run_set(const std::optional<std::string>& file, bool as_json) {
  const char* command = "approvals set";
  if (std::optional<int> refused = refuse_under_clawexec(command)) return *refused;
  auto text = read_input(file);
  if (!text.ok()) return fail(command, text.error().message);
  auto input = parse_for_set(*text);
  if (!input.ok()) return fail(command, input.error().message);
  OperatorEnv env = operator_env();
  approvals::ApprovalsStore store = open_store(env);
  auto before = store.read_snapshot();
  if (!before.ok()) return fail(command, before.error().message);
  approvals::Document normalized = approvals::normalize_document(*input, &approvals::random_uuid);
  auto result = store.update_from(*before, [&](approvals::Document& doc) -> Result<bool> {
    doc = TRY(with_socket_defaults(normalized, doc, env.approvals.socket));
    return true;
  });
  if (!result.ok()) return fail(command, result.error().message);
  if (result->outcome == approvals::UpdateOutcome::kBaseHashMismatch) {
    return fail(command, "Exec approvals changed; reload and retry.");
  }
  bj::object out = redacted_snapshot(result->snapshot);
  out["changed"] = result->outcome == approvals::UpdateOutcome::kWritten;
  if (as_json) print_json(out);
  else std::cout << (result->outcome == approvals::UpdateOutcome::kWritten ? "Wrote " : "Unchanged: ") << out.at("path").as_string().c_str() << "\n";
  return 0;
}

struct AllowlistOptions {
  std::string agent = "main";
  std::string pattern;
  std::optional<std::string> arg_pattern;
  bool json = false;
};

int run_allowlist(const AllowlistOptions& o, bool add) {
  const char* command = add ? "approvals allowlist add" : "approvals allowlist remove";
  if (std::optional<int> refused = refuse_under_clawexec(command)) return *refused;
  std::string agent(js_trim(o.agent));
  std::string pattern(js_trim(o.pattern));
  if (agent.empty()) usage_error("--agent must not be blank");
  if (pattern.empty()) usage_error("Pattern required.");
  std::optional<std::string> arg;
  if (o.arg_pattern && !o.arg_pattern->empty()) arg = *o.arg_pattern;
  if (add && arg) {
    std::optional<std::string> invalid = policy::arg_pattern_error(*arg);
    if (invalid) usage_error("invalid --arg-pattern " + *arg + ": " + *invalid);
  }
  OperatorEnv env = operator_env();
  approvals::ApprovalsStore store = open_store(env);
  auto before = store.read_snapshot();
  if (!before.ok()) return fail(command, before.error().message);
  size_t removed = 0;
  // Servers record allowlist use in the same file all the time: update_from re-applies the edit
  // when only that changed, and reports a conflict only for a real concurrent policy change.
  auto result = store.update_from(*before, [&](approvals::Document& doc) -> Result<bool> {
    if (add) return approvals::add_allowlist_entry(doc, agent, {pattern, arg, std::nullopt}, now_ms(), &approvals::random_uuid);
    removed = approvals::remove_allowlist_entries(doc, agent, {std::nullopt, pattern, arg});
    return removed > 0;
  });
  if (!result.ok()) return fail(command, result.error().message);
  if (result->outcome == approvals::UpdateOutcome::kBaseHashMismatch) {
    return fail(command, "Exec approvals changed; reload and retry.");
  }
  const bool changed = result->outcome == approvals::UpdateOutcome::kWritten;
  std::string what = "agents." + agent + ".allowlist: " + pattern + (arg ? " (argPattern " + *arg + ")" : "");
  std::string message = add ? (changed ? "Added " + what : "Already allowlisted: " + what)
                            : (changed ? "Removed " + what : "Pattern not found: " + what);
  if (o.json) {
    bj::object out{{"action", add ? (changed ? "added" : "unchanged") : (changed ? "removed" : "not-found")},
                   {"changed", changed},
                   {"agent", agent},
                   {"pattern", pattern},
                   {"argPattern", arg ? bj::value(*arg) : bj::value(nullptr)},
                   {"message", message}};
    if (!add) out["removed"] = removed;
    for (auto& m : redacted_snapshot(result->snapshot)) out[m.key()] = m.value();
    print_json(out);
  } else {
    std::cout << term::escape_for_display(message) << "\n";
  }
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
  for (bool add : {true, false}) {
    auto* sub = allowlist->add_subcommand(add ? "add" : "remove",
                                          add ? "Add a pattern (with an optional argPattern)"
                                              : "Remove the entries with this pattern and argPattern");
    auto opts = std::make_shared<AllowlistOptions>();
    sub->add_option("--agent", opts->agent, "Agent id (default main; \"*\" for every agent)");
    sub->add_option("--arg-pattern", opts->arg_pattern, "Regular expression the arguments must match");
    sub->add_flag("--json", opts->json, "Output as JSON");
    sub->add_option("pattern", opts->pattern, "Executable path or name glob")->required();
    sub->callback([&exit_code, opts, add] { exit_code = run_allowlist(*opts, add); });
  }
}

}  // namespace clawexec::cli
