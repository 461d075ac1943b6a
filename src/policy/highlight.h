#pragma once
// Command highlighting (reference spec §9): the executable token of every command a line runs,
// as UTF-16 spans for an approval prompt to emphasise. Presentation only.

#include <cstddef>
#include <vector>

#include "policy/explain.h"

namespace clawexec::policy {

struct HighlightSpan {
  size_t start_index = 0;
  size_t end_index = 0;
};

/// One span per explained step (top-level, then nested), from its executable token; none when
/// the explainer failed or the line runs cmd or PowerShell at the top level (directly or behind
/// a transparent wrapper). Sorted by start, overlapping spans dropped.
std::vector<HighlightSpan> command_highlight_spans(const ShellExplanation& explanation);

}  // namespace clawexec::policy
