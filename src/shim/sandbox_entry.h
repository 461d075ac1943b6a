#pragma once
// Entering a sandbox (see sandbox_entry.cc): what a supervisor does, before it starts the
// command, to run inside an existing per-scope sandbox.

#include <cstdint>

namespace clawexec::shim {

/// What a sandboxed spawn request carries besides the command.
struct SandboxEntry {
  int holder_pidfd = -1;             // pidfd of the sandbox's holder process
  const char* seccomp_program = nullptr;  // struct sock_filter[] bytes
  uint32_t seccomp_bytes = 0;
  const char* user = nullptr;        // "uid:gid" inside the sandbox
  const char* limits = nullptr;      // "<resource>=<soft>:<hard>,..." for setrlimit ("" = none)
  const char* cgroups = nullptr;     // cgroup.procs files to join, newline-separated ("" = none)
  char** writable_paths = nullptr;   // NULL-terminated; Landlock allows writes beneath these only
};

/// Joins the sandbox's cgroups, then the holder's user, mount, pid, network, ipc and uts namespaces, forks so that the
/// caller is inside the sandbox's pid namespace (the original process exits at once), then
/// takes the sandbox's user, sets its resource limits, drops every capability, sets no-new-privileges and applies Landlock
/// and the seccomp program. Returns 0 in the sandboxed process, or an errno after which the
/// caller must report the failure and exit. Landlock is required (a kernel without it fails
/// the entry: the server only builds sandboxes where its probe found Landlock).
int enter_sandbox(const SandboxEntry& entry);

}  // namespace clawexec::shim
