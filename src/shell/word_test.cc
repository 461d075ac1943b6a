#include "shell/word.h"

#include <gtest/gtest.h>

#include "shell/script.h"

namespace clawexec::shell {
namespace {

const Word& only_argument(const Script& script) { return script.commands.at(0).words.at(1); }

Word argument_of(std::string_view command) {
  auto script = parse_script(command);
  EXPECT_TRUE(script.ok()) << command;
  return only_argument(*script);
}

TEST(DecodeUnquoted, RemovesBackslashesAndLineContinuations) {
  EXPECT_EQ(decode_unquoted(R"(a\ b\$c)"), "a b$c");
  EXPECT_EQ(decode_unquoted("ab\\\ncd"), "abcd");
  EXPECT_EQ(decode_unquoted("ab\\\r\ncd"), "abcd");
  EXPECT_EQ(decode_unquoted("trailing\\"), "trailing\\");
}

TEST(DecodeDoubleQuoted, EscapesOnlyTheFiveSpecialCharacters) {
  EXPECT_EQ(decode_double_quoted(R"("a\"b\\c\$d\`e\nf")"), "a\"b\\c$d`e\\nf");
  EXPECT_EQ(decode_double_quoted("\"a\\\nb\""), "ab");
  EXPECT_EQ(decode_double_quoted(R"("$HOME/x")"), "$HOME/x");
}

TEST(DecodeAnsiC, DecodesCEscapesHexUnicodeAndOctal) {
  EXPECT_EQ(decode_ansi_c(R"($'a\tb\n')"), "a\tb\n");
  EXPECT_EQ(decode_ansi_c(R"($'\x41\101\u00e9\U0001F600')"), "AA\xC3\xA9\xF0\x9F\x98\x80");
  EXPECT_EQ(decode_ansi_c(R"($'\'\q\xg')"), "'qxg");
  EXPECT_EQ(decode_ansi_c(R"($'\U00110000')"), "\\U00110000");  // beyond Unicode: kept as written
}

TEST(HasUnescapedPattern, FindsGlobsAndBracesButNotEscapedOnes) {
  EXPECT_TRUE(has_unescaped_pattern("a*"));
  EXPECT_TRUE(has_unescaped_pattern("a?b"));
  EXPECT_TRUE(has_unescaped_pattern("[ab]"));
  EXPECT_TRUE(has_unescaped_pattern("{a,b}"));
  EXPECT_FALSE(has_unescaped_pattern(R"(a\*b)"));
  EXPECT_FALSE(has_unescaped_pattern("[]"));
  EXPECT_FALSE(has_unescaped_pattern("a[b"));
}

TEST(Word, ValueConcatenatesQuotedAndUnquotedParts) {
  Word w = argument_of(R"(echo a'b c'"d$x"\ e)");
  EXPECT_EQ(w.value, "ab cd$x e");
  ASSERT_EQ(w.parts.size(), 4u);
  EXPECT_EQ(w.parts[0].kind, WordPartKind::kUnquoted);
  EXPECT_EQ(w.parts[1].kind, WordPartKind::kSingleQuoted);
  EXPECT_EQ(w.parts[2].kind, WordPartKind::kDoubleQuoted);
  EXPECT_TRUE(w.parts[2].has_expansion);
  EXPECT_EQ(w.text, R"(a'b c'"d$x"\ e)");
}

TEST(Word, QuotedMaskMarksQuotedAndEscapedBytes) {
  Word w = argument_of(R"(echo a'|'\;b)");
  EXPECT_EQ(w.value, "a|;b");
  EXPECT_EQ(w.quoted, (std::vector<bool>{false, true, true, false}));
}

TEST(Word, ExpansionsStayVerbatimAndMakeTheWordNonLiteral) {
  Word w = argument_of("echo $HOME/x");
  EXPECT_EQ(w.value, "$HOME/x");
  EXPECT_TRUE(w.has_expansion());
  EXPECT_FALSE(w.is_literal());
  EXPECT_TRUE(argument_of("echo '$HOME'").is_literal());
}

TEST(Word, GlobsMakeUnquotedWordsNonLiteralButNotQuotedOnes) {
  EXPECT_FALSE(argument_of("echo *.txt").is_literal());
  EXPECT_TRUE(argument_of("echo '*.txt'").is_literal());
  EXPECT_TRUE(argument_of("echo \\*.txt").is_literal());
  // A word of several parts is tested as a whole, quotes included (the reference's rule).
  EXPECT_FALSE(argument_of("echo a'*'").is_literal());
}

}  // namespace
}  // namespace clawexec::shell
