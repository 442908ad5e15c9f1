#pragma once
// The contention model (contention.h) kept up to date as the simulator switches tasks: what the
// running tasks demand of each shared resource (a cluster's and an LLC's bandwidth and cache,
// each NUMA node's memory), the stretch that demand gives each one, and how slowly a task runs
// on a CPU because of it.
//
// The engine tells it every switch (markResourcesOf() before the demand changes, then
// noteRunning() and addDemand()); when the event is over it asks which CPUs run a task whose
// speed may have changed (addResourceUsers()) and their new slowness (taskSlowness()).
// Resources are indexed clusters (by first CPU), then LLCs (by first CPU), then home nodes.
#include <algorithm>
#include <cstddef>
#include <vector>

#include "sim/contention.h"
#include "sim/sim_state.h"

namespace schedscope::sim {

class ContentionTracker {
public:
    explicit ContentionTracker(const SimState& s);

    // the spec fields the model reads on every re-timing, per task, packed
    struct Traits {
        double memFraction = 0, bandwidthGBs = 0;
        int homeNode = -1;  // Task::homeNode, set with it (setHomeNode())
        double cacheFraction = 0, cacheMB = 0;
        double handoffKB = 0;
    };
    const Traits& traits(int task) const { return traits_[static_cast<size_t>(task)]; }
    void setHomeNode(int task, int node) { traits_[static_cast<size_t>(task)].homeNode = node; }

    // How slowly `task` runs on `cpu` (1 / speed) with `busyThreads` CPUs of its core running a
    // task (itself included): its CPU part slowed by busy SMT siblings, its memory part
    // stretched by the most contended of its cluster, LLC and home node (the other two weigh in
    // by secondaryWeight) and by the distance to its memory. The re-timing compares and
    // multiplies by it: a burst end no longer waits on two chained divisions. Reads the
    // stretches as refreshStretches() last left them.
    [[gnu::always_inline]] double taskSlowness(int cpu, int task, int busyThreads) const {
        const Traits& tr = traits_[static_cast<size_t>(task)];
        const auto& c = s_.contention;
        const Keys& ci = keys_[static_cast<size_t>(cpu)];
        double cpuPart = 1.0 - tr.memFraction;
        double cachePart = 0;
        if (tr.cacheFraction > 0) {
            cpuPart -= tr.cacheFraction;
            cachePart = cacheTime(tr, ci) * ci.capacitySlowness;
        }
        cpuPart *= ci.capacitySlowness;
        const size_t busy = static_cast<size_t>(busyThreads);
        cpuPart *= smtSlowdownByBusy_[std::min(busy, smtSlowdownByBusy_.size() - 1)];  // its siblings run too
        double memPart = 0;
        if (tr.memFraction > 0) {
            const size_t home = static_cast<size_t>(tr.homeNode);
            const double a = clusterStretch_[static_cast<size_t>(ci.cluster)], b = llcStretch_[static_cast<size_t>(ci.llc)],
                         n = nodeStretch_[home];
            // the largest, plus the other two in either order (their sum does not depend on it)
            double top = a, x = b, y = n;
            if (b > top) { top = b; x = a; }
            if (n > top) { y = top; top = n; }
            const double stretch = top + c.secondaryWeight * ((x - 1.0) + (y - 1.0));
            const double remote = remote_[home * nodeCount_ + static_cast<size_t>(ci.node)];
            memPart = tr.memFraction * stretch * remote;
        }
        return tr.cacheFraction > 0 ? cpuPart + cachePart + memPart : cpuPart + memPart;
    }

    // the SMT core of `cpu` (CpuInfo::core), packed with what taskSlowness() reads of it
    int coreOf(int cpu) const { return keys_[static_cast<size_t>(cpu)].core; }

    // what a KB written on `from` costs to read on `to`: nothing within one core, more past the
    // cluster, the LLC and the node (ContentionParams)
    double handoffNsPerKB(int from, int to) const;

    // `task` draws memory bandwidth (its demand stretches the resources it uses)
    bool drawsBandwidth(int task) const {
        if (task < 0) return false;
        const Traits& tr = traits_[static_cast<size_t>(task)];
        return tr.bandwidthGBs > 0 && tr.memFraction > 0;
    }

