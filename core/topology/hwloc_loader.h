#pragma once
// Topologies through libhwloc: this machine, an hwloc XML export (2.x format) and hwloc
// synthetic strings. hwloc's objects are turned into the masks the kernel would export.
#include <string>

#include "topology/topology.h"

namespace schedscope {

Result<Topology> loadHwlocXml(const std::string& path, Arch arch);
Result<Topology> loadHwlocSynthetic(const std::string& description, Arch arch);
// This machine: the sysfs masks when readable (most faithful), else hwloc's view.
Result<Topology> loadLocalTopology();

}  // namespace schedscope

namespace schedscope {
// As loadHwlocXml, but the architecture comes from the file's "Architecture" info when present.
Result<Topology> loadHwlocXmlDetectArch(const std::string& path);
}  // namespace schedscope
