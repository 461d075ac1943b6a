#pragma once
// The Unicode General_Category=Format (Cf) code points, which the output sanitizer removes
// (zero-width joiners, BOM, bidi overrides, tag characters...). The ranges were generated
// from the reference runtime's Unicode data (Node 24, Unicode 17.0, `/\p{Cf}/u`) and are
// kept inline so the sanitizer's per-character check compiles to a short search.

#include <algorithm>
#include <array>
#include <iterator>

namespace clawexec::term {

struct CodePointRange {
  char32_t first;
  char32_t last;  // inclusive
};

inline constexpr std::array<CodePointRange, 21> kFormatRanges = {{
    {0x00AD, 0x00AD},   {0x0600, 0x0605},   {0x061C, 0x061C},   {0x06DD, 0x06DD},
    {0x070F, 0x070F},   {0x0890, 0x0891},   {0x08E2, 0x08E2},   {0x180E, 0x180E},
    {0x200B, 0x200F},   {0x202A, 0x202E},   {0x2060, 0x2064},   {0x2066, 0x206F},
    {0xFEFF, 0xFEFF},   {0xFFF9, 0xFFFB},   {0x110BD, 0x110BD}, {0x110CD, 0x110CD},
    {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0001, 0xE0001},
    {0xE0020, 0xE007F},
}};

/// True for code points of General_Category Cf.
inline bool is_format_code_point(char32_t cp) {
  // Most text (Latin-1, CJK, Hangul, symbols, box drawing...) falls in the two gaps.
  if (cp < 0x00AD || (cp > 0x206F && cp < 0xFEFF)) return false;
  auto it =
      std::upper_bound(kFormatRanges.begin(), kFormatRanges.end(), cp,
                       [](char32_t value, const CodePointRange& r) { return value < r.first; });
  return it != kFormatRanges.begin() && cp <= std::prev(it)->last;
}

}  // namespace clawexec::term
