// Bounded colour marks beside session output (see style_marks.h).
//
// Marks arrive in stream order, so the deque stays sorted by position: lookups are binary
// searches, trimming works at the front. Trimming only scans the marks before the retained
// start, of which at most kMaxCarriedStyleMarks survive each trim, so an append costs O(new
// marks + kMaxCarriedStyleMarks) at worst.

#include "session/style_marks.h"

#include <algorithm>
#include <iterator>

#include "term/ansi_stripper.h"

namespace clawexec::session {
namespace {

auto first_at_or_after(const std::deque<StyleMark>& marks, uint64_t at) {
  return std::lower_bound(marks.begin(), marks.end(), at, [](const StyleMark& m, uint64_t v) { return m.at < v; });
}

}  // namespace

bool is_style_reset(std::string_view params) {
  return params.find_first_not_of("0;") == std::string_view::npos;
}

void StyleMarks::add(uint64_t at, std::string_view params) {
  if (!term::is_sgr_params(params)) return;
  if (!marks_.empty() && at < marks_.back().at) at = marks_.back().at;
  marks_.push_back({at, std::string(params)});
  if (marks_.size() > kMaxStyleMarks) marks_.pop_front();
}

void StyleMarks::retain_from(uint64_t start) {
  if (marks_.empty() || marks_.front().at >= start) return;
  size_t before = 0;   // marks before `start`
  size_t drop = 0;     // leading marks that no longer matter
  for (; before < marks_.size() && marks_[before].at < start; ++before) {
    if (is_style_reset(marks_[before].params)) drop = before + 1;
  }
  for (size_t i = before; i < marks_.size() && marks_[i].at == start; ++i) {
    if (is_style_reset(marks_[i].params)) drop = before;  // a reset right at the start
  }
  if (before - drop > kMaxCarriedStyleMarks) drop = before - kMaxCarriedStyleMarks;
  marks_.erase(marks_.begin(), marks_.begin() + static_cast<std::ptrdiff_t>(drop));
}

std::vector<TextStyle> StyleMarks::between(uint64_t from, uint64_t to) const {
  std::vector<TextStyle> out;
  for (auto it = first_at_or_after(marks_, from); it != marks_.end() && it->at <= to; ++it) {
    out.push_back({static_cast<size_t>(it->at - from), it->params});
  }
  return out;
}

std::vector<std::string> StyleMarks::in_effect_before(uint64_t at) const {
  auto end = first_at_or_after(marks_, at);
  auto begin = end;
  while (begin != marks_.begin() && end - begin < static_cast<std::ptrdiff_t>(kMaxCarriedStyleMarks)) {
    if (is_style_reset(std::prev(begin)->params)) break;
    --begin;
  }
  std::vector<std::string> out;
  for (auto it = begin; it != end; ++it) out.push_back(it->params);
  return out;
}

}  // namespace clawexec::session
