// Runs the reference's inline-eval and carrier conformance cases (detectInterpreterInlineEvalArgv
// with and without describeInterpreterInlineEval, detectInlineEvalArgv,
// isInterpreterLikeAllowlistPattern, detectCommandCarrierArgv, detectCarriedShellBuiltinArgv)
// through our code, and checks buildCommandPayloadCandidates against the shell module's
// command_payload_candidates (which is that function's implementation in clawexec).

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "policy/command_risks.h"
#include "policy/conformance_cases.h"
#include "policy/inline_eval.h"
#include "shell/payload_candidates.h"

namespace clawexec::policy {
namespace {

namespace json = boost::json;
using testing::case_id;
using testing::load_cases;

Argv argv_of(const json::object& c) {
  Argv out;
  for (const json::value& entry : c.at("argv").as_array()) out.emplace_back(entry.as_string());
  return out;
}

json::value hit_json(const std::optional<InlineEvalHit>& hit) {
  if (!hit) return nullptr;
  return json::object{{"flag", hit->flag}};
}

json::value run_interpreter(const json::object& c) {
  return hit_json(detect_interpreter_inline_eval_argv(argv_of(c)));
}

json::value run_describe(const json::object& c) {
  std::optional<InlineEvalHit> hit = detect_interpreter_inline_eval_argv(argv_of(c));
  if (!hit) return nullptr;
  return json::string(describe_interpreter_inline_eval(*hit));
}

json::value run_recursive(const json::object& c) {
  return hit_json(detect_inline_eval_argv(argv_of(c)));
}

json::value run_pattern(const json::object& c) {
  return is_interpreter_like_allowlist_pattern(std::string(c.at("input").as_string()));
}

json::value run_carrier(const json::object& c) {
  json::array out;
  for (const CommandCarrierHit& hit : detect_command_carrier_argv(argv_of(c))) {
    json::object entry{{"command", hit.command}};
    if (hit.flag) entry["flag"] = *hit.flag;
    out.push_back(std::move(entry));
  }
  return out;
}

json::value run_builtin(const json::object& c) {
  std::optional<CarriedShellBuiltin> hit = detect_carried_shell_builtin_argv(argv_of(c));
  if (!hit) return nullptr;
  if (hit->kind == CarriedBuiltinKind::kEval) return json::object{{"kind", "eval"}};
  return json::object{{"kind", "source"}, {"command", hit->command}};
}

json::value run_payload_candidates(const json::object& c) {
  json::array out;
  for (const std::string& candidate : shell::command_payload_candidates(argv_of(c))) {
    out.emplace_back(candidate);
  }
  return out;
}

using Runner = json::value (*)(const json::object&);

const std::map<std::string, Runner> kRunners = {
    {"detectInterpreterInlineEvalArgv", run_interpreter},
    {"detectInterpreterInlineEvalArgv+describeInterpreterInlineEval", run_describe},
    {"detectInlineEvalArgv", run_recursive},
    {"isInterpreterLikeAllowlistPattern", run_pattern},
    {"detectCommandCarrierArgv", run_carrier},
    {"detectCarriedShellBuiltinArgv", run_builtin},
    {"buildCommandPayloadCandidates", run_payload_candidates},
};

TEST(InlineEvalConformance, EveryReferenceCaseMatches) {
  std::set<std::string> fns;
  for (const auto& [fn, runner] : kRunners) fns.insert(fn);
  std::map<std::string, int> ran;
  for (const json::object& c : load_cases(fns)) {
    std::string fn(c.at("fn").as_string());
    EXPECT_EQ(kRunners.at(fn)(c), c.at("expect")) << case_id(c) << " (" << fn << ")";
    ++ran[fn];
  }
  EXPECT_EQ(ran["detectInterpreterInlineEvalArgv"], 11);
  EXPECT_EQ(ran["detectInterpreterInlineEvalArgv+describeInterpreterInlineEval"], 19);
  EXPECT_EQ(ran["detectInlineEvalArgv"], 16);
  EXPECT_EQ(ran["isInterpreterLikeAllowlistPattern"], 6);
  EXPECT_EQ(ran["detectCommandCarrierArgv"], 6);
  EXPECT_EQ(ran["detectCarriedShellBuiltinArgv"], 3);
  EXPECT_EQ(ran["buildCommandPayloadCandidates"], 5);
}

}  // namespace
}  // namespace clawexec::policy
