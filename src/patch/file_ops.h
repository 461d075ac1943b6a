#pragma once
// apply_patch against a directory tree (spec §6.4, §6.5), all or nothing: every file's new
// content is computed in memory first, and files are written only when every hunk of every
// file applies; a failure while writing puts back what was already changed.

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "patch/workspace.h"

namespace clawexec::patch {

struct PatchOptions {
  std::string cwd;   // absolute; the workspace directory relative paths start from
  std::string root;  // absolute boundary; empty = cwd
  std::string home;  // for "~"
  Containment containment = Containment::kWorkspaceOnly;
};

struct PatchSummary {
  std::vector<std::string> added;     // display paths, each once, in patch order
  std::vector<std::string> modified;  // for moves, the destination
  std::vector<std::string> deleted;
  std::vector<std::string> unchanged;  // updates whose result equals the file (no-ops)
  bool all_noop = false;               // nothing changed and at least one update was a no-op
};

/// Parses `input` and applies it. Errors carry the reference's messages (and name the file).
Result<PatchSummary> apply_patch_to_workspace(std::string_view input, const PatchOptions& options);

/// The tool's text: "Success. Updated the following files:\nA x\nM y\nD z", or for an
/// all-no-op patch "No changes made to a, b.".
std::string summary_text(const PatchSummary& summary);

}  // namespace clawexec::patch
