// Randomized round trip (fixed seed): a patch generated from a random edit of a random file,
// parsed and applied, reproduces the edited file.

#include <gtest/gtest.h>

#include <random>

#include "patch/patch.h"

namespace clawexec::patch {
namespace {

struct Case {
  std::vector<std::string> before, after;
  std::string patch;
};

// Distinct lines (a serial number in each) so that every chunk matches exactly one place.
std::string random_line(std::mt19937& rng, int serial) {
  static const char* kWords[] = {"return", "x", "if", "value", "{", "}", "foo(bar)", "  ", "\t", "//", "item"};
  std::string line(static_cast<size_t>(rng() % 4) * 2, ' ');
  int words = static_cast<int>(rng() % 4);
  for (int w = 0; w < words; ++w) line += std::string(kWords[rng() % std::size(kWords)]) + " ";
  return line + "#" + std::to_string(serial);
}

Case random_case(std::mt19937& rng, int& serial) {
  Case c;
  size_t n = 1 + rng() % 60;
  for (size_t i = 0; i < n; ++i) c.before.push_back(random_line(rng, serial++));
  c.patch = "*** Begin Patch\n*** Update File: f.txt\n";
  size_t pos = 0;  // next line of `before` not yet copied to `after`
  while (pos < n) {
    size_t gap = rng() % 12;
    if (pos + gap >= n && !c.after.empty()) break;
    gap = std::min(gap, n - pos);
    // Unchanged lines up to the edit; the last (up to) 3 become leading context.
    for (size_t i = 0; i < gap; ++i) c.after.push_back(c.before[pos + i]);
    size_t lead = std::min<size_t>(gap, 3);
    std::string chunk = "@@\n";
    for (size_t i = pos + gap - lead; i < pos + gap; ++i) chunk += " " + c.before[i] + "\n";
    pos += gap;
    size_t removed = std::min<size_t>(rng() % 4, n - pos), added = rng() % 4;
    if (removed == 0 && added == 0) added = 1;
    for (size_t i = 0; i < removed; ++i) chunk += "-" + c.before[pos + i] + "\n";
    for (size_t i = 0; i < added; ++i) {
      std::string line = random_line(rng, serial++);
      chunk += "+" + line + "\n";
      c.after.push_back(line);
    }
    pos += removed;
    size_t trail = std::min<size_t>(3, n - pos);
    if (lead == 0 && removed == 0 && trail == 0) break;  // pure append: handled below as EOF insertion
    for (size_t i = 0; i < trail; ++i) {
      chunk += " " + c.before[pos + i] + "\n";
      c.after.push_back(c.before[pos + i]);
    }
    pos += trail;
    c.patch += chunk;
  }
  for (; pos < n; ++pos) c.after.push_back(c.before[pos]);
  c.patch += "*** End Patch\n";
  return c;
}

std::string render(const std::vector<std::string>& lines, std::string_view ending) {
  std::string out;
  for (const std::string& line : lines) out += line + std::string(ending);
  return out;
}

TEST(PatchRoundTrip, RandomEditsOfRandomFilesReproduceTheEditedFile) {
  std::mt19937 rng(20240611);
  int serial = 0;
  size_t checked = 0;
  for (int iteration = 0; iteration < 400; ++iteration) {
    Case c = random_case(rng, serial);
    if (c.before == c.after) continue;
    std::string_view ending = iteration % 3 == 0 ? "\r\n" : "\n";
    auto hunks = parse_patch(c.patch);
    ASSERT_TRUE(hunks.ok()) << hunks.error().message << "\n" << c.patch;
    ASSERT_EQ(hunks->size(), 1u);
    auto result = apply_chunks(render(c.before, ending), hunks->at(0).chunks, "f.txt");
    ASSERT_TRUE(result.ok()) << result.error().message << "\n" << c.patch;
    EXPECT_EQ(*result, render(c.after, ending)) << c.patch;
    EXPECT_FALSE(same_content(*result, render(c.before, ending)));
    ++checked;
  }
  EXPECT_GT(checked, 300u);
}

}  // namespace
}  // namespace clawexec::patch
