// Finding a chunk's lines in a file, and the nearest thing to them when they are absent.
//
// Problem: the reference locates old lines by trying four ever more lenient comparisons
// (exact, trailing whitespace ignored, surrounding whitespace ignored, typographic punctuation
// folded) and demands a unique match at the first level that matches anything. When nothing
// matches, an agent needs to see what the file really holds there, and a 100k-line file must
// not make that search slow.
//
// Approach: LineTable keeps the file's lines as views and computes the fully normalised form of
// every line once, on first use. seek() scans start positions per level, comparing line by
// line with early exit. closest_window() lets each file line vote for the window starts it
// would align with: a whole-line match votes strongly, each shared word weakly. Only the
// best-voted starts are then scored by the sum of per-line bigram similarities, so the work is
// one pass over the file plus a few dozen small window comparisons.

#include "patch/match.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>

#include "base/utf.h"

namespace clawexec::patch {
namespace {

constexpr size_t kMaxRecordedStarts = 8;
constexpr size_t kCandidateWindows = 32;
constexpr size_t kMaxLinesPerToken = 16;
constexpr size_t kSimilarityPrefix = 256;

bool is_word_byte(unsigned char c) {
  return c >= 0x80 || c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// Calls fn(word) for each run of word bytes at least two bytes long.
template <typename Fn>
void for_each_word(std::string_view text, Fn&& fn) {
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && !is_word_byte(static_cast<unsigned char>(text[i]))) ++i;
    size_t start = i;
    while (i < text.size() && is_word_byte(static_cast<unsigned char>(text[i]))) ++i;
    if (i - start >= 2) fn(text.substr(start, i - start));
  }
}

std::vector<uint16_t> bigrams(std::string_view text) {
  text = text.substr(0, kSimilarityPrefix);
  std::vector<uint16_t> grams;
  if (text.size() < 2) return grams;
  grams.reserve(text.size() - 1);
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    grams.push_back(static_cast<uint16_t>(static_cast<unsigned char>(text[i]) << 8 |
                                          static_cast<unsigned char>(text[i + 1])));
  }
  std::sort(grams.begin(), grams.end());
  return grams;
}

}  // namespace

std::string normalize_punctuation(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  auto byte = [&](size_t i) { return i < text.size() ? static_cast<unsigned char>(text[i]) : 0u; };
  for (size_t i = 0; i < text.size();) {
    unsigned char c = byte(i);
    if (c == 0xC2 && byte(i + 1) == 0xA0) {  // U+00A0
      out.push_back(' ');
      i += 2;
      continue;
    }
    if (c == 0xE2 || c == 0xE3) {
      unsigned b1 = byte(i + 1), b2 = byte(i + 2);
      char replacement = 0;
      if (c == 0xE3) {
        if (b1 == 0x80 && b2 == 0x80) replacement = ' ';  // U+3000
      } else if (b1 == 0x80) {
        if (b2 >= 0x90 && b2 <= 0x95) replacement = '-';       // U+2010-2015
        else if (b2 >= 0x98 && b2 <= 0x9B) replacement = '\'';  // U+2018-201B
        else if (b2 >= 0x9C && b2 <= 0x9F) replacement = '"';   // U+201C-201F
        else if ((b2 >= 0x82 && b2 <= 0x8A) || b2 == 0xAF) replacement = ' ';  // U+2002-200A, U+202F
      } else if (b1 == 0x81 && b2 == 0x9F) {
        replacement = ' ';  // U+205F
      } else if (b1 == 0x88 && b2 == 0x92) {
        replacement = '-';  // U+2212
      }
      if (replacement != 0) {
        out.push_back(replacement);
        i += 3;
        continue;
      }
    }
    out.push_back(static_cast<char>(c));
    ++i;
  }
  return out;
}

std::string normalize_line(std::string_view text, MatchLevel level) {
  switch (level) {
    case MatchLevel::kExact:
      return std::string(text);
    case MatchLevel::kTrimEnd:
      return std::string(js_trim_end(text));
    case MatchLevel::kTrim:
      return std::string(js_trim(text));
    case MatchLevel::kPunctuation:
      break;
  }
  return normalize_punctuation(js_trim(text));
}

void LineTable::ensure_keys() {
  if (keys_ready_) return;
  keys_.reserve(lines_.size());
  for (std::string_view line : lines_) keys_.push_back(normalize_line(line, MatchLevel::kPunctuation));
  keys_ready_ = true;
}

std::string_view LineTable::key(size_t i) {
  ensure_keys();
  return keys_[i];
}

bool LineTable::matches_at(const std::vector<std::string>& pattern, size_t at, MatchLevel level) {
  for (size_t j = 0; j < pattern.size(); ++j) {
    std::string_view line = lines_[at + j];
    switch (level) {
      case MatchLevel::kExact:
        break;
      case MatchLevel::kTrimEnd:
        line = js_trim_end(line);
        break;
      case MatchLevel::kTrim:
        line = js_trim(line);
        break;
      case MatchLevel::kPunctuation:
        line = keys_[at + j];
        break;
    }
    if (line != pattern[j]) return false;
  }
  return true;
}

