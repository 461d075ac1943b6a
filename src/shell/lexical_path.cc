// Lexical paths and file: URLs for the state-database guard.
//
// Problem: "does this sqlite3 operand point inside the state directory" must be answered
// without touching the file system (the shell module is pure) yet agree with the reference,
// which resolves operands with Node's path.resolve and decodes file: URLs with the WHATWG URL
// parser plus fileURLToPath.
//
// Approach: segment-wise normalisation for paths; for file: URLs the subset of WHATWG parsing
// that matters on POSIX: tab/newline removal, host (empty or localhost only), backslashes as
// separators, query/fragment cut-off, dot segments (also percent-encoded ones), then
// percent-decoding with decodeURIComponent's strictness.

#include "shell/lexical_path.h"

#include <cstdint>
#include <vector>

#include "base/strings.h"

namespace clawexec::shell {
namespace {

std::string normalize_absolute(std::string_view path) {
  std::vector<std::string_view> segments;
  size_t i = 0;
  while (i <= path.size()) {
    size_t slash = path.find('/', i);
    if (slash == std::string_view::npos) slash = path.size();
    std::string_view segment = path.substr(i, slash - i);
    if (segment == "..") {
      if (!segments.empty()) segments.pop_back();
    } else if (!segment.empty() && segment != ".") {
      segments.push_back(segment);
    }
    i = slash + 1;
  }
  std::string out;
  for (std::string_view segment : segments) {
    out += '/';
    out += segment;
  }
  return out.empty() ? "/" : out;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool is_dot_segment(std::string_view s) { return s == "." || iequals(s, "%2e"); }

bool is_double_dot_segment(std::string_view s) {
  return s == ".." || iequals(s, ".%2e") || iequals(s, "%2e.") || iequals(s, "%2e%2e");
}

// WHATWG path parsing for a special URL: segments separated by / or \, dot segments applied.
std::string url_pathname(std::string_view path) {
  std::vector<std::string> segments;
  size_t i = (!path.empty() && (path[0] == '/' || path[0] == '\\')) ? 1 : 0;
  while (true) {
    size_t sep = path.find_first_of("/\\", i);
    bool last = sep == std::string_view::npos;
    std::string_view segment = path.substr(i, last ? std::string_view::npos : sep - i);
    if (is_double_dot_segment(segment)) {
      if (!segments.empty()) segments.pop_back();
      if (last) segments.emplace_back();
    } else if (is_dot_segment(segment)) {
      if (last) segments.emplace_back();
    } else {
      segments.emplace_back(segment);
    }
    if (last) break;
    i = sep + 1;
  }
  std::string out;
  for (const std::string& segment : segments) out += "/" + segment;
  return out.empty() ? "/" : out;
}

}  // namespace

std::string resolve_lexically(std::string_view base, std::string_view path) {
  if (!path.empty() && path[0] == '/') return normalize_absolute(path);
  return normalize_absolute(std::string("/") + std::string(base) + "/" + std::string(path));
}

std::string join_lexically(std::string_view a, std::string_view b) {
  return normalize_absolute(std::string("/") + std::string(a) + "/" + std::string(b));
}

bool is_path_inside(std::string_view root, std::string_view target) {
  if (target == root || root == "/") return true;
  return target.size() > root.size() && target.substr(0, root.size()) == root &&
         target[root.size()] == '/';
}

std::optional<std::string> decode_uri_component(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    if (text[i] != '%') {
      out += text[i++];
      continue;
    }
    auto byte_at = [&](size_t k) -> int {
      if (k + 2 >= text.size() || text[k] != '%') return -1;
      int hi = hex_digit(text[k + 1]), lo = hex_digit(text[k + 2]);
      return hi < 0 || lo < 0 ? -1 : hi * 16 + lo;
    };
    int first = byte_at(i);
    if (first < 0) return std::nullopt;
    size_t extra = first < 0x80             ? 0
                   : (first & 0xE0) == 0xC0 ? 1
                   : (first & 0xF0) == 0xE0 ? 2
                   : (first & 0xF8) == 0xF0 ? 3
                                            : 9;
    if (extra == 9) return std::nullopt;
    uint32_t cp =
        extra == 0 ? static_cast<uint32_t>(first) : static_cast<uint32_t>(first & (0x3F >> extra));
    std::string bytes(1, static_cast<char>(first));
    for (size_t k = 1; k <= extra; ++k) {
      int next = byte_at(i + 3 * k);
      if (next < 0 || (next & 0xC0) != 0x80) return std::nullopt;
      cp = (cp << 6) | static_cast<uint32_t>(next & 0x3F);
      bytes += static_cast<char>(next);
    }
    static constexpr uint32_t kMinForLength[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMinForLength[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
      return std::nullopt;
    out += bytes;
    i += 3 * (extra + 1);
  }
  return out;
}

std::optional<std::string> file_url_to_path(std::string_view url) {
  std::string input;
  for (char c : url) {
    if (c != '\t' && c != '\n' && c != '\r') input += c;
  }
  size_t begin = 0, end = input.size();
  while (begin < end && static_cast<unsigned char>(input[begin]) <= 0x20) ++begin;
  while (end > begin && static_cast<unsigned char>(input[end - 1]) <= 0x20) --end;
  std::string_view s = std::string_view(input).substr(begin, end - begin);
  if (s.size() < 5 || !iequals(s.substr(0, 5), "file:")) return std::nullopt;
  std::string_view rest = s.substr(5);
  rest = rest.substr(0, rest.find_first_of("?#"));
  std::string_view path = rest;
  if (rest.size() >= 2 && (rest[0] == '/' || rest[0] == '\\') &&
      (rest[1] == '/' || rest[1] == '\\')) {
    size_t host_end = rest.find_first_of("/\\", 2);
    std::string_view host =
        rest.substr(2, host_end == std::string_view::npos ? std::string_view::npos : host_end - 2);
    if (!host.empty()) {
      std::optional<std::string> decoded_host = decode_uri_component(host);
      if (!decoded_host || ascii_lower(*decoded_host) != "localhost") return std::nullopt;
    }
    path = host_end == std::string_view::npos ? std::string_view{} : rest.substr(host_end);
  }
  std::string pathname = url_pathname(path);
  std::string lower = ascii_lower(pathname);
  if (lower.find("%2f") != std::string::npos) return std::nullopt;
  return decode_uri_component(pathname);
}

}  // namespace clawexec::shell
