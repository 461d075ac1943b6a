#pragma once
// Approvals must come from a human, never from the agent's own commands: the operator
// channel refuses peers that run under a clawexec command, and the operator CLI refuses to
// change policy or answer approvals when it runs under one itself (docs/approvals.md,
// "Who may decide"). A process whose ancestry cannot be examined is refused too.

#include <optional>
#include <string>
#include <sys/types.h>

namespace clawexec::approvals {

/// Why the process on the other end of this connected unix socket may not talk to the
/// operator channel (the full refusal text, starting "operator channel: refusing a peer"), or
/// nullopt when it may. Uses SO_PEERPIDFD so that a reused pid is never judged in its place.
std::optional<std::string> operator_peer_refusal(int socket_fd);

/// Why this process counts as an agent's command, as a phrase for a message ("this process
/// runs under a clawexec command (supervisor pid 123, /usr/lib/clawexec/clawexec-shim)", or
/// "this process cannot be verified ..." when its ancestry cannot be examined); nullopt when it
/// does not run under a clawexec command.
std::optional<std::string> supervision_of_this_process();

}  // namespace clawexec::approvals
