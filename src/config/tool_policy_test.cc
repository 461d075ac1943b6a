#include "config/tool_policy.h"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

namespace clawexec::config {
namespace {

Result<ToolPolicy> read(std::string_view document, std::string_view agent = "main") {
  return read_tool_policy(boost::json::parse(document).as_object(), agent);
}

// "exec process apply_patch" with a '-' for each tool the policy removes.
std::string ours(const ToolPolicy& p) {
  std::string out;
  for (std::string_view tool : {"exec", "process", "apply_patch"}) {
    if (!out.empty()) out += ' ';
    out += p.allows(tool) ? std::string(tool) : "-";
  }
  return out;
}

std::string ours(std::string_view document, std::string_view agent = "main") {
  Result<ToolPolicy> r = read(document, agent);
  if (!r.ok()) return "error: " + r.error().message;
  return ours(*r);
}

constexpr std::string_view kAll = "exec process apply_patch";
constexpr std::string_view kNone = "- - -";

// ---- defaults ----

TEST(ToolPolicy, NoPolicyKeysAllowsAllThreeTools) {
  EXPECT_EQ(ours("{}"), kAll);
  EXPECT_EQ(ours(R"({"tools":{"exec":{"security":"full"}}})"), kAll);
  EXPECT_EQ(ours(R"({"agents":{"entries":{"main":{"tools":{"exec":{}}}}}})"), kAll);
  EXPECT_EQ(ours(ToolPolicy()), kAll);
  EXPECT_TRUE(read("{}")->warnings().empty());
}

TEST(ToolPolicy, AnEmptyAllowlistRestrictsNothing) {
  EXPECT_EQ(ours(R"({"tools":{"allow":[]}})"), kAll);
  EXPECT_EQ(ours(R"({"tools":{"allow":["", "  "]}})"), kAll);
  EXPECT_EQ(ours(R"({"tools":{"deny":[]}})"), kAll);
}

// ---- allow / deny, case, wildcards ----

TEST(ToolPolicy, ANonEmptyAllowlistBlocksEverythingElse) {
  EXPECT_EQ(ours(R"({"tools":{"allow":["exec"]}})"), "exec - -");
  EXPECT_EQ(ours(R"({"tools":{"allow":["read","message"]}})"), kNone);
}

TEST(ToolPolicy, DenyRemovesATool) {
  EXPECT_EQ(ours(R"({"tools":{"deny":["process"]}})"), "exec - apply_patch");
  EXPECT_EQ(ours(R"({"tools":{"deny":["browser","canvas"]}})"), kAll);
}

TEST(ToolPolicy, DenyWinsOverAllowInTheSameScope) {
  EXPECT_EQ(ours(R"({"tools":{"allow":["exec","process"],"deny":["exec"]}})"), "- process -");
  EXPECT_EQ(ours(R"({"tools":{"allow":["*"],"deny":["*"]}})"), kNone);
}

TEST(ToolPolicy, NamesAreCaseInsensitiveAndTrimmed) {
  EXPECT_EQ(ours(R"({"tools":{"allow":["EXEC"," Process "]}})"), "exec process -");
  EXPECT_EQ(ours(R"({"tools":{"deny":["Apply_Patch"]}})"), "exec process -");
  Result<ToolPolicy> p = read(R"({"tools":{"allow":["exec"]}})");
  EXPECT_TRUE(p->allows("EXEC"));
  EXPECT_TRUE(p->allows(" exec "));
}

TEST(ToolPolicy, WildcardsMatchAnyRunOfCharacters) {
  EXPECT_EQ(ours(R"({"tools":{"allow":["ex*"]}})"), "exec - -");
  EXPECT_EQ(ours(R"({"tools":{"allow":["*"]}})"), kAll);
  EXPECT_EQ(ours(R"({"tools":{"allow":["*patch"]}})"), "- - apply_patch");
  EXPECT_EQ(ours(R"({"tools":{"allow":["p*o*s"]}})"), "- process -");
  EXPECT_EQ(ours(R"({"tools":{"allow":["E*C"]}})"), "exec - -");
  EXPECT_EQ(ours(R"({"tools":{"deny":["*c*"]}})"), kNone);
  EXPECT_EQ(ours(R"({"tools":{"deny":["*e*"]}})"), "- - apply_patch");
  EXPECT_EQ(ours(R"({"tools":{"allow":["exec*"]}})"), "exec - -");  // * matches nothing too
  EXPECT_EQ(ours(R"({"tools":{"allow":["**"]}})"), kAll);
}

TEST(ToolPolicy, OnlyTheStarIsSpecialInAPattern) {
  EXPECT_EQ(ours(R"({"tools":{"allow":["ex.c","exe?","[e]xec","e+"]}})"), kNone);
  EXPECT_EQ(ours(R"({"tools":{"allow":["apply.patch*"]}})"), kNone);
  EXPECT_EQ(ours(R"({"tools":{"allow":["xec*","*exe"]}})"), kNone);  // anchored at both ends
}

// ---- groups and aliases ----

TEST(ToolPolicy, GroupRuntimeIsExecAndProcess) {
  EXPECT_EQ(ours(R"({"tools":{"allow":["group:runtime"]}})"), "exec process -");
  EXPECT_EQ(ours(R"({"tools":{"deny":["group:runtime"]}})"), "- - apply_patch");
  EXPECT_EQ(ours(R"({"tools":{"allow":["Group:Runtime"]}})"), "exec process -");
}

TEST(ToolPolicy, GroupFsContainsApplyPatch) {
  EXPECT_EQ(ours(R"({"tools":{"allow":["group:fs"]}})"), "- - apply_patch");
  EXPECT_EQ(ours(R"({"tools":{"deny":["group:fs"]}})"), "exec process -");
}

TEST(ToolPolicy, OtherGroupsHoldNoneOfOurTools) {
  EXPECT_EQ(ours(R"({"tools":{"allow":["group:web","group:sessions","group:openclaw","group:plugins"]}})"), kNone);
  EXPECT_EQ(ours(R"({"tools":{"deny":["group:openclaw","group:ui","group:nodes"]}})"), kAll);
  EXPECT_EQ(ours(R"({"tools":{"allow":["group:*"]}})"), kNone);  // a glob, not a group name
}

TEST(ToolPolicy, BashIsAnAliasOfExec) {
  EXPECT_EQ(ours(R"({"tools":{"allow":["bash"]}})"), "exec - -");
  EXPECT_EQ(ours(R"({"tools":{"deny":["BASH"]}})"), "- process apply_patch");
  EXPECT_TRUE(read(R"({"tools":{"allow":["exec"]}})")->allows("bash"));
  EXPECT_EQ(ours(R"({"tools":{"allow":["apply-patch"]}})"), "- - apply_patch");
  EXPECT_EQ(normalize_tool_name(" Bash "), "exec");
  EXPECT_EQ(normalize_tool_name("Apply-Patch"), "apply_patch");
  EXPECT_EQ(normalize_tool_name("Process"), "process");
}

// ---- the write rule ----

TEST(ToolPolicy, AllowingWriteAlsoEnablesApplyPatch) {
  EXPECT_EQ(ours(R"({"tools":{"allow":["write"]}})"), "- - apply_patch");
  EXPECT_EQ(ours(R"({"tools":{"allow":["WRITE"]}})"), "- - apply_patch");
  EXPECT_EQ(ours(R"({"tools":{"allow":["wr*"]}})"), "- - apply_patch");
}

TEST(ToolPolicy, DenyingWriteDoesNotDenyApplyPatch) {
  EXPECT_EQ(ours(R"({"tools":{"deny":["write"]}})"), kAll);
  EXPECT_EQ(ours(R"({"tools":{"deny":["write","edit"]}})"), kAll);
  EXPECT_EQ(ours(R"({"tools":{"deny":["write","edit","apply_patch"]}})"), "exec process -");
}

TEST(ToolPolicy, AnApplyPatchDenyBeatsAWriteAllow) {
  EXPECT_EQ(ours(R"({"tools":{"allow":["write"],"deny":["apply_patch"]}})"), kNone);
}

// ---- profiles ----

TEST(ToolPolicy, ProfilesSelectOurTools) {
  EXPECT_EQ(ours(R"({"tools":{"profile":"full"}})"), kAll);
  EXPECT_EQ(ours(R"({"tools":{"profile":"coding"}})"), kAll);
  EXPECT_EQ(ours(R"({"tools":{"profile":"messaging"}})"), kNone);
  EXPECT_EQ(ours(R"({"tools":{"profile":"minimal"}})"), kNone);
}

TEST(ToolPolicy, AlsoAllowWidensARestrictedProfile) {
  EXPECT_EQ(ours(R"({"tools":{"profile":"minimal","alsoAllow":["exec"]}})"), "exec - -");
  EXPECT_EQ(ours(R"({"tools":{"profile":"messaging","alsoAllow":["group:runtime"]}})"), "exec process -");
  EXPECT_EQ(ours(R"({"tools":{"profile":"messaging","alsoAllow":["write"]}})"), "- - apply_patch");
}

TEST(ToolPolicy, AlsoAllowWithoutAProfileRestrictsNothing) {
  EXPECT_EQ(ours(R"({"tools":{"alsoAllow":["exec"]}})"), kAll);
}

TEST(ToolPolicy, AllowCannotWidenAProfileItIsIntersectedWith) {
  EXPECT_EQ(ours(R"({"tools":{"profile":"messaging","allow":["exec"]}})"), kNone);
  EXPECT_EQ(ours(R"({"tools":{"profile":"coding","allow":["exec"]}})"), "exec - -");
}

TEST(ToolPolicy, DenyApplesOnTopOfAProfile) {
  EXPECT_EQ(ours(R"({"tools":{"profile":"coding","deny":["process"]}})"), "exec - apply_patch");
  EXPECT_EQ(ours(R"({"tools":{"profile":"full","deny":["group:fs"]}})"), "exec process -");
  EXPECT_EQ(ours(R"({"tools":{"profile":"minimal","alsoAllow":["exec","process"],"deny":["process"]}})"), "exec - -");
}

// ---- global vs agent scope ----

TEST(ToolPolicy, AnAgentScopeFurtherRestricts) {
  std::string doc = R"({"tools":{"deny":["process"]},
                        "agents":{"entries":{"work":{"tools":{"deny":["apply_patch"]}}}}})";
  EXPECT_EQ(ours(doc, "work"), "exec - -");
  EXPECT_EQ(ours(doc, "main"), "exec - apply_patch");
  EXPECT_EQ(ours(doc, ""), "exec - apply_patch");
}

