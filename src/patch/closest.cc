// The part of a file that looks most like lines a chunk could not find, for repair hints.
//
// Problem: when a chunk's lines are not in the file, the agent needs to see what the file holds
// instead, and a 100 000-line file must not make that search slow. Shared words find most
// near misses, but not a typo inside the only word of a line ("betta" where the file says
// "beta").
//
// Approach: each file line votes for the window starts it would align with: a whole-line match
// votes strongly, each shared word weakly. The pattern's longest lines are also compared with
// every file line by edit distance, pruned by a byte-histogram lower bound and a length bound,
// banded (Ukkonen), and stopped after a fixed number of DP cells; the nearest lines propose
// windows too. Only the best-voted and the nearest windows are scored, by the sum of per-line
// bigram similarities, so the work is a couple of passes over the file plus a few dozen small
// window comparisons.

#include <algorithm>
#include <array>
#include <unordered_map>

#include "patch/match.h"

namespace clawexec::patch {
namespace {

constexpr size_t kCandidateWindows = 32;
constexpr size_t kMaxLinesPerToken = 16;
constexpr size_t kSimilarityPrefix = 256;
constexpr size_t kEditAnchors = 2;         // pattern lines searched by edit distance
constexpr size_t kNearestPerAnchor = 4;    // file lines kept per anchor
constexpr size_t kMinEditKey = 3;          // shorter lines are too ambiguous to search this way
constexpr size_t kMaxEditLimit = 32;       // edits tolerated, at most
constexpr size_t kEditCellBudget = 20'000'000;  // DP cells per closest_window call

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

// Votes per window start; index = start + pattern size - 1 (a start may be negative).
std::vector<uint32_t> vote_for_starts(const LineTable& table, const std::vector<std::string>& keys) {
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
  std::string scratch;
  for (size_t i = 0; i < table.size(); ++i) {
    std::string_view key = normalized_key(table.line(i), scratch);
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

// Byte counts in 64 buckets: half the L1 distance of two histograms is a lower bound of the
// edit distance of their texts (a substitution moves one count, an insertion adds one).
using Histogram = std::array<uint16_t, 64>;

Histogram histogram(std::string_view text) {
  Histogram h{};
  for (char c : text) ++h[static_cast<unsigned char>(c) & 63];
  return h;
}

size_t histogram_bound(const Histogram& a, const Histogram& b) {
  size_t l1 = 0;
  for (size_t i = 0; i < a.size(); ++i) l1 += a[i] > b[i] ? a[i] - b[i] : b[i] - a[i];
  return (l1 + 1) / 2;
}

struct Near {
  size_t line;
  size_t distance;
};

// The file lines nearest to `key` by edit distance (at most about a third of its length),
// nearest first; `budget` (DP cells) is shared by all calls of one search.
std::vector<Near> nearest_lines(const LineTable& table, std::string_view key, size_t& budget) {
  key = key.substr(0, kSimilarityPrefix);
  size_t limit = std::min(kMaxEditLimit, std::max<size_t>(1, key.size() / 3));
  const Histogram want = histogram(key);
  std::vector<Near> best;
  std::string scratch;
  for (size_t i = 0; i < table.size() && budget > 0; ++i) {
    std::string_view line = normalized_key(table.line(i), scratch).substr(0, kSimilarityPrefix);
    if (line.empty() || line == key) continue;  // equal lines are the voters' business
    size_t gap = line.size() > key.size() ? line.size() - key.size() : key.size() - line.size();
    if (gap > limit || histogram_bound(want, histogram(line)) > limit) continue;
    size_t cells = (2 * limit + 1) * std::min(line.size(), key.size());
    budget = cells >= budget ? 0 : budget - cells;
    size_t d = bounded_edit_distance(key, line, limit);
    if (d > limit) continue;
    auto at = std::upper_bound(best.begin(), best.end(), d, [](size_t v, const Near& n) { return v < n.distance; });
    best.insert(at, Near{i, d});
    if (best.size() > kNearestPerAnchor) best.pop_back();
    if (best.size() == kNearestPerAnchor) limit = best.back().distance;  // only as good or better now
  }
  return best;
}

// Window starts (vote indexes) proposed by the file lines nearest to the pattern's longest lines.
std::vector<size_t> nearest_windows(const LineTable& table, const std::vector<std::string>& keys) {
  std::vector<size_t> anchors;
  for (size_t j = 0; j < keys.size(); ++j) {
    if (keys[j].size() >= kMinEditKey) anchors.push_back(j);
  }
  std::stable_sort(anchors.begin(), anchors.end(), [&](size_t a, size_t b) { return keys[a].size() > keys[b].size(); });
  if (anchors.size() > kEditAnchors) anchors.resize(kEditAnchors);
  std::vector<size_t> starts;
  size_t budget = kEditCellBudget;
  for (size_t j : anchors) {
    for (const Near& near : nearest_lines(table, keys[j], budget)) starts.push_back(near.line + keys.size() - 1 - j);
  }
  return starts;
}

}  // namespace

size_t bounded_edit_distance(std::string_view a, std::string_view b, size_t limit) {
  if (a.size() > b.size()) std::swap(a, b);  // a is the shorter: the columns
  const size_t m = a.size(), n = b.size(), over = limit + 1;
  if (n - m > limit) return over;
  std::vector<size_t> prev(m + 1), cur(m + 1);
  for (size_t j = 0; j <= m; ++j) prev[j] = j <= limit ? j : over;
  for (size_t i = 1; i <= n; ++i) {
    const size_t lo = i > limit ? i - limit : 0;
    const size_t hi = std::min(m, i + limit);
    size_t row_min = over;
    if (lo == 0) {
      cur[0] = i <= limit ? i : over;
      row_min = cur[0];
    } else {
      cur[lo - 1] = over;
    }
    for (size_t j = std::max<size_t>(lo, 1); j <= hi; ++j) {
      size_t v = prev[j - 1] + (a[j - 1] != b[i - 1] ? 1 : 0);
      v = std::min({v, prev[j] + 1, cur[j - 1] + 1, over});
      cur[j] = v;
      row_min = std::min(row_min, v);
    }
    if (hi < m) cur[hi + 1] = over;
    if (row_min > limit) return over;
    std::swap(prev, cur);
  }
  return std::min(prev[m], over);
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

std::optional<Closest> closest_window(const LineTable& table, const std::vector<std::string>& pattern) {
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
  size_t keep = std::min(kCandidateWindows, voted.size());
  std::partial_sort(voted.begin(), voted.begin() + static_cast<std::ptrdiff_t>(keep), voted.end(),
                    [&](size_t a, size_t b) { return votes[a] != votes[b] ? votes[a] > votes[b] : a < b; });
  voted.resize(keep);
  for (size_t v : nearest_windows(table, keys)) {
    if (std::find(voted.begin(), voted.end(), v) == voted.end()) voted.push_back(v);
  }
  if (voted.empty()) return std::nullopt;

  size_t length = std::min(m, n);
  size_t last_start = n - length;
  std::optional<Closest> best;
  std::string scratch;
  for (size_t v : voted) {
    size_t start = v < m - 1 ? 0 : std::min(v - (m - 1), last_start);
    Closest c{start, length, 0, 0.0};
    for (size_t j = 0; j < length; ++j) {
      std::string_view key = normalized_key(table.line(start + j), scratch);
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
