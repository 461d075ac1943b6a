#pragma once
// The argv an auto-approved command segment runs: exactly the words the analysis read (as
// the shell would pass them), with every program the analysis resolved pinned to its real
// path - the wrappers it looked through (timeout, nice, env, ...) and the final executable -
// and the safe builtins as their canonical names. Canonical rendering (render.h) joins these.

#include <optional>
#include <string>

#include "policy/exec_resolution.h"
#include "policy/explain.h"
#include "policy/plan.h"

namespace clawexec::policy {

struct SegmentEvaluation;

struct PinnedArgv {
  std::optional<Argv> argv;
  std::string reason;  // why it cannot be pinned (when argv is empty)
};

/// Pins one evaluated candidate. `step` is the explained step the candidate came from. Pure
/// (the file system through `ctx`).
PinnedArgv pin_segment_argv(const ExplainStep& step, const Candidate& candidate, const SegmentEvaluation& segment,
                            const ResolveContext& ctx, shell::ShellDialect dialect);

}  // namespace clawexec::policy
