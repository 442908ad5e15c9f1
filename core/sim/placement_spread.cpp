#include "sim/placement_spread.h"

#include <algorithm>

namespace schedscope::sim {
namespace {

bool hasClusters(const Topology& topo) {
    return std::any_of(topo.cpus.begin(), topo.cpus.end(),
                       [](const CpuTopology& c) { return c.clusterCpus.count() > c.threadSiblings.count(); });
}

}  // namespace

std::vector<std::pair<std::string, double>> placementSpread(const SimState& s) {
    // Metrics::busyUnitNs: cores, clusters, LLCs, nodes
    const double elapsedNs = static_cast<double>(s.now);
    auto mean = [&](size_t level) { return elapsedNs > 0 ? s.metrics.busyUnitNs[level] / elapsedNs : 0.0; };
    std::vector<std::pair<std::string, double>> out = {{"busy_cores", mean(0)}};
    if (hasClusters(*s.topo)) out.emplace_back("busy_clusters", mean(1));
    out.emplace_back("busy_llcs", mean(2));
    out.emplace_back("busy_nodes", mean(3));
    return out;
}

}  // namespace schedscope::sim
