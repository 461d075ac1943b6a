// Host statistics for node.host.stats (host_stats.h). Each figure comes from one system call;
// one that fails is reported as 0 rather than failing the event.

#include "node/host_stats.h"

#include <sys/statvfs.h>
#include <sys/sysinfo.h>

#include <cmath>
#include <cstdlib>
#include <thread>

namespace clawexec::node {

json::Object host_stats(const std::string& disk_path) {
  double load[3] = {0, 0, 0};
  if (getloadavg(load, 3) != 3) load[0] = load[1] = load[2] = 0;
  json::Array loads;
  for (double l : load) loads.emplace_back(std::round(l * 100) / 100);
  int64_t mem_total = 0, mem_free = 0;
  struct sysinfo si {};
  if (sysinfo(&si) == 0) {
    mem_total = static_cast<int64_t>(si.totalram) * si.mem_unit;
    mem_free = static_cast<int64_t>(si.freeram) * si.mem_unit;
  }
  int64_t disk_total = 0, disk_free = 0;
  struct statvfs vfs {};
  if (statvfs(disk_path.c_str(), &vfs) == 0) {
    disk_total = static_cast<int64_t>(vfs.f_blocks) * static_cast<int64_t>(vfs.f_frsize);
    disk_free = static_cast<int64_t>(vfs.f_bavail) * static_cast<int64_t>(vfs.f_frsize);
  }
  return json::Object{{"cpuCount", static_cast<int64_t>(std::max(1u, std::thread::hardware_concurrency()))},
                      {"loadAverage", std::move(loads)},
                      {"memoryTotalBytes", mem_total},
                      {"memoryFreeBytes", mem_free},
                      {"diskTotalBytes", disk_total},
                      {"diskAvailableBytes", disk_free}};
}

}  // namespace clawexec::node
