#include "term/display_escape.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "base/utf.h"
#include "term/unicode_format.h"

namespace clawexec::term {
namespace {

using namespace std::string_view_literals;

std::string utf8(char32_t cp) {
  std::string out;
  append_utf8(out, cp);
  return out;
}

// Reads escaped text back with the documented rule ("\\" is one backslash, \e \n \r \t
// \xNN \u{...} are escapes, a backslash before anything else is itself). Invalid UTF-8 comes
// back byte for byte.
std::string unescape(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 >= s.size()) {
      out += s[i];
      continue;
    }
    const char n = s[i + 1];
    if (n == '\\') { out += '\\'; ++i; }
    else if (n == 'e') { out += '\x1b'; ++i; }
    else if (n == 'n') { out += '\n'; ++i; }
    else if (n == 'r') { out += '\r'; ++i; }
    else if (n == 't') { out += '\t'; ++i; }
    else if (n == 'x') { out += static_cast<char>(std::stoi(std::string(s.substr(i + 2, 2)), nullptr, 16)); i += 3; }
    else if (n == 'u') {
      size_t close = s.find('}', i);
      append_utf8(out, static_cast<char32_t>(std::stoul(std::string(s.substr(i + 3, close - i - 3)), nullptr, 16)));
      i = close;
    } else {
      out += '\\';
    }
  }
  return out;
}

TEST(EscapeForDisplay, PrintableTextIsUnchanged) {
  for (std::string_view s : {"ls -la /tmp"sv, "echo 'héllo wörld' → 日本語 😀"sv, ""sv, "a\\b c\\.txt C:\\Users"sv}) {
    EXPECT_EQ(escape_for_display(s), s);
    EXPECT_TRUE(is_display_safe(s));
  }
}

TEST(EscapeForDisplay, TheLineErasingAttackIsShownVisibly) {
  const std::string command = "touch X #\x1b[2K\x1b[1G  Command: ls -la";
  EXPECT_EQ(escape_for_display(command), "touch X #\\e[2K\\e[1G  Command: ls -la");
  EXPECT_FALSE(is_display_safe(command));
}

TEST(EscapeForDisplay, EveryC0ControlAndDelIsEscaped) {
  EXPECT_EQ(escape_for_display("a\tb\nc\rd"), "a\\tb\\nc\\rd");
  EXPECT_EQ(escape_for_display(std::string_view("\0", 1)), "\\x00");
  EXPECT_EQ(escape_for_display("\x07\x08\x7f"), "\\x07\\x08\\x7f");
  for (int c = 0; c < 0x20; ++c) {
    const std::string shown = escape_for_display(std::string(1, static_cast<char>(c)));
    EXPECT_EQ(shown[0], '\\') << c;
    EXPECT_EQ(shown.find_first_of(std::string_view("\0\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f"
                                                   "\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f",
                                                   32)),
              std::string::npos)
        << c;
  }
}

TEST(EscapeForDisplay, C1ControlsAreEscapedAsCodePoints) {
  EXPECT_EQ(escape_for_display(utf8(0x80)), "\\u{0080}");
  EXPECT_EQ(escape_for_display(utf8(0x85)), "\\u{0085}");
  EXPECT_EQ(escape_for_display("x" + utf8(0x9B) + "2K"), "x\\u{009B}2K");
  EXPECT_EQ(escape_for_display(utf8(0xA1)), utf8(0xA1)) << "the first printable Latin-1 character stays";
}

TEST(EscapeForDisplay, BidiOverridesIsolatesAndMarksAreEscaped) {
  for (char32_t cp : {0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F, 0x061C}) {
    char expected[16];
    std::snprintf(expected, sizeof expected, "\\u{%04X}", static_cast<unsigned>(cp));
    EXPECT_EQ(escape_for_display("a" + utf8(cp) + "b"), std::string("a") + expected + "b") << std::hex << static_cast<unsigned>(cp);
  }
  // "rm -rf ~ #" followed by an override that makes the tail read backwards.
  EXPECT_EQ(escape_for_display("ls " + utf8(0x202E) + "fr- mr"), "ls \\u{202E}fr- mr");
}

