// The mode table and the layering rule (see exec_modes.h); the reference's
// resolveExecPolicyForMode and applyExecPolicyLayer.

#include "config/exec_modes.h"

namespace clawexec::config {

ModePolicy resolve_exec_policy_for_mode(ExecMode mode) {
  switch (mode) {
    case ExecMode::kDeny:
      return {ExecSecurity::kDeny, ExecAsk::kOff, false};
    case ExecMode::kAllowlist:
      return {ExecSecurity::kAllowlist, ExecAsk::kOff, false};
    case ExecMode::kAsk:
      return {ExecSecurity::kAllowlist, ExecAsk::kOnMiss, false};
    case ExecMode::kAuto:
      return {ExecSecurity::kAllowlist, ExecAsk::kOnMiss, true};
    case ExecMode::kFull:
      return {ExecSecurity::kFull, ExecAsk::kOff, false};
  }
  return {ExecSecurity::kDeny, ExecAsk::kOff, false};
}

LayeredExecPolicy apply_exec_policy_layer(LayeredExecPolicy base, const ExecPolicyFields& layer) {
  if (layer.mode) {
    const ModePolicy table = resolve_exec_policy_for_mode(*layer.mode);
    return {layer.mode, table.security, table.ask, table.auto_review};
  }
  if (layer.security || layer.ask) {
    base.mode.reset();
    if (layer.security) base.security = layer.security;
    if (layer.ask) base.ask = layer.ask;
  }
  return base;
}

}  // namespace clawexec::config
