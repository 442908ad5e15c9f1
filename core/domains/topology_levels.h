#pragma once
// The sched_domain_topology_level table: the arch's levels (SMT, CLS, MC, DIE/PKG) with the
// arch's mask functions, then the NUMA levels sched_init_numa() derives from the distances.
#include <functional>
#include <string>
#include <vector>

#include "domains/domain_builder.h"

namespace schedscope {

struct TopologyLevel {
    std::string name;
    std::function<CpuSet(int cpu)> mask;  // tl->mask(cpu), not yet ANDed with the cpu_map
    uint32_t sdFlags = 0;                 // tl->sd_flags()
    bool overlap = false;                 // SDTL_OVERLAP (NUMA levels)
    int numaLevel = -1;
    int numaDistance = 0;
};

// Builds the table for this topology. `warnings` receives what the kernel would warn about
// (e.g. an invalid distance table, after which it builds no NUMA levels), `notes` what it
// would print at info level (x86's SNC distance fix-up).
std::vector<TopologyLevel> topologyLevels(const Topology& topology, const DomainBuildOptions& options,
                                          std::vector<std::string>& warnings, std::vector<std::string>& notes);

}  // namespace schedscope
