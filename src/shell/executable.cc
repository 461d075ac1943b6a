// Executable-name normalisation shared by the carrier, wrapper and guard logic.
//
// Problem: the reference decides "is this env / bash / sqlite3 / openclaw" on normalised
// names, with Node's path.posix/path.win32 basename rules and JavaScript case mapping. To agree
// with it on every spelling ("./BASH", "C:bash.exe", "sh/"), the same rules are needed.
//
// Approach: small pure string functions reproducing those rules on UTF-8 text.

#include "shell/executable.h"

#include "base/utf.h"

namespace clawexec::shell {
namespace {

constexpr std::string_view kKelvinSign = "\xE2\x84\xAA";  // U+212A

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string_view posix_basename(std::string_view path) {
  size_t end = path.size();
  while (end > 0 && path[end - 1] == '/') --end;
  size_t slash = path.substr(0, end).rfind('/');
  size_t start = slash == std::string_view::npos ? 0 : slash + 1;
  return path.substr(start, end - start);
}

bool is_ascii_letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

std::string_view win32_basename(std::string_view path) {
  size_t start = 0;
  if (path.size() >= 2 && is_ascii_letter(path[0]) && path[1] == ':') start = 2;
  size_t end = path.size();
  while (end > start && (path[end - 1] == '/' || path[end - 1] == '\\')) --end;
  size_t k = end;
  while (k > start && path[k - 1] != '/' && path[k - 1] != '\\') --k;
  return path.substr(k, end - k);
}

}  // namespace

std::string lower_for_match(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c >= 'A' && c <= 'Z') {
      out += static_cast<char>(c - 'A' + 'a');
    } else if (text.substr(i, kKelvinSign.size()) == kKelvinSign) {
      out += 'k';
      i += kKelvinSign.size() - 1;
    } else {
      out += c;
    }
  }
  return out;
}

std::string trim_lower(std::string_view text) { return lower_for_match(js_trim(text)); }

std::string normalize_executable_token(std::string_view token) {
  std::string_view win = win32_basename(token);
  std::string_view posix = posix_basename(token);
  std::string base = trim_lower(utf16_length(win) < utf16_length(posix) ? win : posix);
  for (std::string_view suffix : {".exe", ".cmd", ".bat", ".com"}) {
    if (ends_with(base, suffix)) {
      base.resize(base.size() - suffix.size());
      break;
    }
  }
  return base;
}

std::string command_base_name(std::string_view token) {
  size_t sep = token.find_last_of("/\\");
  std::string base = trim_lower(sep == std::string_view::npos ? token : token.substr(sep + 1));
  if (ends_with(base, ".cmd") || ends_with(base, ".exe")) base.resize(base.size() - 4);
  return base;
}

bool is_env_assignment_token(std::string_view token) {
  if (token.empty()) return false;
  auto name_start = [](char c) { return is_ascii_letter(c) || c == '_'; };
  if (!name_start(token[0])) return false;
  size_t i = 1;
  while (i < token.size() && (name_start(token[i]) || (token[i] >= '0' && token[i] <= '9'))) ++i;
  if (i >= token.size() || token[i] != '=') return false;
  std::string_view value = token.substr(i + 1);
  if (value.find_first_of("\n\r") != std::string_view::npos) return false;
  return value.find("\xE2\x80\xA8") == std::string_view::npos &&
         value.find("\xE2\x80\xA9") == std::string_view::npos;
}

}  // namespace clawexec::shell
