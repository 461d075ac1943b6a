#pragma once
// Who is on the other end of a unix socket, and is that process (or are we) running under a
// clawexec command? The operator channel and the operator CLI refuse such processes, because
// approvals must come from a human, never from the agent's own commands.
//
// Every command clawexec runs has a `clawexec-shim` supervisor above it, and the supervisor is
// a child subreaper, so even a double-forked daemon stays below it. A process is "supervised"
// when a strict ancestor's executable is a clawexec binary: its /proc/<pid>/exe has one of the
// given base names or is one of the given files (device and inode); an ancestor whose exe we
// may not read (another user's, or one holding capabilities we lack) is judged by its command
// name, which only that process itself can set. Nothing the examined process controls
// (its environment, argv or name, those of its ancestors) is consulted.

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "sys/fd.h"

namespace clawexec::sys {

/// SO_PEERCRED of a connected AF_UNIX socket.
struct PeerCredentials {
  pid_t pid = 0;  // 0: the peer is in a pid namespace we cannot see
  uid_t uid = 0;
  gid_t gid = 0;
};
Result<PeerCredentials> peer_credentials(int socket_fd);

/// SO_PEERPIDFD (Linux 6.5+): a pidfd for the peer process as it was when the connection was
/// made, so a pid reused after the peer exits is never mistaken for it. nullopt when the kernel
/// does not offer the option.
Result<std::optional<UniqueFd>> peer_pidfd(int socket_fd);

/// What makes an executable a clawexec one.
struct ClawexecExecutables {
  std::vector<std::string> names;  // base names, e.g. "clawexec-shim", "clawexec"
  struct File {
    uint64_t dev = 0;
    uint64_t ino = 0;
  };
  std::vector<File> files;  // e.g. our own binary and our shim, whatever they are called
};

/// The executables of this installation: the running binary, `clawexec-shim` beside it, and
/// the base names "clawexec" and "clawexec-shim" (any other installation).
ClawexecExecutables this_installation();

struct SupervisingAncestor {
  pid_t pid = 0;
  std::string executable;  // /proc/<pid>/exe as the kernel shows it
};

struct AncestryOptions {
  std::string proc_root = "/proc";  // tests point this at a fake tree
  ClawexecExecutables executables;
};

/// Walks the parent chain of `pid` up to the top of our pid namespace and returns the nearest
/// strict ancestor running a clawexec executable, or nullopt when there is none. `pidfd`, when
/// given, must refer to `pid`; it proves the pid was not reused while we looked.
///
/// Errors (the caller must treat the process as unverifiable and refuse it): pid 0 (another
/// pid namespace), a process that is gone or whose /proc/<pid>/stat cannot be read, a chain
/// that keeps changing under us or is implausibly deep.
Result<std::optional<SupervisingAncestor>> find_supervising_ancestor(pid_t pid, const UniqueFd* pidfd,
                                                                     const AncestryOptions& options);

}  // namespace clawexec::sys
