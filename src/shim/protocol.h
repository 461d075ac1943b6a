#pragma once
// The wire protocol between the server and clawexec-shim, the tiny per-command reaper.
//
// Each command runs as: server -> clawexec-shim -> shell. The shim is a child subreaper, so
// every descendant of the command (double-forked and setsid'ed ones included) stays in its
// subtree; it can therefore signal the whole tree, stop what a finished command left behind,
// and, when the server disappears for any reason (EOF on the control socket, even after
// SIGKILL), terminate the tree before exiting itself.
//
// The control channel is an AF_UNIX SOCK_SEQPACKET socket on the shim's fd 3. Every message is
// one fixed-size packet.

#include <cstdint>

namespace clawexec::shim {

/// The shim's descriptor for the control socket.
inline constexpr int kControlFd = 3;

enum class MessageKind : uint32_t {
  // shim -> server
  kStarted = 'P',      // value: pid of the command (its own session and process group leader)
  kExecFailed = 'E',   // value: errno of the failed execve; the shim exits after sending it
  kExitedCode = 'C',   // value: exit code; sent once every descendant is gone
  kExitedSignal = 'S', // value: signal number that killed the command
  // server -> shim
  kSignalTree = 'T',   // value: signal to send to every process of the command's tree
};

struct Message {
  MessageKind kind;
  int32_t value;
};
static_assert(sizeof(Message) == 8);

/// argv[1] of the shim: how to set up the command's terminal.
inline constexpr const char* kModePipes = "pipes";
inline constexpr const char* kModePty = "pty";  // fd 0 is a pty slave: make it the ctty

/// Grace period between SIGTERM and SIGKILL when the shim itself decides to stop processes
/// (leftovers of a finished command, or the server went away).
inline constexpr int kLeftoverGraceMs = 1000;
inline constexpr int kOrphanedGraceMs = 2000;

}  // namespace clawexec::shim
