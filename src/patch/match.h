#pragma once
// Locating a chunk's lines in a file (spec §6.3): the reference's four fuzzy levels with its
// uniqueness rule, and, for error messages, the window of the file that looks most like lines
// that could not be found.

#include <cstddef>
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

/// The lines of one file (without their endings) plus their punctuation-normalised forms,
/// computed on first use and reused by every chunk of the file.
class LineTable {
 public:
  explicit LineTable(std::vector<std::string_view> lines) : lines_(std::move(lines)) {}

  size_t size() const { return lines_.size(); }
  std::string_view line(size_t i) const { return lines_[i]; }
  /// The fully normalised form (trim + punctuation) of line i.
  std::string_view key(size_t i);

  /// Finds `pattern` at or after `start`; with `at_end` only where it would end the file.
  /// Zero-length patterns are found at `start`.
  SeekResult seek(const std::vector<std::string>& pattern, size_t start, bool at_end);

 private:
  bool matches_at(const std::vector<std::string>& pattern, size_t at, MatchLevel level);
  void ensure_keys();

  std::vector<std::string_view> lines_;
  std::vector<std::string> keys_;
  bool keys_ready_ = false;
};

/// Similarity of two lines in [0, 1] (Dice coefficient of byte bigrams, 1 when equal).
double line_similarity(std::string_view a, std::string_view b);

struct Closest {
  size_t start = 0;     // first file line of the window (0-based)
  size_t length = 0;    // window length (the pattern's, or the file's when shorter)
  size_t identical = 0;  // window lines equal to their pattern line after normalisation
  double score = 0;     // sum of line similarities
};

/// The window of the file most similar to `pattern`, or nullopt when no file line shares a
/// word (or a whole normalised line) with it. Only windows suggested by shared words or lines
/// are scored, so a large file costs one pass over its lines.
std::optional<Closest> closest_window(LineTable& table, const std::vector<std::string>& pattern);

}  // namespace clawexec::patch
