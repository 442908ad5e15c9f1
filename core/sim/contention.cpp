#include "sim/contention.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sim/socket_bandwidth.h"

namespace schedscope::sim {

double resourceStretch(double demand, double capacity) {
    if (capacity <= 0 || demand <= 0) return 1.0;
    const double r = demand / capacity;
    return std::sqrt(1.0 + r * r);
}

void BandwidthUsers::add(double memFraction, double gbs, int sign) {
    auto it = std::find_if(shares_.begin(), shares_.end(),
                           [&](const Share& s) { return s.memFraction == memFraction && s.gbs == gbs; });
    if (it == shares_.end()) it = shares_.insert(shares_.end(), Share{memFraction, gbs, 0});
    it->tasks += sign;
    if (it->tasks <= 0) shares_.erase(it);  // counts, not sums: an empty resource is exactly empty
}

double BandwidthUsers::demand() const {
    double d = 0;
    for (const Share& s : shares_) d += s.gbs * s.tasks;
    return d;
}

double BandwidthUsers::drawn(double stretch) const {
    double d = 0;
    for (const Share& s : shares_) d += s.gbs * s.tasks / (1.0 + s.memFraction * (stretch - 1.0));
    return d;
}

double BandwidthUsers::stretch(double capacity) const {
    const double demand = this->demand();
    const double knee = resourceStretch(demand, capacity);
    if (capacity <= 0 || drawn(knee) <= capacity) return knee;
    if (shares_.size() == 1) return 1.0 + (demand / capacity - 1.0) / shares_.front().memFraction;
    // drawn() falls and is convex in the stretch: Newton's steps from below the answer (the
    // knee) rise towards it without passing it
    double s = knee;
    for (int i = 0; i < 64; ++i) {
        double f = -capacity, slope = 0;
        for (const Share& sh : shares_) {
            const double x = 1.0 + sh.memFraction * (s - 1.0);
            f += sh.gbs * sh.tasks / x;
            slope -= sh.gbs * sh.tasks * sh.memFraction / (x * x);
        }
        const double next = s - f / slope;
        if (!(next > s * (1.0 + 1e-12))) return std::max(s, next);
        s = next;
    }
    return s;
}

double smtSlowdownOf(const ContentionParams& p, int busyThreads) {
    if (busyThreads <= 1) return 1.0;
    if (busyThreads == 2) return p.smtSlowdown;
    const double a = std::log2(2.0 / p.smtSlowdown);
    return std::pow(static_cast<double>(busyThreads), 1.0 - a);
}

double cacheMissShare(double demandMB, double capacityMB) {
    if (capacityMB <= 0 || demandMB <= capacityMB) return 0.0;
    return 1.0 - capacityMB / demandMB;
}

namespace {
bool hasCluster(const Topology& t, const CpuTopology& c) {
    const int cluster = c.clusterCpus.count();
    return cluster > c.threadSiblings.count() && cluster < t.llcCpus(c.id).count();
}

// a CPU's LLC size in MB; 0 when the source gave none
double llcSizeMB(const Topology& t, const CpuTopology& c) {
    const CacheInfo* llc = t.llc(c.id);
    return llc ? static_cast<double>(llc->sizeKB) / 1024.0 : 0.0;
}

// The cache a CPU's cluster shares and other clusters of its LLC do not: a cache of exactly the
// cluster's CPUs (x86's L2 of a 4-core Atom module, arm64 clusters with an L2), or else the
// cluster's part of the LLC (Kunpeng 920: one L3, each cluster holding the tags of its share).
// 0 when the CPU's cluster is its core or its LLC, or the source gave no sizes.
double clusterSizeMB(const Topology& t, const CpuTopology& c) {
    if (!hasCluster(t, c)) return 0;
    for (const auto& k : c.caches)
        if (k.type != "Instruction" && k.shared == c.clusterCpus && k.sizeKB > 0) return static_cast<double>(k.sizeKB) / 1024.0;
    return llcSizeMB(t, c) * c.clusterCpus.count() / t.llcCpus(c.id).count();
}
}  // namespace

std::string describeContention(const ContentionParams& p) {
    auto num = [](double v, const char* unit) {
        char buf[48];
        std::snprintf(buf, sizeof buf, "%g %s", v, unit);
        return std::string(buf);
    };
    std::string out = "node " + num(p.nodeGBs, "GB/s");
    if (p.llcGBs > 0) out += ", LLC " + num(p.llcGBs, "GB/s");
    if (p.clusterGBs > 0) out += ", cluster " + num(p.clusterGBs, "GB/s");
    if (p.clusterCacheMB > 0 && p.llcCacheMB > 0) out += "; caches: cluster " + num(p.clusterCacheMB, "MB") + ", LLC " + num(p.llcCacheMB, "MB");
    else if (p.clusterCacheMB > 0) out += "; caches: cluster " + num(p.clusterCacheMB, "MB");
    else if (p.llcCacheMB > 0) out += "; caches: LLC " + num(p.llcCacheMB, "MB");
    else out += "; no shared cache modelled (no cache sizes)";
    char tail[128];
    std::snprintf(tail, sizeof tail, "; SMT x%g; hand-off %g/%g/%g ns/KB", p.smtSlowdown, p.handoffClusterNsPerKB,
                  p.handoffLlcNsPerKB, p.handoffCrossLlcNsPerKB);
    return out + tail + " (" + p.origin + ")";
}

SharedCaches sharedCachesOf(const Topology& t, const ContentionParams& p) {
    SharedCaches out;
    out.clusterMB.assign(t.cpus.size(), 0.0);
    out.llcMB.assign(t.cpus.size(), 0.0);
    for (const auto& c : t.cpus) {
        if (!c.online) continue;
        const size_t i = static_cast<size_t>(c.id);
        const double cluster = clusterSizeMB(t, c), llc = llcSizeMB(t, c);
        // a size the source did not give: the calibrated machines' own (0 elsewhere)
        out.clusterMB[i] = cluster > 0 ? cluster : hasCluster(t, c) ? p.clusterCacheMB : 0.0;
        out.llcMB[i] = llc > 0 ? llc : p.llcCacheMB;
    }
    return out;
}

ContentionParams contentionParamsFor(const Topology& t) {
    ContentionParams p;
    const int cpus = t.onlineCount();
    int clusterSize = 1, llcSize = 1, nodeSize = 1;
    if (cpus > 0) {
        const auto& c0 = t.cpus.front();
        clusterSize = std::max(1, c0.clusterCpus.count());
        llcSize = std::max(1, t.llcCpus(c0.id).count());
        nodeSize = std::max(1, t.nodeCpus(c0.node).count());
    }
    const bool smt = cpus > 0 && t.cpus.front().threadSiblings.count() > 1;
    // the largest of the sizes the source gave (sharedCachesOf() without calibrated fallbacks)
    const SharedCaches given = sharedCachesOf(t, ContentionParams{});
    for (double mb : given.llcMB) p.llcCacheMB = std::max(p.llcCacheMB, mb);
    for (double mb : given.clusterMB) p.clusterCacheMB = std::max(p.clusterCacheMB, mb);
    if (t.arch == Arch::Arm64 && clusterSize == 4 && !smt && llcSize == nodeSize) {
        // Kunpeng 920 (seed 002): fitted so that stream (11 GB/s per thread alone, 90% memory
        // time) gives ~30 GB/s with 4 threads in one cluster and +13% spread over 4 clusters,
        // +4.5% at 6 and +3% at 12 threads: the measured copy/triad gains were +10..20%,
        // +5..12% and +2..3%. A node's four DDR4-2933 channels make ~94 GB/s raw, ~55 measured.
        p.clusterGBs = 46;
        p.nodeGBs = 56;
        // its L3 is 1 MB per core, each cluster with the tags of its own part (seed 000)
        if (p.clusterCacheMB <= 0) p.clusterCacheMB = clusterSize;
        p.origin = "Kunpeng 920 fit to seed 002 stream (4/6/12 threads on one 24-core node); "
                   "a cluster caches its share of the L3";
        return p;
    }
    // Naples' shape: a node of two CCXs, each an L3 of at most 4 cores. A large LLC that is half
    // a node is another machine: a 2-socket Xeon whose source shows one node (hwloc's
    // CPUID-only exports) would otherwise be given a Naples node's 30 GB/s for 72 CPUs.
    // (An Intel CPU is never Naples: a Xeon Phi in SNC mode has the shape.)
    const bool amdOrUnknown = t.cpuVendor.empty() || t.cpuVendor == "AuthenticAMD" || t.cpuVendor == "HygonGenuine";
    if (t.arch == Arch::X86_64 && amdOrUnknown && smt && llcSize <= 8 && llcSize * 2 == nodeSize) {
        // EPYC 7601 Naples: 2 DDR4-2666 channels per node (42.7 GB/s raw, ~30 GB/s stream),
        // an 8 MB L3 per 4-core CCX. Only the node is a bandwidth bottleneck.
        p.nodeGBs = 30;
        p.llcGBs = 0;
        if (p.llcCacheMB <= 0) p.llcCacheMB = 8;  // a CCX's L3
        p.origin = "EPYC 7601: 2 DDR4 channels per node (~30 GB/s stream per node)";
        return p;
    }
    // a server CPU whose memory channels are known: its socket's STREAM share of their peak,
    // divided among the socket's nodes
    if (const auto memory = socketMemoryOf(t)) {
        const double sockets = socketsPerNode(t);
        p.nodeGBs = std::round(memory->streamGBs() * sockets * 10) / 10;  // to 0.1 GB/s
        char origin[256];
        std::snprintf(origin, sizeof origin,
                      "%s: %d x %s per socket, %.0f GB/s peak, %.0f%% of it as STREAM draws, %.3g socket(s) a node; "
                      "no cluster/LLC bandwidth bottleneck; cache sizes from the topology",
                      memory->platform.c_str(), memory->channels, memory->memory.c_str(), memory->peakGBs(),
                      100 * kStreamShareOfPeak, sockets);
        p.origin = origin;
        return p;
    }
    p.nodeGBs = 10.0 * std::max(2, nodeSize / 4);
    p.origin = "generic: ~10 GB/s of node bandwidth per 4 CPUs, no cluster/LLC bandwidth bottleneck; "
               "cache sizes from the topology";
    return p;
}

}  // namespace schedscope::sim
