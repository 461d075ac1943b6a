#pragma once
// PCRE2 as the policy engine runs it (argPattern matching, the auto-reviewer's pre-screen):
// owning handles for compiled patterns and match data, and one per-thread match context whose
// match and depth limits bound backtracking, so no pattern or subject can stall a call
// (ReDoS). A match that hits a limit is no match.

#ifndef PCRE2_CODE_UNIT_WIDTH
#define PCRE2_CODE_UNIT_WIDTH 8
#endif
#include <pcre2.h>

#include <cstdint>
#include <memory>

namespace clawexec::policy::regex {

inline constexpr uint32_t kMatchLimit = 200000;
inline constexpr uint32_t kDepthLimit = 2000;

struct CodeDeleter {
  void operator()(pcre2_code* code) const { pcre2_code_free(code); }
};
struct MatchDataDeleter {
  void operator()(pcre2_match_data* data) const { pcre2_match_data_free(data); }
};
using CodePtr = std::unique_ptr<pcre2_code, CodeDeleter>;
using MatchDataPtr = std::unique_ptr<pcre2_match_data, MatchDataDeleter>;

/// This thread's match context with kMatchLimit and kDepthLimit set.
pcre2_match_context* bounded_match_context();

}  // namespace clawexec::policy::regex
