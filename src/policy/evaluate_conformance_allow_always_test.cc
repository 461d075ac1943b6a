// The reference's allow-always cases (§4.6): which patterns an approved command persists, and
// that the persisted patterns (or hand-made entries) do not authorize the bypass variants.

#include <gtest/gtest.h>

#include <algorithm>

#include "policy/decide.h"
#include "policy/evaluate_conformance_support.h"
#include "policy/modes.h"

namespace clawexec::policy {
namespace {

using namespace testing;  // NOLINT: the test-support vocabulary

bool flag(const bj::object& c, std::string_view key) {
  const bj::value* v = find_key(c, key);
  return v && v->as_bool();
}

// The patterns an allow-always approval of `command` would persist (kPatterns only).
AllowAlwaysDecision allow_always_for(const std::string& command, const EvaluationContext& ctx, bool strict) {
  AllowlistEvaluation e = evaluate_shell_allowlist(command, ctx);
  return resolve_allow_always(e, /*runtime_payload=*/false, ctx, strict);
}

std::vector<std::string> persisted(const AllowAlwaysDecision& d) {
  return d.kind == AllowAlwaysKind::kPatterns ? d.patterns : std::vector<std::string>{};
}

std::vector<std::string> strings_of(const bj::value& v) {
  std::vector<std::string> out;
  for (const bj::value& x : v.as_array()) out.push_back(sub(str(x)));
  return out;
}

bool satisfied_with(const bj::object& c, const std::string& command, const std::vector<std::string>& patterns) {
  CaseWorld world(c);
  world.allowlist.clear();
  for (const std::string& p : patterns) world.add_pattern(p, "allow-always");
  return evaluate_shell_allowlist(command, world.ctx).allowlist_satisfied;
}

// ---- resolveAllowAlwaysPersistenceDecision(patterns) ------------------------------------------

void check_persistence_case(const bj::object& c) {
  const std::string id = case_id(c);
  const std::string command = sub(str(c.at("command")));
  CaseWorld world(c);
  std::vector<std::string> got = persisted(allow_always_for(command, world.ctx, flag(c, "strictInlineEval")));
  const bj::object& expect = c.at("expect").as_object();
  EXPECT_EQ(got, strings_of(expect.at("persistedPatterns"))) << id;
  if (const bj::value* v = find_key(expect, "secondEvalSameCommandSatisfied")) {
    EXPECT_EQ(satisfied_with(c, command, got), v->as_bool()) << id;
  }
  // Hand-made entries for what the command reaches must not authorize it either.
  const std::pair<const char*, const char*> probes[] = {
      {"allowlistScriptSatisfies", "/fake/dir/scripts/save_crystal.sh"},
      {"allowlistInnerToolSatisfies", "/fake/dir/openclaw-ok"},
      {"allowlistTouchSatisfies", "/fake/dir/touch"},
  };
  for (const auto& [key, pattern] : probes) {
    if (const bj::value* v = find_key(expect, key)) {
      EXPECT_EQ(satisfied_with(c, command, {pattern}), v->as_bool()) << id << ": " << key;
    }
  }
  if (const bj::value* v = find_key(expect, "secondSatisfied")) {
    std::string second = find_key(expect, "secondCommand") ? sub(str(expect.at("secondCommand"))) : command;
    std::vector<std::string> list = got;
    if (const bj::value* extra = find_key(expect, "secondAllowlist")) {
      for (const std::string& p : strings_of(*extra)) list.push_back(p);
    }
    EXPECT_EQ(satisfied_with(c, second, list), v->as_bool()) << id;
  }
}

TEST(EvaluateConformance, AllowAlwaysPersistenceDecisionPatterns) {
  std::vector<bj::object> cases = load_cases({"resolveAllowAlwaysPersistenceDecision(patterns)"});
  ASSERT_EQ(cases.size(), 16u);
  for (const bj::object& c : cases) check_persistence_case(c);
}

// ---- evaluateShellAllowlistWithAuthorization+resolveAllowAlwaysPersistenceDecision ------------

TEST(EvaluateConformance, ShellAllowlistThenPersistenceDecision) {
  std::vector<bj::object> cases =
      load_cases({"evaluateShellAllowlistWithAuthorization+resolveAllowAlwaysPersistenceDecision"});
  ASSERT_EQ(cases.size(), 1u);
  for (const bj::object& c : cases) {
    const std::string id = case_id(c);
    CaseWorld world(c);
    const bool strict = flag(c, "strictInlineEval");
    AllowlistEvaluation e = evaluate_shell_allowlist(sub(str(c.at("command"))), world.ctx);
    const bj::object& expect = c.at("expect").as_object();
    EXPECT_EQ(e.analysis_ok, expect.at("analysisOk").as_bool()) << id;
    EXPECT_EQ(e.allowlist_satisfied, expect.at("allowlistSatisfied").as_bool()) << id;
    const SegmentEvaluation* hit = nullptr;
    for (const SegmentEvaluation& s : e.segments) {
      if (s.inline_eval && !hit) hit = &s;
    }
    ASSERT_NE(hit, nullptr) << id;
    EXPECT_EQ(hit->inline_eval->executable, str(expect.at("inlineEval").at("executable"))) << id;
    EXPECT_EQ(hit->inline_eval->flag, str(expect.at("inlineEval").at("flag"))) << id;
    AllowAlwaysDecision d = resolve_allow_always(e, false, world.ctx, strict);
    const bj::object& aa = expect.at("allowAlways").as_object();
    ASSERT_EQ(str(aa.at("kind")), "one-shot") << id;
    EXPECT_EQ(d.kind, AllowAlwaysKind::kOneShot) << id;
    for (const std::string& r : strings_of(aa.at("reasonsInclude"))) {
      EXPECT_NE(std::find(d.reasons.begin(), d.reasons.end(), r), d.reasons.end()) << id << ": " << r;
    }
    std::vector<std::string> decisions;
    for (ApprovalDecision x : resolve_exec_approval_allowed_decisions(
             std::nullopt, d.kind == AllowAlwaysKind::kOneShot ? AllowAlwaysPersistence::kOneShot
                                                               : AllowAlwaysPersistence::kReusable)) {
      decisions.emplace_back(to_string(x));
    }
    EXPECT_EQ(decisions, strings_of(expect.at("allowedDecisions"))) << id;
  }
}

// ---- resolveAllowAlwaysPatterns / analyzeArgvCommand+resolveAllowAlwaysPatterns ---------------

// The segments' argv are analysed as the command line they spell (all tokens are plain), with
// the fake file system producing each segment's given resolution.
TEST(EvaluateConformance, AllowAlwaysPatterns) {
  std::vector<bj::object> cases =
      load_cases({"resolveAllowAlwaysPatterns", "analyzeArgvCommand+resolveAllowAlwaysPatterns"});
  int patterns_cases = 0, argv_cases = 0;
  for (const bj::object& c : cases) {
    const std::string id = case_id(c);
    CaseWorld world(c);
    std::string command;
    if (const bj::value* segs = find_key(c, "segments")) {
      ++patterns_cases;
      ASSERT_EQ(segs->as_array().size(), 1u) << id;
      const bj::object& s = segs->as_array()[0].as_object();
      std::string resolved = str(s.at("resolvedPath"));
      world.fs.add_executable(resolved);
      if (const bj::value* real = find_key(s, "resolvedRealPath")) world.fs.set_realpath(resolved, str(*real));
      world.ctx.resolve.path_env = resolved.substr(0, resolved.rfind('/'));
      command = join_argv_for_shell(argv_of(s.at("argv")));
    } else {
      ++argv_cases;
      command = join_argv_for_shell(argv_of(c.at("argv")));
    }
    std::vector<std::string> got = persisted(allow_always_for(command, world.ctx, false));
    EXPECT_EQ(got, strings_of(c.at("expect"))) << id << ": " << command;
  }
  EXPECT_EQ(patterns_cases, 3);
  EXPECT_EQ(argv_cases, 1);
}

// ---- bypass ----------------------------------------------------------------------------------

TEST(EvaluateConformance, AllowAlwaysBypass) {
  std::vector<bj::object> cases = load_cases({"bypass"});
  ASSERT_EQ(cases.size(), 6u);
  for (const bj::object& c : cases) {
    const std::string id = case_id(c);
    CaseWorld first(c);
    std::vector<std::string> persisted_first =
        persisted(allow_always_for(sub(str(c.at("first"))), first.ctx, false));
    const bj::object& expect = c.at("expect").as_object();
    if (const bj::value* v = find_key(expect, "firstPersisted")) {
      EXPECT_EQ(persisted_first, strings_of(*v)) << id;
    }

    CaseWorld second(c);  // the case's allowlist plus what the first approval persisted
    for (const std::string& p : persisted_first) second.add_pattern(p, "allow-always");
    const std::string command = sub(str(c.at("second")));
    AllowlistEvaluation e = evaluate_shell_allowlist(command, second.ctx);
    EXPECT_EQ(e.allowlist_satisfied, expect.at("secondSatisfied").as_bool()) << id;
    if (const bj::value* v = find_key(expect, "secondRequiresApproval(on-miss,allowlist)")) {
      std::vector<const AllowlistEntry*> entries;
      for (const SegmentEvaluation& s : e.segments) {
        entries.push_back(s.entry_index ? &second.allowlist[*s.entry_index] : nullptr);
      }
      bool durable = has_durable_exec_approval(e.analysis_ok, entries, second.allowlist, command);
      bool needs_approval = requires_exec_approval(
          {ExecAsk::kOnMiss, ExecSecurity::kAllowlist, e.analysis_ok, e.allowlist_satisfied, durable});
      EXPECT_EQ(needs_approval, v->as_bool()) << id;
    }
  }
}

}  // namespace
}  // namespace clawexec::policy