SeekResult LineTable::seek(const std::vector<std::string>& pattern, size_t start, bool at_end) {
  SeekResult result;
  if (pattern.empty()) {
    result.outcome = SeekOutcome::kFound;
    result.index = start;
    return result;
  }
  if (pattern.size() > lines_.size()) return result;
  size_t max_start = lines_.size() - pattern.size();
  size_t from = at_end ? std::max(start, max_start) : start;
  if (from > max_start) return result;
  for (int l = 0; l < kMatchLevels; ++l) {
    auto level = static_cast<MatchLevel>(l);
    if (level == MatchLevel::kPunctuation) ensure_keys();
    std::vector<std::string> normalized;
    normalized.reserve(pattern.size());
    for (const std::string& p : pattern) normalized.push_back(normalize_line(p, level));
    for (size_t i = from; i <= max_start; ++i) {
      if (!matches_at(normalized, i, level)) continue;
      if (result.starts.size() < kMaxRecordedStarts) result.starts.push_back(i);
      ++result.occurrences;
    }
    if (result.occurrences > 0) {
      result.level = level;
      result.index = result.starts.front();
      result.outcome = result.occurrences == 1 ? SeekOutcome::kFound : SeekOutcome::kAmbiguous;
      return result;
    }
  }
  return result;
}

double line_similarity(std::string_view a, std::string_view b) {
  if (a == b) return 1.0;
  std::vector<uint16_t> x = bigrams(a), y = bigrams(b);
  if (x.empty() || y.empty()) return 0.0;
  size_t common = 0;
  for (size_t i = 0, j = 0; i < x.size() && j < y.size();) {
    if (x[i] == y[j]) {
      ++common, ++i, ++j;
    } else if (x[i] < y[j]) {
      ++i;
    } else {
      ++j;
    }
  }
  return 2.0 * static_cast<double>(common) / static_cast<double>(x.size() + y.size());
}

namespace {

// Votes per window start; index = start + pattern size - 1 (a start may be negative).
std::vector<uint32_t> vote_for_starts(LineTable& table, const std::vector<std::string>& keys) {
  size_t m = keys.size();
  std::unordered_map<std::string_view, std::vector<uint32_t>> by_key, by_word;
  for (size_t j = 0; j < m; ++j) {
    if (keys[j].empty()) continue;
    by_key[keys[j]].push_back(static_cast<uint32_t>(j));
    for_each_word(keys[j], [&](std::string_view word) {
      std::vector<uint32_t>& at = by_word[word];
      if (at.size() < kMaxLinesPerToken && (at.empty() || at.back() != j)) at.push_back(static_cast<uint32_t>(j));
    });
  }
  std::vector<uint32_t> votes(table.size() + m, 0);
  for (size_t i = 0; i < table.size(); ++i) {
    std::string_view key = table.key(i);
    if (key.empty()) continue;
    if (auto hit = by_key.find(key); hit != by_key.end()) {
      for (uint32_t j : hit->second) votes[i + m - 1 - j] += 4;
    }
    for_each_word(key, [&](std::string_view word) {
      auto hit = by_word.find(word);
      if (hit == by_word.end()) return;
      for (uint32_t j : hit->second) votes[i + m - 1 - j] += 1;
    });
  }
  return votes;
}

}  // namespace

std::optional<Closest> closest_window(LineTable& table, const std::vector<std::string>& pattern) {
  size_t n = table.size(), m = pattern.size();
  if (n == 0 || m == 0) return std::nullopt;
  std::vector<std::string> keys;
  keys.reserve(m);
  for (const std::string& p : pattern) keys.push_back(normalize_line(p, MatchLevel::kPunctuation));
  std::vector<uint32_t> votes = vote_for_starts(table, keys);

  std::vector<size_t> voted;
  for (size_t v = 0; v < votes.size(); ++v) {
    if (votes[v] > 0) voted.push_back(v);
  }
  if (voted.empty()) return std::nullopt;
  size_t keep = std::min(kCandidateWindows, voted.size());
  std::partial_sort(voted.begin(), voted.begin() + static_cast<std::ptrdiff_t>(keep), voted.end(),
                    [&](size_t a, size_t b) { return votes[a] != votes[b] ? votes[a] > votes[b] : a < b; });
  voted.resize(keep);

  size_t length = std::min(m, n);
  size_t last_start = n - length;
  std::optional<Closest> best;
  for (size_t v : voted) {
    size_t start = v < m - 1 ? 0 : std::min(v - (m - 1), last_start);
    Closest c{start, length, 0, 0.0};
    for (size_t j = 0; j < length; ++j) {
      std::string_view key = table.key(start + j);
      if (key == keys[j]) ++c.identical;
      c.score += line_similarity(keys[j], key);
    }
    bool better = !best || c.score > best->score + 1e-9 ||
                  (c.score > best->score - 1e-9 && (c.identical > best->identical ||
                                                   (c.identical == best->identical && c.start < best->start)));
    if (better) best = c;
  }
  return best;
}

}  // namespace clawexec::patch
