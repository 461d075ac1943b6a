#pragma once
// The differential corpus: random command lines built from the parts of shell syntax where an
// analyzer and a real shell can disagree - every quoting form, $'...' escapes (\x{..}, \c, \u,
// \0, octal, unknown ones), control and non-ASCII bytes, comments (also after CR), glued '#',
// braces, globs, tildes, assignments, wrappers, negation, and every list and pipeline operator
// (CRLF line ends included). The programs are the stubs `p` and `q`; an occasional expansion
// or substitution keeps the unanalyzable side exercised. Deterministic for a seed.

#include <cstdint>
#include <random>
#include <string>

namespace clawexec::differential {

class CorpusGenerator {
 public:
  explicit CorpusGenerator(uint64_t seed) : rng_(seed) {}

  /// One command line.
  std::string command();

 private:
  size_t below(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }
  bool chance(unsigned percent) { return below(100) < percent; }
  std::string plain_char();
  std::string word_piece();
  std::string word();
  std::string ansi_c();
  std::string double_quoted();
  std::string simple_command(bool last);
  std::string pipeline(bool last);

  std::mt19937_64 rng_;
};

}  // namespace clawexec::differential
