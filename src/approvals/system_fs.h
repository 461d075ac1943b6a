#pragma once
// The policy engine's file-system questions (policy::FsView) answered by the real system. The
// policy code is pure and asks through FsView; every caller that evaluates real commands (the
// exec pipeline, the operator CLI) binds it with this one view.

#include "policy/types.h"

namespace clawexec::approvals {

/// is_executable_file: a regular file (symlinks followed) we may execute; realpath: realpath(3).
const policy::FsView& system_fs_view();

}  // namespace clawexec::approvals
