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
    // per level, the id of each CPU's unit (CpuInfo's first-CPU ids; nodes by index)
    struct Level {
        const char* name;
        int CpuInfo::*id;
    };
    std::vector<Level> levels = {{"busy_cores", &CpuInfo::core}};
    if (hasClusters(*s.topo)) levels.push_back({"busy_clusters", &CpuInfo::cluster});
    levels.push_back({"busy_llcs", &CpuInfo::llc});
    levels.push_back({"busy_nodes", &CpuInfo::node});

    const size_t n = s.info.size();
    std::vector<double> sum(levels.size(), 0.0);
    // per unit id (a CPU number or a node index): the (sample, level) it was last counted in
    std::vector<size_t> seenAt(std::max(n, s.topo->nodes.size()) + 1, 0);
    size_t sampleNo = 0;
    for (const PlacementSample& p : s.metrics.timeline) {
        ++sampleNo;
        for (size_t l = 0; l < levels.size(); ++l) {
            const size_t stamp = sampleNo * levels.size() + l;  // unique per (sample, level)
            int distinct = 0;
            for (size_t c = 0; c < n && c < p.running.size(); ++c) {
                if (p.running[c] < 0) continue;
                const auto id = static_cast<size_t>(s.info[c].*levels[l].id);
                if (id < seenAt.size() && seenAt[id] != stamp) {
                    seenAt[id] = stamp;
                    ++distinct;
                }
            }
            sum[l] += distinct;
        }
    }
    std::vector<std::pair<std::string, double>> out;
    out.reserve(levels.size());
    for (size_t l = 0; l < levels.size(); ++l)
        out.emplace_back(levels[l].name, sampleNo ? sum[l] / static_cast<double>(sampleNo) : 0.0);
    return out;
}

}  // namespace schedscope::sim
