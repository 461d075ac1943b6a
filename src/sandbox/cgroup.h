#pragma once
// A sandbox's own cgroup, for pidsLimit, memory and cpus (see cgroup.cc).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"

namespace clawexec::sandbox {

struct CgroupLimits {
  std::optional<int64_t> pids;
  std::optional<int64_t> memory_bytes;
  std::optional<int64_t> memory_swap_bytes;  // memory + swap (Docker's --memory-swap)
  std::optional<double> cpus;
  bool any() const { return pids || memory_bytes || memory_swap_bytes || cpus; }
};

/// One cgroup line of /proc/self/cgroup and one cgroup mount of /proc/self/mountinfo.
struct CgroupMount {
  std::string mount_point;               // e.g. /sys/fs/cgroup/pids or /sys/fs/cgroup/unified
  std::vector<std::string> controllers;  // v1: from the mount options; v2: empty
  bool v2 = false;
};

/// The cgroup mounts of this process, from /proc/self/mountinfo text (pure).
std::vector<CgroupMount> parse_cgroup_mounts(const std::string& mountinfo);

/// This process's cgroup path for a v1 controller ("pids") or v2 (""), from /proc/self/cgroup
/// text (pure).
std::optional<std::string> own_cgroup_path(const std::string& proc_cgroup, const std::string& controller);

/// A cgroup (one directory per controller hierarchy) created for one sandbox and removed with
/// it. Only directories it created itself are ever written to.
class SandboxCgroup {
 public:
  /// Creates `name` below this process's own cgroup in every hierarchy that has a controller
  /// the limits need, and writes the limits. An error names the limit that cannot be enforced
  /// here and why (nothing is left behind).
  static Result<std::unique_ptr<SandboxCgroup>> create(const std::string& name, const CgroupLimits& limits);
  ~SandboxCgroup();
  SandboxCgroup(const SandboxCgroup&) = delete;
  SandboxCgroup& operator=(const SandboxCgroup&) = delete;

  /// The cgroup.procs files a process writes "0" to in order to join.
  const std::vector<std::string>& procs_files() const { return procs_; }
  /// Moves `pid` in.
  Result<void> add(int pid) const;
  /// For `doctor` and `sandbox explain`: which hierarchy enforces which limit.
  const std::string& summary() const { return summary_; }

 private:
  SandboxCgroup() = default;
  std::vector<std::string> dirs_;
  std::vector<std::string> procs_;
  std::string summary_;
};

}  // namespace clawexec::sandbox
