#pragma once
// Topologies through libhwloc: this machine, an hwloc XML export (2.x format, or 3.x rewritten
// by hwloc_xml_v3.h) and hwloc synthetic strings. hwloc's objects are turned into the masks the kernel would export.
#include <string>

#include "topology/topology.h"

namespace schedscope {

Result<Topology> loadHwlocXml(const std::string& path, Arch arch);
Result<Topology> loadHwlocSynthetic(const std::string& description, Arch arch);
// The CPUs a synthetic description asks for: the product of its arities ("pack:2 numa:2 core:4
// pu:2" -> 32), saturating far above the limit.
long long syntheticPuCount(const std::string& description);
// This machine: the sysfs masks when readable (most faithful), else hwloc's view.
Result<Topology> loadLocalTopology();

}  // namespace schedscope

namespace schedscope {
// As loadHwlocXml, but the architecture comes from the file's "Architecture" info when present.
Result<Topology> loadHwlocXmlDetectArch(const std::string& path);
}  // namespace schedscope
