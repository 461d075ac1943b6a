// Key-name encoding for send-keys, matching the reference's rules byte for byte.
//
// Problem: an agent drives interactive programs by naming keys the way tmux does, and the
// program must receive what a real xterm would send, including modifier combinations and
// the cursor-key (DECCKM) mode the program selected.
//
// Approach: each token is trimmed and decoded in a fixed order of rules: "^X" control
// shorthand; C-/M-/S- modifier prefixes; S-Tab; SS3 arrows in application mode; the named-key
// table (modifiable keys get the xterm "CSI <n>;<mod> <final>" form, others an ESC prefix for
// M-); single characters (shift upper-cases a-z, ctrl maps to C0, alt prefixes ESC); anything
// else is sent literally, with a warning when modifiers had to be ignored. The reference is
// JavaScript, so "one character" means one UTF-16 unit and its case mapping is Unicode's;
// the few non-ASCII characters whose JS case mapping reaches an ASCII key name or control
// letter are handled explicitly.

#include "term/key_encoding.h"

#include <array>
#include <optional>

#include "base/utf.h"

namespace clawexec::term {
namespace {

constexpr std::string_view kEsc = "\x1b";

struct NamedKey {
  std::string_view name;
  std::string_view bytes;
  bool modifiable;  // takes the xterm modifier parameter
};

constexpr std::array<NamedKey, 54> kNamedKeys = {{
    {"enter", "\r", false},     {"return", "\r", false},      {"tab", "\t", false},
    {"escape", "\x1b", false},  {"esc", "\x1b", false},       {"space", " ", false},
    {"bspace", "\x7f", false},  {"backspace", "\x7f", false}, {"up", "\x1b[A", true},
    {"down", "\x1b[B", true},   {"right", "\x1b[C", true},    {"left", "\x1b[D", true},
    {"home", "\x1b[1~", true},  {"end", "\x1b[4~", true},     {"pageup", "\x1b[5~", true},
    {"pgup", "\x1b[5~", true},  {"ppage", "\x1b[5~", true},   {"pagedown", "\x1b[6~", true},
    {"pgdn", "\x1b[6~", true},  {"npage", "\x1b[6~", true},   {"insert", "\x1b[2~", true},
    {"ic", "\x1b[2~", true},    {"delete", "\x1b[3~", true},  {"del", "\x1b[3~", true},
    {"dc", "\x1b[3~", true},    {"btab", "\x1b[Z", false},    {"f1", "\x1bOP", false},
    {"f2", "\x1bOQ", false},    {"f3", "\x1bOR", false},      {"f4", "\x1bOS", false},
    {"f5", "\x1b[15~", false},  {"f6", "\x1b[17~", false},    {"f7", "\x1b[18~", false},
    {"f8", "\x1b[19~", false},  {"f9", "\x1b[20~", false},    {"f10", "\x1b[21~", false},
    {"f11", "\x1b[23~", false}, {"f12", "\x1b[24~", false},   {"kp/", "\x1bOo", false},
    {"kp*", "\x1bOj", false},   {"kp-", "\x1bOm", false},     {"kp+", "\x1bOk", false},
    {"kp7", "\x1bOw", false},   {"kp8", "\x1bOx", false},     {"kp9", "\x1bOy", false},
    {"kp4", "\x1bOt", false},   {"kp5", "\x1bOu", false},     {"kp6", "\x1bOv", false},
    {"kp1", "\x1bOq", false},   {"kp2", "\x1bOr", false},     {"kp3", "\x1bOs", false},
    {"kp0", "\x1bOp", false},   {"kp.", "\x1bOn", false},     {"kpenter", "\x1bOM", false},
}};

// Application cursor mode (DECCKM set): the cursor keys that switch to SS3 form.
struct Ss3Key {
  std::string_view name;
  std::string_view bytes;
};
constexpr std::array<Ss3Key, 6> kSs3Keys = {{
    {"up", "\x1bOA"},
    {"down", "\x1bOB"},
    {"right", "\x1bOC"},
    {"left", "\x1bOD"},
    {"home", "\x1bOH"},
    {"end", "\x1bOF"},
}};

// Non-ASCII characters whose JavaScript toUpperCase() starts with an ASCII letter, so the
// ctrl rule maps them (e.g. "ß" -> "SS" -> Ctrl-S). Generated from Node 24.
struct UpperCaseFirst {
  char32_t cp;
  char upper;
};
constexpr std::array<UpperCaseFirst, 16> kUpperCaseToAscii = {{
    {0x00DF, 'S'},
    {0x0131, 'I'},
    {0x017F, 'S'},
    {0x01F0, 'J'},
    {0x1E96, 'H'},
    {0x1E97, 'T'},
    {0x1E98, 'W'},
    {0x1E99, 'Y'},
    {0x1E9A, 'A'},
    {0xFB00, 'F'},
    {0xFB01, 'F'},
    {0xFB02, 'F'},
    {0xFB03, 'F'},
    {0xFB04, 'F'},
    {0xFB05, 'S'},
    {0xFB06, 'S'},
}};

char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

struct Modifiers {
  bool ctrl = false;
  bool alt = false;
  bool shift = false;
  bool any() const { return ctrl || alt || shift; }
};

struct ParsedToken {
  Modifiers mods;
  std::string_view base;
  bool had_prefixes = false;
};

const NamedKey* find_named_key(std::string_view folded) {
  for (const NamedKey& key : kNamedKeys) {
    if (key.name == folded) return &key;
  }
  return nullptr;
}

const Ss3Key* find_ss3_key(std::string_view folded) {
  for (const Ss3Key& key : kSs3Keys) {
    if (key.name == folded) return &key;
  }
  return nullptr;
}

// Key names compare case-insensitively after JS trim(). Only ASCII and the Kelvin sign
// (which JS lower-cases to "k") can lower-case to a key name, so only those are folded.
std::string fold_key_name(std::string_view name) {
  constexpr std::string_view kKelvinSign = "\xE2\x84\xAA";
  name = js_trim(name);
  std::string folded;
  folded.reserve(name.size());
  for (size_t i = 0; i < name.size(); ++i) {
    if (name.substr(i).starts_with(kKelvinSign)) {
      folded.push_back('k');
      i += kKelvinSign.size() - 1;
    } else {
      folded.push_back(ascii_lower(name[i]));
    }
  }
  return folded;
}

// Modifier prefixes ("C-", "M-", "S-", any case) while more than the prefix remains.
ParsedToken parse_modifiers(std::string_view token) {
  ParsedToken parsed;
  std::string_view rest = token;
  while (rest.size() > 2 && rest[1] == '-') {
    const char letter = ascii_lower(rest[0]);
    if (letter == 'c') {
      parsed.mods.ctrl = true;
    } else if (letter == 'm') {
      parsed.mods.alt = true;
    } else if (letter == 's') {
      parsed.mods.shift = true;
    } else {
      break;
    }
    parsed.had_prefixes = true;
    rest.remove_prefix(2);
  }
  parsed.base = rest;
  return parsed;
}

// The one code point of `text` if it is a single UTF-16 unit (a BMP character).
std::optional<char32_t> single_unit(std::string_view text) {
  if (text.empty()) return std::nullopt;
  char32_t cp = 0;
  if (decode_utf8(text, cp) != text.size() || cp > 0xFFFF) return std::nullopt;
  return cp;
}

// Ctrl rule: '?' is DEL; otherwise the upper-cased character, if in '@'..'_', masked to C0.
std::optional<char> ctrl_char(char32_t cp) {
  if (cp == '?') return '\x7f';
  char32_t upper = cp;
  if (cp >= 'a' && cp <= 'z') {
    upper = cp - ('a' - 'A');
  } else {
    for (const UpperCaseFirst& entry : kUpperCaseToAscii) {
      if (entry.cp == cp) upper = static_cast<char32_t>(entry.upper);
    }
  }
  if (upper >= 0x40 && upper <= 0x5F) return static_cast<char>(upper & 0x1F);
  return std::nullopt;
}

std::string xterm_modified(std::string_view bytes, const Modifiers& mods) {
  const int modifier = 1 + (mods.shift ? 1 : 0) + (mods.alt ? 2 : 0) + (mods.ctrl ? 4 : 0);
  std::string_view parameter = bytes.substr(2, bytes.size() - 3);  // between "ESC[" and final
  if (parameter.empty()) parameter = "1";
  std::string out = "\x1b[";
  out += parameter;
  out += ';';
  out += std::to_string(modifier);
  out += bytes.back();
  return out;
}

std::string encode_char_with_modifiers(std::string_view ch, char32_t cp, const Modifiers& mods) {
  std::string value(ch);
  if (mods.shift && cp >= 'a' && cp <= 'z') {
    cp -= 'a' - 'A';
    value = std::string(1, static_cast<char>(cp));
  }
  if (mods.ctrl) {
    if (auto control = ctrl_char(cp)) value = std::string(1, *control);
  }
  if (mods.alt) value.insert(0, kEsc);
  return value;
}

std::string encode_key_token(std::string_view raw, CursorKeyMode mode,
                             std::vector<std::string>& warnings) {
  const std::string_view token = js_trim(raw);
  if (token.empty()) return "";
  if (token.front() == '^') {
    if (auto cp = single_unit(token.substr(1))) {
      if (auto control = ctrl_char(*cp)) return std::string(1, *control);
    }
  }
  const ParsedToken parsed = parse_modifiers(token);
  const std::string folded = fold_key_name(parsed.base);
  if (folded == "tab" && parsed.mods.shift) return "\x1b[Z";
  if (mode == CursorKeyMode::kApplication && !parsed.mods.any()) {
    if (const Ss3Key* key = find_ss3_key(folded)) return std::string(key->bytes);
  }
  if (const NamedKey* key = find_named_key(folded)) {
    if (key->modifiable && parsed.mods.any()) return xterm_modified(key->bytes, parsed.mods);
    return parsed.mods.alt ? std::string(kEsc) + std::string(key->bytes) : std::string(key->bytes);
  }
  if (auto cp = single_unit(parsed.base)) {
    return encode_char_with_modifiers(parsed.base, *cp, parsed.mods);
  }
  if (parsed.had_prefixes) {
    warnings.push_back("Unknown key \"" + std::string(parsed.base) +
                       "\" for modifiers; sending literal.");
  }
  return std::string(parsed.base);
}

// One byte from "1b", "0x1B", " 7 "...: optional 0x prefix, then one or two hex digits.
std::optional<char> parse_hex_byte(std::string_view raw) {
  std::string_view text = js_trim(raw);
  if (text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    text.remove_prefix(2);
  }
  if (text.empty() || text.size() > 2) return std::nullopt;
  int value = 0;
  for (char c : text) {
    c = ascii_lower(c);
    int digit = -1;
    if (c >= '0' && c <= '9') digit = c - '0';
    if (c >= 'a' && c <= 'f') digit = c - 'a' + 10;
    if (digit < 0) return std::nullopt;
    value = value * 16 + digit;
  }
  return static_cast<char>(value);
}

}  // namespace

EncodedKeys encode_key_sequence(const KeyRequest& request, CursorKeyMode mode) {
  EncodedKeys result;
  result.data = request.literal;
  for (const std::string& raw : request.hex) {
    if (auto byte = parse_hex_byte(raw)) {
      result.data.push_back(*byte);
    } else {
      result.warnings.push_back("Invalid hex byte: " + raw);
    }
  }
  for (const std::string& token : request.keys) {
    result.data += encode_key_token(token, mode, result.warnings);
  }
  return result;
}

bool has_cursor_mode_sensitive_keys(const std::vector<std::string>& keys) {
  for (const std::string& raw : keys) {
    const std::string_view token = js_trim(raw);
    if (token.empty()) continue;
    const ParsedToken parsed = parse_modifiers(token);
    if (!parsed.mods.any() && find_ss3_key(fold_key_name(parsed.base)) != nullptr) return true;
  }
  return false;
}

std::string encode_paste(std::string_view text, PasteBracketing bracketing) {
  if (bracketing == PasteBracketing::kRaw) return std::string(text);
  std::string out = "\x1b[200~";
  out += text;
  out += "\x1b[201~";
  return out;
}

}  // namespace clawexec::term
