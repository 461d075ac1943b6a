#include "shell/explain.h"

#include <gtest/gtest.h>

#include <string>

namespace clawexec::shell {
namespace {

std::vector<Argv> argvs(const Explanation& e) {
  std::vector<Argv> out;
  for (const ExplainedCommand& c : e.commands) out.push_back(c.argv);
  return out;
}

TEST(ExplainCommand, ListsTopLevelCommandsBeforeNestedOnes) {
  Explanation e = explain_command("echo $(a) && b");
  EXPECT_EQ(e.outcome, ExplainOutcome::kOk);
  EXPECT_EQ(argvs(e), (std::vector<Argv>{{"echo", "$(a)"}, {"b"}, {"a"}}));
  EXPECT_EQ(e.commands[2].context, CommandContext::kCommandSubstitution);
}

TEST(ExplainCommand, ParsesShellWrapperPayloadsTwoLevelsDeep) {
  Explanation e = explain_command(R"(bash -c "sh -c \"zsh -c \\\"x\\\" \"")");
  EXPECT_EQ(argvs(e), (std::vector<Argv>{{"bash", "-c", R"(sh -c "zsh -c \"x\" ")"},
                                         {"sh", "-c", R"(zsh -c "x" )"},
                                         {"zsh", "-c", "x"}}));
  EXPECT_EQ(e.commands[1].context, CommandContext::kWrapperPayload);
}

TEST(ExplainCommand, DoesNotParsePayloadsThatAreExpansionsOrNotBash) {
  EXPECT_EQ(explain_command(R"(bash -c "$CMD")").commands.size(), 1u);
  EXPECT_EQ(explain_command(R"(bash -c "echo $x; y")").commands.size(), 1u);
  EXPECT_EQ(explain_command("bash -c ls*").commands.size(), 1u);
  EXPECT_EQ(explain_command(R"(cmd /c "a && b")").commands.size(), 1u);
  EXPECT_EQ(argvs(explain_command(R"(sh -c " y ")")),
            (std::vector<Argv>{{"sh", "-c", " y "}, {"y"}}));
}

TEST(ExplainCommand, SkipsCommandsWithoutALiteralName) {
  EXPECT_TRUE(explain_command("$cmd x; ls* x; \"\" x; a\\\nb c").commands.empty());
}

TEST(ExplainCommand, ASyntaxErrorInAPayloadMakesTheLineUnparseable) {
  Explanation e = explain_command(R"(bash -c "a; (")");
  EXPECT_EQ(e.outcome, ExplainOutcome::kUnparseable);
  EXPECT_EQ(argvs(e), (std::vector<Argv>{{"bash", "-c", "a; ("}, {"a"}}));  // still listed
}

TEST(ExplainCommand, BashOnlySyntaxIsUnparseableForTheReferenceButFullyListed) {
  Explanation e = explain_command("cat <<EOF; /approve x deny\nbody\nEOF");
  EXPECT_EQ(e.outcome, ExplainOutcome::kUnparseable);
  EXPECT_EQ(argvs(e), (std::vector<Argv>{{"cat"}, {"/approve", "x", "deny"}}));
}

TEST(ExplainCommand, StopsAtTheWorkLimit) {
  std::string small, large;
  for (int i = 0; i < 12400; ++i) small += "a;";
  for (int i = 0; i < 12600; ++i) large += "a;";
  EXPECT_EQ(explain_command(small).outcome, ExplainOutcome::kOk);
  EXPECT_EQ(explain_command(large).outcome, ExplainOutcome::kWorkLimitExceeded);
  // Wrapper payloads count too: 6300 commands outside and 6300 inside exceed it together.
  std::string half;
  for (int i = 0; i < 6300; ++i) half += "a;";
  EXPECT_EQ(explain_command(half + "bash -c '" + half + "'").outcome,
            ExplainOutcome::kWorkLimitExceeded);
}

TEST(ExplainCommand, TooLongSourcesAreUnparseableNotOverTheLimit) {
  std::string huge;
  for (int i = 0; i < 70000; ++i) huge += "a;";  // 140 000 characters
  EXPECT_EQ(explain_command(huge).outcome, ExplainOutcome::kUnparseable);
}

TEST(ExplainValue, KeepsRawTextForMultiPartWordsWithPatterns) {
  auto script = parse_script(R"(echo x*"y z" "a"b)");
  ASSERT_TRUE(script.ok());
  EXPECT_EQ(explain_value(script->commands[0].words[1]), R"(x*"y z")");
  EXPECT_EQ(explain_value(script->commands[0].words[2]), "ab");
}

}  // namespace
}  // namespace clawexec::shell
