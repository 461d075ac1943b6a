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
  EXPECT_EQ(decode_unquoted("ab\\\rcd"), "ab\rcd");  // bash: an escaped CR, not a continuation
  EXPECT_EQ(decode_unquoted("trailing\\"), "trailing\\");
}

TEST(DecodeDoubleQuoted, EscapesOnlyTheFiveSpecialCharacters) {
  EXPECT_EQ(decode_double_quoted(R"("a\"b\\c\$d\`e\nf")"), "a\"b\\c$d`e\\nf");
  EXPECT_EQ(decode_double_quoted("\"a\\\nb\""), "ab");
  EXPECT_EQ(decode_double_quoted(R"("$HOME/x")"), "$HOME/x");
}

// Each expectation below was read off bash 5.2.15 (`bash -c "printf %s $'...'"`).
TEST(DecodeAnsiC, DecodesEscapesExactlyAsBash52) {
  EXPECT_EQ(decode_ansi_c(R"($'a\tb\n')"), "a\tb\n");
  EXPECT_EQ(decode_ansi_c(R"($'\a\b\f\n\r\t\v\e\E\?\"\'\\')"), "\x07\b\f\n\r\t\v\x1B\x1B?\"'\\");
  EXPECT_EQ(decode_ansi_c(R"($'\x41\101\x412\x4')"), "AAA2\x04");
  EXPECT_EQ(decode_ansi_c(R"($'\x{63}\x{4142}z\x{41}2')"), "cBzA2");  // \x{...}: one byte, the low one
  EXPECT_EQ(decode_ansi_c(R"($'\x{41zz}yy')"), "Azz}yy");
  EXPECT_EQ(decode_ansi_c(R"($'\777\0101')"), "\xFF\b1");  // octal: three digits at most, one byte
  EXPECT_EQ(decode_ansi_c(R"($'\q\8\x\xg\u\ ')"), "\\q\\8\\x\\xg\\u\\ ");  // unknown: backslash kept
  EXPECT_EQ(decode_ansi_c(R"($'\cA\ca\c?\c[\c\\\c\a\c')"), "\x01\x01\x7F\x1B\x1C\x1C" "a\\c");
  EXPECT_EQ(decode_ansi_c(R"($'\u0041\U0000007f')"), "A\x7F");
}

TEST(DecodeAnsiC, ANulByteEndsTheString) {
  EXPECT_EQ(decode_ansi_c(R"($'a\0b')"), "a");
  EXPECT_EQ(decode_ansi_c(R"($'a\x{}b')"), "a");
  EXPECT_EQ(decode_ansi_c(R"($'\u0000a')"), "");
  EXPECT_EQ(decode_ansi_c(R"($'\c@x')"), "");
  EXPECT_TRUE(decode_ansi_c_value(R"($'a\0b')").truncated);
  // The word goes on after the string: bash passes "ac" for $'a\0b'c.
  EXPECT_EQ(argument_of(R"(echo $'a\0b'c)").value, "ac");
}

TEST(DecodeAnsiC, UnicodeEscapesBeyondAsciiDependOnTheLocale) {
  // bash writes UTF-8 in a UTF-8 locale and "\u00E9" in the C locale.
  AnsiCValue e = decode_ansi_c_value(R"($'\u00e9')");
  EXPECT_EQ(e.value, "\xC3\xA9");
  EXPECT_TRUE(e.uncertain);
  EXPECT_FALSE(decode_ansi_c_value(R"($'\u0041')").uncertain);
}

TEST(DecodeAnsiC, RawQuotingBytesOfBashMakeTheValueUncertain) {
  // bash 5.2: $'\c<DEL>' is 0x01 0x7f and $'\<0x01>' is "\" 0x01 0x01 (its CTLESC/CTLNUL leak).
  EXPECT_TRUE(decode_ansi_c_value("$'\\c\x7f'").uncertain);
  EXPECT_TRUE(decode_ansi_c_value("$'\\\x01'").uncertain);
  EXPECT_FALSE(exact_word_value(argument_of("echo $'\\c\x7f'")));
  EXPECT_FALSE(argument_of(R"(echo $'\u00e9')").is_literal());
  EXPECT_FALSE(exact_word_value(argument_of(R"(echo $'\u00e9')")));
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

TEST(ExactWordValue, IsTheValueOnlyWhenNoShellCanExpandTheWord) {
  EXPECT_EQ(exact_word_value(argument_of(R"(echo a'b c'"d"\ e)")), "ab cd e");
  EXPECT_EQ(exact_word_value(argument_of("echo HEAD~1")), "HEAD~1");
  EXPECT_EQ(exact_word_value(argument_of("echo ]")), "]");
  EXPECT_EQ(exact_word_value(argument_of("echo [")), "[");
  EXPECT_EQ(exact_word_value(argument_of("echo a{b")), "a{b");
  EXPECT_EQ(exact_word_value(argument_of(R"(echo '~' \* "{a,b}")")), "~");
  for (std::string_view word : {"*.txt", "a?", "[ab]", "a[b']'", "{a,b}", "x{}", "~", "~/x", "a=~", "a=b:~", "--x=~", "=ls", "$x",
                                "\"$x\"", "$(id)", "$'\\u00e9'", "$\"ab\""}) {
    EXPECT_FALSE(exact_word_value(argument_of("echo " + std::string(word)))) << word;
  }
}

TEST(QuoteIfNeeded, PlainWordsStayBareAndEverythingElseIsSingleQuoted) {
  EXPECT_EQ(quote_if_needed("/usr/bin/git"), "/usr/bin/git");
  EXPECT_EQ(quote_if_needed("a=b,c:d@e%f+g"), "a=b,c:d@e%f+g");
  EXPECT_EQ(quote_if_needed(""), "''");
  EXPECT_EQ(quote_if_needed("a b"), "'a b'");
  EXPECT_EQ(quote_if_needed("it's"), "'it'\\''s'");
  EXPECT_EQ(quote_if_needed("~x"), "'~x'");
}

TEST(SingleQuote, EveryShellReadsTheTextBack) {
  for (std::string_view text : {"", "plain", "it's", "''", "a\nb", "$x `id` \\ \"", "\x1B[2K"}) {
    std::string quoted = single_quote(text);
    Word w = argument_of("echo " + quoted);
    EXPECT_EQ(exact_word_value(w), std::string(text)) << quoted;
  }
}

}  // namespace
}  // namespace clawexec::shell