TEST(ToolPolicy, AnAgentAllowCannotGrantBackAGlobalDeny) {
  std::string doc = R"({"tools":{"deny":["exec"]},
                        "agents":{"entries":{"work":{"tools":{"allow":["exec","process"]}}}}})";
  EXPECT_EQ(ours(doc, "work"), "- process -");
}

TEST(ToolPolicy, GlobalAndAgentAllowlistsIntersect) {
  std::string doc = R"({"tools":{"allow":["exec","process"]},
                        "agents":{"entries":{"work":{"tools":{"allow":["process","apply_patch"]}}}}})";
  EXPECT_EQ(ours(doc, "work"), "- process -");
  EXPECT_EQ(ours(doc, "other"), "exec process -");
}

TEST(ToolPolicy, AnAgentProfileOverridesTheGlobalProfile) {
  std::string doc = R"({"tools":{"profile":"messaging"},
                        "agents":{"entries":{"dev":{"tools":{"profile":"coding"}},
                                             "chat":{"tools":{"deny":["process"]}}}}})";
  EXPECT_EQ(ours(doc, "dev"), kAll);
  EXPECT_EQ(ours(doc, "chat"), kNone);  // inherits messaging
  EXPECT_EQ(ours(doc, "main"), kNone);
  EXPECT_EQ(ours(R"({"tools":{"profile":"coding"},
                     "agents":{"entries":{"bot":{"tools":{"profile":"minimal"}}}}})",
                 "bot"),
            kNone);
}

