// The bounded PCRE2 match context (bounded_regex.h).

#include "policy/bounded_regex.h"

namespace clawexec::policy::regex {
namespace {

struct MatchContextDeleter {
  void operator()(pcre2_match_context* ctx) const { pcre2_match_context_free(ctx); }
};

}  // namespace

pcre2_match_context* bounded_match_context() {
  thread_local std::unique_ptr<pcre2_match_context, MatchContextDeleter> ctx = [] {
    pcre2_match_context* c = pcre2_match_context_create(nullptr);
    pcre2_set_match_limit(c, kMatchLimit);
    pcre2_set_depth_limit(c, kDepthLimit);
    return std::unique_ptr<pcre2_match_context, MatchContextDeleter>(c);
  }();
  return ctx.get();
}

}  // namespace clawexec::policy::regex
