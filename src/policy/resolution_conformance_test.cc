// Reference conformance cases for wrappers, inline commands and executable resolution
// (spec §3.7, §3.8) and isSafeExecutableValue.

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "policy/conformance_cases.h"
#include "policy/exec_resolution.h"
#include "policy/shell_wrapper_policy.h"
#include "shell/split_args.h"

namespace clawexec::policy {
namespace {

using testing::case_id;
using testing::load_cases;
namespace json = boost::json;

std::string str(const json::value& v) { return std::string(v.as_string()); }

Argv to_argv(const json::value& v) {
  Argv out;
  for (const json::value& x : v.as_array()) out.push_back(str(x));
  return out;
}

json::value opt_to_json(const std::optional<std::string>& s) {
  return s ? json::value(*s) : json::value(nullptr);
}

json::value argv_json(const Argv& argv) {
  json::array a;
  for (const std::string& s : argv) a.emplace_back(s);
  return a;
}

std::string platform_of(const json::object& c) {
  auto it = c.find("platform");
  return it == c.end() ? "any" : str(it->value());
}

int max_depth_of(const json::object& c) {
  auto it = c.find("maxDepth");
  return it == c.end() ? kMaxDispatchWrapperDepth : static_cast<int>(it->value().to_number<int64_t>());
}

json::value unwrap_json(const WrapperUnwrap& u) {
  json::object o;
  switch (u.kind) {
    case UnwrapKind::kNotWrapper:
      o["kind"] = "not-wrapper";
      break;
    case UnwrapKind::kBlocked:
      o["kind"] = "blocked";
      o["wrapper"] = u.wrapper;
      break;
    case UnwrapKind::kUnwrapped:
      o["kind"] = "unwrapped";
      o["wrapper"] = u.wrapper;
      o["argv"] = argv_json(u.argv);
      break;
  }
  return o;
}

json::value inline_match_json(const InlineCommandMatch& m) {
  json::object o;
  o["command"] = opt_to_json(m.command);
  o["valueTokenIndex"] = m.value_token_index ? json::value(static_cast<int64_t>(*m.value_token_index))
                                             : json::value(nullptr);
  return o;
}

// An in-memory file system: the listed paths are executable regular files, realpath is the
// identity for them and nullopt for anything else.
struct FakeFs {
  std::set<std::string> executables;
  FsView view() const {
    FsView v;
    v.is_executable_file = [this](const std::string& p) { return executables.count(p) > 0; };
    v.realpath = [this](const std::string& p) -> std::optional<std::string> {
      if (executables.count(p)) return p;
      return std::nullopt;
    };
    return v;
  }
};

constexpr const char* kStubDir = "/stub/bin";

std::string substitute(std::string s) {
  for (const char* ph : {"<bin>", "<dir>", "<tmp>"}) {
    for (size_t pos; (pos = s.find(ph)) != std::string::npos;) s.replace(pos, std::string(ph).size(), kStubDir);
  }
  return s;
}

// Stub executables of a case: its "files" plus every placeholder path in its argv.
FakeFs fake_fs_for(const json::object& c) {
  FakeFs fs;
  if (auto it = c.find("files"); it != c.end()) {
    for (const auto& kv : it->value().as_object()) fs.executables.insert(substitute(std::string(kv.key())));
  }
  if (auto it = c.find("argv"); it != c.end()) {
    for (const std::string& a : to_argv(it->value())) {
      if (a.find('<') == 0) fs.executables.insert(substitute(a));
    }
  }
  return fs;
}

ResolveContext context_for(const json::object& c, const FsView& view) {
  ResolveContext ctx;
  ctx.cwd = kStubDir;
  ctx.home = "/home/test";
  ctx.fs = &view;
  if (auto it = c.find("env"); it != c.end()) {
    const json::object& env = it->value().as_object();
    if (auto p = env.find("PATH"); p != env.end()) ctx.path_env = substitute(str(p->value()));
  }
  if (auto it = c.find("cwd"); it != c.end()) ctx.cwd = str(it->value());
  return ctx;
}

// Compares every key of `expect` with `got` (keys listed in `skip` excepted).
void expect_keys(const json::object& expect, const json::object& got, const std::string& id,
                 const std::set<std::string>& skip = {}) {
  for (const auto& kv : expect) {
    std::string key(kv.key());
    if (skip.count(key)) continue;
    auto it = got.find(key);
    ASSERT_NE(it, got.end()) << id << ": no value for " << key;
    json::value want = kv.value();
    if (want.is_string()) want = json::value(substitute(str(want)));
    if (want.is_array()) {
      json::array a;
      for (const json::value& x : want.as_array()) a.emplace_back(x.is_string() ? json::value(substitute(str(x))) : x);
      want = a;
    }
    EXPECT_EQ(json::serialize(it->value()), json::serialize(want)) << id << ": " << key;
  }
}

json::value resolution_json(const std::optional<CommandResolution>& r, const ResolveContext& ctx) {
  json::object o;
  if (!r) return o;
  o["execution.rawExecutable"] = r->execution.raw_executable;
  o["policyBlocked"] = r->policy_blocked;
  o["executableName"] = r->execution.executable_name;
  o["executionCandidatePath"] = opt_to_json(resolve_execution_target_candidate_path(*r, ctx));
  o["policyCandidatePath"] = opt_to_json(resolve_policy_target_candidate_path(*r, ctx));
  std::optional<Argv> planned = planned_argv(&*r, r->effective_argv);
  o["plannedArgv"] = planned ? argv_json(*planned) : json::value(nullptr);
  return o;
}

json::value exec_plan_json(const ExecWrapperTrustPlan& p) {
  json::object o;
  o["argv"] = argv_json(p.argv);
  o["policyArgv"] = argv_json(p.policy_argv);
  o["wrapperChain"] = argv_json(p.wrapper_chain);
  o["policyBlocked"] = p.policy_blocked;
  o["shellWrapperExecutable"] = p.shell_wrapper_executable;
  o["shellInlineCommand"] = opt_to_json(p.shell_inline_command);
  if (p.blocked_wrapper) o["blockedWrapper"] = *p.blocked_wrapper;
  return o;
}

// Runs one case; returns false when it was not recognised.
void run_case(const json::object& c) {
  const std::string id = case_id(c);
  const std::string fn = str(c.at("fn"));
  const json::value& expect = c.at("expect");
  auto same = [&](const json::value& got) {
    EXPECT_EQ(json::serialize(got), json::serialize(expect)) << id;
  };
  if (fn == "normalizeExecutableToken") {
    same(json::value(normalize_executable_token(str(c.at("input")))));
  } else if (fn == "isDispatchWrapperExecutable/isShellWrapperExecutable") {
    std::string in = str(c.at("input"));
    same(json::object{{"dispatch", is_dispatch_wrapper_executable(in)},
                      {"shell", is_shell_wrapper_executable(in)}});
  } else if (fn == "unwrapKnownShellMultiplexerInvocation") {
    same(unwrap_json(unwrap_known_shell_multiplexer(to_argv(c.at("argv")))));
  } else if (fn == "unwrapEnvInvocation") {
    std::optional<Argv> got = unwrap_env_invocation(to_argv(c.at("argv")));
    same(got ? argv_json(*got) : json::value(nullptr));
  } else if (fn == "unwrapKnownDispatchWrapperInvocation") {
    same(unwrap_json(unwrap_known_dispatch_wrapper(to_argv(c.at("argv")))));
  } else if (fn == "resolveDispatchWrapperTrustPlan") {
    DispatchWrapperTrustPlan p = resolve_dispatch_wrapper_trust_plan(to_argv(c.at("argv")), max_depth_of(c));
    json::object o{{"argv", argv_json(p.argv)},
                   {"wrappers", argv_json(p.wrappers)},
                   {"policyBlocked", p.policy_blocked}};
    if (p.blocked_wrapper) o["blockedWrapper"] = *p.blocked_wrapper;
    same(o);
  } else if (fn == "hasEnvManipulationBeforeShellWrapper") {
    same(json::value(has_env_manipulation_before_shell_wrapper(to_argv(c.at("argv")))));
  } else if (fn == "resolveShellWrapperTransportArgv") {
    std::optional<Argv> got = resolve_shell_wrapper_transport_argv(to_argv(c.at("argv")));
    same(got ? argv_json(*got) : json::value(nullptr));
  } else if (fn == "isShellWrapperInvocation") {
    same(json::value(is_shell_wrapper_invocation(to_argv(c.at("argv")))));
  } else if (fn == "extractEnvAssignmentKeysFromDispatchWrappers") {
    same(argv_json(extract_env_assignment_keys_from_dispatch_wrappers(to_argv(c.at("argv")))));
  } else if (fn == "extractShellWrapperInlineCommand/extractShellWrapperCommand") {
    Argv argv = to_argv(c.at("argv"));
    ShellWrapperCommand cmd = extract_shell_wrapper_command(argv);
    same(json::object{{"inline", opt_to_json(extract_shell_wrapper_inline_command(argv))},
                      {"command", json::object{{"isWrapper", cmd.is_wrapper},
                                               {"command", opt_to_json(cmd.command)}}}});
  } else if (fn == "resolveExecWrapperTrustPlan") {
    same(exec_plan_json(resolve_exec_wrapper_trust_plan(to_argv(c.at("argv")), max_depth_of(c))));
  } else if (fn == "resolveInlineCommandMatch(POSIX_INLINE_COMMAND_FLAGS)") {
    const json::object& options = c.at("options").as_object();
    bool combined = options.contains("allowCombinedC") && options.at("allowCombinedC").as_bool();
    same(inline_match_json(resolve_posix_inline_command_match(
        to_argv(c.at("argv")), combined ? CombinedFlags::kAllowCombinedC : CombinedFlags::kExactOnly)));
  } else if (fn == "resolvePowerShellInlineCommandMatch") {
    same(inline_match_json(resolve_powershell_inline_command_match(to_argv(c.at("argv")))));
  } else if (fn == "isSafeExecutableValue") {
    same(json::value(is_safe_executable_value(str(c.at("input")))));
  } else if (fn == "resolveExecutionTargetCandidatePath") {
    FakeFs fs;
    FsView view = fs.view();
    ResolveContext ctx = context_for(c, view);
    const json::object& in = c.at("input").as_object();
    ExecutableResolution r;
    r.raw_executable = str(in.at("rawExecutable"));
    r.executable_name = str(in.at("executableName"));
    same(opt_to_json(resolve_executable_candidate_path(r, ctx)));
  } else if (fn == "resolveCommandResolution") {
    FakeFs fs = fake_fs_for(c);
    FsView view = fs.view();
    ResolveContext ctx = context_for(c, view);
    // The reference passes the shell string; its first word is what gets resolved.
    std::optional<Argv> words = shell::split_shell_args(str(c.at("command")));
    ASSERT_TRUE(words && !words->empty()) << id;
    auto r = resolve_command_resolution((*words)[0], ctx);
    ASSERT_TRUE(r) << id;
    expect_keys(expect.as_object(), resolution_json(r, ctx).as_object(), id);
  } else if (fn == "resolveCommandResolutionFromArgv" ||
             fn == "resolveCommandResolutionFromArgv+evaluateExecAllowlist") {
    FakeFs fs = fake_fs_for(c);
    FsView view = fs.view();
    ResolveContext ctx = context_for(c, view);
    Argv argv;
    for (const std::string& a : to_argv(c.at("argv"))) argv.push_back(substitute(a));
    auto r = resolve_command_resolution_from_argv(argv, ctx);
    ASSERT_TRUE(r) << id;
    // allowlistSatisfied is the evaluation half, checked by the evaluator's conformance test.
    expect_keys(expect.as_object(), resolution_json(r, ctx).as_object(), id, {"allowlistSatisfied"});
  } else {
    ADD_FAILURE() << id << ": unhandled fn " << fn;
  }
}

TEST(ResolutionConformance, EveryWrapperAndResolutionCase) {
  const std::map<std::string, int> kExpectedCounts = {
      {"normalizeExecutableToken", 2},
      {"isDispatchWrapperExecutable/isShellWrapperExecutable", 4},
      {"unwrapKnownShellMultiplexerInvocation", 4},
      {"unwrapEnvInvocation", 4},
      {"unwrapKnownDispatchWrapperInvocation", 14},
      {"resolveDispatchWrapperTrustPlan", 13},
      {"hasEnvManipulationBeforeShellWrapper", 2},
      {"resolveShellWrapperTransportArgv", 1},
      {"isShellWrapperInvocation", 3},
      {"extractEnvAssignmentKeysFromDispatchWrappers", 1},
      {"extractShellWrapperInlineCommand/extractShellWrapperCommand", 7},
      {"resolveExecWrapperTrustPlan", 7},
      {"resolveInlineCommandMatch(POSIX_INLINE_COMMAND_FLAGS)", 2},
      {"resolvePowerShellInlineCommandMatch", 10},
      {"resolveCommandResolution", 1},
      {"resolveCommandResolutionFromArgv", 5},
      {"resolveCommandResolutionFromArgv+evaluateExecAllowlist", 2},
      {"resolveExecutionTargetCandidatePath", 1},
      {"isSafeExecutableValue", 6},
  };
  // darwin-only behaviour: script/arch/xcrun dispatch on macOS; we implement Linux.
  const std::map<std::string, std::string> kInapplicable = {
      {"oc-0759", "darwin: BSD script runs its command; on Linux script is blocked"},
      {"oc-0808", "darwin: BSD script unwraps before being judged semantic"},
      {"oc-0842", "darwin: BSD script unwraps before being judged semantic"},
  };
  std::set<std::string> fns;
  for (const auto& kv : kExpectedCounts) fns.insert(kv.first);
  std::map<std::string, int> seen;
  int ran = 0, skipped = 0;
  for (const json::object& c : load_cases(fns)) {
    ++seen[str(c.at("fn"))];
    if (kInapplicable.count(case_id(c))) {
      EXPECT_EQ(platform_of(c), "darwin") << case_id(c);
      ++skipped;
      continue;
    }
    ++ran;
    run_case(c);
  }
  for (const auto& kv : kExpectedCounts) EXPECT_EQ(seen[kv.first], kv.second) << kv.first;
  EXPECT_EQ(ran, 86);
  EXPECT_EQ(skipped, 3);
}

}  // namespace
}  // namespace clawexec::policy
