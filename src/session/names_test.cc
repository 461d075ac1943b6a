#include "session/names.h"

#include <gtest/gtest.h>

#include <set>
#include <vector>

namespace clawexec::session {
namespace {

// A random source that replays a script of values and records the bounds it was asked for.
class ScriptedRandom {
 public:
  explicit ScriptedRandom(std::vector<uint32_t> values) : values_(std::move(values)) {}
  UniformSource source() {
    return [this](uint32_t bound) {
      bounds.push_back(bound);
      uint32_t v = next_ < values_.size() ? values_[next_++] : 0;
      return v % bound;
    };
  }
  std::vector<uint32_t> bounds;

 private:
  std::vector<uint32_t> values_;
  size_t next_ = 0;
};

std::string two_words(size_t adjective, size_t noun) {
  return std::string(slug_adjective(adjective)) + "-" + std::string(slug_noun(noun));
}

TEST(SessionSlug, WordListsAreLowercaseLettersWithoutDuplicates) {
  EXPECT_GE(slug_adjective_count(), 40u);
  EXPECT_GE(slug_noun_count(), 50u);
  std::set<std::string_view> adjectives;
  std::set<std::string_view> nouns;
  for (size_t i = 0; i < slug_adjective_count(); ++i) adjectives.insert(slug_adjective(i));
  for (size_t i = 0; i < slug_noun_count(); ++i) nouns.insert(slug_noun(i));
  EXPECT_EQ(adjectives.size(), slug_adjective_count());
  EXPECT_EQ(nouns.size(), slug_noun_count());
  for (const auto* words : {&adjectives, &nouns}) {
    for (std::string_view w : *words) {
      EXPECT_FALSE(w.empty());
      for (char c : w) EXPECT_TRUE(c >= 'a' && c <= 'z') << w;
    }
  }
}

TEST(SessionSlug, FreeTwoWordSlugIsUsedDirectly) {
  ScriptedRandom random({3, 7});
  auto nothing_taken = [](std::string_view) { return false; };
  std::string slug = create_session_slug(random.source(), nothing_taken, 0);
  EXPECT_EQ(slug, two_words(3, 7));
  EXPECT_EQ(random.bounds, (std::vector<uint32_t>{static_cast<uint32_t>(slug_adjective_count()),
                                                 static_cast<uint32_t>(slug_noun_count())}));
}

TEST(SessionSlug, TakenBaseTriesNumberedSuffixes) {
  ScriptedRandom random({1, 2});
  std::string base = two_words(1, 2);
  std::vector<std::string> asked;
  auto taken = [&](std::string_view id) {
    asked.emplace_back(id);
    return id == base || id == base + "-2" || id == base + "-3";
  };
  EXPECT_EQ(create_session_slug(random.source(), taken, 0), base + "-4");
  EXPECT_EQ(asked, (std::vector<std::string>{base, base + "-2", base + "-3", base + "-4"}));
}

TEST(SessionSlug, AllNumberedVariantsTakenDrawsANewBase) {
  ScriptedRandom random({0, 0, 5, 6});
  std::string first = two_words(0, 0);
  auto taken = [&](std::string_view id) { return id.substr(0, first.size()) == first; };
  EXPECT_EQ(create_session_slug(random.source(), taken, 0), two_words(5, 6));
}

TEST(SessionSlug, FallsBackToThreeWordsAfterTwelveTwoWordAttempts) {
  ScriptedRandom random({});  // always index 0
  int two_word_checks = 0;
  auto taken = [&](std::string_view id) {
    size_t dashes = 0;
    for (char c : id) dashes += c == '-';
    bool three_words = dashes >= 2 && id.find_first_of("0123456789") == std::string_view::npos;
    if (!three_words) ++two_word_checks;
    return !three_words;
  };
  std::string slug = create_session_slug(random.source(), taken, 0);
  EXPECT_EQ(slug, two_words(0, 0) + "-" + std::string(slug_noun(0)));
  EXPECT_EQ(two_word_checks, 12 * 12);  // 12 bases, each plain and with -2..-12
}

TEST(SessionSlug, RandomSuffixThenTimeSuffixWhenEverythingIsTaken) {
  // Draw order: 12 x (adj, noun), 12 x (adj, noun, noun), then adj, noun, noun and 3 suffix
  // characters from [a-z0-9].
  std::vector<uint32_t> script(12 * 2 + 12 * 3, 0);
  script.insert(script.end(), {1, 2, 3, 0, 26, 35});
  ScriptedRandom random(script);
  std::string expected_fallback = two_words(1, 2) + "-" + std::string(slug_noun(3)) + "-a09";
  auto free_only_fallback = [&](std::string_view id) { return id != expected_fallback; };
  EXPECT_EQ(create_session_slug(random.source(), free_only_fallback, 0), expected_fallback);

  ScriptedRandom again(script);
  auto all_taken = [](std::string_view) { return true; };
  // 1700000000000 ms in base 36.
  EXPECT_EQ(create_session_slug(again.source(), all_taken, 1'700'000'000'000),
            expected_fallback + "-loyw3v28");
  EXPECT_EQ(again.bounds.back(), 36u);
}

// --- deriveSessionName (§2.6); expected values from the reference's own function ---------

struct NameCase {
  const char* command;
  const char* name;  // nullptr: no name
};

TEST(DeriveSessionName, MatchesReference) {
  const NameCase cases[] = {
      {"echo hello", "echo hello"},
      {"npm run build", "npm run"},
      {"ls -la", "ls -la"},
      {"sleep 5", "sleep 5"},
      {"python3 -m http.server 8000", "python3 http.server"},
      {"git commit -m \"fix the thing\"", "git commit"},
      {"\"/usr/bin/my tool\" --flag value", "/usr/bin/my tool value"},
      {"cmd -a -b -c", "cmd -a"},
      {"cmd", "cmd"},
      {"--weird start", "--weird start"},
      {"-x -y", "-x -y"},
      {"", nullptr},
      {"   ", nullptr},
      {"\"\"", nullptr},
      {"''", nullptr},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.command);
    std::optional<std::string> name = derive_session_name(c.command);
    if (c.name == nullptr) {
      EXPECT_FALSE(name.has_value());
    } else {
      ASSERT_TRUE(name.has_value());
      EXPECT_EQ(*name, c.name);
    }
  }
}

TEST(DeriveSessionName, NamesTheFirstCommandWithoutItsSeparator) {
  // The reference names "echo start; sleep 1; echo hi; exit 3" "echo start;".
  EXPECT_EQ(derive_session_name("echo start; sleep 1; echo hi; exit 3"), "echo start");
  EXPECT_EQ(derive_session_name("sleep 1;"), "sleep 1");
  EXPECT_EQ(derive_session_name("sleep 1 ; echo x"), "sleep 1");
  EXPECT_EQ(derive_session_name("cd /src && make -j2"), "cd /src");
  EXPECT_EQ(derive_session_name("make||echo failed"), "make");
  EXPECT_EQ(derive_session_name("yes | head -n 3"), "yes");
  EXPECT_EQ(derive_session_name("sleep 30 &"), "sleep 30");
  EXPECT_EQ(derive_session_name("npm test\necho done"), "npm test");
  EXPECT_EQ(derive_session_name("sleep 2\r\nx"), "sleep 2");
  // Not separators: quoted, escaped, or part of a redirection.
  EXPECT_EQ(derive_session_name("echo 'a; b' c"), "echo a; b");
  EXPECT_EQ(derive_session_name("echo \"x | y\"; z"), "echo x | y");
  EXPECT_EQ(derive_session_name("find . -exec rm {} \\; -print"), "find .");
  EXPECT_EQ(derive_session_name("make 2>&1 | tee log"), "make 2>&1");
  EXPECT_EQ(derive_session_name("make &>log; ls"), "make &>log");
  // Nothing before the first separator: the whole line's words, as the reference.
  EXPECT_EQ(derive_session_name("; ls -l"), "; ls");
  EXPECT_EQ(derive_session_name(";"), ";");
}

TEST(DeriveSessionName, QuotesAreStrippedOnceForTokensAndAgainForTheName) {
  EXPECT_EQ(derive_session_name("'ls'"), "ls");
  EXPECT_EQ(derive_session_name("\"'ls'\" x"), "ls x");    // verb stripped twice
  EXPECT_EQ(derive_session_name("'\"'"), "\"");            // verb alone: stripped once
  EXPECT_EQ(derive_session_name("'\"' y"), " y");          // verb stripped to nothing
  EXPECT_EQ(derive_session_name("echo \" spaced \" z"), "echo spaced");  // trimmed
  EXPECT_EQ(derive_session_name("x \"\" y"), "x y");        // empty tokens vanish
  EXPECT_EQ(derive_session_name("x \"\" ''"), "x");
}

TEST(DeriveSessionName, TokensFollowTheReferenceRegex) {
  EXPECT_EQ(derive_session_name("echo \"a\\\"b\" c"), "echo a\\\"b");  // escaped quote inside
  EXPECT_EQ(derive_session_name("echo \"unterminated"), "echo unterminated");
  EXPECT_EQ(derive_session_name("echo 'unterminated"), "echo unterminated");
  EXPECT_EQ(derive_session_name("foo\"bar baz\"'q u'x rest"), "foo\"bar baz\"'q u'x rest");
  EXPECT_EQ(derive_session_name("echo \"a\\\nb\" t"), "echo a\\");  // \ + newline ends a string
  EXPECT_EQ(derive_session_name("echo \\\"x\\\""), "echo \\");
  EXPECT_EQ(derive_session_name("echo \"a\\\\\" b"), "echo a\\\\");
  EXPECT_EQ(derive_session_name("echo \"multi\nline\" z"), "echo multi\nline");
  EXPECT_EQ(derive_session_name("echo 'it'\"'\"'s' t"), "echo it'\"'\"'s");
}

TEST(DeriveSessionName, UnicodeWhiteSpaceSeparatesWords) {
  EXPECT_EQ(derive_session_name("echo\u00a0nbsp target"), "echo nbsp");
  EXPECT_EQ(derive_session_name("\u3000echo\u3000hi"), "echo hi");
  EXPECT_EQ(derive_session_name("a\u2028b"), "a b");
}

TEST(DeriveSessionName, LongTargetIsTruncatedInTheMiddleTo48Units) {
  std::string dir = "very-long-directory-name/";
  std::string command = "tail -f /var/log/" + dir + dir + dir + dir + "file.log";
  EXPECT_EQ(derive_session_name(command), "tail /var/log/very-long-dir...irectory-name/file.log");
  std::string emoji;
  for (int i = 0; i < 40; ++i) emoji += "\U0001F600";
  // 22 units (11 pairs) kept at each end.
  std::string eleven;
  for (int i = 0; i < 11; ++i) eleven += "\U0001F600";
  EXPECT_EQ(derive_session_name("echo " + emoji), "echo " + eleven + "..." + eleven);
}

}  // namespace
}  // namespace clawexec::session
