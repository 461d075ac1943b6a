#include "policy/exec_directive.h"

#include <gtest/gtest.h>

namespace clawexec::policy {
namespace {

ExecDefaultsView defaults() {
  ExecDefaultsView d;
  d.host = ExecHost::kAuto;
  d.effective_host = ExecHost::kGateway;
  d.security = ExecSecurity::kAllowlist;
  d.ask = ExecAsk::kOnMiss;
  return d;
}

std::optional<std::string> reply_to(std::string_view message, ExecPersistence p = ExecPersistence::kAllowed) {
  return exec_directive_reply(extract_exec_directive(message), defaults(), p);
}

TEST(ExtractExecDirective, NoDirective) {
  for (const char* text : {"", "run the tests", "/execute now", "a/exec host=node", "/exe c", "x:/exec"}) {
    ExecDirective d = extract_exec_directive(text);
    EXPECT_FALSE(d.has_directive) << text;
    EXPECT_EQ(d.cleaned, text);
    EXPECT_FALSE(reply_to(text)) << text;
  }
}

TEST(ExtractExecDirective, ReadsAllFourOptions) {
  ExecDirective d = extract_exec_directive("/exec host=node security:allowlist ASK=Always node= mac-1");
  // "node=" has an empty value: invalid; parsing then continues with "mac-1", which is no option.
  EXPECT_TRUE(d.has_directive);
  EXPECT_TRUE(d.has_options);
  EXPECT_EQ(d.host, ExecHost::kNode);
  EXPECT_EQ(d.security, ExecSecurity::kAllowlist);
  EXPECT_EQ(d.ask, ExecAsk::kAlways);
  EXPECT_TRUE(d.invalid_node);
  EXPECT_EQ(d.raw_node, "");
  EXPECT_EQ(d.cleaned, "mac-1");

  ExecDirective ok = extract_exec_directive("/exec host=AUTO node=mac-1");
  EXPECT_EQ(ok.host, ExecHost::kAuto);
  EXPECT_EQ(ok.node, "mac-1");
  EXPECT_EQ(ok.cleaned, "");
}

TEST(ExtractExecDirective, EarlierOfEqualsAndColonSplitsKeyAndValue) {
  ExecDirective d = extract_exec_directive("/exec host:node=x");
  EXPECT_TRUE(d.invalid_host);
  EXPECT_EQ(d.raw_host, "node=x");
  ExecDirective n = extract_exec_directive("/exec node=host:1");
  EXPECT_EQ(n.node, "host:1");
}

TEST(ExtractExecDirective, ColonPrefixAndAttachedColon) {
  EXPECT_EQ(extract_exec_directive("/exec: host=node").host, ExecHost::kNode);
  EXPECT_EQ(extract_exec_directive("/exec  :host=node").host, ExecHost::kNode);
  ExecDirective attached = extract_exec_directive("/EXEC:host=sandbox");
  EXPECT_EQ(attached.host, ExecHost::kSandbox);
  EXPECT_EQ(attached.cleaned, "");
  ExecDirective bare = extract_exec_directive("/exec:");
  EXPECT_TRUE(bare.has_directive);
  EXPECT_FALSE(bare.has_options);
  EXPECT_EQ(bare.cleaned, "");
}

TEST(ExtractExecDirective, StopsAtTheFirstNonOptionToken) {
  ExecDirective d = extract_exec_directive("/exec host=gateway please run ask=always");
  EXPECT_EQ(d.host, ExecHost::kGateway);
  EXPECT_FALSE(d.ask);
  EXPECT_EQ(d.cleaned, "please run ask=always");
  ExecDirective unknown_key = extract_exec_directive("/exec mode=full host=node");
  EXPECT_FALSE(unknown_key.has_options);
  EXPECT_FALSE(unknown_key.host);
  EXPECT_EQ(unknown_key.cleaned, "mode=full host=node");
  ExecDirective empty_key = extract_exec_directive("/exec =x host=node");
  EXPECT_FALSE(empty_key.has_options);
}

TEST(ExtractExecDirective, RepeatedKeyOverwrites) {
  ExecDirective d = extract_exec_directive("/exec ask=bogus ask=off");
  EXPECT_EQ(d.ask, ExecAsk::kOff);
  EXPECT_FALSE(d.invalid_ask);
  ExecDirective again = extract_exec_directive("/exec node=a node=b");
  EXPECT_EQ(again.node, "b");
}

TEST(ExtractExecDirective, KelvinSignKeyLowercasesToAsk) {
  EXPECT_EQ(extract_exec_directive("/exec as\u212A=always").ask, ExecAsk::kAlways);
}

TEST(ExtractExecDirective, OnlyTheFirstOccurrenceIsHandled) {
  ExecDirective d = extract_exec_directive("/exec host=node then /exec host=sandbox");
  EXPECT_EQ(d.host, ExecHost::kNode);
  EXPECT_EQ(d.cleaned, "then /exec host=sandbox");
}

TEST(ExtractExecDirective, DirectiveAfterWhiteSpaceAnywhere) {
  ExecDirective d = extract_exec_directive("please\u00a0/exec security=deny now");
  EXPECT_TRUE(d.has_directive);
  EXPECT_FALSE(d.at_message_start);
  EXPECT_EQ(d.security, ExecSecurity::kDeny);
  EXPECT_EQ(d.cleaned, "please\u00a0now");
}

TEST(ExtractExecDirective, RemovesAWholeLine) {
  EXPECT_EQ(extract_exec_directive("first\n  /exec host=node  \nlast").cleaned, "first\nlast");
  EXPECT_EQ(extract_exec_directive("first\r\n/exec host=node\r\nlast").cleaned, "first\r\nlast");
  EXPECT_EQ(extract_exec_directive("first\n/exec host=node").cleaned, "first\n");
  EXPECT_EQ(extract_exec_directive("/exec host=node\nrun it").cleaned, "run it");
}

TEST(ExtractExecDirective, EatsOneAdjacentSpace) {
  EXPECT_EQ(extract_exec_directive("do /exec host=node  it").cleaned, "do  it");  // one of two spaces after
  EXPECT_EQ(extract_exec_directive("run it /exec host=node").cleaned, "run it");  // the space before
  EXPECT_EQ(extract_exec_directive("run it /exec host=node\nnext").cleaned, "run it\nnext");
  EXPECT_EQ(extract_exec_directive("run\t/exec").cleaned, "run");
}

TEST(ExtractExecDirective, OnlyWhiteSpaceLeftMeansEmpty) {
  EXPECT_EQ(extract_exec_directive("  /exec host=node  \n\n").cleaned, "");
}

TEST(ExecDirectiveReply, InvalidValuesInOrder) {
  EXPECT_EQ(reply_to("/exec host=cloud security=bad"),
            "Unrecognized exec host \"cloud\". Valid hosts: auto, sandbox, gateway, node.");
  EXPECT_EQ(reply_to("/exec security=Bad ask=x"), "Unrecognized exec security \"Bad\". Valid: deny, allowlist, full.");
  EXPECT_EQ(reply_to("/exec ask=never"), "Unrecognized exec ask \"never\". Valid: off, on-miss, always.");
  EXPECT_EQ(reply_to("/exec node:"), "Exec node requires a value.");
  EXPECT_EQ(reply_to("/exec host="), "Unrecognized exec host \"\". Valid hosts: auto, sandbox, gateway, node.");
}

TEST(ExecDirectiveReply, BareDirectiveShowsTheCurrentDefaults) {
  EXPECT_EQ(reply_to("/exec"),
            "Current exec defaults: host=auto, effective=gateway, security=allowlist, ask=on-miss, node=(unset).\n"
            "Options: host=auto|sandbox|gateway|node, security=deny|allowlist|full, ask=off|on-miss|always, "
            "node=<id>.");
  ExecDefaultsView with_node = defaults();
  with_node.host = ExecHost::kNode;
  with_node.effective_host = ExecHost::kNode;
  with_node.node = "mac-1";
  EXPECT_EQ(exec_directive_reply(extract_exec_directive("  /exec:  "), with_node, ExecPersistence::kAllowed),
            "Current exec defaults: host=node, effective=node, security=allowlist, ask=on-miss, node=mac-1.\n"
            "Options: host=auto|sandbox|gateway|node, security=deny|allowlist|full, ask=off|on-miss|always, "
            "node=<id>.");
}

TEST(ExecDirectiveReply, AcknowledgesPlacementAndRunPolicySeparately) {
  EXPECT_EQ(reply_to("/exec host=node node="), "Exec node requires a value.");
  EXPECT_FALSE(reply_to("/exec host=node node= mac-1 "));  // not directive-only: no reply
  EXPECT_EQ(reply_to("/exec host=Node node=mac-1"), "⚙️ Exec defaults set (host=node, node=mac-1).");
  EXPECT_EQ(reply_to("/exec security=allowlist ask=always"),
            "⚙️ Exec policy for this run only (security=allowlist, ask=always).");
  EXPECT_EQ(reply_to("/exec ask=off host=gateway"),
            "⚙️ Exec defaults set (host=gateway). ⚙️ Exec policy for this run only (ask=off).");
  EXPECT_EQ(reply_to("/exec node=n2 host=sandbox"), "⚙️ Exec defaults set (host=sandbox, node=n2).");
}

TEST(ExecDirectiveReply, PersistenceDeniedReplacesOnlyThePlacementAck) {
  EXPECT_EQ(reply_to("/exec host=node security=deny", ExecPersistence::kDenied),
            "⚙️ Exec defaults require operator.admin for gateway callers; skipped persistence. "
            "⚙️ Exec policy for this run only (security=deny).");
  EXPECT_EQ(reply_to("/exec ask=always", ExecPersistence::kDenied), "⚙️ Exec policy for this run only (ask=always).");
}

TEST(ExecDirectiveReply, BareCommandWithWordsIsAnUnexpectedArgument) {
  EXPECT_EQ(reply_to("/exec status please"), "Unexpected argument \"status\" for /exec.");
  EXPECT_EQ(reply_to("  /exec\n  later"), "Unexpected argument \"later\" for /exec.");
}

TEST(ExecDirectiveReply, DirectiveInsideOtherTextIsAppliedWithoutAReply) {
  ExecDirective d = extract_exec_directive("/exec host=node run the build");
  EXPECT_EQ(d.host, ExecHost::kNode);
  EXPECT_EQ(d.cleaned, "run the build");
  EXPECT_FALSE(exec_directive_reply(d, defaults(), ExecPersistence::kAllowed));
  EXPECT_FALSE(reply_to("please /exec now"));
}

}  // namespace
}  // namespace clawexec::policy
