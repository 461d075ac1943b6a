#pragma once
// Dispatch wrappers: programs that run a command after their own options (nice, nohup,
// timeout, stdbuf, time, flock, caffeinate, sandbox-exec, env) and the ones the reference
// refuses to look through (sudo, su, chroot, unshare, watch, ...).

#include <optional>

#include "shell/split_args.h"

namespace clawexec::shell {

enum class DispatchKind {
  kNotWrapper,
  kUnwrapped,  // `argv` holds the wrapped command
  kBlocked,    // a known wrapper whose command cannot be determined (or is not followed)
};

struct DispatchUnwrap {
  DispatchKind kind = DispatchKind::kNotWrapper;
  Argv argv;
};

/// One level of dispatch-wrapper unwrapping (Linux semantics: arch, script and xcrun are
/// blocked because they do not dispatch there).
DispatchUnwrap unwrap_dispatch_wrapper(const Argv& argv);

}  // namespace clawexec::shell
