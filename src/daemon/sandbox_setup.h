#pragma once
// The sandbox host at startup: this agent's sandbox settings, what the machine can build, and
// the seccomp program (see sandbox_setup.cc).

#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "exec/service.h"
#include "json/json.h"

namespace clawexec::daemon {

/// nullptr when agents.*.sandbox.mode is "off" for `agent_id`. An invalid sandbox setting is an
/// error naming its key; keys that only mean something to a container engine add a warning.
/// A machine that cannot build the configured sandbox is not an error here: the runtime then
/// says why (`unavailable`) and every sandboxed call fails closed with that text.
Result<std::shared_ptr<const exec::SandboxRuntime>> load_sandbox_runtime(const json::Value& document,
                                                                         const std::string& agent_id,
                                                                         const std::string& state_dir,
                                                                         const std::string& home_dir,
                                                                         std::vector<std::string>& warnings);

}  // namespace clawexec::daemon
