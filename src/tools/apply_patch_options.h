#pragma once
// The apply_patch options of a server (the MCP tool) or of `clawexec apply-patch`: workspace,
// containment, size limits and the protected paths, all from the service configuration, so the
// tool and the CLI refuse exactly the same writes.

#include <string>

#include "exec/service.h"
#include "patch/file_ops.h"

namespace clawexec::tools {

/// Options for a patch whose relative paths start at `cwd` (absolute). Reads /proc/self/exe.
patch::PatchOptions apply_patch_options(const exec::ServiceConfig& config, std::string cwd);

}  // namespace clawexec::tools