TEST(EscapeForDisplay, EveryFormatCharacterIsEscaped) {
  for (const CodePointRange& r : kFormatRanges) {
    for (char32_t cp = r.first; cp <= r.last; ++cp) {
      const std::string shown = escape_for_display(utf8(cp));
      EXPECT_EQ(shown.rfind("\\u{", 0), 0u) << std::hex << static_cast<unsigned>(cp);
      EXPECT_EQ(unescape(shown), utf8(cp)) << std::hex << static_cast<unsigned>(cp);
    }
  }
  EXPECT_EQ(escape_for_display(utf8(0x200B)), "\\u{200B}") << "zero-width space";
  EXPECT_EQ(escape_for_display(utf8(0xFEFF)), "\\u{FEFF}") << "byte order mark";
  EXPECT_EQ(escape_for_display(utf8(0xE0041)), "\\u{E0041}") << "tag character";
}

TEST(EscapeForDisplay, OtherInvisibleCharactersAndSeparatorsAreEscaped) {
  for (char32_t cp : {0x2028, 0x2029, 0x00A0, 0x2003, 0x3000, 0x034F, 0x115F, 0x3164, 0x180B}) {
    const std::string shown = escape_for_display(utf8(cp));
    EXPECT_EQ(shown.rfind("\\u{", 0), 0u) << std::hex << static_cast<unsigned>(cp);
  }
  EXPECT_EQ(escape_for_display(utf8(0x2028)), "\\u{2028}");
}

TEST(EscapeForDisplay, VariationSelectorsStayOnlyWhereTheySelectAVariant) {
  const std::string gear = utf8(0x2699) + utf8(0xFE0F);  // the emoji form of U+2699
  EXPECT_EQ(escape_for_display(gear + " Exec policy"), gear + " Exec policy");
  EXPECT_EQ(escape_for_display("1" + utf8(0xFE0F) + utf8(0x20E3)), "1" + utf8(0xFE0F) + utf8(0x20E3)) << "keycap";
  EXPECT_EQ(escape_for_display(utf8(0x845B) + utf8(0xE0100)), utf8(0x845B) + utf8(0xE0100)) << "ideographic variant";
  EXPECT_EQ(escape_for_display("rm" + utf8(0xFE0F)), "rm\\u{FE0F}") << "after a letter it only disguises";
  EXPECT_EQ(escape_for_display(utf8(0xFE0E) + "ls"), "\\u{FE0E}ls");
  EXPECT_EQ(escape_for_display(utf8(0x202E) + utf8(0xFE0F)), "\\u{202E}\\u{FE0F}") << "after an escaped character";
}

TEST(EscapeForDisplay, AStackOfCombiningMarksIsCutToAFewShownMarks) {
  // Vietnamese "ệ" written with two marks, and a Devanagari syllable, are ordinary text.
  const std::string vietnamese = "e" + utf8(0x0323) + utf8(0x0302);
  EXPECT_EQ(escape_for_display(vietnamese), vietnamese);
  const std::string devanagari = utf8(0x0915) + utf8(0x094D) + utf8(0x0937);
  EXPECT_EQ(escape_for_display(devanagari), devanagari);
  // "Zalgo" text: forty marks over one letter would be drawn across the lines around it.
  std::string zalgo = "a";
  for (int i = 0; i < 40; ++i) zalgo += utf8(0x0336);
  std::string shown = escape_for_display("rm " + zalgo + " ok");
  std::string expected = "rm a" + utf8(0x0336) + utf8(0x0336) + utf8(0x0336) + utf8(0x0336);
  for (int i = 4; i < 40; ++i) expected += "\\u{0336}";
  EXPECT_EQ(shown, expected + " ok");
  // The count starts again at the next base character.
  EXPECT_EQ(escape_for_display("a" + utf8(0x0301) + "b" + utf8(0x0301)), "a" + utf8(0x0301) + "b" + utf8(0x0301));
  // A mark with no base shown before it (the start of the value, after an escape) is escaped:
  // it would be drawn over the quote or the escape before it.
  EXPECT_EQ(escape_for_display(utf8(0x0338) + "x"), "\\u{0338}x");
  EXPECT_EQ(escape_for_display(utf8(0x202E) + utf8(0x20DD)), "\\u{202E}\\u{20DD}");
  EXPECT_TRUE(is_display_safe("e" + utf8(0x0301)));
  EXPECT_FALSE(is_display_safe(zalgo));
}

