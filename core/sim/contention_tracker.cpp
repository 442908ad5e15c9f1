#include "sim/contention_tracker.h"

#include "sim/cpu_capacity.h"

namespace schedscope::sim {

ContentionTracker::ContentionTracker(const SimState& s) : s_(s) {
    const size_t n = s.cpus.size();
    const Topology& topo = *s.topo;
    cpuCount_ = n;
    nodeCount_ = topo.nodes.size();
    traits_.reserve(s.tasks.size());
    for (const auto& t : s.tasks)
        traits_.push_back({t.spec->memFraction, t.spec->bandwidthGBs, -1, t.spec->cacheFraction, t.spec->cacheMB,
                           t.spec->handoffKB});
    for (size_t c = 0; c < s.info.size(); ++c) {
        const CpuInfo& ci = s.info[c];
        keys_.push_back({ci.core, ci.cluster, ci.llc, ci.node, 1024.0 / hardwareCapacity(topo, static_cast<int>(c))});
    }
    size_t widestCore = 1;
    for (const CpuInfo& ci : s.info) widestCore = std::max(widestCore, ci.siblings.size());
    for (size_t k = 0; k <= widestCore; ++k) smtSlowdownByBusy_.push_back(smtSlowdownOf(s.contention, static_cast<int>(k)));
    remote_.assign(nodeCount_ * nodeCount_, 1.0);
    for (size_t a = 0; a < nodeCount_; ++a)
        for (size_t b = 0; b < nodeCount_; ++b)
            remote_[a * nodeCount_ + b] = std::max(1.0, topo.nodeDistance(topo.nodes[a].id, topo.nodes[b].id) / 10.0);
    // (a node index past the last: a task that has not run yet has no home, and reads none)
    resourceMarked_.assign(2 * n + nodeCount_ + 1, 0);
    stretchStale_.assign(resourceMarked_.size(), 0);
    memByCluster_.resize(n);
    memByLlc_.resize(n);
    memByHome_.resize(nodeCount_ + 1);
    clusterUsers_.assign(n, {});
    llcUsers_.assign(n, {});
    nodeUsers_.assign(nodeCount_ + 1, {});
    clusterStretch_.assign(n, 1.0);  // resourceStretch() of no demand
    llcStretch_.assign(n, 1.0);
    nodeStretch_.assign(nodeCount_ + 1, 1.0);
    clusterCache_.assign(n, 0);
    llcCache_.assign(n, 0);
    clusterMiss_.assign(n, 0.0);
    llcMiss_.assign(n, 0.0);
    sharedCaches_ = s.contention.clusterCacheMB > 0 || s.contention.llcCacheMB > 0;
    if (sharedCaches_) {
        const SharedCaches caches = sharedCachesOf(topo, s.contention);
        clusterCapacity_.assign(n, 0.0);
        llcCapacity_.assign(n, 0.0);
        for (size_t c = 0; c < n; ++c) {
            if (!s.online.test(static_cast<int>(c))) continue;  // an offline CPU's info is not its own
            clusterCapacity_[static_cast<size_t>(s.info[c].cluster)] = caches.clusterMB[c];
            llcCapacity_[static_cast<size_t>(s.info[c].llc)] = caches.llcMB[c];
        }
    }
}

double ContentionTracker::handoffNsPerKB(int from, int to) const {
    const Keys& a = keys_[static_cast<size_t>(from)];
    const Keys& b = keys_[static_cast<size_t>(to)];
    const ContentionParams& c = s_.contention;
    if (a.core == b.core) return 0;
    if (a.cluster == b.cluster) return c.handoffClusterNsPerKB;
    if (a.llc == b.llc) return c.handoffLlcNsPerKB;
    return c.handoffCrossLlcNsPerKB * remote_[static_cast<size_t>(a.node) * nodeCount_ + static_cast<size_t>(b.node)];
}

double ContentionTracker::cacheTime(const Traits& tr, const Keys& ci) const {
    const double miss = std::max(clusterMiss_[static_cast<size_t>(ci.cluster)], llcMiss_[static_cast<size_t>(ci.llc)]);
    return tr.cacheFraction * (1.0 + (s_.contention.cacheMissCost - 1.0) * miss);
}

void ContentionTracker::markCachesOf(int cpu) {
    const auto& c = s_.contention;
    const CpuInfo& ci = s_.info[static_cast<size_t>(cpu)];
    if (c.clusterCacheMB > 0) markResource(static_cast<size_t>(ci.cluster));
    if (c.llcCacheMB > 0) markResource(cpuCount_ + static_cast<size_t>(ci.llc));
}

void ContentionTracker::addCacheFootprint(int cpu, double mb) {
    const CpuInfo& ci = s_.info[static_cast<size_t>(cpu)];
    const size_t cl = static_cast<size_t>(ci.cluster), llc = static_cast<size_t>(ci.llc);
    clusterMiss_[cl] = cacheMissShare(clusterCache_[cl] += mb, clusterCapacity_[cl]);
    llcMiss_[llc] = cacheMissShare(llcCache_[llc] += mb, llcCapacity_[llc]);
}

}  // namespace schedscope::sim
