#include "topology/topology.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <utility>
#include <sys/utsname.h>

namespace schedscope {

const char* archName(Arch a) {
    switch (a) {
    case Arch::X86_64: return "x86_64";
    case Arch::Arm64: return "arm64";
    case Arch::Ppc64: return "ppc64";
    case Arch::S390: return "s390x";
    case Arch::Generic: return "generic";
    }
    return "generic";
}

Result<Arch> parseArch(const std::string& n) {
    if (n == "x86_64" || n == "x86" || n == "amd64") return Arch::X86_64;
    if (n == "arm64" || n == "aarch64") return Arch::Arm64;
    // uname's and hwloc's names for 32- and 64-bit, big- and little-endian powerpc
    if (n == "ppc64" || n == "ppc64le" || n == "ppc" || n == "powerpc" || n == "powerpc64") return Arch::Ppc64;
    if (n == "s390x" || n == "s390") return Arch::S390;
    // riscv, ia64 and the rest build the generic default_topology[] as arm64 does
    if (n == "generic" || n == "riscv64" || n == "riscv" || n == "ia64") return Arch::Generic;
    return Error{"unknown architecture '" + n + "' (expected x86_64, arm64, ppc64, s390x or generic)"};
}

Arch hostArch() {
    utsname u{};
    if (uname(&u) == 0) {
        auto a = parseArch(u.machine);
        if (a) return *a;
    }
    return Arch::X86_64;
}

CpuSet Topology::onlineCpus() const {
    CpuSet s;
    for (const auto& c : cpus)
        if (c.online) s.set(c.id);
    return s;
}

int Topology::onlineCount() const { return onlineCpus().count(); }

int Topology::packageCount() const {
    std::set<int> ids;
    for (const auto& c : cpus)
        if (c.online) ids.insert(c.packageCpus.first());
    return static_cast<int>(ids.size());
}

bool Topology::intelHybrid() const {
    if (arch != Arch::X86_64 || kindNames.size() < 2) return false;
    return std::any_of(kindNames.begin(), kindNames.end(), [](const std::string& k) { return k.rfind("Intel", 0) == 0; });
}

bool Topology::hasSmt() const {
    return std::any_of(cpus.begin(), cpus.end(), [](const CpuTopology& c) { return c.online && c.threadSiblings.count() > 1; });
}

bool Topology::hasNodesInPackage() const {
    for (const auto& c : cpus) {
        if (!c.online) continue;
        bool mixed = false;
        c.packageCpus.forEach([&](int o) {
            if (static_cast<size_t>(o) < cpus.size() && cpus[static_cast<size_t>(o)].online &&
                cpus[static_cast<size_t>(o)].node != c.node)
                mixed = true;
        });
        if (mixed) return true;
    }
    return false;
}

bool Topology::llcHoldsNodes() const {
    return std::any_of(cpus.begin(), cpus.end(), [&](const CpuTopology& c) {
        if (!c.online || c.caches.empty()) return false;
        const CpuSet node = nodeCpus(c.node), llc = llcCpus(c.id);
        return node != llc && node.isSubsetOf(llc);
    });
}

bool Topology::isIntelModel(int family, int model) const {
    return cpuVendor == "GenuineIntel" && cpuFamily == family && cpuModelNumber == model;
}

namespace {

// AMD family 15h (Bulldozer, Piledriver, Steamroller, Excavator): the two cores of a compute unit
// share its front end, FPU and L2, and x86's match_smt() makes them SMT siblings (same cu_id,
// from CPUID 0x8000001e, with TOPOEXT, which every family 15h CPU has): the kernel's
// thread_siblings and SMT domain are the compute unit. hwloc exports them as two cores with
// a shared L2, which would otherwise read as two one-thread cores in a cluster (CLS).
void computeUnitsAreSmtSiblings(Topology& t) {
    for (auto& c : t.cpus) {
        if (!c.online || c.threadSiblings.count() > 1) continue;
        for (const auto& cache : c.caches) {
            if (cache.level != 2 || cache.type == "Instruction") continue;
            const CpuSet unit = cache.shared & c.packageCpus & t.onlineCpus();
            if (unit.count() == 2 && unit.test(c.id)) c.threadSiblings = unit;
        }
    }
}

}  // namespace

void applyCpuIdentity(Topology& t) {
    const bool amd = t.cpuVendor == "AuthenticAMD" || t.cpuVendor == "HygonGenuine";
    if (amd && t.cpuFamily >= 0x17) t.nodeReclaimDistance = 32;
    if (t.cpuVendor == "AuthenticAMD" && t.cpuFamily == 0x15 && t.arch == Arch::X86_64) computeUnitsAreSmtSiblings(t);
}

int Topology::nodeIndex(int nodeId) const {
    if (nodeId >= 0 && static_cast<size_t>(nodeId) < nodes.size() && nodes[static_cast<size_t>(nodeId)].id == nodeId)
        return nodeId;  // the common dense numbering
    for (size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].id == nodeId) return static_cast<int>(i);
    return -1;
}