TEST(ToolPolicy, AnAgentAlsoAllowReplacesTheGlobalOne) {
  std::string doc = R"({"tools":{"profile":"minimal","alsoAllow":["exec"]},
                        "agents":{"entries":{"a":{"tools":{"alsoAllow":["process"]}},
                                             "b":{"tools":{"alsoAllow":[]}},
                                             "c":{"tools":{"profile":"messaging"}}}}})";
  EXPECT_EQ(ours(doc, "a"), "- process -");
  EXPECT_EQ(ours(doc, "b"), kNone);
  EXPECT_EQ(ours(doc, "c"), "exec - -");  // the global alsoAllow widens the agent's profile
  EXPECT_EQ(ours(doc, "main"), "exec - -");
}

TEST(ToolPolicy, AgentIdsAreMatchedNormalisedAndTheFirstEntryWins) {
  std::string doc = R"({"agents":{"entries":{"Work Bot":{"tools":{"deny":["exec"]}},
                                             "work-bot":{"tools":{"deny":["process"]}}}}})";
  EXPECT_EQ(ours(doc, "WORK-BOT"), "- process apply_patch");
  EXPECT_EQ(ours(doc, " work bot "), "- process apply_patch");
  std::string doc2 = R"({"agents":{"entries":{"Work":{},"work":{"tools":{"deny":["exec"]}}}}})";
  EXPECT_EQ(ours(doc2, "work"), kAll);
}