    // The resources whose demand `task` (-1: none) running on `cpu` makes: the cluster and the
    // LLC of `cpu` (when they are bottlenecks, or caches it has a footprint in) and its home
    // node's memory, wherever it runs (a task away from its home node still draws on that
    // node's controllers). Marked before the demand changes, so each keeps what its users read
    // of it before: addResourceUsers() re-times them only when that changed.
    [[gnu::always_inline]] void markResourcesOf(int cpu, int task) {
        if (usesSharedCache(task)) markCachesOf(cpu);
        if (!drawsBandwidth(task)) return;
        const auto& c = s_.contention;
        const CpuInfo& ci = s_.info[static_cast<size_t>(cpu)];
        const size_t n = cpuCount_;
        if (c.clusterGBs > 0) markResource(static_cast<size_t>(ci.cluster));
        if (c.llcGBs > 0) markResource(n + static_cast<size_t>(ci.llc));
        if (c.nodeGBs > 0) markResource(2 * n + static_cast<size_t>(traits_[static_cast<size_t>(task)].homeNode));
    }
    // node `node`'s memory as `task` is about to draw on it (its memory moving there)
    void markNodeFor(int node, int task) {
        if (drawsBandwidth(task) && s_.contention.nodeGBs > 0) markResource(2 * cpuCount_ + static_cast<size_t>(node));
    }

    // `task` (-1: none) starts (`running`) or stops running on `cpu`: the CPUs using each
    // resource, which addResourceUsers() lists
    [[gnu::always_inline]] void noteRunning(int cpu, int task, bool running) {
        if (task < 0) return;
        const Traits& tr = traits_[static_cast<size_t>(task)];
        const bool memory = tr.memFraction > 0, cache = usesSharedCache(task);
        if (!memory && !cache) return;
        const CpuInfo& ci = s_.info[static_cast<size_t>(cpu)];
        const auto& c = s_.contention;
        // only the lists addResourceUsers() reads: a resource without a capacity never stretches
        if ((memory && c.clusterGBs > 0) || (cache && c.clusterCacheMB > 0)) note(memByCluster_[static_cast<size_t>(ci.cluster)], cpu, running);
        if ((memory && c.llcGBs > 0) || (cache && c.llcCacheMB > 0)) note(memByLlc_[static_cast<size_t>(ci.llc)], cpu, running);
        if (memory && c.nodeGBs > 0) note(memByHome_[static_cast<size_t>(tr.homeNode)], cpu, running);
    }

    // `task`'s demand on `cpu`'s resources joins them (`sign` +1) or leaves them (-1)
    void addDemand(int cpu, int task, double sign) {
        const Traits& tr = traits_[static_cast<size_t>(task)];
        if (sharedCaches_ && tr.cacheFraction > 0 && tr.cacheMB > 0) addCacheFootprint(cpu, tr.cacheMB * sign);
        if (tr.memFraction <= 0 || tr.bandwidthGBs <= 0) return;
        const int joins = sign > 0 ? 1 : -1;
        const CpuInfo& ci = s_.info[static_cast<size_t>(cpu)];
        const auto& c = s_.contention;
        const size_t cl = static_cast<size_t>(ci.cluster), llc = static_cast<size_t>(ci.llc),
                     node = static_cast<size_t>(tr.homeNode);
        // a resource without a capacity never stretches (its stretch stays 1): no users kept
        const size_t n = cpuCount_;
        auto join = [&](BandwidthUsers& users, size_t r, double capacity) {
            if (capacity <= 0) return;
            users.add(tr.memFraction, tr.bandwidthGBs, joins);
            if (!stretchStale_[r]) { stretchStale_[r] = 1; staleStretches_.push_back(r); }
        };
        join(clusterUsers_[cl], cl, c.clusterGBs);
        join(llcUsers_[llc], n + llc, c.llcGBs);
        join(nodeUsers_[node], 2 * n + node, c.nodeGBs);
    }

    // The stretches of the resources whose users changed, computed once per event when read:
    // a switch changes a resource's users twice (the task leaving, the next one joining) and a
    // newidle pull a third time; only the users at the event's end run for any time (a pgbench
    // run on 128 CPUs spent 8% of its time in BandwidthUsers::stretch() when each change did).
    void refreshStretches() {
        for (size_t r : staleStretches_)
            if (stretchStale_[r]) refreshStretch(r);
        staleStretches_.clear();
    }

    // Calls affected(cpu) for every CPU using a resource marked in this event whose stretch or
    // miss share came out of it changed, in ascending CPU order per resource (the order the
    // re-timings take their sequence numbers in), and forgets the marks. The users of one that
    // came out as it went in are left alone: whatever else changed their speed (a switch on
    // their core, their own switch, their memory moving) listed them already. A cache whose
    // footprints still fit misses nothing before and after, so a switch next to it no longer
    // re-computes the speed of every task sharing it.
    template <class Affected>
    void addResourceUsers(Affected&& affected) {
        const size_t n = cpuCount_;
        for (const MarkedResource& m : markedResources_) {
            const size_t r = m.r;
            resourceMarked_[r] = 0;
            const Effect now = effectOf(r);
            if (now.stretch == m.before.stretch && now.miss == m.before.miss) continue;
            const CpuSet& users = r < n ? memByCluster_[r] : r < 2 * n ? memByLlc_[r - n] : memByHome_[r - 2 * n];
            users.forEach(affected);
        }
        markedResources_.clear();
    }

private:
    // the CpuInfo fields taskSlowness() reads, packed: it runs for every CPU next to a switch,
    // and a CpuInfo is several cache lines
    struct Keys {
        int core = 0, cluster = 0, llc = 0, node = 0;
        // 1024 / capacity: a CPU of half the capacity takes twice as long over the same
        // computation (exactly 1 on a symmetric machine); memory stalls do not shrink with it
        double capacitySlowness = 1.0;
    };
    // what the tasks using a shared resource read of it (effectOf())
    struct Effect {
        double stretch = 1, miss = 0;
    };
    // a marked resource and what its users read of it when it was first marked in the event
    struct MarkedResource {
        size_t r = 0;
        Effect before;
    };

