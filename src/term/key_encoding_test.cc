#include "term/key_encoding.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace clawexec::term {
namespace {

using Warnings = std::vector<std::string>;

std::string keys(const std::vector<std::string>& tokens,
                 CursorKeyMode mode = CursorKeyMode::kNormal) {
  KeyRequest request;
  request.keys = tokens;
  return encode_key_sequence(request, mode).data;
}

std::string key(const std::string& token, CursorKeyMode mode = CursorKeyMode::kNormal) {
  return keys({token}, mode);
}

Warnings warnings_for(const std::vector<std::string>& tokens) {
  KeyRequest request;
  request.keys = tokens;
  return encode_key_sequence(request, CursorKeyMode::kNormal).warnings;
}

// Conformance §8.2 #51.
TEST(KeyEncoding, ConformanceBasicKeys) {
  EXPECT_EQ(key("Enter"), "\r");
  EXPECT_EQ(key("C-c"), "\x03");
  EXPECT_EQ(key("M-x"), "\x1bx");
  EXPECT_EQ(key("S-Tab"), "\x1b[Z");
  EXPECT_EQ(key("KPEnter"), "\x1bOM");
}

// Conformance §8.2 #51.
TEST(KeyEncoding, ConformanceCursorKeysInBothModes) {
  const std::vector<std::string> cursor = {"up", "down", "right", "left", "home", "end"};
  const std::vector<std::string> normal = {"\x1b[A", "\x1b[B",  "\x1b[C",
                                           "\x1b[D", "\x1b[1~", "\x1b[4~"};
  const std::vector<std::string> application = {"\x1bOA", "\x1bOB", "\x1bOC",
                                                "\x1bOD", "\x1bOH", "\x1bOF"};
  for (size_t i = 0; i < cursor.size(); ++i) {
    EXPECT_EQ(key(cursor[i], CursorKeyMode::kNormal), normal[i]) << cursor[i];
    EXPECT_EQ(key(cursor[i], CursorKeyMode::kApplication), application[i]) << cursor[i];
    EXPECT_EQ(key(cursor[i], CursorKeyMode::kUnknown), normal[i]) << cursor[i];
  }
  EXPECT_EQ(key("M-up", CursorKeyMode::kApplication), "\x1b[1;3A");
  EXPECT_EQ(key("C-right", CursorKeyMode::kApplication), "\x1b[1;5C");
  EXPECT_EQ(key("S-down", CursorKeyMode::kApplication), "\x1b[1;2B");
}

// Conformance §8.2 #52.
TEST(KeyEncoding, ConformanceLiteralThenHexThenKeys) {
  KeyRequest request;
  request.literal = "hi";
  request.hex = {"0d", "0x0a", "zz"};
  request.keys = {"Enter"};
  const EncodedKeys encoded = encode_key_sequence(request, CursorKeyMode::kNormal);
  EXPECT_EQ(encoded.data, "hi\r\n\r");
  EXPECT_EQ(encoded.warnings, Warnings{"Invalid hex byte: zz"});
}

// Conformance §8.2 #52.
TEST(KeyEncoding, ConformancePasteIsBracketed) {
  const std::string payload = encode_paste("line1\nline2\n", PasteBracketing::kBracketed);
  EXPECT_TRUE(payload.starts_with("\x1b[200~"));
  EXPECT_TRUE(payload.ends_with("\x1b[201~"));
  EXPECT_EQ(payload, "\x1b[200~line1\nline2\n\x1b[201~");
}

TEST(KeyEncoding, PasteWithoutBracketingIsTheRawText) {
  EXPECT_EQ(encode_paste("abc", PasteBracketing::kRaw), "abc");
  EXPECT_EQ(encode_paste("", PasteBracketing::kRaw), "");
  EXPECT_EQ(encode_paste("", PasteBracketing::kBracketed), "\x1b[200~\x1b[201~");
  EXPECT_EQ(encode_paste("", PasteBracketing::kBracketed).size(), 12u);
}

TEST(KeyEncoding, EveryNamedKey) {
  const std::vector<std::pair<std::string, std::string>> table = {
      {"enter", "\r"},       {"return", "\r"},        {"tab", "\t"},         {"escape", "\x1b"},
      {"esc", "\x1b"},       {"space", " "},          {"bspace", "\x7f"},    {"backspace", "\x7f"},
      {"up", "\x1b[A"},      {"down", "\x1b[B"},      {"right", "\x1b[C"},   {"left", "\x1b[D"},
      {"home", "\x1b[1~"},   {"end", "\x1b[4~"},      {"pageup", "\x1b[5~"}, {"pgup", "\x1b[5~"},
      {"ppage", "\x1b[5~"},  {"pagedown", "\x1b[6~"}, {"pgdn", "\x1b[6~"},   {"npage", "\x1b[6~"},
      {"insert", "\x1b[2~"}, {"ic", "\x1b[2~"},       {"delete", "\x1b[3~"}, {"del", "\x1b[3~"},
      {"dc", "\x1b[3~"},     {"btab", "\x1b[Z"},      {"f1", "\x1bOP"},      {"f2", "\x1bOQ"},
      {"f3", "\x1bOR"},      {"f4", "\x1bOS"},        {"f5", "\x1b[15~"},    {"f6", "\x1b[17~"},
      {"f7", "\x1b[18~"},    {"f8", "\x1b[19~"},      {"f9", "\x1b[20~"},    {"f10", "\x1b[21~"},
      {"f11", "\x1b[23~"},   {"f12", "\x1b[24~"},     {"kp/", "\x1bOo"},     {"kp*", "\x1bOj"},
      {"kp-", "\x1bOm"},     {"kp+", "\x1bOk"},       {"kp7", "\x1bOw"},     {"kp8", "\x1bOx"},
      {"kp9", "\x1bOy"},     {"kp4", "\x1bOt"},       {"kp5", "\x1bOu"},     {"kp6", "\x1bOv"},
      {"kp1", "\x1bOq"},     {"kp2", "\x1bOr"},       {"kp3", "\x1bOs"},     {"kp0", "\x1bOp"},
      {"kp.", "\x1bOn"},     {"kpenter", "\x1bOM"},
  };
  for (const auto& [name, bytes] : table) {
    EXPECT_EQ(key(name), bytes) << name;
    std::string upper = name;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    EXPECT_EQ(key(upper), bytes) << upper;
  }
  EXPECT_EQ(key("PgUp"), "\x1b[5~");
  EXPECT_EQ(key("kPeNtEr"), "\x1bOM");
}

TEST(KeyEncoding, ModifiersOnEveryModifiableKeyUseTheXtermScheme) {
  struct Modifiable {
    std::string name;
    std::string parameter;
    char final_char;
  };
  const std::vector<Modifiable> modifiable = {
      {"up", "1", 'A'},     {"down", "1", 'B'},     {"right", "1", 'C'},  {"left", "1", 'D'},
      {"home", "1", '~'},   {"end", "4", '~'},      {"pageup", "5", '~'}, {"pgup", "5", '~'},
      {"ppage", "5", '~'},  {"pagedown", "6", '~'}, {"pgdn", "6", '~'},   {"npage", "6", '~'},
      {"insert", "2", '~'}, {"ic", "2", '~'},       {"delete", "3", '~'}, {"del", "3", '~'},
      {"dc", "3", '~'},
  };
  const std::vector<std::pair<std::string, std::string>> modifiers = {
      {"S-", "2"},   {"M-", "3"},   {"S-M-", "4"},   {"C-", "5"},
      {"C-S-", "6"}, {"M-C-", "7"}, {"C-M-S-", "8"},
  };
  for (const Modifiable& k : modifiable) {
    for (const auto& [prefix, number] : modifiers) {
      const std::string expected = "\x1b[" + k.parameter + ";" + number + k.final_char;
      EXPECT_EQ(key(prefix + k.name, CursorKeyMode::kNormal), expected) << prefix << k.name;
      EXPECT_EQ(key(prefix + k.name, CursorKeyMode::kApplication), expected) << prefix << k.name;
    }
  }
  EXPECT_EQ(key("C-delete"), "\x1b[3;5~");
  EXPECT_EQ(key("c-m-UP"), "\x1b[1;7A");
}

TEST(KeyEncoding, OtherNamedKeysTakeOnlyTheAltPrefix) {
  EXPECT_EQ(key("M-Enter"), "\x1b\r");
  EXPECT_EQ(key("M-f1"), "\x1b\x1bOP");
  EXPECT_EQ(key("M-Escape"), "\x1b\x1b");
  EXPECT_EQ(key("C-Enter"), "\r");
  EXPECT_EQ(key("S-f5"), "\x1b[15~");
  EXPECT_EQ(key("C-M-space"), "\x1b ");
  EXPECT_EQ(key("M-Tab"), "\x1b\t");
  EXPECT_TRUE(warnings_for({"C-Enter", "S-f5"}).empty());
}

TEST(KeyEncoding, ShiftTabInAnySpelling) {
  EXPECT_EQ(key("s-tab"), "\x1b[Z");
  EXPECT_EQ(key("S-TAB"), "\x1b[Z");
  EXPECT_EQ(key("C-S-Tab"), "\x1b[Z");
  EXPECT_EQ(key("btab"), "\x1b[Z");
}

TEST(KeyEncoding, ApplicationModeAffectsOnlyUnmodifiedCursorKeys) {
  EXPECT_EQ(key("pageup", CursorKeyMode::kApplication), "\x1b[5~");
  EXPECT_EQ(key("delete", CursorKeyMode::kApplication), "\x1b[3~");
  EXPECT_EQ(key("HOME", CursorKeyMode::kApplication), "\x1bOH");
  EXPECT_EQ(key("f1", CursorKeyMode::kApplication), "\x1bOP");
}

TEST(KeyEncoding, CaretShorthand) {
  EXPECT_EQ(key("^C"), "\x03");
  EXPECT_EQ(key("^c"), "\x03");
  EXPECT_EQ(key("^?"), "\x7f");
  EXPECT_EQ(key("^@"), std::string(1, '\0'));
  EXPECT_EQ(key("^["), "\x1b");
  EXPECT_EQ(key("^^"), "\x1e");
  EXPECT_EQ(key("^_"), "\x1f");
  // Not mappable: falls through to the other rules and is sent literally, without warning.
  EXPECT_EQ(key("^1"), "^1");
  EXPECT_EQ(key("^"), "^");
  EXPECT_EQ(key("^CC"), "^CC");
  EXPECT_TRUE(warnings_for({"^1", "^", "^CC"}).empty());
}

TEST(KeyEncoding, CtrlRule) {
  EXPECT_EQ(key("C-?"), "\x7f");
  EXPECT_EQ(key("C-@"), std::string(1, '\0'));
  EXPECT_EQ(key("C-["), "\x1b");
  EXPECT_EQ(key("C-\\"), "\x1c");
  EXPECT_EQ(key("C-]"), "\x1d");
  EXPECT_EQ(key("C-_"), "\x1f");
  EXPECT_EQ(key("C-a"), "\x01");
  EXPECT_EQ(key("C-Z"), "\x1a");
  EXPECT_EQ(key("c-d"), "\x04");
  // Characters outside '@'..'_' (after upper-casing) stay as they are.
  EXPECT_EQ(key("C-1"), "1");
  EXPECT_EQ(key("C-`"), "`");
  EXPECT_EQ(key("C-\u00E9"), "\u00E9");
  EXPECT_TRUE(warnings_for({"C-1", "C-\u00E9"}).empty());
}

TEST(KeyEncoding, CtrlRuleUsesUnicodeUpperCasing) {
  // JavaScript upper-cases these to strings starting with an ASCII letter.
  EXPECT_EQ(key("C-\u00DF"), "\x13");  // ß -> SS
  EXPECT_EQ(key("^\u00DF"), "\x13");
  EXPECT_EQ(key("C-\u0131"), "\x09");  // dotless i -> I
  EXPECT_EQ(key("C-\uFB01"), "\x06");  // fi ligature -> FI
}

TEST(KeyEncoding, PrefixesThatAreNotModifiersStayLiteral) {
  EXPECT_EQ(key("C-"), "C-");
  EXPECT_EQ(key("x-"), "x-");
  EXPECT_EQ(key("x-y"), "x-y");
  EXPECT_EQ(key("C--"), "-");
  EXPECT_TRUE(warnings_for({"C-", "x-", "x-y", "C--"}).empty());
}

TEST(KeyEncoding, ShiftAndAltOnCharacters) {
  EXPECT_EQ(key("S-a"), "A");
  EXPECT_EQ(key("S-1"), "1");
  EXPECT_EQ(key("M-S-a"),
            "\x1b"
            "A");
  EXPECT_EQ(key("C-S-a"), "\x01");
  EXPECT_EQ(key("C-M-x"), "\x1b\x18");
  EXPECT_EQ(key("M-\u00E9"), "\x1b\u00E9");
}

TEST(KeyEncoding, UnknownKeysAreSentLiterallyWithAWarningOnlyWhenModified) {
  KeyRequest request;
  request.keys = {"hello", "C-hello", "C-M-", "C-\U0001F600", "\U0001F600"};
  const EncodedKeys encoded = encode_key_sequence(request, CursorKeyMode::kNormal);
  EXPECT_EQ(encoded.data, "hellohelloM-\U0001F600\U0001F600");
  EXPECT_EQ(encoded.warnings,
            (Warnings{"Unknown key \"hello\" for modifiers; sending literal.",
                      "Unknown key \"M-\" for modifiers; sending literal.",
                      "Unknown key \"\U0001F600\" for modifiers; sending literal."}));
}

TEST(KeyEncoding, TokensAreTrimmedAndEmptyTokensSendNothing) {
  EXPECT_EQ(keys({"  Enter  ", "", "   ", "\t"}), "\r");
  EXPECT_EQ(key("C- up"), "\x1b[1;5A");  // the key name is trimmed for the lookup
  KeyRequest request;
  request.keys = {"C- x"};
  const EncodedKeys encoded = encode_key_sequence(request, CursorKeyMode::kNormal);
  EXPECT_EQ(encoded.data, " x");
  EXPECT_EQ(encoded.warnings, Warnings{"Unknown key \" x\" for modifiers; sending literal."});
}

TEST(KeyEncoding, KelvinSignLowerCasesToK) {
  EXPECT_EQ(key("\u212Apenter"), "\x1bOM");
  EXPECT_EQ(key("bac\u212Aspace"), "\x7f");
}

TEST(KeyEncoding, HexEntries) {
  KeyRequest request;
  request.hex = {"1b", "0X0A", "A", " 7 ", "ff", "0x80", "00"};
  const EncodedKeys encoded = encode_key_sequence(request, CursorKeyMode::kNormal);
  EXPECT_EQ(encoded.data, std::string("\x1b\n\n\x07\xff\x80\0", 7));  // raw bytes, not UTF-8
  EXPECT_TRUE(encoded.warnings.empty());
}

TEST(KeyEncoding, InvalidHexEntriesAreSkippedWithWarnings) {
  KeyRequest request;
  request.hex = {"0x", "", "100", "g", "0x100", "-1", "x1", "0d"};
  const EncodedKeys encoded = encode_key_sequence(request, CursorKeyMode::kNormal);
  EXPECT_EQ(encoded.data, "\r");
  EXPECT_EQ(encoded.warnings,
            (Warnings{"Invalid hex byte: 0x", "Invalid hex byte: ", "Invalid hex byte: 100",
                      "Invalid hex byte: g", "Invalid hex byte: 0x100", "Invalid hex byte: -1",
                      "Invalid hex byte: x1"}));
}

TEST(KeyEncoding, HexWarningsComeBeforeKeyWarnings) {
  KeyRequest request;
  request.literal = "L";
  request.hex = {"zz", "41"};
  request.keys = {"C-foo", "x"};
  const EncodedKeys encoded = encode_key_sequence(request, CursorKeyMode::kNormal);
  EXPECT_EQ(encoded.data, "LAfoox");
  EXPECT_EQ(encoded.warnings, (Warnings{"Invalid hex byte: zz",
                                        "Unknown key \"foo\" for modifiers; sending literal."}));
}

TEST(KeyEncoding, EmptyRequestEncodesToNothing) {
  const EncodedKeys encoded = encode_key_sequence(KeyRequest{}, CursorKeyMode::kUnknown);
  EXPECT_TRUE(encoded.data.empty());
  EXPECT_TRUE(encoded.warnings.empty());
}

TEST(CursorModeSensitiveKeys, OnlyUnmodifiedArrowsHomeAndEnd) {
  EXPECT_TRUE(has_cursor_mode_sensitive_keys({"up"}));
  EXPECT_TRUE(has_cursor_mode_sensitive_keys({"HOME"}));
  EXPECT_TRUE(has_cursor_mode_sensitive_keys({" end "}));
  EXPECT_TRUE(has_cursor_mode_sensitive_keys({"x", "Left"}));
  EXPECT_TRUE(has_cursor_mode_sensitive_keys({"Down", "Right"}));
  EXPECT_FALSE(has_cursor_mode_sensitive_keys({"C-up"}));
  EXPECT_FALSE(has_cursor_mode_sensitive_keys({"S-left"}));
  EXPECT_FALSE(has_cursor_mode_sensitive_keys({"pageup", "delete", "Enter"}));
  EXPECT_FALSE(has_cursor_mode_sensitive_keys({"^A", "upx", ""}));
  EXPECT_FALSE(has_cursor_mode_sensitive_keys({}));
}

}  // namespace
}  // namespace clawexec::term
