#pragma once
// The node.host.stats event payload OpenClaw's node host publishes every 60 s (reference
// §A7): {cpuCount, loadAverage[3], memoryTotalBytes, memoryFreeBytes, diskTotalBytes,
// diskAvailableBytes}, measured here (sysinfo, getloadavg, statvfs of `disk_path`).

#include <string>

#include "json/json.h"

namespace clawexec::node {

json::Object host_stats(const std::string& disk_path);

}  // namespace clawexec::node
