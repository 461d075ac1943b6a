// Enforced command rendering: splice resolved real paths into the original command text.
//
// Problem: an allowlisted `head -n 5 | rg foo` must run exactly the head and rg the analysis
// matched, whatever PATH the shell later sees, without re-quoting the user's arguments (which
// could change their meaning). Shell expansion left in arguments (`*`, `{a,b}`, `~`) would let
// the shell produce operands the analysis never saw, so it is refused.
//
// Approach: for each candidate, replace the executable's byte span with its real path (or,
// when dispatch wrappers were looked through, the whole step with the planned argv), after
// checking its argument source text. Replacements are applied right to left.

#include "policy/render.h"

#include <algorithm>

namespace clawexec::policy {
namespace {

// Unquoted, unescaped ~ at a word start, or { * ? [ anywhere in the text.
bool has_shell_expansion(std::string_view text) {
  bool single = false, dbl = false, word_start = true;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (single) {
      if (c == '\'') single = false;
      word_start = false;
      continue;
    }
    if (c == '\\') {
      ++i;
      word_start = false;
      continue;
    }
    if (dbl) {
      if (c == '"') dbl = false;
      continue;
    }
    if (c == '\'') { single = true; word_start = false; continue; }
    if (c == '"') { dbl = true; word_start = false; continue; }
    if (c == ' ' || c == '\t' || c == '\n') { word_start = true; continue; }
    if ((c == '~' && word_start) || c == '{' || c == '*' || c == '?' || c == '[') return true;
    word_start = false;
  }
  return false;
}

struct Replacement {
  ByteSpan span;
  std::string text;
};

}  // namespace

std::string render_shell_token(std::string_view token) {
  bool bare = !token.empty() && std::all_of(token.begin(), token.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '@' ||
           c == '%' || c == '+' || c == '=' || c == ':' || c == ',' || c == '.' || c == '/' || c == '-';
  });
  if (bare) return std::string(token);
  std::string out = "'";
  for (char c : token) {
    if (c == '\'') out += "'\"'\"'";
    else out += c;
  }
  out += "'";
  return out;
}

RenderedCommand render_authorized_command(const AllowlistEvaluation& evaluation, RenderMode mode) {
  RenderedCommand out;
  const AuthorizationPlan& plan = evaluation.plan;
  if (!plan.ok) {
    out.reason = plan.reason;
    return out;
  }
  std::vector<const Candidate*> candidates = plan.candidates();
  if (candidates.size() != evaluation.segments.size()) {
    out.reason = "segment metadata mismatch";
    return out;
  }
  const std::string& source = plan.explanation.source;
  std::vector<Replacement> replacements;
  for (size_t i = 0; i < candidates.size(); ++i) {
    const Candidate& c = *candidates[i];
    const SegmentEvaluation& seg = evaluation.segments[i];
    if (mode == RenderMode::kSafeBins && seg.satisfied_by != SatisfiedBy::kSafeBins) continue;
    std::optional<Argv> planned =
        seg.resolution ? planned_argv(&*seg.resolution, c.argv) : std::nullopt;
    if (!planned || planned->empty()) {
      out.reason = "segment execution plan unavailable";
      return out;
    }
    if (c.synthetic) {
      out.reason = "shell quoting required in wrapper payload";
      return out;
    }
    size_t args_begin = c.executable_span.end;
    size_t args_end = std::max(c.span.end, args_begin);
    if (has_shell_expansion(std::string_view(source).substr(args_begin, args_end - args_begin))) {
      out.reason = mode == RenderMode::kEnforced ? "shell expansion in enforced arguments"
                                                 : "shell expansion in safe-bin arguments";
      return out;
    }
    if (mode == RenderMode::kEnforced && c.shell_wrapper_transport) {
      out.reason = "shell quoting required in wrapper payload";
      return out;
    }
    Replacement r;
    if (!seg.resolution->wrapper_chain.empty()) {
      r.span = c.span;
      for (size_t k = 0; k < planned->size(); ++k) {
        if (k) r.text += ' ';
        r.text += render_shell_token((*planned)[k]);
      }
    } else {
      r.span = c.executable_span;
      r.text = render_shell_token((*planned)[0]);
      if (c.shell_wrapper_transport && r.text != (*planned)[0]) {
        out.reason = "shell quoting required in wrapper payload";
        return out;
      }
    }
    if (r.span.end > source.size() || r.span.begin > r.span.end) {
      out.reason = "invalid source span";
      return out;
    }
    replacements.push_back(std::move(r));
  }
  std::sort(replacements.begin(), replacements.end(),
            [](const Replacement& a, const Replacement& b) { return a.span.begin < b.span.begin; });
  for (size_t i = 1; i < replacements.size(); ++i) {
    if (replacements[i].span.begin < replacements[i - 1].span.end) {
      out.reason = "overlapping replacement ranges";
      return out;
    }
  }
  std::string text = source;
  for (auto it = replacements.rbegin(); it != replacements.rend(); ++it) {
    text.replace(it->span.begin, it->span.end - it->span.begin, it->text);
  }
  out.command = std::move(text);
  return out;
}

}  // namespace clawexec::policy