TEST(EscapeForDisplay, InvalidUtf8IsShownByteForByte) {
  EXPECT_EQ(escape_for_display("a\xff" "b"), "a\\xffb");
  EXPECT_EQ(escape_for_display("\xc0\xaf"), "\\xc0\\xaf") << "overlong slash";
  EXPECT_EQ(escape_for_display("\xed\xa0\x80"), "\\xed\\xa0\\x80") << "surrogate";
  EXPECT_EQ(escape_for_display("x\xe2\x80"), "x\\xe2\\x80") << "cut by the end";
  EXPECT_EQ(escape_for_display("\xe2\x80z"), "\\xe2\\x80z") << "cut by an ASCII byte";
}

TEST(EscapeForDisplay, ALiteralBackslashThatWouldReadAsAnEscapeIsDoubled) {
  EXPECT_EQ(escape_for_display("printf 'a\\nb'"), "printf 'a\\\\nb'");
  EXPECT_EQ(escape_for_display("\\e[2K"), "\\\\e[2K");
  EXPECT_EQ(escape_for_display("\\u{202E}"), "\\\\u{202E}");
  EXPECT_EQ(escape_for_display("\\x1b"), "\\\\x1b");
  EXPECT_EQ(escape_for_display("a\\\\b"), "a\\\\\\b") << "the first of two is followed by a backslash";
  EXPECT_EQ(escape_for_display("grep '\\.txt$'"), "grep '\\.txt$'") << "other backslashes stay single";
  EXPECT_EQ(escape_for_display("end\\"), "end\\");
  EXPECT_EQ(escape_for_display("\\\x1b"), "\\\\\\e") << "a backslash before an escaped character";
  EXPECT_EQ(escape_for_display("\\\xff"), "\\\\\\xff");
}

TEST(EscapeForDisplay, EscapedTextReadsBackAsTheOriginal) {
  const std::string samples[] = {
      "touch X #\x1b[2K\x1b[1G  Command: ls -la",
      "a\\nb\nc\\\\\\e\x1b\\x41\\u{41}\\",
      "\\" + utf8(0x202E) + "\\\t\\q\\",
      "mixed \xc3\xa9 " + utf8(0x200D) + " \x9b \\\\\\",
  };
  for (const std::string& s : samples) EXPECT_EQ(unescape(escape_for_display(s)), s) << s;
  // Every two-character string over an alphabet of tricky pieces.
  const std::string pieces[] = {"\\", "e", "n", "u", "x", "{", "\x1b", "\n", "a", utf8(0x202E)};
  for (const std::string& a : pieces) {
    for (const std::string& b : pieces) {
      for (const std::string& c : pieces) {
        const std::string s = a + b + c;
        EXPECT_EQ(unescape(escape_for_display(s)), s) << s;
      }
    }
  }
}

TEST(EscapeForDisplay, LinesStyleKeepsLineFeedsOnly) {
  EXPECT_EQ(escape_for_display("one\ntwo\r\nthree\x1b[0m", DisplayStyle::kLines), "one\ntwo\\r\nthree\\e[0m");
  EXPECT_EQ(escape_for_display("a\\\nb", DisplayStyle::kLines), "a\\\nb") << "a backslash before a kept LF stays single";
  EXPECT_EQ(escape_for_display("a\\nb", DisplayStyle::kLines), "a\\\\nb");
}

TEST(EscapeForDisplay, JsonTextStyleLeavesJsonEscapesAlone) {
  // What a JSON serialiser makes of "touch\x1b[2K \u202E \x7f" with a pretty-printed newline.
  const std::string json = "{\n  \"command\": \"touch\\u001b[2K \\\\e " + utf8(0x202E) + " \x7f\"\n}";
  EXPECT_EQ(escape_for_display(json, DisplayStyle::kJsonText),
            "{\n  \"command\": \"touch\\u001b[2K \\\\e \\u{202E} \\x7f\"\n}");
}

}  // namespace
}  // namespace clawexec::term