CpuSet Topology::nodeCpus(int nodeId) const {
    int i = nodeIndex(nodeId);
    return i < 0 ? CpuSet{} : nodes[static_cast<size_t>(i)].cpus;  // loaders keep only online CPUs here
}

int Topology::nodeDistance(int a, int b) const {
    int ia = nodeIndex(a), ib = nodeIndex(b);
    if (ia >= 0 && ib >= 0 && static_cast<size_t>(ia) < distance.size() &&
        static_cast<size_t>(ib) < distance[static_cast<size_t>(ia)].size())
        return distance[static_cast<size_t>(ia)][static_cast<size_t>(ib)];
    return a == b ? 10 : 20;  // LOCAL_DISTANCE / REMOTE_DISTANCE
}

const CacheInfo* Topology::llc(int cpu) const {
    const auto& c = cpus.at(static_cast<size_t>(cpu));
    const CacheInfo* best = nullptr;
    for (const auto& k : c.caches) {
        if (k.type == "Instruction") continue;
        if (!best || k.level > best->level) best = &k;
    }
    return best;
}

CpuSet Topology::llcCpus(int cpu) const {
    const CacheInfo* best = llc(cpu);
    return best ? best->shared : CpuSet::single(cpu);
}

std::string cacheSizeText(long long kb) {
    if (kb % 1024 == 0) return std::to_string(kb / 1024) + " MB";
    if (kb < 10240) return std::to_string(kb) + " KB";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f MB", static_cast<double>(kb) / 1024.0);
    return buf;
}

std::vector<CpuSet> Topology::rootDomainSpans() const {
    const CpuSet housekeeping = onlineCpus().minus(isolated);
    CpuSet top = housekeeping;
    for (const CpuSet& p : rootPartitions) top = top.minus(p);
    std::vector<CpuSet> spans;
    if (!top.empty() || rootPartitions.empty()) spans.push_back(top);
    for (const CpuSet& p : rootPartitions)
        if (CpuSet s = p & housekeeping; !s.empty()) spans.push_back(s);
    if (spans.empty()) spans.push_back(top);  // every CPU isolated: one root domain of none
    return spans;
}

