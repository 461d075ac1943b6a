#pragma once
// The per-command supervisor (see supervisor.cc). Expects the command's stdin on fd 0, its
// output on fds 1 and 2, and the control socket on fd 3.

#include <cstdint>

#include "shim/protocol.h"

namespace clawexec::shim {

/// Sends one message to the server on `control_fd` (the supervisor's kControlFd, or a spawn
/// request's control socket before a supervisor exists). Best effort: the server may already
/// be gone, and nothing useful can be done about a failed send.
void send_message(int control_fd, MessageKind kind, int32_t value);

/// Starts `program` with `argv`/`envp` in a new session (`pty`: fd 0 becomes its controlling
/// terminal) and supervises it until it and every descendant are gone, or the server is.
/// Returns the supervisor's exit code.
int supervise(const char* program, char** argv, char** envp, bool pty);

/// The spawner loop: fd 3 is a SOCK_STREAM socket carrying spawn requests (spawn_request.h);
/// each request forks a supervisor. Returns when the server closes the socket.
int run_spawner();

}  // namespace clawexec::shim
