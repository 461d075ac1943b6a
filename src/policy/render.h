#pragma once
// Enforced command rendering (reference spec §7.4): the shell text that is actually executed
// for an allowlisted command, with every executable replaced by the absolute real path the
// analysis resolved, so a later change of PATH (or of the working directory) cannot swap the
// program that runs. Arguments keep their quoting; arguments that the shell would still
// expand (~, globs, braces) make rendering fail, which sends the command to approval.

#include <optional>
#include <string>
#include <vector>

#include "policy/evaluate.h"

namespace clawexec::policy {

enum class RenderMode {
  kEnforced,  // every candidate rewritten (allowlist execution)
  kSafeBins,  // only candidates satisfied by safe bins
};

struct RenderedCommand {
  std::optional<std::string> command;  // the text to run
  std::string reason;                  // why rendering failed (when command is empty)
};

/// Renders the evaluated plan. `satisfied_by` has one entry per candidate.
RenderedCommand render_authorized_command(const AllowlistEvaluation& evaluation, RenderMode mode);

/// A token as the renderer writes it: bare when it only holds [A-Za-z0-9_@%+=:,./-], else
/// single-quoted with ' written as '"'"'.
std::string render_shell_token(std::string_view token);

}  // namespace clawexec::policy
