#pragma once
// The contention model: how placement turns into speed. A task spends a share `memFraction` of
// its uncontended time on memory traffic and draws `bandwidthGBs` when alone. The running tasks
// of a cluster (shared bus / L3 tag on Kunpeng 920), of an LLC and of a NUMA node (its memory
// controllers) share each resource's capacity; a resource with demand D and capacity C stretches
// memory time by (1 + (D/C)^2)^(1/2), a smooth knee rather than a hard cap. The largest stretch
// counts fully and the others by `secondaryWeight`, so a saturated node hides most of a cluster
// penalty (the seed's 12-thread stream case). SMT siblings that both run slow each other's CPU
// part by `smtSlowdown`. Remote memory (task's home node != its node) stretches memory time by
// distance/10; the home is where the task first ran, until NUMA balancing moves it to the node
// the task has stayed on for a scan period (SimOptions::numaMemoryFollowsS), and NUMA balancing
// takes a task back to it when it can (numa_balancing.h). A task whose hits
// in a shared cache (`cacheFraction` of its time, `cacheMB` of footprint) no longer fit,
// because the running tasks of its cluster or LLC need more than the cache holds, spends the
// missed share of that time `cacheMissCost` times as long: the L3-tag and L2 sharing that makes
// packed cache-hungry tasks (seed 002's pbzip2, seed 000's mcf_r) slower where bandwidth alone
// would not.
#include <string>
#include <vector>

#include "topology/topology.h"

namespace schedscope::sim {

struct ContentionParams {
    double clusterGBs = 0;   // per cluster; 0 = not a bottleneck
    double llcGBs = 0;       // per LLC; 0 = not a bottleneck
    double nodeGBs = 40;     // per NUMA node (its memory controllers)
    double secondaryWeight = 0.3;
    double smtSlowdown = 1.6;  // each of 2 busy siblings: core throughput 2/1.6 = 1.25x (smtSlowdownOf())
    // shared cache per cluster and per LLC that the running tasks' footprints divide (0 = not
    // modelled): the machine's largest, or for the calibrated machines their size when the
    // source gave none (sharedCachesOf() has each CPU's); and how much slower a miss served by
    // memory is than a hit there
    double clusterCacheMB = 0;
    double llcCacheMB = 0;
    double cacheMissCost = 3.0;
    // A wakee's hand-off (TaskSpec::handoffKB) in ns per KB by where its waker ran: another core
    // of its cluster (a shared L2 or L3 tag), another cluster of its LLC, another LLC of its
    // node; from another node the last scaled by distance / 10. Typical core-to-core line
    // latencies of ~30, ~60 and ~120 ns (same cluster, same LLC, across LLCs), 16 lines a KB
    // with 4 in flight. On one core (SMT siblings, or the waker's own CPU) the data is in its
    // L1/L2: no cost.
    double handoffClusterNsPerKB = 120;
    double handoffLlcNsPerKB = 240;
    double handoffCrossLlcNsPerKB = 480;
    std::string origin;        // where the numbers come from, printed in the JSON config
};

// Parameters for a topology: calibrated values for the known machines (Kunpeng 920: arm64,
// 4-core clusters, an LLC per node; AMD EPYC 7601: 2 CCX L3s per node), a server CPU's memory
// channels where its platform is known (socket_bandwidth.h), generic ones otherwise.
ContentionParams contentionParamsFor(const Topology& topology);

// Each CPU's cluster cache and LLC in MB, by CPU id (0: none modelled): a hybrid CPU's Atom
// modules share an L2 where its P-cores have none to share, and the sizes the source gave win
// over the calibrated ones in `p`.
struct SharedCaches {
    std::vector<double> clusterMB, llcMB;
};
SharedCaches sharedCachesOf(const Topology& topology, const ContentionParams& p);

// One line for people: the bandwidths, the shared caches, the hand-off's ns/KB within a cluster,
// within an LLC and across LLCs, and where the numbers come from ("node 56 GB/s, cluster
// 46 GB/s; caches: cluster 4 MB, LLC 24 MB; SMT x1.6; hand-off 120/240/480 ns/KB (Kunpeng 920 ...)").
std::string describeContention(const ContentionParams& p);

// How much slower each of `busyThreads` busy SMT siblings of one core runs its CPU part than one
// thread alone. Together they do k^a of one thread's work, a = log2(2 / smtSlowdown): 1.25x for
// 2 (smtSlowdown 1.6 exactly), 1.56x for 4 and 1.95x for 8, as POWER7/8 cores give about
// 1.5-2x in SMT4 and SMT8 mode. (Applying 1.6 to each of k threads made SMT8 do 5x.)
double smtSlowdownOf(const ContentionParams& p, int busyThreads);

// Memory-time stretch of a resource with total demand `demand` and capacity `capacity`.
double resourceStretch(double demand, double capacity);

// The memory-bound tasks running on one bandwidth resource (a cluster, an LLC, a node's memory),
// by their memory share and bandwidth alone, and the stretch of their memory time. The knee of
// resourceStretch() alone lets tasks that also compute draw more than the resource has: a task
// with 90% of its time on memory, slowed by s there, still draws its bandwidth / (0.1 + 0.9 s),
// so 24 stream threads on a 56 GB/s node drew 58 GB/s. Where the knee would let the users draw
// more than the capacity, their memory time stretches further, until they draw exactly it.
class BandwidthUsers {
public:
    // a running task that spends `memFraction` (> 0) of its time on memory and draws `gbs` alone
    // starts (+1) or stops (-1) using the resource
    void add(double memFraction, double gbs, int sign);
    // what the users would draw at full speed, GB/s
    double demand() const;
    // the stretch of the users' memory time on a resource of `capacity` GB/s (1 for none)
    double stretch(double capacity) const;
    // what the users draw when their memory time stretches by `stretch`, GB/s
    double drawn(double stretch) const;

private:
    struct Share {
        double memFraction = 0, gbs = 0;
        int tasks = 0;
    };
    std::vector<Share> shares_;  // by (memFraction, gbs): a workload has one or a few
};

// The share of a footprint that misses a cache of `capacityMB` shared by running tasks whose
// footprints add up to `demandMB`: each holds the share of the cache its footprint is of the
// total, so nothing misses while the total fits, and 1 - capacity/demand once it does not.
double cacheMissShare(double demandMB, double capacityMB);

}  // namespace schedscope::sim
