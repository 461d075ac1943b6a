#pragma once
// Locating a chunk's lines in a file (spec §6.3): the reference's four fuzzy levels with its
// uniqueness rule, and, for error messages, the window of the file that looks most like lines
// that could not be found.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clawexec::patch {

/// The reference's comparison levels, tried in order; the first level with a match decides.
enum class MatchLevel { kExact, kTrimEnd, kTrim, kPunctuation };
inline constexpr int kMatchLevels = 4;

/// Maps typographic dashes, quotes and spaces to their ASCII forms (the reference's sets:
/// U+2010-2015 and U+2212 -> '-', U+2018-201B -> '\'', U+201C-201F -> '"', U+00A0, U+2002-200A,
/// U+202F, U+205F, U+3000 -> ' '). Other bytes, including invalid UTF-8, are kept.
std::string normalize_punctuation(std::string_view text);

/// `text` as compared at `level` (the last level also trims).
std::string normalize_line(std::string_view text, MatchLevel level);

enum class SeekOutcome { kFound, kAmbiguous, kMissing };

struct SeekResult {
  SeekOutcome outcome = SeekOutcome::kMissing;
  size_t index = 0;          // kFound: the 0-based first line of the match
  size_t occurrences = 0;    // kAmbiguous: how many places matched at the deciding level
  std::vector<size_t> starts;  // the first few matching positions (for messages)
  MatchLevel level = MatchLevel::kExact;
};

/// The lines of one file (without their endings), indexed for seek(): every line's fully
/// normalised form (trim + punctuation, the most lenient level) is hashed once, and the line
/// numbers are sorted by that hash, so the lines equal to a pattern line at any level are found
/// by a binary search instead of a scan (a match at a stricter level is also one at the most
/// lenient level). Built on the first seek, reused by every chunk of the file.
class LineTable {
 public:
  explicit LineTable(std::vector<std::string_view> lines) : lines_(std::move(lines)) {}

  size_t size() const { return lines_.size(); }
  std::string_view line(size_t i) const { return lines_[i]; }
  /// The fully normalised form (trim + punctuation) of line i (computed on each call).
  std::string key(size_t i) const;

  /// Finds `pattern` at or after `start`; with `at_end` only where it would end the file.
  /// Zero-length patterns are found at `start`. Every place that matches at the deciding level
  /// is counted (uniqueness), at a cost proportional to the occurrences of the pattern's
  /// rarest line, not to the file's length.
  SeekResult seek(const std::vector<std::string>& pattern, size_t start, bool at_end);

 private:
  bool matches_at(const std::vector<std::string>& pattern, size_t at, MatchLevel level) const;
  void ensure_index();
  /// Line numbers whose normalised form hashes like `key`, ascending.
  std::pair<const uint32_t*, const uint32_t*> lines_hashing_like(std::string_view key) const;

  std::vector<std::string_view> lines_;
  std::vector<uint64_t> hashes_;  // per line: hash of its normalised form
  std::vector<uint32_t> by_hash_;  // line numbers sorted by (hash, line)
  bool indexed_ = false;
};

/// The normalised form (trim + punctuation) of `line`: a view of `line` itself when it is ASCII,
/// else of `scratch`, which then holds it.
std::string_view normalized_key(std::string_view line, std::string& scratch);

/// Similarity of two lines in [0, 1] (Dice coefficient of byte bigrams, 1 when equal).
double line_similarity(std::string_view a, std::string_view b);

struct Closest {
  size_t start = 0;     // first file line of the window (0-based)
  size_t length = 0;    // window length (the pattern's, or the file's when shorter)
  size_t identical = 0;  // window lines equal to their pattern line after normalisation
  double score = 0;     // sum of line similarities
};

/// The window of the file most similar to `pattern`, or nullopt when nothing in the file
/// resembles it. Windows are suggested by shared words and whole lines, and by the file lines
/// nearest (in edit distance) to the pattern's longest lines, so a typo such as "betta" for
/// "beta" still finds its line; only suggested windows are scored, and the edit-distance search
/// has a fixed work budget, so a large file costs a couple of passes over its lines.
std::optional<Closest> closest_window(const LineTable& table, const std::vector<std::string>& pattern);

/// Levenshtein distance (bytes) of `a` and `b` when it is at most `limit`, else limit + 1.
/// Work is O((2 * limit + 1) * min(|a|, |b|)).
size_t bounded_edit_distance(std::string_view a, std::string_view b, size_t limit);

}  // namespace clawexec::patch
