#include "base/strings.h"

#include "base/utf.h"

namespace clawexec {

std::string ascii_upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

std::string_view trim_ascii(std::string_view s) {
  constexpr std::string_view kSpace = " \t\n\v\f\r";
  size_t start = s.find_first_not_of(kSpace);
  if (start == std::string_view::npos) return {};
  size_t end = s.find_last_not_of(kSpace);
  return s.substr(start, end - start + 1);
}

std::string lower_trimmed(std::string_view s) { return ascii_lower(js_trim(s)); }

std::vector<std::string_view> split(std::string_view s, char separator) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    size_t pos = s.find(separator, start);
    if (pos == std::string_view::npos) {
      parts.push_back(s.substr(start));
      return parts;
    }
    parts.push_back(s.substr(start, pos - start));
    start = pos + 1;
  }
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) out += separator;
    out += parts[i];
  }
  return out;
}

std::string truncate_middle(std::string_view s, size_t max) {
  if (utf16_length(s) <= max) return std::string(s);
  size_t keep = max >= 3 ? (max - 3) / 2 : 0;
  std::string out(utf16_prefix(s, keep));
  out += "...";
  out += utf16_suffix(s, keep);
  return out;
}

}  // namespace clawexec