    // a footprint in a cache the machine shares (none is modelled without a cache size)
    bool usesSharedCache(int task) const {
        if (!sharedCaches_ || task < 0) return false;
        const Traits& tr = traits_[static_cast<size_t>(task)];
        return tr.cacheFraction > 0 && tr.cacheMB > 0;
    }
    void markResource(size_t r) {
        if (!resourceMarked_[r]) { resourceMarked_[r] = 1; markedResources_.push_back({r, effectOf(r)}); }
    }
    // what a user's taskSlowness() reads of resource `r`: its bandwidth stretch and the share
    // of footprints it misses (a node has no cache of its own here)
    Effect effectOf(size_t r) {
        if (stretchStale_[r]) refreshStretch(r);
        const size_t n = cpuCount_;
        if (r < n) return {clusterStretch_[r], clusterMiss_[r]};
        if (r < 2 * n) return {llcStretch_[r - n], llcMiss_[r - n]};
        return {nodeStretch_[r - 2 * n], 0.0};
    }
    void refreshStretch(size_t r) {
        stretchStale_[r] = 0;
        const size_t n = cpuCount_;
        const auto& c = s_.contention;
        if (r < n) clusterStretch_[r] = clusterUsers_[r].stretch(c.clusterGBs);
        else if (r < 2 * n) llcStretch_[r - n] = llcUsers_[r - n].stretch(c.llcGBs);
        else nodeStretch_[r - 2 * n] = nodeUsers_[r - 2 * n].stretch(c.nodeGBs);
    }
    [[gnu::always_inline]] static void note(CpuSet& users, int cpu, bool running) {
        if (running) users.set(cpu);
        else users.reset(cpu);
    }
    // the cache part of a task's time: hits, and the share of them its cluster or LLC misses
    // (out of line: most tasks have none, and the re-timing loop inlines taskSlowness())
    double cacheTime(const Traits& tr, const Keys& ci) const;
    // the cluster and LLC of `cpu` as caches whose footprint a switch changes (out of line: only
    // workloads with cache footprints on a machine with cache sizes come here)
    void markCachesOf(int cpu);
    void addCacheFootprint(int cpu, double mb);

    const SimState& s_;
    size_t cpuCount_ = 0, nodeCount_ = 0;
    std::vector<Traits> traits_;
    std::vector<Keys> keys_;
    std::vector<double> smtSlowdownByBusy_;  // smtSlowdownOf() by a core's busy CPUs
    std::vector<double> remote_;  // remote memory stretch, max(1, distance / 10), per (home node, node) pair
    std::vector<char> resourceMarked_;  // markResource(): resources whose demand changed in the event
    std::vector<MarkedResource> markedResources_;
    // the CPUs running a memory-bound task: by the CPU's cluster and LLC (their first CPU) and
    // by the task's home node, whose demand its memory traffic adds to; in a cluster's and an
    // LLC's set also the CPUs whose task has a footprint in their cache. Bitmasks: a switch
    // updates them in O(1) (sorted lists took 3% of a pgbench run in their inserts), and they
    // are walked in ascending order, the order re-timings take their sequence numbers in.
    std::vector<CpuSet> memByCluster_, memByLlc_, memByHome_;
    std::vector<BandwidthUsers> clusterUsers_, llcUsers_, nodeUsers_;
    // BandwidthUsers::stretch() of each, recomputed when read after its users changed
    // (refreshStretch()): re-timings read it
    std::vector<double> clusterStretch_, llcStretch_, nodeStretch_;
    std::vector<char> stretchStale_;       // by markResource()'s index: its users changed since
    std::vector<size_t> staleStretches_;  // those, in the order they went stale
    // footprints of the running cache-sensitive tasks per cluster and LLC, and the share of a
    // footprint that misses there (cacheMissShare()), recomputed when they change
    std::vector<double> clusterCache_, llcCache_, clusterMiss_, llcMiss_;
    bool sharedCaches_ = false;  // the contention model has a cluster or LLC cache size
    std::vector<double> clusterCapacity_, llcCapacity_;  // MB, by cluster and LLC (sharedCachesOf())
};

}  // namespace schedscope::sim
