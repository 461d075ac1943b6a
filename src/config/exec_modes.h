#pragma once
// What an exec mode means, kept in the lowest layer that needs it: the mode table (a mode is
// a named (security, ask, autoReview) triple) and the reference's applyExecPolicyLayer rule
// for stacking policy sources. config stacks `tools.exec` and the agent's section with it;
// policy stacks the approvals file, both config sections, the session and per-call overrides
// with the same function (policy/modes.h).

#include <optional>

#include "config/exec_settings.h"

namespace clawexec::config {

struct ModePolicy {
  ExecSecurity security = ExecSecurity::kFull;
  ExecAsk ask = ExecAsk::kOff;
  bool auto_review = false;
  bool operator==(const ModePolicy&) const = default;
};

/// The mode table (reference spec §2.1): deny->(deny,off), allowlist->(allowlist,off),
/// ask->(allowlist,on-miss), auto->(allowlist,on-miss,autoReview), full->(full,off).
ModePolicy resolve_exec_policy_for_mode(ExecMode mode);

/// The policy fields one source sets (a `tools.exec` section, a session, an override).
struct ExecPolicyFields {
  std::optional<ExecMode> mode;
  std::optional<ExecSecurity> security;
  std::optional<ExecAsk> ask;
};

/// The policy being stacked. security/ask stay nullopt while neither the base nor any layer
/// has set them (config's case: an unset value means "not configured").
struct LayeredExecPolicy {
  std::optional<ExecMode> mode;
  std::optional<ExecSecurity> security;
  std::optional<ExecAsk> ask;
  bool auto_review = false;
};

/// applyExecPolicyLayer (§2.2): a layer with a mode replaces mode, security, ask and
/// autoReview from the table; a layer with security and/or ask drops the inherited mode and
/// sets only what it names (everything else, autoReview included, is inherited); any other
/// layer leaves `base` as it is.
LayeredExecPolicy apply_exec_policy_layer(LayeredExecPolicy base, const ExecPolicyFields& layer);

}  // namespace clawexec::config