Status Topology::check(const std::string& what) const {
    const std::string where = !what.empty() ? what : name.empty() ? std::string("topology") : name;
    if (onlineCount() == 0) return Error{where + ": no online CPU"};
    for (const auto& c : cpus) {
        if (!c.online) continue;
        auto has = [&](const CpuSet& s, const char* what) -> Status {
            if (!s.test(c.id))
                return Error{where + ": cpu" + std::to_string(c.id) + " " + what + " (" + s.toList() +
                             ") does not contain the CPU itself"};
            return {};
        };
        for (auto [s, what] : {std::pair{&c.threadSiblings, "thread_siblings"}, {&c.clusterCpus, "cluster_cpus"},
                               {&c.coreSiblings, "core_siblings"}, {&c.packageCpus, "package_cpus"}}) {
            if (auto st = has(*s, what); !st) return st;
        }
        if (!c.threadSiblings.isSubsetOf(c.packageCpus))
            return Error{where + ": cpu" + std::to_string(c.id) + " SMT siblings span beyond its package"};
        const int node = nodeIndex(c.node);
        if (node < 0)
            return Error{where + ": cpu" + std::to_string(c.id) + " is on NUMA node " + std::to_string(c.node) +
                         " which does not exist"};
        // the NODE and NUMA levels take a CPU's span from its node's CPU list: a CPU missing
        // from its own node would get a domain that does not hold the CPU itself
        if (const CpuSet& nodeCpus = nodes[static_cast<size_t>(node)].cpus; !nodeCpus.test(c.id))
            return Error{where + ": cpu" + std::to_string(c.id) + " is on NUMA node " + std::to_string(c.node) +
                         " whose CPU list (" + nodeCpus.toList() + ") does not contain it"};
    }
    CpuSet partitioned;
    for (const CpuSet& p : rootPartitions) {
        if (p.intersects(partitioned))
            return Error{where + ": cpuset partition " + p.toList() + " overlaps another partition"};
        if (!p.isSubsetOf(onlineCpus()))
            return Error{where + ": cpuset partition " + p.toList() + " holds CPUs that are not online (" +
                         p.minus(onlineCpus()).toList() + ")"};
        partitioned |= p;
    }
    // Past the kernel's node limit the NUMA levels alone would be a group per node for every
    // CPU: 1144 one-CPU nodes took 1.7 s and 190 MB to build, for a machine that cannot boot.
    if (nodes.size() > static_cast<size_t>(kMaxNumaNodes))
        return Error{where + ": " + std::to_string(nodes.size()) + " NUMA nodes, more than the kernel's " +
                     std::to_string(kMaxNumaNodes) + " (MAX_NUMNODES)"};
    CpuSet seen;
    for (const auto& n : nodes) {
        if (n.id < 0 || n.id >= kMaxNumaNodes)
            return Error{where + ": NUMA node " + std::to_string(n.id) + " is outside the kernel's node ids 0.." +
                         std::to_string(kMaxNumaNodes - 1)};
        if (seen.intersects(n.cpus)) return Error{where + ": NUMA node " + std::to_string(n.id) + " overlaps another node"};
        seen |= n.cpus;
    }
    if (distance.size() != nodes.size())
        return Error{where + ": distance matrix has " + std::to_string(distance.size()) + " rows for " +
                     std::to_string(nodes.size()) + " NUMA nodes"};
    for (size_t i = 0; i < distance.size(); ++i) {
        if (distance[i].size() != nodes.size())
            return Error{where + ": distance matrix row " + std::to_string(i) + " has the wrong length"};
        for (size_t j = 0; j < distance.size(); ++j) {
            int d = distance[i][j];
            if (d < 10 || d > 255)
                return Error{where + ": NUMA distance " + std::to_string(d) + " between nodes " +
                             std::to_string(nodes[i].id) + " and " + std::to_string(nodes[j].id) +
                             " is outside the valid range 10..255"};
            if (i != j && d <= distance[i][i])
                return Error{where + ": NUMA distance between different nodes " + std::to_string(nodes[i].id) +
                             " and " + std::to_string(nodes[j].id) + " is not larger than the local distance"};
        }
    }
    return {};
}

int adoptNodelessCpus(Topology& t, const CpuSet& cpus, const std::string& input) {
    if (t.nodes.empty()) {
        t.nodes.push_back({0, cpus});
        return 0;
    }
    auto first = std::find_if(t.nodes.begin(), t.nodes.end(), [](const NumaNode& n) { return !n.cpus.empty(); });
    if (first == t.nodes.end()) first = t.nodes.begin();
    first->cpus |= cpus;
    t.warnings.push_back("CPUs " + cpus.toList() + " are on no NUMA node in the " + input + ": put on node " +
                         std::to_string(first->id) + ", the first, as the kernel does for a CPU whose node is offline");
    return first->id;
}

void ignoreInvalidSlit(Topology& t) {
    const size_t n = t.distance.size();
    if (n != t.nodes.size()) return;  // not a table check() can read either: it says so
    for (const auto& row : t.distance)
        if (row.size() != n) return;
    const std::string invalid = firstInvalidSlitEntry(t, t.distance);
    if (invalid.empty()) return;
    t.warnings.push_back("NUMA " + invalid + ": the kernel ignores the table, distances 10 local and 20 remote used");
    for (size_t x = 0; x < n; ++x)
        for (size_t y = 0; y < n; ++y) t.distance[x][y] = x == y ? 10 : 20;
}

std::string firstInvalidSlitEntry(const Topology& t, const std::vector<std::vector<int>>& table) {
    for (size_t i = 0; i < table.size(); ++i)
        for (size_t j = 0; j < table[i].size(); ++j) {
            const int d = table[i][j];
            if (i == j ? d == 10 : d > 10 && d <= 255) continue;
            return "distance " + std::to_string(d) + " from node " + std::to_string(t.nodes[i].id) + " to node " +
                   std::to_string(t.nodes[j].id) +
                   (i == j ? " is not a valid SLIT entry (local must be 10)" : " is not a valid SLIT entry (remote must be 11..255)");
        }
    return {};
}

}  // namespace schedscope
