#pragma once
// The short command-analysis summary an approval prompt shows (reference
// resolveCommandAnalysisSummaryForDisplay): how many commands a request runs and which risks
// it carries, as "Contains <kind>" / "Contains <kind>: <label>" warning lines.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "policy/types.h"

namespace clawexec::policy {

struct CommandAnalysisSummary {
  size_t command_count = 0;
  size_t nested_command_count = 0;
  std::vector<std::string> risk_kinds;     // unique, first-seen order
  std::vector<std::string> warning_lines;  // unique, first-seen order
};

enum class SummaryHost { kGateway, kNode };

/// Gateway (and sandbox) hosts: the shell text is authoritative; the explainer's top-level
/// and nested commands are counted and every risk becomes a warning line. nullopt when the
/// explainer refuses the text.
/// Node host: the argv is authoritative; it counts as one command and only inline eval (on
/// the argv after transparent wrappers, else the argv itself) and command carriers are
/// reported. nullopt for an empty argv.
std::optional<CommandAnalysisSummary> resolve_command_analysis_summary(SummaryHost host,
                                                                       std::string_view command_text,
                                                                       const Argv& command_argv);

}  // namespace clawexec::policy
