// Runs every reference conformance case of the approvals-file functions (and of the defaults
// and effective-policy resolutions, which need a document) through our code. Expectations
// are partial objects: each expected key must be present in our output with an equal value.

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>

#include "approvals/document.h"
#include "approvals/store.h"
#include "json/json.h"
#include "policy/conformance_cases.h"

namespace clawexec::approvals {
namespace {

namespace bj = boost::json;
namespace fs = std::filesystem;
using policy::testing::case_id;
using policy::testing::load_cases;

std::string counter_id() {
  static int n = 0;
  return "id-" + std::to_string(++n);
}

// Expected ⊆ got (objects compared key by key, recursively; everything else by equality).
bool contains(const bj::value& got, const bj::value& expected) {
  if (expected.is_object()) {
    if (!got.is_object()) return false;
    for (const auto& kv : expected.get_object()) {
      const bj::value* g = got.get_object().if_contains(kv.key());
      if (g == nullptr || !contains(*g, kv.value())) return false;
    }
    return true;
  }
  return got == expected;
}

std::string str(policy::ExecSecurity v) { return std::string(config::to_string(v)); }
std::string str(policy::ExecAsk v) { return std::string(config::to_string(v)); }
std::string str(policy::ExecMode v) { return std::string(config::to_string(v)); }
std::string str(policy::ExecHost v) { return std::string(config::to_string(v)); }

bj::value patterns(const std::vector<policy::AllowlistEntry>& entries) {
  bj::array out;
  for (const auto& e : entries) out.emplace_back(e.pattern);
  return out;
}

policy::ExecPolicyLayer layer_from(const bj::value* exec) {
  policy::ExecPolicyLayer layer;
  if (exec == nullptr || !exec->is_object()) return layer;
  const bj::object& o = exec->get_object();
  if (auto* v = o.if_contains("host")) layer.host = policy::normalize_exec_target(*v);
  if (auto* v = o.if_contains("mode")) layer.mode = policy::normalize_exec_mode(*v);
  if (auto* v = o.if_contains("security")) layer.security = policy::normalize_exec_security(*v);
  if (auto* v = o.if_contains("ask")) layer.ask = policy::normalize_exec_ask(*v);
  if (auto* v = o.if_contains("node")) layer.node = std::string(v->as_string());
  return layer;
}

const bj::value* path_in(const bj::value& root, std::initializer_list<std::string_view> keys) {
  const bj::value* cur = &root;
  for (auto k : keys) {
    if (!cur->is_object()) return nullptr;
    cur = cur->get_object().if_contains(k);
    if (cur == nullptr) return nullptr;
  }
  return cur;
}

const ResolveContext kContext{"~/.openclaw/exec-approvals.json", "/home/u/.openclaw/exec-approvals.sock", "/home/u"};

policy::ExecDefaults run_defaults(const bj::object& c, bool* file_read) {
  const bj::value& cfg = c.at("cfg");
  const std::string agent_id = c.contains("agentId") ? std::string(c.at("agentId").as_string()) : "main";
  const bj::value approvals = c.contains("approvals") ? c.at("approvals") : bj::value(bj::object{{"version", 1}});
  policy::ExecDefaultsInputs in;
  in.global = layer_from(path_in(cfg, {"tools", "exec"}));
  if (const bj::value* list = path_in(cfg, {"agents", "list"})) {
    for (const auto& a : list->as_array()) {
      if (a.at("id").as_string() == agent_id) in.agent = layer_from(path_in(a, {"tools", "exec"}));
    }
  }
  in.sandbox_available = c.contains("sandboxAvailable") && c.at("sandboxAvailable").as_bool();
  in.resolve_approvals = [&](const policy::ApprovalsOverrides& overrides) {
    *file_read = true;
    return resolve_from_file(approvals, agent_id, overrides, kContext, counter_id).agent;
  };
  return policy::resolve_exec_defaults(in);
}

bj::value run_pure(const bj::object& c) {
  const std::string fn(c.at("fn").as_string());
  if (fn == "resolveExecDefaults") {
    bool file_read = false;
    const auto d = run_defaults(c, &file_read);
    return bj::object{{"host", str(d.host)},         {"effectiveHost", str(d.effective_host)},
                      {"mode", str(d.mode)},         {"security", str(d.security)},
                      {"ask", str(d.ask)},           {"canRequestNode", d.can_request_node},
                      {"approvalsFileRead", file_read}};
  }
  if (fn == "resolveNodeExecEligibility") {
    bool file_read = false;
    const auto d = run_defaults(c, &file_read);
    std::vector<std::string> deny;
    if (const bj::value* list = path_in(c.at("cfg"), {"gateway", "nodes", "denyCommands"})) {
      for (const auto& v : list->as_array()) deny.emplace_back(v.as_string());
    }
    const auto e = policy::resolve_node_exec_eligibility(d, deny);
    bj::object out{{"canExec", e.can_exec}};
    if (e.node) out["node"] = *e.node;
    return out;
  }
  if (fn == "normalizeExecApprovals") {
    const Document doc = normalize_document(c.at("input"), counter_id);
    bj::object out{{"defaults", doc.at("defaults")}};
    const bj::value* main = path_in(doc, {"agents", "main"});
    if (main != nullptr) out["main.allowlistPatterns"] = patterns(allowlist_entries(doc, "main"));
    out["defaults.askFallback"] = doc.at("defaults").as_object().contains("askFallback")
                                      ? doc.at("defaults").at("askFallback")
                                      : bj::value("<absent>");
    return out;
  }
  if (fn == "resolveExecApprovalsFromFile") {
    const std::string agent_id = c.contains("agentId") ? std::string(c.at("agentId").as_string()) : "main";
    policy::ApprovalsOverrides overrides;
    if (const bj::value* o = c.if_contains("overrides")) {
      overrides.security = policy::normalize_exec_security(o->at("security"));
      overrides.ask = policy::normalize_exec_ask(o->at("ask"));
      overrides.ask_fallback = policy::normalize_exec_security(o->at("askFallback"));
    }
    const ResolvedApprovals r = resolve_from_file(c.at("file"), agent_id, overrides, kContext, counter_id);
    const auto src = [](const std::optional<std::string>& s) { return s ? bj::value(*s) : bj::value(nullptr); };
    bj::object out{
        {"allowlistPatterns", patterns(r.allowlist)},
        {"agent.ask", str(r.agent.ask)},
        {"agent",
         {{"security", str(r.agent.security)}, {"ask", str(r.agent.ask)}, {"askFallback", str(r.agent.ask_fallback)}}},
        {"agentSources",
         {{"security", src(r.agent_sources.security_source)},
          {"ask", src(r.agent_sources.ask_source)},
          {"askFallback", src(r.agent_sources.ask_fallback_source)}}},
        {"defaults", {{"security", str(r.defaults.security)}, {"ask", str(r.defaults.ask)}}},
        {"file.agents.default", path_in(r.file, {"agents", "default"}) ? bj::value("present") : bj::value("<absent>")},
    };
    const auto main_entries = allowlist_entries(r.file, "main");
    if (!main_entries.empty()) out["file.agents.main.allowlist[0].pattern"] = main_entries[0].pattern;
    return out;
  }
  if (fn == "resolveExecPolicyScopeSnapshot") {
    const bj::object& input = c.at("input").as_object();
    policy::PolicyScopeSnapshotInputs in;
    in.scope = layer_from(input.if_contains("scopeExecConfig"));
    if (input.contains("globalExecConfig")) in.global = layer_from(input.if_contains("globalExecConfig"));
    in.host_path = "~/.openclaw/exec-approvals.json";
    const std::string agent_id = input.contains("agentId") ? std::string(input.at("agentId").as_string()) : "main";
    in.agent_id = agent_id;
    const bj::value& raw = input.at("approvals");
    in.file = host_policy_view(raw, normalize_document(raw, counter_id), agent_id);
    return policy::to_json(policy::resolve_exec_policy_scope_snapshot(in));
  }
  return nullptr;
}

// ---- store-backed cases ----

struct TempHome {
  std::string dir;
  TempHome() {
    char tmpl[] = "/tmp/clawexec-approvals-conf-XXXXXX";
    dir = ::mkdtemp(tmpl);
  }
  ~TempHome() { fs::remove_all(dir); }
  ApprovalsPaths paths() const {
    config::PathContext ctx;
    ctx.env = config::env_from_map({{"HOME", dir}});
    ctx.cwd = "/";
    return resolve_approvals_paths(ctx);
  }
};

void write_file(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text;
}

bj::value defaults_of(const Document& doc) { return bj::object{{"defaults", doc.at("defaults")}}; }

// Loads an unreadable (mode 000) file. As root the mode does not stop reads, so a child drops
// to an unprivileged uid first and reports whether it got the fail-closed policy.
bool unreadable_file_loads_fail_closed() {
  TempHome home;
  ::chmod(home.dir.c_str(), 0755);
  const ApprovalsPaths paths = home.paths();
  write_file(paths.file, R"({"version":1,"defaults":{"security":"full"},"agents":{}})");
  ::chmod(paths.state_dir.c_str(), 0755);
  ::chmod(paths.file.c_str(), 0);
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(3);
    if (::access(paths.file.c_str(), R_OK) == 0) ::_exit(4);  // the read would not fail
    const Document doc = ApprovalsStore(paths).load();
    const bool closed = contains(defaults_of(doc), bj::parse(R"({"defaults":{"security":"deny","ask":"off"}})"));
    ::_exit(closed ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

bj::value run_store(const bj::object& c) {
  const std::string fn(c.at("fn").as_string());
  TempHome home;
  const ApprovalsPaths paths = home.paths();
  if (fn == "resolveExecApprovalsPath/SocketPath/DisplayPath") {
    std::string text = json::serialize(bj::object{{"path", paths.file}, {"socketPath", paths.socket},
                                                   {"displayPath", paths.display}});
    return bj::parse(std::regex_replace(text, std::regex(home.dir), "<home>"));
  }
  const bj::value& content = c.at("fileContent");
  if (fn == "loadExecApprovals" && content.is_string() && content.as_string() == "<EACCES on read>") {
    return unreadable_file_loads_fail_closed() ? bj::parse(R"({"defaults":{"security":"deny","ask":"off"}})")
                                               : bj::value("not fail-closed");
  }
  if (content.is_string()) write_file(paths.file, std::string(content.as_string()));
  ApprovalsStore store(paths, StoreOptions{counter_id, nullptr, nullptr, {}});
  if (fn == "readExecApprovalsSnapshot") {
    auto snap = store.read_snapshot();
    if (!snap.ok()) return bj::object{{"error", snap.error().message}};
    return bj::object{{"exists", snap->exists},
                      {"raw", snap->raw ? bj::value(*snap->raw) : bj::value(nullptr)},
                      {"file", snap->file}};
  }
  if (fn == "loadExecApprovals") return defaults_of(store.load());
  if (fn == "ensureExecApprovals") {
    auto snap = store.ensure();
    if (!snap.ok()) return bj::object{{"error", snap.error().message}};
    const std::string token(snap->file.at("socket").at("token").as_string());
    const bool token_ok = std::regex_match(token, std::regex("^[A-Za-z0-9_-]{32}$"));
    const std::string socket(snap->file.at("socket").at("path").as_string());
    return bj::object{{"socket.path", socket == paths.socket ? "<default socket>" : socket},
                      {"socket.tokenRegex", token_ok ? "^[A-Za-z0-9_-]{32}$" : token},
                      {"rawEndsWithNewline", snap->raw && !snap->raw->empty() && snap->raw->back() == '\n'}};
  }
  return nullptr;
}

TEST(ApprovalsConformance, EveryCaseOfTheApprovalsFileFunctionsMatchesTheReference) {
  const std::map<std::string, size_t> expected_counts = {
      {"resolveExecDefaults", 5},
      {"resolveNodeExecEligibility", 2},
      {"resolveExecApprovalsPath/SocketPath/DisplayPath", 1},
      {"readExecApprovalsSnapshot", 1},
      {"loadExecApprovals", 2},
      {"ensureExecApprovals", 1},
      {"normalizeExecApprovals", 4},
      {"resolveExecApprovalsFromFile", 4},
      {"resolveExecPolicyScopeSnapshot", 4},
  };
  std::set<std::string> fns;
  for (const auto& [fn, count] : expected_counts) fns.insert(fn);
  const auto cases = load_cases(fns);
  std::map<std::string, size_t> ran;
  for (const auto& c : cases) {
    const std::string fn(c.at("fn").as_string());
    const bool store_backed = c.contains("fileContent") || fn.rfind("resolveExecApprovalsPath", 0) == 0;
    const bj::value got = store_backed ? run_store(c) : run_pure(c);
    EXPECT_TRUE(contains(got, c.at("expect")))
        << case_id(c) << ": got " << json::serialize(got) << ", expected " << json::serialize(c.at("expect"));
    ++ran[fn];
  }
  EXPECT_EQ(ran, expected_counts);
  EXPECT_EQ(cases.size(), 24u);
}

}  // namespace
}  // namespace clawexec::approvals
