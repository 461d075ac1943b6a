#pragma once
// Canonical rendering of an auto-approved command: the shell text that actually runs when the
// allowlist, safe bins or safe builtins approve a command (docs/policy.md "What runs"). It is
// built from the argv the analysis produced, never from the original text: every word
// single-quoted, every program the analysis resolved pinned to its real path (wrappers kept),
// joined by the operators the parser read. Any POSIX shell reads it the same way, so what runs
// is what was approved whichever shell runs it. When a segment cannot be reproduced word for
// word (an expansion, a wrapper payload, an assignment prefix, an operator the rendering cannot
// keep), there is no rendering and the command needs a human.

#include <optional>
#include <string>

#include "policy/evaluate.h"

namespace clawexec::policy {

struct RenderedCommand {
  std::optional<std::string> command;  // the text to run
  std::string reason;                  // why rendering failed (when command is empty)
};

/// Renders the evaluated plan canonically (see above).
RenderedCommand render_authorized_command(const AllowlistEvaluation& evaluation);

}  // namespace clawexec::policy
