#pragma once
// Loads a topology from a sysfs tree: this machine ("/") or a snapshot root directory that holds
// sys/devices/system/{cpu,node} (hwloc's HWLOC_FSROOT layout). The kernel builds its domains
// from exactly these masks, so this is the most faithful input.
#include <optional>
#include <string>

#include "topology/topology.h"

namespace schedscope {

// `root` is the directory containing "sys/"; "/" reads the running machine.
Result<Topology> loadSysfsTopology(const std::string& root, Arch arch = hostArch());

// The architecture a snapshot was taken on, from its proc/cpuinfo when it has one
// (hwloc-gather-topology snapshots do); nullopt when unknown.
std::optional<Arch> detectSnapshotArch(const std::string& root);

}  // namespace schedscope
