#pragma once
// The exec script preflight (reference §3.8): before a command runs, read the Python/Node
// scripts it starts directly from inside its working directory and refuse it when they contain
// shell variables meant for a shell (`payload = $DM_JSON`), or when the interpreter invocation
// is too tangled to tell which script runs. The caller decides whether the preflight applies
// (every policy except host=gateway, security=full, ask=off; only with a local working directory).

#include <string>

#include "base/result.h"

namespace clawexec::exec {

/// Checks `command` as run in `workdir` (absolute; a relative one is taken from the process
/// working directory). Scripts outside the workdir, missing, unreadable, not regular files or
/// larger than 512 KiB are not checked. Returns Error::rejected with the reference's exact
/// message (e.g. "exec preflight: detected likely shell variable injection ...") on the first
/// finding; an unexpected I/O failure while reading a script is an error too.
Result<void> run_script_preflight(const std::string& command, const std::string& workdir);

}  // namespace clawexec::exec