TEST(ToolPolicy, DeniedByNamesTheKeyThatRemovedTheTool) {
  std::string doc = R"({"tools":{"profile":"coding","deny":["process"]},
                        "agents":{"entries":{"work":{"tools":{"allow":["exec","process"]}},
                                             "chat":{"tools":{"profile":"messaging"}}}}})";
  Result<ToolPolicy> work = read(doc, "work");
  ASSERT_TRUE(work.ok());
  EXPECT_EQ(work->denied_by("exec"), std::nullopt);
  EXPECT_EQ(work->denied_by("process"), "tools.deny");
  EXPECT_EQ(work->denied_by("apply_patch"), "agents.entries.work.tools.allow");
  Result<ToolPolicy> chat = read(doc, "chat");
  EXPECT_EQ(chat->denied_by("exec"), "agents.entries.chat.tools.profile \"messaging\"");
  EXPECT_EQ(read(R"({"tools":{"profile":"minimal"}})")->denied_by("apply_patch"), "tools.profile \"minimal\"");
  EXPECT_EQ(ToolPolicy().denied_by("exec"), std::nullopt);
}

// ---- errors ----

TEST(ToolPolicy, AllowAndAlsoAllowInOneScopeIsAnErrorNamingTheScope) {
  Result<ToolPolicy> r = read(R"({"tools":{"allow":["exec"],"alsoAllow":["process"]}})");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(r.error().message,
            "tools: cannot set both allow and alsoAllow in the same scope (merge alsoAllow into allow, or remove "
            "allow and use profile + alsoAllow)");
  r = read(R"({"agents":{"entries":{"work":{"tools":{"allow":["exec"],"alsoAllow":["process"]}}}}})");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message.rfind("agents.entries.work.tools: cannot set both allow and alsoAllow", 0), 0u);
}

TEST(ToolPolicy, AllowAndAlsoAllowInDifferentScopesIsFine) {
  std::string doc = R"({"tools":{"profile":"minimal","alsoAllow":["exec"]},
                        "agents":{"entries":{"work":{"tools":{"allow":["exec","process"]}}}}})";
  EXPECT_EQ(ours(doc, "work"), "exec - -");
}

TEST(ToolPolicy, AnEmptyListNextToTheOtherIsNoConflict) {
  EXPECT_EQ(ours(R"({"tools":{"allow":[],"alsoAllow":["exec"]}})"), kAll);
  EXPECT_EQ(ours(R"({"tools":{"allow":["exec"],"alsoAllow":[]}})"), "exec - -");
}

