// Finding a chunk's lines in a file.
//
// Problem: the reference locates old lines by trying four ever more lenient comparisons
// (exact, trailing whitespace ignored, surrounding whitespace ignored, typographic punctuation
// folded) and demands a unique match at the first level that matches anything. Scanning the
// file from the cursor for every chunk makes a patch of many chunks quadratic (20 000 chunks
// over a 100 000-line file took 8-14 s).
//
// Approach: LineTable hashes each line's most lenient form once and sorts the line numbers by
// that hash. Equality at any level implies equality at the most lenient one, so the places a
// pattern can match are among the occurrences of its rarest line (found by binary search); each
// is verified at the level being tried. The nearest-lines search for messages is in closest.cc.

#include "patch/match.h"

#include <algorithm>
#include <functional>

#include "base/utf.h"

namespace clawexec::patch {
namespace {

constexpr size_t kMaxRecordedStarts = 8;

bool is_ascii(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

uint64_t hash_key(std::string_view key) { return std::hash<std::string_view>{}(key); }

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

std::string_view normalized_key(std::string_view line, std::string& scratch) {
  std::string_view trimmed = js_trim(line);
  if (is_ascii(trimmed)) return trimmed;
  scratch = normalize_punctuation(trimmed);
  return scratch;
}

std::string LineTable::key(size_t i) const { return normalize_line(lines_[i], MatchLevel::kPunctuation); }

void LineTable::ensure_index() {
  if (indexed_) return;
  hashes_.resize(lines_.size());
  std::string scratch;
  for (size_t i = 0; i < lines_.size(); ++i) hashes_[i] = hash_key(normalized_key(lines_[i], scratch));
  by_hash_.resize(lines_.size());
  for (size_t i = 0; i < lines_.size(); ++i) by_hash_[i] = static_cast<uint32_t>(i);
  std::sort(by_hash_.begin(), by_hash_.end(),
            [&](uint32_t a, uint32_t b) { return hashes_[a] != hashes_[b] ? hashes_[a] < hashes_[b] : a < b; });
  indexed_ = true;
}

std::pair<const uint32_t*, const uint32_t*> LineTable::lines_hashing_like(std::string_view key) const {
  const uint64_t h = hash_key(key);
  const uint32_t* begin = by_hash_.data();
  const uint32_t* end = begin + by_hash_.size();
  const uint32_t* lo = std::lower_bound(begin, end, h, [&](uint32_t line, uint64_t v) { return hashes_[line] < v; });
  const uint32_t* hi = std::upper_bound(lo, end, h, [&](uint64_t v, uint32_t line) { return v < hashes_[line]; });
  return {lo, hi};
}

bool LineTable::matches_at(const std::vector<std::string>& pattern, size_t at, MatchLevel level) const {
  std::string scratch;
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
        line = normalized_key(line, scratch);
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
  ensure_index();

  // The pattern line with the fewest lenient occurrences in the file anchors the candidates.
  size_t anchor = 0;
  std::pair<const uint32_t*, const uint32_t*> candidates{nullptr, nullptr};
  for (size_t j = 0; j < pattern.size(); ++j) {
    auto range = lines_hashing_like(normalize_line(pattern[j], MatchLevel::kPunctuation));
    if (j == 0 || range.second - range.first < candidates.second - candidates.first) {
      anchor = j;
      candidates = range;
    }
    if (range.first == range.second) return result;  // some line is nowhere in the file
  }
  // Window starts (line - anchor) in [from, max_start], ascending.
  const uint32_t* first = std::lower_bound(candidates.first, candidates.second, from + anchor,
                                           [](uint32_t line, size_t value) { return line < value; });
  for (int l = 0; l < kMatchLevels; ++l) {
    auto level = static_cast<MatchLevel>(l);
    std::vector<std::string> normalized;
    normalized.reserve(pattern.size());
    for (const std::string& p : pattern) normalized.push_back(normalize_line(p, level));
    for (const uint32_t* it = first; it != candidates.second && *it - anchor <= max_start; ++it) {
      size_t at = *it - anchor;
      if (!matches_at(normalized, at, level)) continue;
      if (result.starts.size() < kMaxRecordedStarts) result.starts.push_back(at);
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

}  // namespace clawexec::patch
