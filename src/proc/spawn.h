#pragma once
// Starting a command under clawexec-shim with posix_spawn (never fork: its cost grows with the
// server's memory). The result is plain descriptors; process.h adopts them into the event loop.

#include <sys/types.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "sys/fd.h"

namespace clawexec::proc {

enum class Terminal { kPipes, kPty };
/// What the command's stdin is in pipe mode. A PTY always has a writable input.
enum class StdinMode { kClosed, kPipe };

/// How a command joins an existing sandbox (shim/sandbox_entry.h). Made once per sandbox by
/// the sandbox module and shared by all of its commands.
struct SandboxJoin {
  sys::UniqueFd holder_pidfd;              // the holder process whose namespaces are joined
  std::string seccomp_program;             // struct sock_filter[] bytes
  std::string user;                        // "uid:gid" inside the sandbox
  std::string limits;                      // "<RLIMIT_*>=<soft>:<hard>,..." ("" = none)
  std::string cgroups;                     // cgroup.procs files to join, newline-separated
  std::vector<std::string> writable_paths; // inside the sandbox; Landlock allows writes only there
};

/// Everything needed to start one command. Plain data.
struct SpawnSpec {
  std::string program;            // absolute path of the executable (usually the shell)
  std::vector<std::string> argv;  // argv[0] included
  std::vector<std::string> env;   // the complete environment, "NAME=value"
  std::string cwd;
  Terminal terminal = Terminal::kPipes;
  StdinMode stdin_mode = StdinMode::kClosed;
  uint16_t columns = 120;
  uint16_t rows = 30;
  std::string ptmx = "/dev/ptmx";  // PTY multiplexer; a seam for testing the PTY fallback
  /// Set for a command that runs inside a sandbox; `program` and `cwd` are then paths inside it.
  std::shared_ptr<const SandboxJoin> sandbox;
};

/// A spawned shim and the server's ends of its descriptors.
struct SpawnedShim {
  pid_t shim_pid = -1;
  sys::UniqueFd pidfd;    // readable once the shim has exited
  sys::UniqueFd control;  // SOCK_SEQPACKET, see shim/protocol.h
  sys::UniqueFd output;   // pipe read end (stdout+stderr merged) or PTY master
  sys::UniqueFd input;    // pipe write end (StdinMode::kPipe) or a dup of the PTY master
};

/// The command's side of its stdio: `in` for fd 0 and `out` for fds 1 and 2 (for a PTY only
/// `in`, the terminal, which serves all three).
struct ChildStdio {
  sys::UniqueFd in;
  sys::UniqueFd out;
};

/// Creates the command's pipes or PTY: fills `shim.output`/`shim.input` (the server's ends)
/// and returns the command's ends.
Result<ChildStdio> prepare_stdio(const SpawnSpec& spec, SpawnedShim& shim);

/// Descriptors for fds 0-3 of a shim process; -1 means /dev/null.
using ShimFds = std::array<int, 4>;

/// posix_spawn of clawexec-shim with `fds` as its fds 0-3 and nothing else open, default signal
/// dispositions, an empty signal mask and its own process group.
Result<pid_t> spawn_shim_process(const std::string& shim_path, const std::vector<std::string>& argv,
                                 const std::vector<std::string>& env, const ShimFds& fds, const std::string& cwd);

/// Puts the server's ends of a spawned command into non-blocking mode.
Result<void> make_nonblocking(SpawnedShim& shim);

/// Spawns `shim_path` for `spec`. Errors name what failed ("open PTY /dev/ptmx: ...",
/// "spawn /path/clawexec-shim: ..."). Failures of the command's own execve arrive later, as
/// a message from the shim.
Result<SpawnedShim> spawn_with_shim(const SpawnSpec& spec, const std::string& shim_path);

/// Where the shim lives: $CLAWEXEC_SHIM if set, else the first executable file among
/// shim_search_paths() of the running executable.
Result<std::string> locate_shim();

/// The places locate_shim looks for the shim next to `self_executable`, in order.
std::vector<std::string> shim_search_paths(const std::string& self_executable);

}  // namespace clawexec::proc
