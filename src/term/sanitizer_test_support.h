#pragma once
// Test support shared by the sanitizer and stripper tests: feeding a stream in arbitrary
// chunks must give the same text as feeding it whole.

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "term/output_sanitizer.h"

namespace clawexec::term::testing {

inline constexpr std::string_view kFffd = "\xEF\xBF\xBD";

inline std::string sanitize_chunks(const std::vector<std::string_view>& chunks) {
  OutputSanitizer sanitizer;
  std::string out;
  for (std::string_view chunk : chunks) sanitizer.feed(chunk, out);
  sanitizer.finish(out);
  return out;
}

/// Every way of cutting `input` in two, and one byte per chunk, must give `expected`.
inline void expect_same_for_every_split(std::string_view input, std::string_view expected) {
  EXPECT_EQ(sanitize_output(input), expected) << "whole input";
  for (size_t cut = 1; cut < input.size(); ++cut) {
    EXPECT_EQ(sanitize_chunks({input.substr(0, cut), input.substr(cut)}), expected) << "cut at " << cut;
  }
  std::vector<std::string_view> bytes;
  for (size_t i = 0; i < input.size(); ++i) bytes.push_back(input.substr(i, 1));
  EXPECT_EQ(sanitize_chunks(bytes), expected) << "one byte per chunk";
}

}  // namespace clawexec::term::testing
