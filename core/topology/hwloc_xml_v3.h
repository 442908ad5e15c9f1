#pragma once
// hwloc 3.0's lstopo exports XML that hwloc 2.x refuses outright ("cannot import XML version
// 3.0 > 2"), although everything the tool reads from it (objects, cpusets, caches, NUMA
// distances, CPU kinds, memory attributes) is written as 2.x wrote it. What did change is
// undone here, on the parsed document (libxml2), so hwloc 2.x reads it as its own:
//   - the root's `version` goes back to 2.0;
//   - the topology-wide infos (Architecture, OSName, OSRelease, HostName, Backend, ...) that
//     3.0 moved out of the root object go back into it, where 2.x (and the arch detection)
//     looks for them;
//   - a cache's `cache_inclusive` attribute becomes the 2.x "Inclusive" info again;
//   - the XGMIHops matrix's HOPS kind (new in 3.0) becomes the latency kind 2.x gave it.
// OS device types and memory tiers are left for hwloc 2.x to ignore: the tool reads neither.
#include <string>
#include <string_view>

#include "util/result.h"

namespace schedscope {

// The major version of hwloc's XML format declared in the first bytes of a file
// (`<topology version="3.0">` is 3), or 0 when the start declares none.
int hwlocXmlMajorVersion(std::string_view head);

// The hwloc 3.x XML document at `path` rewritten as hwloc 2.x XML; an error naming the file
// when it is not well-formed XML or not an hwloc 3.x topology.
Result<std::string> hwloc3XmlAsV2(const std::string& path);

}  // namespace schedscope
