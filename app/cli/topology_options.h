#pragma once
// The topology-source options shared by every command that takes a topology.
#include <vector>

#include "args.h"
#include "topology/topology_source.h"

namespace schedscope::cli {

std::vector<OptionSpec> topologyOptions();  // --local --sysfs-root --xml --synthetic --preset --arch --isolate --partition
// Reads those options (default: --local); errors name the option and input.
Result<TopologySpec> topologySpecFrom(const Args& args);
Result<Topology> topologyFrom(const Args& args);
// Says on stderr what the kernel would print while building a machine's domains (an arch
// topology BUG, an asymmetric SLIT, no domains at all): the first few, then how many more.
void sayDomainWarnings(const std::vector<std::string>& warnings);
// Whether any of the topology-source options was given (e.g. to override a trace's own topology).
bool topologyOptionGiven(const Args& args);
// A command whose topology is the trace's own unless one is named: --isolate / --partition then
// need one named too (an error saying so, else empty).
std::string cpusetOptionsWithoutTopology(const Args& args);

}  // namespace schedscope::cli
