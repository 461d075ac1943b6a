#pragma once
// Where the approvals document lives (§1.1): <state dir>/exec-approvals.json, its socket and
// lock beside it, the path shown to users, and the "unmigrated legacy file" guard.

#include <optional>
#include <string>

#include "config/paths.h"

namespace clawexec::approvals {

struct ApprovalsPaths {
  std::string home;        // the effective home ("~" expansion)
  std::string state_dir;   // $OPENCLAW_STATE_DIR (resolved) or <home>/.openclaw
  std::string file;        // <state_dir>/exec-approvals.json
  std::string socket;      // <state_dir>/exec-approvals.sock
  std::string lock;        // <state_dir>/exec-approvals.json.lock
  std::string display;     // "~/.openclaw/exec-approvals.json" for the default, else `file`
  std::string transcript;  // "$OPENCLAW_STATE_DIR/exec-approvals.json" or the default display
  /// <home>/.openclaw/exec-approvals.json when OPENCLAW_STATE_DIR is set and no named
  /// OPENCLAW_PROFILE is active: the file the legacy guard looks for.
  std::optional<std::string> legacy_file;
};

ApprovalsPaths resolve_approvals_paths(const config::PathContext& context);

}  // namespace clawexec::approvals
