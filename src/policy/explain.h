#pragma once
// The policy explainer (reference spec §3.2): what a shell command line contains, in the form
// the authorization planner works on - command steps with their argv and source spans, the
// operators between them, the shapes the line uses (pipeline, sequence, if, subshell, ...)
// and the risks that make parts of it unanalyzable (substitutions, redirects, heredocs,
// dynamic names or arguments) or that need a human (eval, source, alias, carriers, inline
// eval, shell wrappers).
//
// It is built on our bash parser (shell/script.h). Offsets are kept as byte offsets into the
// original command text; `utf16_span` converts them to the JavaScript string indices the
// reference reports. Steps parsed from a shell wrapper's payload (bash -c '...') carry spans
// mapped back into the original text.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "policy/risk.h"
#include "policy/types.h"
#include "shell/script.h"

namespace clawexec::policy {

/// Source longer than this many UTF-16 units is not explained.
inline constexpr size_t kMaxExplainUnits = 128 * 1024;

enum class StepContext { kTopLevel, kCommandSubstitution, kProcessSubstitution, kFunctionDefinition, kWrapperPayload };
std::string_view to_string(StepContext context);

struct ExplainStep {
  size_t id = 0;                     // "command-<id>"
  std::optional<size_t> parent_id;   // the wrapper step whose payload this step came from
  StepContext context = StepContext::kTopLevel;
  std::string executable;            // argv[0]
  Argv argv;
  std::string text;                  // the step's text in its own source (payload text for payload steps)
  ByteSpan span;                     // in the original text
  ByteSpan executable_span;          // in the original text
  /// Spans of argv[1..] in the original text (same order), for rendering checks.
  std::vector<ByteSpan> argument_spans;
  /// The text before the executable starts with NAME= (an env-assignment prelude).
  bool has_env_prelude = false;
  /// The argv the shell passes, every word included (a test's closing "]" too), when every
  /// word's value is exact (shell::exact_word_value) and no assignment prefix expands;
  /// nullopt otherwise. What canonical rendering runs.
  std::optional<Argv> exact_argv;
  shell::Separator next = shell::Separator::kNone;  // the operator after it in its list
  bool negated = false;                              // "! cmd"
  /// Byte offset of the executable in the step's own source and that source's id (0 = the
  /// original text, else the wrapper step id whose payload holds it).
  size_t bucket = 0;
  size_t local_begin = 0, local_end = 0;
};

struct ExplainOperator {
  size_t id = 0;
  std::string kind;  // and, or, pipe, stderr-pipe, sequence, background, newline-sequence
  std::string text;
  size_t from_step = 0, to_step = 0;
  std::optional<size_t> parent_id;
};

struct ShellExplanation {
  bool ok = true;
  std::optional<std::string> error;  // the explainer refused (too large, work limit)
  std::vector<ExplainStep> steps;    // top-level first, then nested, each in source order
  std::vector<Risk> risks;
  std::vector<std::string> shapes;  // sorted, unique
  std::vector<std::string> top_level_shapes;  // shapes of the line itself (not of payloads)
  std::vector<ExplainOperator> operators;
  std::string source;
  /// Commands the parser found at the top level of the line itself (with or without a step):
  /// canonical rendering checks that each of them is a candidate it renders.
  size_t top_level_commands = 0;
  shell::ShellDialect dialect = shell::ShellDialect::kBash;
  std::vector<size_t> step_positions;  // step id -> index in `steps` (see step())

  /// The step with this id (nullptr if none); constant time.
  const ExplainStep* step(size_t id) const;
  bool has_shape(std::string_view shape) const;
  bool has_risk(std::string_view kind) const;
};

/// Explains a command line as the given shell reads it. Pure and deterministic.
ShellExplanation explain_shell_command(std::string_view source,
                                       shell::ShellDialect dialect = shell::ShellDialect::kBash);

/// True when an argument's source text holds a shell expansion ($x, ${, $(, `, <(, >( ...):
/// the "dynamic-argument" risks that make a plan fail.
bool is_shell_expansion_argument(std::string_view text);

/// Converts a byte span of `source` to UTF-16 indices [begin, end).
std::pair<size_t, size_t> utf16_span(std::string_view source, ByteSpan span);

}  // namespace clawexec::policy
