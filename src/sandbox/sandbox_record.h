#pragma once
// What `clawexec sandbox list|recreate|prune` know about sandboxes that live inside servers:
// each sandbox writes a small record, `<workspaceRoot>/<scope dir>/sandbox-<pid>.json`, when it is
// made and (at most once a minute) when it is used, and removes it when its server tears it
// down. A server killed with SIGKILL leaves its record behind; its sandbox is gone (the kernel
// ended it), so the record then reads as stopped until `prune` removes it.
//
// A record names the sandbox's holder (its pid 1) by host pid and pid-namespace inode: a pid
// reused by an unrelated process is never mistaken for a running sandbox, and `stop` signals
// the holder through a pidfd checked against that inode.

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"

namespace clawexec::sandbox {

/// One record per server and scope: `sandbox-<server pid>.json` in the scope's directory
/// (several servers may each have a sandbox of the same scope).
std::string record_path(const std::string& state_dir, pid_t server_pid);

struct SandboxRecord {
  std::string scope;
  std::string state_dir;      // the scope's directory (where the record lives)
  std::string workspace;      // the host directory at the workdir
  std::string workdir;        // inside
  std::string network;        // "none" or "bridge"
  std::string limits;         // how pidsLimit/memory/cpus are enforced ("" = none set)
  pid_t server_pid = 0;
  pid_t holder_pid = 0;
  std::string holder_pid_namespace;  // readlink /proc/<holder>/ns/pid, "pid:[...]"
  int64_t created_ms = 0;     // epoch
  int64_t last_used_ms = 0;   // epoch
  bool running = false;       // filled by read_records: the holder is alive and is this sandbox's
};

/// The pid-namespace link of a process ("pid:[4026532...]"), "" when it cannot be read.
std::string pid_namespace_of(pid_t pid);

/// Writes `record` to record_path(state_dir, server_pid) atomically (mode 0600).
Result<void> write_record(const SandboxRecord& record);

/// Removes `record`'s file (a missing one is fine; a symlink is removed, never followed).
void remove_record(const SandboxRecord& record);

/// The records under `root` (each subdirectory's sandbox-*.json), `running` set from the live
/// system. A missing root is no records; a record that is unreadable, malformed, not a regular
/// file owned by us, writable by others, or in a symlinked directory is skipped.
std::vector<SandboxRecord> read_records(const std::string& root);

/// Ends the sandbox of a running record by killing its holder: the kernel then kills every
/// process in its pid namespace, and its server makes a new sandbox on the next command.
/// False when it was not running (any more).
bool stop_sandbox(const SandboxRecord& record);

}  // namespace clawexec::sandbox
