#pragma once
// The result of building sched domains: for every online CPU, its domains bottom-up after the
// kernel's degenerate pruning, each with span, flags, groups and balance parameters.
#include <string>
#include <vector>

#include "domains/group_ring.h"
#include "domains/profile.h"
#include "topology/topology.h"

namespace schedscope {

struct SchedDomain {
    std::string level;  // "SMT", "CLS", "MC", "DIE"/"PKG", "NODE", "NUMA"
    int topologyLevel = 0;  // index into DomainTree::levels (before pruning)
    int numaLevel = -1;     // index into the distinct NUMA distances, -1 for non-NUMA levels
    int numaDistance = 0;   // the distance this NUMA/NODE level spans
    CpuSet span;
    uint32_t flags = 0;
    GroupRing groups;  // groups[0] contains the CPU itself; the ring is shared across the span
    // sd_init() balance parameters
    unsigned minInterval = 0, maxInterval = 0, busyFactor = 16, imbalancePct = 117, cacheNiceTries = 0;
    unsigned imbNumaNr = 0;  // allowed NUMA imbalance (5.18+), computed as build_sched_domains does
};

// One row of the topology level table (sched_domain_topology_level) that was used.
struct TopologyLevelInfo {
    std::string name;
    bool overlap = false;
    int numaLevel = -1;
    int numaDistance = 0;
};

struct CpuDomains {
    int cpu = -1;
    std::vector<SchedDomain> domains;  // bottom-up; empty when the CPU is offline or alone
    unsigned capacity = 1024;          // arch_scale_cpu_capacity()
};

class DomainTree {
public:
    const KernelProfile* profile = nullptr;
    Arch arch = Arch::X86_64;
    bool clsEnabled = true;
    bool nodeEnabled = true;
    std::vector<TopologyLevelInfo> levels;  // the level table the builder used, bottom-up
    std::vector<CpuDomains> cpus;           // indexed by CPU id
    std::vector<std::string> warnings;      // what the kernel would WARN about (broken topology)
    std::vector<std::string> notes;         // where it builds from other than the input says (x86's SNC distances)
    CpuSet isolated;  // online CPUs left without domains (isolcpus, isolated cpuset partitions)
    // With cpuset root partitions: the CPUs of each root domain, built apart (no domain spans
    // two); empty when all CPUs not isolated are one root domain.
    std::vector<CpuSet> rootDomains;
    CpuSet builtFor;  // the CPUs domains were built for: online, not isolated (all root domains)
    // read from a kernel's sched_verbose log (kernel_log_reader.h): no flags, and only the CPUs
    // the log printed (builtFor and isolated) are known
    bool fromKernelLog = false;
    // A kernel log's format bounds the kernel that printed it (the NODE and CLS levels, DIE or PKG,
    // the root domain line's capacity): the newest profile inside those bounds, "" when the log
    // bounds nothing from above (the newest profile then fits it)
    std::string logProfile;
    // what else a whole dmesg says of its kernel: the release its banner names ("Linux version
    // 6.12.118+deb12-amd64 (...)"), and the arch its build triple or boot lines give away; empty
    // and unset for a log of the domain lines only
    std::string logKernelRelease;
    std::optional<Arch> logArch;

    const std::vector<SchedDomain>& domainsOf(int cpu) const;
    // Index (into domainsOf(a)) of the lowest domain of CPU a whose span holds b; -1 if none.
    int lowestCommonDomain(int a, int b) const;
    // Name of that domain's level ("SMT", "CLS", ...), or "" when a == b or none spans both.
    std::string lowestCommonLevel(int a, int b) const;
    // Distinct level names present after pruning, bottom-up (e.g. SMT, CLS, MC, NUMA).
    std::vector<std::string> levelNames() const;
    int cpuCount() const { return static_cast<int>(cpus.size()); }
};

// sched_domain_debug_one() in spirit: spans nest and contain the CPU, groups are disjoint and
// cover the span (except overlapping NUMA groups, which must cover it), the first group holds
// the CPU, SHARED_CHILD flags are set on children and SHARED_PARENT flags on parents.
// Returns one message per violation; empty when the tree is consistent.
std::vector<std::string> validateDomainTree(const DomainTree& tree);

}  // namespace schedscope
