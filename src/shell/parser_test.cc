#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "shell/script.h"

namespace clawexec::shell {
namespace {

using Argvs = std::vector<std::vector<std::string>>;

Script parse(std::string_view source) {
  auto script = parse_script(source);
  EXPECT_TRUE(script.ok()) << source << ": " << (script.ok() ? "" : script.error().message);
  return script.ok() ? std::move(*script) : Script{};
}

Argvs argvs(const Script& script) {
  Argvs out;
  for (const Command& c : script.commands) {
    std::vector<std::string> argv;
    for (const Word& w : c.words) argv.push_back(w.value);
    out.push_back(argv);
  }
  return out;
}

Argvs argvs(std::string_view source) { return argvs(parse(source)); }

TEST(ParseScript, SplitsListsAndPipelinesIntoCommands) {
  EXPECT_EQ(argvs("a b && c | d; e & f || g\nh"),
            (Argvs{{"a", "b"}, {"c"}, {"d"}, {"e"}, {"f"}, {"g"}, {"h"}}));
}

TEST(ParseScript, RecordsTheOperatorAfterEachCommand) {
  Script s = parse("a && b | c; d & e || f\ng |& h");
  std::vector<Separator> seps;
  for (const Command& c : s.commands) seps.push_back(c.next);
  EXPECT_EQ(seps,
            (std::vector<Separator>{Separator::kAnd, Separator::kPipe, Separator::kSequence,
                                    Separator::kBackground, Separator::kOr, Separator::kNewline,
                                    Separator::kPipeStderr, Separator::kNone}));
}

TEST(ParseScript, QuotedOperatorsStayInsideWords) {
  EXPECT_EQ(argvs(R"(echo 'a && b' "c | d" e\;f)"), (Argvs{{"echo", "a && b", "c | d", "e;f"}}));
}

TEST(ParseScript, FindsCommandsInsideCompoundCommands) {
  EXPECT_EQ(argvs("if a; then b; elif c; then d; else e; fi"),
            (Argvs{{"a"}, {"b"}, {"c"}, {"d"}, {"e"}}));
  EXPECT_EQ(argvs("while a; do b; done; until c; do d; done"), (Argvs{{"a"}, {"b"}, {"c"}, {"d"}}));
  EXPECT_EQ(argvs("for x in a b; do c $x; done"), (Argvs{{"c", "$x"}}));
  EXPECT_EQ(argvs("case $1 in a|b) c;; *) d;; esac"), (Argvs{{"c"}, {"d"}}));
  EXPECT_EQ(argvs("(a; b) | { c; }"), (Argvs{{"a"}, {"b"}, {"c"}}));
  Script s = parse("if a; then { b; }; fi");
  EXPECT_EQ(s.commands[0].compound_depth, 1u);
  EXPECT_EQ(s.commands[1].compound_depth, 2u);
}

TEST(ParseScript, FindsCommandsInSubstitutionsWithTheirContext) {
  Script s = parse("echo $(a) `b` <(c) ${x:-$(d)} \"$(e)\" $((1 + $(f)))");
  Argvs expected{{"echo", "$(a)", "`b`", "<(c)", "${x:-$(d)}", "$(e)", "$((1 + $(f)))"},
                 {"a"},
                 {"b"},
                 {"c"},
                 {"d"},
                 {"e"},
                 {"f"}};
  EXPECT_EQ(argvs(s), expected);
  EXPECT_EQ(s.commands[0].context, CommandContext::kTopLevel);
  EXPECT_EQ(s.commands[1].context, CommandContext::kCommandSubstitution);
  EXPECT_EQ(s.commands[3].context, CommandContext::kProcessSubstitution);
  EXPECT_TRUE(s.features.has(ScriptFeature::kCommandSubstitution));
  EXPECT_TRUE(s.features.has(ScriptFeature::kProcessSubstitution));
}

TEST(ParseScript, FunctionBodiesAreParsedInTheirOwnContext) {
  Script s = parse("f() { a; }; function g { b; }; f");
  ASSERT_EQ(argvs(s), (Argvs{{"a"}, {"b"}, {"f"}}));
  EXPECT_EQ(s.commands[0].context, CommandContext::kFunctionBody);
  EXPECT_EQ(s.commands[2].context, CommandContext::kTopLevel);
  EXPECT_TRUE(s.features.has(ScriptFeature::kFunction));
}

TEST(ParseScript, AssignmentsAndRedirectionsAreNotArguments) {
  Script s = parse("A=1 B=\"x y\" cmd arg 2>/dev/null");
  ASSERT_EQ(s.commands.size(), 1u);
  EXPECT_EQ(argvs(s), (Argvs{{"cmd", "arg"}}));
  ASSERT_EQ(s.commands[0].assignments.size(), 2u);
  EXPECT_EQ(s.commands[0].assignments[1].value, "B=x y");
  ASSERT_EQ(s.commands[0].redirects.size(), 1u);
  EXPECT_EQ(s.commands[0].redirects[0].fd, "2");
  EXPECT_EQ(s.commands[0].redirects[0].op, ">");
}

TEST(ParseScript, WordsAfterAFileRedirectionAreFurtherTargets) {
  // tree-sitter-bash's reading, which the reference's analysis is built on.
  Script s = parse("cmd a > out b c");
  EXPECT_EQ(argvs(s), (Argvs{{"cmd", "a"}}));
  EXPECT_EQ(s.commands[0].redirects[0].targets.size(), 3u);
  EXPECT_EQ(argvs("> out cmd a"), (Argvs{{"cmd", "a"}}));  // not before the name
}

TEST(ParseScript, HeredocBodiesAreTextButUnquotedOnesMaySubstitute) {
  Script s = parse("cat <<EOF\nrm -rf / $(a)\nEOF\ncat <<'EOF'\n$(b)\nEOF\nc");
  EXPECT_EQ(argvs(s), (Argvs{{"cat"}, {"a"}, {"cat"}, {"c"}}));
  EXPECT_EQ(s.commands[0].redirects[0].heredoc_body, "rm -rf / $(a)\n");
  EXPECT_TRUE(s.commands[2].redirects[0].heredoc_quoted);
  EXPECT_TRUE(s.features.has(ScriptFeature::kHeredoc));
}

TEST(ParseScript, TheHeredocDelimiterLineContinuesTheCommand) {
  EXPECT_EQ(argvs("cat <<EOF | wc\nx\nEOF\nb"), (Argvs{{"cat"}, {"wc"}, {"b"}}));
  EXPECT_EQ(argvs("cat <<EOF\nx\nEOF && b"), (Argvs{{"cat"}, {"b"}}));
}

TEST(ParseScript, ReservedWordsCountOnlyWhereTheGrammarExpectsThem) {
  EXPECT_EQ(argvs("fi; then x; echo if"), (Argvs{{"fi"}, {"then", "x"}, {"echo", "if"}}));
}

TEST(ParseScript, ANegationAppliesToTheFollowingCommand) {
  Script s = parse("! a | ! b");
  EXPECT_EQ(argvs(s), (Argvs{{"a"}, {"b"}}));
  EXPECT_TRUE(s.features.has(ScriptFeature::kNegation));
}

TEST(ParseScript, RecordsSyntaxFeatures) {
  Script s = parse("a > f; (b) & # note\n[[ -f x ]] && ((i++))");
  EXPECT_TRUE(s.features.has(ScriptFeature::kRedirect));
  EXPECT_TRUE(s.features.has(ScriptFeature::kSubshell));
  EXPECT_TRUE(s.features.has(ScriptFeature::kBackground));
  EXPECT_TRUE(s.features.has(ScriptFeature::kComment));
  EXPECT_TRUE(s.features.has(ScriptFeature::kTestCommand));
  EXPECT_TRUE(s.features.has(ScriptFeature::kArithmetic));
  EXPECT_FALSE(s.features.has(ScriptFeature::kHeredoc));
  EXPECT_FALSE(parse("a b | c").features.bits != 0);
}

TEST(ParseScript, RejectsBrokenSyntaxAndKeepsWhatCameBefore) {
  for (std::string_view bad : {"echo 'open", "a && ", "| a", "(a", "a)", "if a; then b", "echo $(a",
                               "cat <<EOF\nno end", "a; ; b", "{ a }"}) {
    ParseError error;
    EXPECT_FALSE(parse_script(bad, CommandContext::kTopLevel, &error).ok()) << bad;
    EXPECT_EQ(error.kind, ParseFailure::kSyntax) << bad;
  }
  ParseError error;
  ASSERT_FALSE(parse_script("first x; if a; then b", CommandContext::kTopLevel, &error).ok());
  EXPECT_EQ(argvs(error.partial), (Argvs{{"first", "x"}, {"a"}, {"b"}}));
}

TEST(ParseScript, NotesBashSyntaxThatTreeSitterBashRejects) {
  for (std::string_view quirk :
       {"cat <<EOF; b\nx\nEOF", "for x do a; done", "a <> f", "x=1 > f", "e#cho a", "(a) <<< x"}) {
    auto s = parse_script(quirk);
    ASSERT_TRUE(s.ok()) << quirk;
    EXPECT_FALSE(s->reference_syntax_error.empty()) << quirk;
  }
  EXPECT_EQ(argvs("cat <<EOF; b\nx\nEOF"), (Argvs{{"cat"}, {"b"}}));
  EXPECT_TRUE(parse("a; b").reference_syntax_error.empty());
}

TEST(ParseScript, AParenthesisAfterANameThatIsNotAFunctionIsReadAsASubshell) {
  auto s = parse_script("done ( b c )");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(argvs(*s), (Argvs{{"done"}, {"b", "c"}}));
  EXPECT_FALSE(s->reference_syntax_error.empty());
}

TEST(ParseScript, ArithmeticIsNotACommandButItsSubstitutionsAre) {
  EXPECT_EQ(argvs("echo $((2 ** 10)); (( i = $(a) + 1 ))"),
            (Argvs{{"echo", "$((2 ** 10))"}, {"a"}}));
}

TEST(ParseScript, GivesUpOnDeepNesting) {
  std::string deep;
  for (int i = 0; i < 300; ++i) deep += "$(";
  deep += "a";
  for (int i = 0; i < 300; ++i) deep += ")";
  ParseError error;
  EXPECT_FALSE(parse_script(deep, CommandContext::kTopLevel, &error).ok());
  EXPECT_EQ(error.kind, ParseFailure::kTooDeep);
}

TEST(ParseScript, EstimatesTheSyntaxTreeSizeLikeTreeSitterBash) {
  // Counts checked against tree-sitter-bash's descendantCount.
  EXPECT_EQ(parse("a;a;a;").syntax_nodes, 13u);
  EXPECT_EQ(parse("echo a a").syntax_nodes, 6u);
  EXPECT_EQ(parse("echo \"a$b\"").syntax_nodes, 11u);
}

TEST(ParseScript, RecordsEverySubstitutionWhereverItSits) {
  for (std::string_view line : {"x=${y:-$(id)}", "x=$((1+$(id)))", "x=$[`id`]", "x=\"${y:-'$(id)'}\"", "a[$(id)]=1",
                                "x=${y:-${z:-$(id)}}", "echo ${x:-<(id)}", "cat <<E\n$(id)\nE\n"}) {
    Script s = parse(line);
    EXPECT_FALSE(s.substitutions.empty()) << line;
  }
  // Inside single quotes there is none; inside ${...} outside double quotes, '...' quotes.
  EXPECT_TRUE(parse("echo '$(id)'").substitutions.empty());
  EXPECT_TRUE(parse("echo ${x:-'$(id)'}").substitutions.empty());
}

TEST(ParseScript, OnlySpaceAndTabAreBlanksAndOnlyLfEndsALine) {
  for (char c : {'\r', '\v', '\f'}) {
    Script s = parse(std::string("true") + c + "#x y");
    ASSERT_EQ(s.commands.size(), 1u);
    EXPECT_EQ(s.commands[0].words.size(), 2u) << int(c);
    EXPECT_EQ(s.commands[0].words[0].value, std::string("true") + c + "#x");
    EXPECT_FALSE(s.features.has(ScriptFeature::kComment));
  }
  Script crlf = parse("a b\r\nc");
  ASSERT_EQ(crlf.commands.size(), 2u);
  EXPECT_EQ(crlf.commands[0].words[1].value, "b\r");
  EXPECT_EQ(crlf.commands[0].next, Separator::kNewline);
}

TEST(ParseScript, DashReadsDollarQuotesAsADollarAndAQuote) {
  Result<Script> bash = parse_script("echo $'a\\x41'");
  Result<Script> dash = parse_script("echo $'a\\x41'", CommandContext::kTopLevel, nullptr, ShellDialect::kDash);
  ASSERT_TRUE(bash.ok() && dash.ok());
  EXPECT_EQ(bash->commands[0].words[1].value, "aA");
  EXPECT_EQ(dash->commands[0].words[1].value, "$a\\x41");
  EXPECT_FALSE(parse_script("a |& b", CommandContext::kTopLevel, nullptr, ShellDialect::kDash).ok());
  Result<Script> amp = parse_script("a &>f b", CommandContext::kTopLevel, nullptr, ShellDialect::kDash);
  ASSERT_TRUE(amp.ok());
  EXPECT_EQ(amp->commands[0].next, Separator::kBackground);
}

}  // namespace
}  // namespace clawexec::shell
