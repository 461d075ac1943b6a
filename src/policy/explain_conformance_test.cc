// The reference's explainer and planner cases (explainShellCommand, planShellAuthorization,
// formatCommandSpans) run against our explainer and planner.

#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "policy/conformance_cases.h"
#include "policy/explain.h"
#include "policy/highlight.h"
#include "policy/plan.h"

namespace clawexec::policy {
namespace {

namespace bj = boost::json;
using testing::case_id;
using testing::load_cases;

std::string str(const bj::value& v) { return std::string(v.as_string()); }

Argv argv_of(const bj::value& v) {
  Argv out;
  for (const auto& s : v.as_array()) out.push_back(str(s));
  return out;
}

std::string command_of(const bj::object& c) {
  std::string command = str(c.at("command"));
  if (command == "<'x' repeated 131073 times>") return std::string(131073, 'x');
  return command;
}

std::vector<const ExplainStep*> steps_where(const ShellExplanation& e, bool top) {
  std::vector<const ExplainStep*> out;
  for (const ExplainStep& s : e.steps) {
    if ((s.context == StepContext::kTopLevel) == top) out.push_back(&s);
  }
  return out;
}

std::string slice(const ShellExplanation& e, ByteSpan span) { return e.source.substr(span.begin, span.end - span.begin); }

// "top0" names the first top-level step.
std::string step_alias(const ShellExplanation& e, size_t id) {
  std::vector<const ExplainStep*> top = steps_where(e, true);
  for (size_t i = 0; i < top.size(); ++i) {
    if (top[i]->id == id) return "top" + std::to_string(i);
  }
  return "command-" + std::to_string(id);
}

bool risk_matches(const ShellExplanation& e, const Risk& r, const bj::object& want) {
  for (const auto& [key, value] : want) {
    std::string v = str(value);
    if (key == "kind" && r.kind != v) return false;
    if (key == "text" && r.text != v) return false;
    if (key == "executable" && r.executable != v) return false;
    if (key == "flag" && r.flag != v) return false;
    if (key == "payload" && r.payload != v) return false;
    if (key == "command" && r.command != v) return false;
  }
  (void)e;
  return true;
}

void check_explain(const bj::object& c) {
  SCOPED_TRACE(case_id(c) + ": " + str(c.at("command")).substr(0, 80));
  ShellExplanation e = explain_shell_command(command_of(c));
  const bj::object& want = c.at("expect").as_object();
  std::vector<const ExplainStep*> top = steps_where(e, true), nested = steps_where(e, false);
  for (const auto& [key, value] : want) {
    if (key == "error") {
      EXPECT_EQ(e.error.value_or(""), str(value));
    } else if (key == "topLevelArgv") {
      ASSERT_EQ(top.size(), value.as_array().size());
      for (size_t i = 0; i < top.size(); ++i) EXPECT_EQ(top[i]->argv, argv_of(value.as_array()[i]));
    } else if (key == "spans") {
      ASSERT_EQ(top.size(), value.as_array().size());
      for (size_t i = 0; i < top.size(); ++i) {
        auto [b, en] = utf16_span(e.source, top[i]->span);
        EXPECT_EQ(b, value.as_array()[i].as_array()[0].to_number<size_t>());
        EXPECT_EQ(en, value.as_array()[i].as_array()[1].to_number<size_t>());
      }
    } else if (key == "topLevelExecutables") {
      ASSERT_EQ(top.size(), value.as_array().size());
      for (size_t i = 0; i < top.size(); ++i) EXPECT_EQ(top[i]->executable, str(value.as_array()[i]));
    } else if (key == "topLevel") {
      ASSERT_EQ(top.size(), value.as_array().size());
      for (size_t i = 0; i < top.size(); ++i) {
        const bj::object& w = value.as_array()[i].as_object();
        EXPECT_EQ(top[i]->executable, str(w.at("executable")));
        if (w.contains("argv")) { EXPECT_EQ(top[i]->argv, argv_of(w.at("argv"))); }
      }
    } else if (key == "nested") {
      ASSERT_EQ(nested.size(), value.as_array().size());
      for (size_t i = 0; i < nested.size(); ++i) {
        const bj::value& w = value.as_array()[i];
        const ExplainStep& s = *nested[i];
        if (w.is_string()) {
          EXPECT_EQ(std::string(to_string(s.context)) + ":" + s.executable, str(w));
        } else if (w.is_array()) {
          EXPECT_EQ(s.text, str(w.as_array()[0]));
          EXPECT_EQ("parent=" + (s.parent_id ? step_alias(e, *s.parent_id) : std::string("none")), str(w.as_array()[1]));
        } else {
          for (const auto& [k, v] : w.as_object()) {
            if (k == "context") { EXPECT_EQ(std::string(to_string(s.context)), str(v)); }
            if (k == "executable") { EXPECT_EQ(s.executable, str(v)); }
            if (k == "text") { EXPECT_EQ(s.text, str(v)); }
            if (k == "sourceSlice") { EXPECT_EQ(slice(e, s.span), str(v)); }
          }
        }
      }
    } else if (key == "risksInclude") {
      for (const auto& w : value.as_array()) {
        bool found = std::any_of(e.risks.begin(), e.risks.end(), [&](const Risk& r) { return risk_matches(e, r, w.as_object()); });
        EXPECT_TRUE(found) << "missing risk " << bj::serialize(w);
      }
    } else if (key == "riskKindsInclude") {
      for (const auto& w : value.as_array()) EXPECT_TRUE(e.has_risk(str(w))) << str(w);
    } else if (key == "shapesInclude") {
      for (const auto& w : value.as_array()) EXPECT_TRUE(e.has_shape(str(w))) << str(w);
    } else if (key == "shapesExclude") {
      for (const auto& w : value.as_array()) EXPECT_FALSE(e.has_shape(str(w))) << str(w);
    } else if (key == "operators") {
      ASSERT_EQ(e.operators.size(), value.as_array().size());
      for (size_t i = 0; i < e.operators.size(); ++i) {
        const bj::object& w = value.as_array()[i].as_object();
        EXPECT_EQ(e.operators[i].kind, str(w.at("kind")));
        EXPECT_EQ(e.operators[i].text, str(w.at("text")));
        if (w.contains("parentCommandId")) {
          ASSERT_TRUE(e.operators[i].parent_id.has_value());
          EXPECT_EQ(step_alias(e, *e.operators[i].parent_id), str(w.at("parentCommandId")));
        }
      }
    } else {
      ADD_FAILURE() << "unhandled expectation " << key;
    }
  }
}

void check_plan(const bj::object& c) {
  SCOPED_TRACE(case_id(c) + ": " + str(c.at("command")));
  AuthorizationPlan plan = plan_shell_authorization(command_of(c));
  const bj::object& want = c.at("expect").as_object();
  std::vector<const Candidate*> candidates = plan.candidates();
  for (const auto& [key, value] : want) {
    if (key == "ok") {
      EXPECT_EQ(plan.ok, value.as_bool()) << plan.reason;
    } else if (key == "dialect") {
      EXPECT_EQ("posix-shell", str(value));
    } else if (key == "reason") {
      EXPECT_EQ(plan.reason, str(value));
    } else if (key == "groups") {
      EXPECT_EQ(plan.groups.size(), value.to_number<size_t>());
    } else if (key == "executables") {
      ASSERT_EQ(candidates.size(), value.as_array().size());
      for (size_t i = 0; i < candidates.size(); ++i) EXPECT_EQ(candidates[i]->argv[0], str(value.as_array()[i]));
    } else if (key == "candidates") {
      ASSERT_EQ(candidates.size(), value.as_array().size());
      for (size_t i = 0; i < candidates.size(); ++i) {
        const Candidate& got = *candidates[i];
        for (const auto& [k, v] : value.as_array()[i].as_object()) {
          if (k == "argv") { EXPECT_EQ(got.argv, argv_of(v)); }
          if (k == "transport") { EXPECT_EQ(got.shell_wrapper_transport ? "shell-wrapper" : "direct", str(v)); }
          if (k == "trustMode") { EXPECT_EQ(std::string(to_string(got.trust_mode)), str(v)); }
          if (k == "reasons") { EXPECT_EQ(got.reasons, argv_of(v)); }
          if (k == "executableSpan") {
            auto [b, en] = utf16_span(plan.explanation.source, got.executable_span);
            EXPECT_EQ(b, v.as_array()[0].to_number<size_t>());
            EXPECT_EQ(en, v.as_array()[1].to_number<size_t>());
          }
        }
      }
    } else {
      ADD_FAILURE() << "unhandled expectation " << key;
    }
  }
}

TEST(ExplainConformance, ExplainShellCommandCases) {
  auto cases = load_cases({"explainShellCommand"});
  EXPECT_EQ(cases.size(), 28u);
  for (const auto& c : cases) check_explain(c);
}

TEST(ExplainConformance, PlanShellAuthorizationCases) {
  auto cases = load_cases({"planShellAuthorization"});
  EXPECT_EQ(cases.size(), 14u);
  for (const auto& c : cases) check_plan(c);
}

TEST(ExplainConformance, FormatCommandSpansCases) {
  auto cases = load_cases({"explainShellCommand+formatCommandSpans"});
  EXPECT_EQ(cases.size(), 2u);
  for (const auto& c : cases) {
    SCOPED_TRACE(case_id(c));
    std::string command = str(c.at("command"));
    std::vector<HighlightSpan> spans = command_highlight_spans(explain_shell_command(command));
    const bj::array& want = c.at("expect").as_array();
    ASSERT_EQ(spans.size(), want.size());
    for (size_t i = 0; i < spans.size(); ++i) {
      EXPECT_EQ(spans[i].start_index, want[i].as_object().at("startIndex").to_number<size_t>());
      EXPECT_EQ(spans[i].end_index, want[i].as_object().at("endIndex").to_number<size_t>());
    }
  }
}

}  // namespace
}  // namespace clawexec::policy
