#pragma once
// `clawexec apply-patch`: applies a patch read from stdin to a directory, as the apply_patch
// tool would (same paths rules, same all-or-nothing writes, same result text).

#include <optional>
#include <string>

namespace clawexec::daemon {

struct ApplyPatchCliOptions {
  std::optional<std::string> workdir;  // default: the current directory
  bool json = false;                   // print {"summary":{...}} instead of the text
  std::string agent_id = "main";
};

/// Returns 0 on success (the text or JSON on stdout), 1 on failure (the message on stderr).
int run_apply_patch(const ApplyPatchCliOptions& options);

}  // namespace clawexec::daemon
