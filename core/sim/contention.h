#pragma once
// The contention model: how placement turns into speed. A task spends a share `memFraction` of
// its uncontended time on memory traffic and draws `bandwidthGBs` when alone. The running tasks
// of a cluster (shared bus / L3 tag on Kunpeng 920), of an LLC and of a NUMA node (its memory
// controllers) share each resource's capacity; a resource with demand D and capacity C stretches
// memory time by (1 + (D/C)^2)^(1/2), a smooth knee rather than a hard cap. The largest stretch
// counts fully and the others by `secondaryWeight`, so a saturated node hides most of a cluster
// penalty (the seed's 12-thread stream case). SMT siblings that both run slow each other's CPU
// part by `smtSlowdown`. Remote memory (task's home node != its node) stretches memory time by
// distance/10.
#include <vector>

#include "topology/topology.h"

namespace schedscope::sim {

struct ContentionParams {
    double clusterGBs = 0;   // per cluster; 0 = not a bottleneck
    double llcGBs = 0;       // per LLC; 0 = not a bottleneck
    double nodeGBs = 40;     // per NUMA node (its memory controllers)
    double secondaryWeight = 0.3;
    double smtSlowdown = 1.6;  // per sibling when both run: core throughput 2/1.6 = 1.25x
    std::string origin;        // where the numbers come from, printed in the JSON config
};

// Parameters for a topology: calibrated values for the known machines (Kunpeng 920: arm64,
// 4-core clusters, an LLC per node; AMD EPYC 7601: 2 CCX L3s per node), generic ones otherwise.
ContentionParams contentionParamsFor(const Topology& topology);

// Memory-time stretch of a resource with total demand `demand` and capacity `capacity`.
double resourceStretch(double demand, double capacity);

}  // namespace schedscope::sim
