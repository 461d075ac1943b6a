#pragma once
// Starting a command under clawexec-shim with posix_spawn (never fork: its cost grows with the
// server's memory). The result is plain descriptors; process.h adopts them into the event loop.

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"
#include "sys/fd.h"

namespace clawexec::proc {

enum class Terminal { kPipes, kPty };
/// What the command's stdin is in pipe mode. A PTY always has a writable input.
enum class StdinMode { kClosed, kPipe };

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
};

/// A spawned shim and the server's ends of its descriptors.
struct SpawnedShim {
  pid_t shim_pid = -1;
  sys::UniqueFd pidfd;    // readable once the shim has exited
  sys::UniqueFd control;  // SOCK_SEQPACKET, see shim/protocol.h
  sys::UniqueFd output;   // pipe read end (stdout+stderr merged) or PTY master
  sys::UniqueFd input;    // pipe write end (StdinMode::kPipe) or a dup of the PTY master
};

/// Spawns `shim_path` for `spec`. Errors name what failed ("open PTY /dev/ptmx: ...",
/// "spawn /path/clawexec-shim: ..."). Failures of the command's own execve arrive later, as
/// a message from the shim.
Result<SpawnedShim> spawn_with_shim(const SpawnSpec& spec, const std::string& shim_path);

/// Where the shim lives: $CLAWEXEC_SHIM if set, else next to the running executable.
Result<std::string> locate_shim();

}  // namespace clawexec::proc
