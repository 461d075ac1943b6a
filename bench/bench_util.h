#pragma once
// Small helpers shared by the stand-alone baseline programs: latency percentiles and the
// minimal JSON string escaping needed to print a command line inside their one-line reports.

#include <algorithm>
#include <string>
#include <vector>

namespace clawexec::bench {

/// The p-quantile (0..1) of already sorted samples, nearest rank.
inline double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  size_t index = static_cast<size_t>(p * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(index, sorted.size() - 1)];
}

/// Escapes quotes and backslashes and drops control characters (enough for command lines).
inline std::string json_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (static_cast<unsigned char>(c) < 0x20) continue;
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

/// argv (null-terminated) joined with spaces.
inline std::string join_argv(char* const* argv) {
  std::string out;
  for (size_t i = 0; argv[i]; ++i) {
    if (i) out += ' ';
    out += argv[i];
  }
  return out;
}

}  // namespace clawexec::bench
