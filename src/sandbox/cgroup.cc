// A sandbox's own cgroup.
//
// Problem: bubblewrap has no resource limits, and the nearest rlimits do not bound a sandbox
// as a whole: RLIMIT_NPROC is per user, and the kernel does not count it for root's processes
// even inside a new user namespace, so a fork bomb in a root server's sandbox would go on.
//
// Approach: where this process may create cgroups (root on cgroup v1 or hybrid machines such
// as ours; v2 where the parent already delegates the controller), a new child of this
// process's own cgroup is made for each hierarchy holding a needed controller (pids, memory,
// cpu), the limits are written into it, and every process of the sandbox joins it (the holder
// at creation, each command's supervisor before it enters the sandbox). Nothing else is ever
// written: not the parent, not its subtree_control. Removal kills what is left inside and
// removes the directories.

#include "sandbox/cgroup.h"

#include <signal.h>

#include <chrono>
#include <cmath>
#include <sstream>
#include <thread>

#include "base/strings.h"
#include "sys/file_system.h"
#include "sys/sys.h"

namespace clawexec::sandbox {
namespace {

std::vector<std::string> split(std::string_view text, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(sep, start);
    if (end == std::string_view::npos) end = text.size();
    out.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

struct Placement {
  std::string dir;  // the new cgroup's directory
  bool v2 = false;
};

// Where a cgroup for `controller` can be made: a v1 hierarchy holding it, else the v2 tree when
// this process's cgroup already delegates it to children.
std::optional<Placement> placement_for(const std::string& controller, const std::vector<CgroupMount>& mounts,
                                       const std::string& proc_cgroup, const std::string& name) {
  for (const CgroupMount& m : mounts) {
    if (m.v2) continue;
    for (const std::string& c : m.controllers) {
      if (c != controller) continue;
      std::optional<std::string> own = own_cgroup_path(proc_cgroup, controller);
      if (!own) return std::nullopt;
      std::string base = m.mount_point + (*own == "/" ? "" : *own);
      if (!sys::is_writable(base)) return std::nullopt;
      return Placement{base + "/" + name, false};
    }
  }
  for (const CgroupMount& m : mounts) {
    if (!m.v2) continue;
    std::optional<std::string> own = own_cgroup_path(proc_cgroup, "");
    if (!own) continue;
    std::string base = m.mount_point + (*own == "/" ? "" : *own);
    Result<std::string> delegated = sys::read_kernel_file(base + "/cgroup.subtree_control");
    if (!delegated.ok()) continue;
    for (const std::string& c : split(trim_ascii(delegated.value()), ' ')) {
      if (c == controller && sys::is_writable(base)) return Placement{base + "/" + name, true};
    }
  }
  return std::nullopt;
}

void kill_members(const std::string& dir) {
  for (int round = 0; round < 50; ++round) {
    Result<std::string> procs = sys::read_kernel_file(dir + "/cgroup.procs");
    if (!procs.ok() || trim_ascii(procs.value()).empty()) return;
    for (const std::string& line : split(procs.value(), '\n')) {
      if (!line.empty()) ignore_error(sys::send_signal(static_cast<pid_t>(std::atoi(line.c_str())), SIGKILL));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace

std::vector<CgroupMount> parse_cgroup_mounts(const std::string& mountinfo) {
  static const char* kControllers[] = {"pids", "memory", "cpu", "cpuacct", "cpuset", "blkio", "devices", "freezer"};
  std::vector<CgroupMount> out;
  for (const std::string& line : split(mountinfo, '\n')) {
    size_t dash = line.find(" - ");
    if (dash == std::string::npos) continue;
    std::vector<std::string> before = split(line.substr(0, dash), ' ');
    std::vector<std::string> after = split(line.substr(dash + 3), ' ');
    if (before.size() < 5 || after.size() < 3) continue;
    CgroupMount m;
    m.mount_point = before[4];
    if (after[0] == "cgroup2") {
      m.v2 = true;
    } else if (after[0] == "cgroup") {
      for (const std::string& option : split(after[2], ',')) {
        for (const char* c : kControllers) {
          if (option == c) m.controllers.push_back(option);
        }
      }
    } else {
      continue;
    }
    out.push_back(std::move(m));
  }
  return out;
}

std::optional<std::string> own_cgroup_path(const std::string& proc_cgroup, const std::string& controller) {
  for (const std::string& line : split(proc_cgroup, '\n')) {
    std::vector<std::string> fields = split(line, ':');
    if (fields.size() < 3) continue;
    std::string path = line.substr(fields[0].size() + fields[1].size() + 2);
    if (controller.empty()) {
      if (fields[0] == "0" && fields[1].empty()) return path;
      continue;
    }
    for (const std::string& c : split(fields[1], ',')) {
      if (c == controller) return path;
    }
  }
  return std::nullopt;
}

Result<std::unique_ptr<SandboxCgroup>> SandboxCgroup::create(const std::string& name, const CgroupLimits& limits) {
  std::unique_ptr<SandboxCgroup> group(new SandboxCgroup());
  std::string mountinfo = TRY(sys::read_kernel_file("/proc/self/mountinfo"));
  std::string proc_cgroup = TRY(sys::read_kernel_file("/proc/self/cgroup"));
  std::vector<CgroupMount> mounts = parse_cgroup_mounts(mountinfo);
  struct Want {
    const char* controller;
    const char* key;  // the configuration key, for errors
    std::vector<std::pair<std::string, std::string>> v1, v2;
  };
  std::vector<Want> wants;
  if (limits.pids) {
    std::string n = std::to_string(*limits.pids);
    wants.push_back({"pids", "pidsLimit", {{"pids.max", n}}, {{"pids.max", n}}});
  }
  if (limits.memory_bytes || limits.memory_swap_bytes) {
    Want w{"memory", limits.memory_bytes ? "memory" : "memorySwap", {}, {}};
    if (limits.memory_bytes) {
      w.v1.push_back({"memory.limit_in_bytes", std::to_string(*limits.memory_bytes)});
      w.v2.push_back({"memory.max", std::to_string(*limits.memory_bytes)});
    }
    if (limits.memory_swap_bytes) {
      w.v1.push_back({"memory.memsw.limit_in_bytes", std::to_string(*limits.memory_swap_bytes)});
      int64_t swap = *limits.memory_swap_bytes - limits.memory_bytes.value_or(0);
      w.v2.push_back({"memory.swap.max", std::to_string(swap < 0 ? 0 : swap)});
    }
    wants.push_back(std::move(w));
  }
  if (limits.cpus) {
    int64_t quota = static_cast<int64_t>(std::llround(*limits.cpus * 100000));
    wants.push_back({"cpu", "cpus", {{"cpu.cfs_period_us", "100000"}, {"cpu.cfs_quota_us", std::to_string(quota)}},
                     {{"cpu.max", std::to_string(quota) + " 100000"}}});
  }
  for (const Want& want : wants) {
    std::optional<Placement> place = placement_for(want.controller, mounts, proc_cgroup, name);
    if (!place) {
      return Error::rejected(std::string("sandbox ") + want.key + ": no " + want.controller +
                             " cgroup can be created by this process (needs a writable cgroup v1 " + want.controller +
                             " hierarchy or a cgroup v2 parent that delegates it)");
    }
    bool fresh = false;
    for (const std::string& d : group->dirs_) fresh = fresh || d == place->dir;
    if (!fresh) {
      Result<bool> made = sys::make_directory(place->dir, 0755);
      if (!made.ok()) return Error::rejected(std::string("sandbox ") + want.key + ": " + made.error().message);
      if (!made.value()) {
        return Error::rejected(std::string("sandbox ") + want.key + ": cgroup " + place->dir +
                               " already exists (another server's sandbox?); not touching it");
      }
      group->dirs_.push_back(place->dir);
      group->procs_.push_back(place->dir + "/cgroup.procs");
    }
    for (const auto& [file, value] : place->v2 ? want.v2 : want.v1) {
      // memsw exists only with swap accounting; without it memorySwap cannot be enforced.
      if (Result<void> w = sys::write_existing_file(place->dir + "/" + file, value); !w.ok()) {
        return Error::rejected(std::string("sandbox ") + want.key + ": " + w.error().message);
      }
    }
    group->summary_ += (group->summary_.empty() ? "" : "; ") + std::string(want.key) + " by cgroup " +
                       (place->v2 ? "v2 " : "v1 ") + place->dir;
  }
  return group;
}

SandboxCgroup::~SandboxCgroup() {
  for (auto it = dirs_.rbegin(); it != dirs_.rend(); ++it) {
    kill_members(*it);
    ignore_error(sys::remove_empty_directory(*it));
  }
}

Result<void> SandboxCgroup::add(int pid) const {
  for (const std::string& procs : procs_) TRY(sys::write_existing_file(procs, std::to_string(pid)));
  return {};
}

}  // namespace clawexec::sandbox
