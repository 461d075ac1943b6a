// Runs every reference conformance case of the mode/normalisation/decision functions through
// policy/modes.h and compares with the recorded expectation. The approvals-file functions
// (resolveExecDefaults, snapshots, store) run in src/approvals/approvals_conformance_test.cc.

#include <gtest/gtest.h>

#include <map>

#include "json/json.h"
#include "policy/conformance_cases.h"
#include "policy/modes.h"

namespace clawexec::policy {
namespace {

namespace bj = boost::json;
using testing::case_id;
using testing::load_cases;

bj::value to_value(std::optional<ExecHost> v) {
  return v ? bj::value(std::string(config::to_string(*v))) : bj::value(nullptr);
}
template <typename E>
bj::value enum_value(std::optional<E> v) {
  return v ? bj::value(std::string(config::to_string(*v))) : bj::value(nullptr);
}
std::string_view sv(const bj::value& v) { return std::string_view(v.as_string()); }

ExecSecurity sec(const bj::value& v) { return exec_security_from_literal(sv(v)).value(); }
ExecAsk ask(const bj::value& v) { return exec_ask_from_literal(sv(v)).value(); }

bj::value decisions_json(const std::vector<ApprovalDecision>& decisions) {
  bj::array out;
  for (auto d : decisions) out.emplace_back(std::string(to_string(d)));
  return out;
}

AllowlistEntry entry_from(const bj::object& o) {
  AllowlistEntry e;
  e.pattern = std::string(o.at("pattern").as_string());
  if (const auto* s = o.if_contains("source")) e.source = std::string(s->as_string());
  return e;
}

// Runs one case; returns what our implementation produced, in the case's expect shape.
bj::value run_case(const bj::object& c) {
  const std::string fn(c.at("fn").as_string());
  const bj::value& input = c.contains("input") ? c.at("input") : bj::value();
  if (fn == "normalizeExecHost") return to_value(normalize_exec_host(input));
  if (fn == "normalizeExecTarget") return to_value(normalize_exec_target(input));
  if (fn == "requireValidExecTarget") {
    auto r = require_valid_exec_target(&input);
    if (!r.ok()) return bj::object{{"error", r.error().message}};
    return to_value(*r);
  }
  if (fn == "normalizeExecAsk") return enum_value(normalize_exec_ask(input));
  if (fn == "normalizeExecMode") return enum_value(normalize_exec_mode(input));
  if (fn == "resolveExecModeFromPolicy") {
    return bj::value(std::string(config::to_string(
        resolve_exec_mode_from_policy(sec(input.at("security")), ask(input.at("ask"))))));
  }
  if (fn == "resolveExecPolicyForMode") {
    const ModePolicy p = resolve_exec_policy_for_mode(normalize_exec_mode(input).value());
    return bj::object{{"security", std::string(config::to_string(p.security))},
                      {"ask", std::string(config::to_string(p.ask))},
                      {"autoReview", p.auto_review}};
  }
  if (fn == "minSecurity") {
    return bj::value(std::string(config::to_string(min_security(sec(input.at(0)), sec(input.at(1))))));
  }
  if (fn == "applyExecPolicyLayer") {
    const bj::object& base = c.at("base").as_object();
    ExecPolicyState state;
    if (auto* h = base.if_contains("host")) state.host = normalize_exec_target(*h);
    if (auto* m = base.if_contains("mode")) state.mode = normalize_exec_mode(*m);
    state.security = sec(base.at("security"));
    state.ask = ask(base.at("ask"));
    const bj::object& l = c.at("layer").as_object();
    ExecPolicyLayer layer;
    if (auto* m = l.if_contains("mode")) layer.mode = normalize_exec_mode(*m);
    if (auto* s = l.if_contains("security")) layer.security = normalize_exec_security(*s);
    if (auto* a = l.if_contains("ask")) layer.ask = normalize_exec_ask(*a);
    const ExecPolicyState out = apply_exec_policy_layer(state, layer);
    bj::object result{{"ask", std::string(config::to_string(out.ask))},
                      {"security", std::string(config::to_string(out.security))}};
    if (out.host) result["host"] = std::string(config::to_string(*out.host));
    if (out.mode) result["mode"] = std::string(config::to_string(*out.mode));
    return result;
  }
  if (fn == "normalizeExecApprovalUnavailableDecisions") {
    return decisions_json(normalize_exec_approval_unavailable_decisions(input));
  }
  if (fn == "resolveExecApprovalRequestAllowedDecisions") {
    return decisions_json(resolve_exec_approval_request_allowed_decisions(
        normalize_exec_ask(input.at("ask")),
        normalize_exec_approval_unavailable_decisions(input.as_object().contains("unavailableDecisions")
                                                          ? input.at("unavailableDecisions")
                                                          : bj::value())));
  }
  if (fn == "resolveExecApprovalUnavailableDecisions") {
    return decisions_json(resolve_exec_approval_unavailable_decisions(normalize_exec_ask(input.at("ask"))));
  }
  if (fn == "requiresExecApproval") {
    const bj::object& o = input.as_object();
    ApprovalRequirementInputs in;
    in.ask = ask(o.at("ask"));
    in.security = sec(o.at("security"));
    in.analysis_ok = o.at("analysisOk").as_bool();
    in.allowlist_satisfied = o.at("allowlistSatisfied").as_bool();
    if (auto* d = o.if_contains("durableApprovalSatisfied")) in.durable_approval_satisfied = d->as_bool();
    return bj::value(requires_exec_approval(in));
  }
  if (fn == "hasDurableExecApproval") {
    const bj::object& o = input.as_object();
    std::vector<AllowlistEntry> segment_storage;
    for (const auto& e : o.at("segmentAllowlistEntries").as_array()) segment_storage.push_back(entry_from(e.as_object()));
    std::vector<const AllowlistEntry*> segments;
    for (const auto& e : segment_storage) segments.push_back(&e);
    std::vector<AllowlistEntry> allowlist;
    for (const auto& e : o.at("allowlist").as_array()) allowlist.push_back(entry_from(e.as_object()));
    std::optional<std::string_view> text;
    if (auto* t = o.if_contains("commandText")) text = sv(*t);
    return bj::value(has_durable_exec_approval(o.at("analysisOk").as_bool(), segments, allowlist, text));
  }
  ADD_FAILURE() << "no runner for " << fn;
  return nullptr;
}

TEST(ModesConformance, EveryCaseOfTheModeAndDecisionFunctionsMatchesTheReference) {
  const std::map<std::string, size_t> expected_counts = {
      {"normalizeExecHost", 1},
      {"normalizeExecTarget", 1},
      {"requireValidExecTarget", 2},
      {"normalizeExecAsk", 3},
      {"normalizeExecMode", 1},
      {"resolveExecModeFromPolicy", 2},
      {"resolveExecPolicyForMode", 3},
      {"minSecurity", 2},
      {"applyExecPolicyLayer", 1},
      {"normalizeExecApprovalUnavailableDecisions", 1},
      {"resolveExecApprovalRequestAllowedDecisions", 1},
      {"resolveExecApprovalUnavailableDecisions", 2},
      {"requiresExecApproval", 2},
      {"hasDurableExecApproval", 2},
  };
  std::set<std::string> fns;
  for (const auto& [fn, count] : expected_counts) fns.insert(fn);
  const auto cases = load_cases(fns);
  std::map<std::string, size_t> ran;
  for (const auto& c : cases) {
    const bj::value got = run_case(c);
    // Object equality ignores key order.
    EXPECT_TRUE(got == c.at("expect")) << case_id(c) << ": got " << json::serialize(got) << ", expected "
                                       << json::serialize(c.at("expect"));
    ++ran[std::string(c.at("fn").as_string())];
  }
  EXPECT_EQ(ran, expected_counts);
  EXPECT_EQ(cases.size(), 24u);
}

}  // namespace
}  // namespace clawexec::policy