TEST(ToolPolicy, AnotherAgentsInvalidPolicyIsStillAnError) {
  Result<ToolPolicy> r = read(R"({"agents":{"entries":{"other":{"tools":{"deny":"exec"}}}}})", "main");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "agents.entries.other.tools.deny: expected an array of strings, got \"exec\"");
}

TEST(ToolPolicy, WrongTypesAreErrorsNamingTheKeyPath) {
  auto error = [](std::string_view doc) {
    Result<ToolPolicy> r = read(doc);
    return r.ok() ? std::string("ok") : r.error().message;
  };
  EXPECT_EQ(error(R"({"tools":{"allow":"exec"}})"), "tools.allow: expected an array of strings, got \"exec\"");
  EXPECT_EQ(error(R"({"tools":{"alsoAllow":{"exec":true}}})"),
            "tools.alsoAllow: expected an array of strings, got an object");
  EXPECT_EQ(error(R"({"tools":{"deny":["exec",3]}})"), "tools.deny[1]: expected a string, got 3");
  EXPECT_EQ(error(R"({"tools":{"profile":"dev"}})"),
            "tools.profile: expected one of \"minimal\", \"coding\", \"messaging\", \"full\", got \"dev\"");
  EXPECT_EQ(error(R"({"tools":{"profile":"Coding"}})"),
            "tools.profile: expected one of \"minimal\", \"coding\", \"messaging\", \"full\", got \"Coding\"");
  EXPECT_EQ(error(R"({"tools":{"profile":null}})"),
            "tools.profile: expected one of \"minimal\", \"coding\", \"messaging\", \"full\", got null");
  EXPECT_EQ(error(R"({"tools":[]})"), "tools: expected an object, got an array");
  EXPECT_EQ(error(R"({"agents":{"entries":{"a b":{"tools":true}}}})"),
            "agents.entries[\"a b\"].tools: expected an object, got true");
}

TEST(ToolPolicy, AllErrorsAreReportedOnePerLine) {
  Result<ToolPolicy> r = read(R"({"tools":{"allow":1,"deny":2},
                                  "agents":{"entries":{"w":{"tools":{"profile":"x"}}}}})");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "tools.allow: expected an array of strings, got 1\n"
            "tools.deny: expected an array of strings, got 2\n"
            "agents.entries.w.tools.profile: expected one of \"minimal\", \"coding\", \"messaging\", \"full\", got "
            "\"x\"");
}

// ---- warnings ----

TEST(ToolPolicy, PolicySurfacesWeDoNotApplyAreWarnings) {
  Result<ToolPolicy> r = read(R"({"tools":{"byProvider":{"anthropic":{"deny":["exec"]}},
                                           "toolsBySender":{"*":{"deny":["exec"]}}}})");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(ours(*r), kAll);
  ASSERT_EQ(r->warnings().size(), 2u);
  EXPECT_EQ(r->warnings()[0],
            "tools.byProvider: per-provider tool policy is not applied by clawexec; use tools.allow / tools.deny");
  EXPECT_EQ(r->warnings()[1].rfind("tools.toolsBySender: ", 0), 0u);
}

// ---- tools.sandbox.tools: only for sandboxed sessions ----

std::string sandboxed(std::string_view document, std::string_view agent = "main") {
  Result<ToolPolicy> r = read(document, agent);
  if (!r.ok()) return "error: " + r.error().message;
  std::string out;
  for (std::string_view tool : {"exec", "process", "apply_patch"}) {
    out += (out.empty() ? "" : " ") + std::string(r->allows(tool, true) ? tool : "-");
  }
  return out;
}

TEST(ToolPolicy, SandboxToolPolicyAppliesToSandboxedSessionsOnly) {
  const std::string_view doc = R"({"tools":{"sandbox":{"tools":{"deny":["process"]}}}})";
  EXPECT_EQ(ours(doc), kAll);
  EXPECT_EQ(sandboxed(doc), "exec - apply_patch");
  EXPECT_EQ(read(doc)->denied_by("process", true), "tools.sandbox.tools.deny");
  EXPECT_TRUE(read(doc)->warnings().empty());
}

