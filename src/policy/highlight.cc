// Command highlighting: executable spans of the explained steps, normalised the way the
// gateway keeps them (clamped, sorted by start with longer spans first, overlaps dropped).

#include "policy/highlight.h"

#include <algorithm>

#include "base/utf.h"
#include "shell/executable.h"
#include "shell/shell_wrappers.h"

namespace clawexec::policy {
namespace {

bool runs_non_posix_shell(const Argv& argv) {
  std::optional<shell::ShellWrapper> wrapper = shell::find_shell_wrapper(argv);
  Argv shell_argv = wrapper ? wrapper->shell_argv : argv;
  if (shell_argv.empty()) return false;
  std::string name = shell::normalize_executable_token(shell_argv[0]);
  return name == "cmd" || name == "powershell" || name == "pwsh";
}

}  // namespace

std::vector<HighlightSpan> command_highlight_spans(const ShellExplanation& explanation) {
  std::vector<HighlightSpan> spans;
  if (explanation.error || !explanation.ok) return spans;
  for (const ExplainStep& step : explanation.steps) {
    if (step.context == StepContext::kTopLevel && runs_non_posix_shell(step.argv)) return {};
  }
  size_t length = utf16_length(explanation.source);
  for (const ExplainStep& step : explanation.steps) {
    auto [begin, end] = utf16_span(explanation.source, step.executable_span);
    end = std::min(end, length);
    if (end > begin) spans.push_back({begin, end});
  }
  std::sort(spans.begin(), spans.end(), [](const HighlightSpan& a, const HighlightSpan& b) {
    return a.start_index != b.start_index ? a.start_index < b.start_index : a.end_index > b.end_index;
  });
  std::vector<HighlightSpan> kept;
  for (const HighlightSpan& s : spans) {
    if (!kept.empty() && s.start_index < kept.back().end_index) continue;
    kept.push_back(s);
  }
  return kept;
}

}  // namespace clawexec::policy