TEST(ToolPolicy, SandboxDefaultsAllowOurToolsAndAnEmptyAllowListAllowsAll) {
  EXPECT_EQ(sandboxed("{}"), kAll);
  EXPECT_EQ(sandboxed(R"({"tools":{"sandbox":{"tools":{"allow":[]}}}})"), kAll);
  EXPECT_EQ(sandboxed(R"({"tools":{"sandbox":{"tools":{"alsoAllow":["browser"]}}}})"), kAll);
  EXPECT_EQ(sandboxed(R"({"tools":{"sandbox":{"tools":{"allow":["exec"]}}}})"), "exec - -");
  EXPECT_EQ(sandboxed(R"({"tools":{"sandbox":{"tools":{"allow":["group:runtime"]}}}})"), "exec process -");
  EXPECT_EQ(sandboxed(R"({"tools":{"sandbox":{"tools":{"allow":["read"],"alsoAllow":["Bash"]}}}})"), "exec - -");
  Result<ToolPolicy> r = read(R"({"tools":{"sandbox":{"tools":{"allow":["exec"]}}}})");
  EXPECT_EQ(r->denied_by("apply_patch", true), "tools.sandbox.tools.allow");
}

TEST(ToolPolicy, AnAgentsSandboxListReplacesTheGlobalOneFieldByField) {
  const std::string_view doc = R"({"tools":{"sandbox":{"tools":{"deny":["exec"],"allow":["exec","process"]}}},
      "agents":{"entries":{"work":{"tools":{"sandbox":{"tools":{"deny":["apply_patch"]}}}}}}})";
  EXPECT_EQ(sandboxed(doc, "main"), "- process -");
  // The agent's deny replaces the global deny; the global allow still applies.
  EXPECT_EQ(sandboxed(doc, "work"), "exec process -");
  EXPECT_EQ(read(doc, "work")->denied_by("apply_patch", true), "agents.entries.work.tools.sandbox.tools.deny");
}

TEST(ToolPolicy, TheSandboxLayerCannotGrantBackWhatTheMainPolicyDenies) {
  EXPECT_EQ(sandboxed(R"({"tools":{"deny":["process"],"sandbox":{"tools":{"allow":["*"]}}}})"), "exec - apply_patch");
}

TEST(ToolPolicy, BadSandboxListsAreErrorsNamingTheKey) {
  EXPECT_EQ(sandboxed(R"({"tools":{"sandbox":{"tools":{"deny":"exec"}}}})"),
            "error: tools.sandbox.tools.deny: expected an array of strings, got \"exec\"");
  EXPECT_EQ(sandboxed(R"({"tools":{"sandbox":3}})").rfind("error: tools.sandbox: ", 0), 0u);
}

TEST(ToolPolicy, AnExecSectionNoLongerWidensARestrictedProfileAndSaysSo) {
  Result<ToolPolicy> r = read(R"({"tools":{"profile":"messaging","exec":{"security":"full"}}})");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(ours(*r), kNone);
  ASSERT_EQ(r->warnings().size(), 1u);
  EXPECT_EQ(r->warnings()[0],
            "tools policy: profile \"messaging\" (agent \"main\") has configured tool sections (tools.exec) that no "
            "longer implicitly widen the profile. Add alsoAllow: [\"exec\", \"process\"] explicitly if these tools "
            "should be available. See #47487.");
  // Not when the profile covers them, nor when a later layer removes them anyway.
  EXPECT_TRUE(read(R"({"tools":{"profile":"coding","exec":{}}})")->warnings().empty());
  EXPECT_TRUE(read(R"({"tools":{"profile":"minimal","alsoAllow":["exec","process"],"exec":{}}})")->warnings().empty());
  Result<ToolPolicy> partial = read(R"({"tools":{"profile":"minimal","deny":["process"],"exec":{}}})");
  ASSERT_EQ(partial->warnings().size(), 1u);
  EXPECT_NE(partial->warnings()[0].find("alsoAllow: [\"exec\"] explicitly"), std::string::npos);
}

}  // namespace
}  // namespace clawexec::config
