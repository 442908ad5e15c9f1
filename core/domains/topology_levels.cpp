#include "domains/topology_levels.h"

#include <algorithm>
#include <memory>
#include <set>

#include "domains/sched_node_distance.h"
#include "domains/sd_flags.h"

namespace schedscope {
namespace {

uint32_t smtFlags() { return SD_SHARE_CPUCAPACITY | SD_SHARE_LLC; }  // cpu_smt_flags()
uint32_t coreFlags() { return SD_SHARE_LLC; }                          // cpu_core_flags()
uint32_t clusterFlags(const KernelProfile& p) {                        // cpu_cluster_flags()
    return p.clusterFlag ? (SD_CLUSTER | SD_SHARE_LLC) : SD_SHARE_LLC;
}

const CpuTopology& cpuAt(const Topology& t, int cpu) { return t.cpus.at(static_cast<size_t>(cpu)); }

// The last arch level on every arch: tl_pkg_mask(), cpu_node_mask(), the CPU's NUMA node (named
// DIE before 6.7), with the arch's flags.
TopologyLevel pkgLevel(const Topology& t, const KernelProfile& p, uint32_t flags) {
    return {p.pkgLevelName, [&t](int cpu) { return t.nodeCpus(cpuAt(t, cpu).node); }, flags};
}

// mirrors cpu_coregroup_mask() in drivers/base/arch_topology.c (arm64, riscv): the smallest of
// the node, the package and the LLC, widened to the cluster when the cluster is larger.
CpuSet genericCoregroupMask(const Topology& t, int cpu, bool schedCluster) {
    const CpuTopology& c = cpuAt(t, cpu);
    CpuSet coreMask = t.nodeCpus(c.node);
    if (c.coreSiblings.isSubsetOf(coreMask)) coreMask = c.coreSiblings;  // not NUMA in package
    // last_level_cache_is_valid(): the last cache leaf the firmware described
    if (!c.caches.empty()) {
        const CpuSet& llc = c.caches.back().shared;
        if (llc.isSubsetOf(coreMask)) coreMask = llc;
    }
    // No shared cpu-side LLC but clusters: extend to the cluster; CLS then makes MC redundant.
    if (schedCluster && coreMask.isSubsetOf(c.clusterCpus)) coreMask = c.clusterCpus;
    return coreMask;
}

// mirrors x86_sched_itmt_flags(): SD_ASYM_PACKING while ITMT is on. A machine's sysfs says so
// (its sched_itmt_enabled); otherwise an Intel hybrid CPU has it, as intel_pstate turns it on for
// one, except that since 6.12 one without SMT is balanced by capacity instead (see below).
uint32_t x86ItmtFlags(const Topology& t, const KernelProfile& p) {
    const bool on = t.itmtEnabled ? *t.itmtEnabled : t.intelHybrid() && !(p.hybridCapacityWithoutSmt && !t.hasSmt());
    return on ? static_cast<uint32_t>(SD_ASYM_PACKING) : 0u;
}

bool hasCapacities(const Topology& t) {
    return std::any_of(t.cpus.begin(), t.cpus.end(), [](const CpuTopology& c) { return c.online && c.capacity != 1024; });
}

// x86's sibling masks never cross a node: set_cpu_sibling_map() links two CPUs only when
// match_smt()/match_l2c()/match_llc() hold, and those end in topology_sane(), false for CPUs on
// different nodes (with a WARN, except Intel's sub-NUMA clustering, which match_llc() expects).
// A sysfs snapshot's thread_siblings and cluster_cpus are those masks already; the LLC comes
// from cacheinfo, which does not cut it: a Xeon with SNC shows its L3 across both of a
// package's nodes, while the kernel's MC stops at the node.
CpuSet x86SiblingMask(const Topology& t, int cpu, const CpuSet& shared) { return shared & t.nodeCpus(cpuAt(t, cpu).node); }

// The sharers of a CPU's data or unified cache of `level`, empty when sysfs lists none.
CpuSet cacheSharers(const CpuTopology& c, int level) {
    for (const auto& ci : c.caches)
        if (ci.level == level && ci.type != "Instruction") return ci.shared;
    return {};
}

// cpu_llc_shared_mask(): the CPUs of the CPU's llc_id, which x86 always sets. It is the last
// cache level CPUID describes (leaf 4, or 0x8000001d on AMD), which sysfs cacheinfo lists too;
// without one, the package: init_intel_cacheinfo() ("cpuid2 doesn't specify shared caches ...
// set cpu_llc_id to c->phys_proc_id"; intel_cacheinfo_done() since 6.16), and on AMD
// amd_detect_cmp() ("use socket ID also for last level cache"; legacy_set_llc() since 6.9),
// which cacheinfo_amd_init_llc_id() keeps for a CPU without an L3. So an input that lists no
// cache (a VM without cache leaves, a synthetic topology) and a pre-Zen AMD without an L3
// (a K8 Opteron, private L2s only) share the LLC domain across the package.
CpuSet x86LlcMask(const Topology& t, int cpu) {
    const CpuTopology& c = cpuAt(t, cpu);
    const bool amd = t.cpuVendor == "AuthenticAMD" || t.cpuVendor == "HygonGenuine";
    if (c.caches.empty() || (amd && cacheSharers(c, 3).empty())) return c.coreSiblings;
    return t.llcCpus(cpu);
}

// arch/x86/kernel/smpboot.c: SMT = the siblings, CLS = cpu_l2c_shared_mask (sysfs cluster_cpus),
// MC = cpu_llc_shared_mask, DIE/PKG = cpu_cpu_mask (the node); x86_{smt,cluster,core,die}_flags().
void addX86Levels(const Topology& t, const DomainBuildOptions& o, const KernelProfile& p, bool cluster,
                  std::vector<TopologyLevel>& tl, std::vector<std::string>& warnings) {
    const uint32_t itmt = x86ItmtFlags(t, p);
    if (o.config.schedSmt)
        tl.push_back({"SMT", [&t](int cpu) { return x86SiblingMask(t, cpu, cpuAt(t, cpu).threadSiblings); },
                      smtFlags() | (p.asymPackingOnSmt ? itmt : 0)});
    // 5.16-6.5 left the cluster out on hybrid CPUs: single tasks landed on E-core clusters
    if (cluster && (p.clusterOnIntelHybrid || !t.intelHybrid()))
        tl.push_back({"CLS", [&t](int cpu) { return x86SiblingMask(t, cpu, cpuAt(t, cpu).clusterCpus); },
                      clusterFlags(p) | itmt});
    if (o.config.schedMc)
        tl.push_back({"MC", [&t](int cpu) { return x86SiblingMask(t, cpu, x86LlcMask(t, cpu)); }, coreFlags() | itmt});
    // with NUMA inside the package the NUMA levels build the spanning domains from the SLIT
    // (build_sched_topology() drops PKG)
    if (p.pkgByNodesPerPackage ? nodesPerPackage(t) <= 1 : !t.hasNodesInPackage())
        tl.push_back(pkgLevel(t, p, p.asymPackingOnPkg || (t.intelHybrid() && p.asymPackingOnHybridPkg) ? itmt : 0));
    if (t.intelHybrid() && p.hybridCapacityWithoutSmt && !t.hasSmt() && !t.itmtEnabled && !hasCapacities(t))
        warnings.push_back("Intel hybrid CPUs without SMT: since 6.12 the kernel balances them by capacity "
                           "(SD_ASYM_CPUCAPACITY from intel_pstate's HWP performance levels), which this topology "
                           "does not carry; built without");
}

// The SMT mask powerpc builds on: on "big core" POWER9 (SMT8 cores made of two SMT4 thread
// groups, each with its own L1) the kernel schedules small cores (cpu_smallcore_mask(), the
// L1's sharers, fewer than the thread siblings); otherwise the thread siblings.
CpuSet powerpcSmtMask(const CpuTopology& c) {
    CpuSet l1 = cacheSharers(c, 1) & c.threadSiblings;
    if (l1.count() > 1 && l1.test(c.id) && l1 != c.threadSiblings) return l1;
    return c.threadSiblings;
}

// CPU_FTR_ASYM_SMT (arch/powerpc/include/asm/cputable.h): only POWER7 (and POWER7+) run a
// core's lower threads faster when the others idle, so their SMT level packs.
bool powerpcAsymSmt(const Topology& t) { return t.cpuModel.rfind("POWER7", 0) == 0; }

// arch/powerpc/kernel/smp.c build_sched_topology() (the same levels since 4.13's POWER9 CACHE
// level and 5.1's big-core detection): SMT with powerpc_smt_flags(); CACHE, the L2's sharers,
// when some CPU's L2 reaches beyond its SMT mask (shared_caches), and it is the LLC the wakeup
// path scans (SD_SHARE_LLC), not the L3; MC, the coregroup of POWER10 dedicated LPARs, comes
// from firmware associativity no sysfs file exports, and is not built; PKG is the node with no
// flags (SD_ASYM_PACKING only in shared-processor LPARs). powerpc has no SCHED_CLUSTER: no CLS.
void addPowerpcLevels(const Topology& t, const DomainBuildOptions& o, const KernelProfile& p,
                      std::vector<TopologyLevel>& tl) {
    if (o.config.schedSmt)
        tl.push_back({"SMT", [&t](int cpu) { return powerpcSmtMask(cpuAt(t, cpu)); },
                      smtFlags() | (powerpcAsymSmt(t) ? static_cast<uint32_t>(SD_ASYM_PACKING) : 0u)});
    const bool sharedCaches = std::any_of(t.cpus.begin(), t.cpus.end(), [](const CpuTopology& c) {
        return c.online && cacheSharers(c, 2).count() > powerpcSmtMask(c).count();
    });
    if (sharedCaches)
        tl.push_back({"CACHE",
                      [&t](int cpu) {
                          const CpuTopology& c = cpuAt(t, cpu);
                          const CpuSet l2 = cacheSharers(c, 2);
                          return l2.empty() ? powerpcSmtMask(c) : l2;
                      },
                      coreFlags()});
    tl.push_back(pkgLevel(t, p, 0));
}

// arch/s390/kernel/topology.c s390_topology[]: SMT, MC = the socket (cpu_coregroup_mask() is
// its core_mask), BOOK and DRAWER from the machine's topology tables, then PKG = the node. Only
// SMT and MC carry flags (cpu_smt_flags(), cpu_core_flags()); s390 has no SCHED_CLUSTER.
void addS390Levels(const Topology& t, const DomainBuildOptions& o, const KernelProfile& p,
                   std::vector<TopologyLevel>& tl) {
    if (o.config.schedSmt) tl.push_back({"SMT", [&t](int cpu) { return cpuAt(t, cpu).threadSiblings; }, smtFlags()});
    if (o.config.schedMc) tl.push_back({"MC", [&t](int cpu) { return cpuAt(t, cpu).coreSiblings; }, coreFlags()});
    // a source without book or drawer masks (hwloc made no group): each is the level below, and
    // degenerates
    auto book = [&t](int cpu) {
        const CpuTopology& c = cpuAt(t, cpu);
        return c.bookCpus.empty() ? c.coreSiblings : c.bookCpus;
    };
    tl.push_back({"BOOK", book, 0});
    tl.push_back({"DRAWER", [&t, book](int cpu) {
                      const CpuTopology& c = cpuAt(t, cpu);
                      return c.drawerCpus.empty() ? book(cpu) : c.drawerCpus;
                  }, 0});
    tl.push_back(pkgLevel(t, p, 0));
}

void addArchLevels(const Topology& t, const DomainBuildOptions& o, const KernelProfile& p,
                   std::vector<TopologyLevel>& tl, std::vector<std::string>& warnings) {
    const bool cluster = buildsClusterLevel(o, p);
    if (o.arch == Arch::X86_64) {
        addX86Levels(t, o, p, cluster, tl, warnings);
        return;
    }
    if (o.arch == Arch::Ppc64) {
        addPowerpcLevels(t, o, p, tl);
        return;
    }
    if (o.arch == Arch::S390) {
        addS390Levels(t, o, p, tl);
        return;
    }
    if (o.config.schedSmt)
        tl.push_back({"SMT", [&t](int cpu) { return cpuAt(t, cpu).threadSiblings; }, smtFlags()});
    // default_topology[] in kernel/sched/topology.c with the generic arch_topology masks.
    if (cluster) {
        // cpu_clustergroup_mask(): never as wide as the coregroup; then it is just the core.
        tl.push_back({"CLS",
                      [&t](int cpu) {
                          const CpuTopology& c = cpuAt(t, cpu);
                          if (genericCoregroupMask(t, cpu, true).isSubsetOf(c.clusterCpus)) return c.threadSiblings;
                          return c.clusterCpus;
                      },
                      clusterFlags(p)});
    }
    if (o.config.schedMc)
        tl.push_back({"MC", [&t, cluster](int cpu) { return genericCoregroupMask(t, cpu, cluster); }, coreFlags()});
    tl.push_back(pkgLevel(t, p, 0));
}

// mirrors sched_init_numa(): one level per distinct distance between CPU-bearing nodes.
void addNumaLevels(const Topology& t, const DomainBuildOptions& o, const KernelProfile& p,
                   std::vector<TopologyLevel>& tl, std::vector<std::string>& warnings, std::vector<std::string>& notes) {
    if (!o.config.numa) return;
    std::vector<int> cpuNodes;  // for_each_cpu_node_but(): nodes with CPUs
    for (const auto& n : t.nodes)
        if (!t.nodeCpus(n.id).empty()) cpuNodes.push_back(n.id);
    if (cpuNodes.empty()) return;

    // the SLIT must be valid (sched_record_numa_dist() on node_distance()); the levels come from
    // the arch's view of it (on arch_sched_node_distance())
    const std::vector<std::vector<int>> sched = schedNodeDistances(t, p, warnings, notes);
    auto schedDistance = [&](int a, int b) {
        return sched[static_cast<size_t>(t.nodeIndex(a))][static_cast<size_t>(t.nodeIndex(b))];
    };
    std::set<int> distinct;
    for (int i : cpuNodes) {
        for (int j : cpuNodes) {
            int d = t.nodeDistance(i, j);
            if (d < 10 || d >= 256) {
                warnings.push_back("Invalid distance value range " + std::to_string(d) + " between nodes " +
                                   std::to_string(i) + " and " + std::to_string(j) + ": no NUMA levels built");
                return;
            }
            if (schedDistance(i, j) != schedDistance(j, i))
                warnings.push_back("Node-distance not symmetric between nodes " + std::to_string(i) + " and " +
                                   std::to_string(j));
            distinct.insert(schedDistance(i, j));
        }
    }
    // The distances the levels come from. Before 5.18 the memory-only nodes' count as well
    // (they add no CPUs, so their levels degenerate, but they can hide a row's own distance
    // behind a larger one); before 5.12 only node 0's row is read ("Node-0 not representative",
    // which only sched_debug warned about): the distances of other rows make no level, and a
    // node whose farthest node is farther than node 0's never gets a domain spanning it.
    if (!p.numaDistancesFromEveryRow || !p.numaDistancesFromCpuNodesOnly) {
        std::vector<int> columns;
        for (const auto& n : t.nodes)
            if (!p.numaDistancesFromCpuNodesOnly || !t.nodeCpus(n.id).empty()) columns.push_back(n.id);
        const std::vector<int> rows = p.numaDistancesFromEveryRow ? columns : std::vector<int>{t.nodes.front().id};
        distinct.clear();
        for (int i : rows)
            for (int j : columns) distinct.insert(schedDistance(i, j));
    }
    std::vector<int> distances(distinct.begin(), distinct.end());

    // sched_domains_numa_masks[level][node]: CPUs of all nodes within that level's distance.
    auto masks = std::make_shared<std::vector<std::vector<CpuSet>>>(distances.size());
    for (size_t lvl = 0; lvl < distances.size(); ++lvl) {
        auto& row = (*masks)[lvl];
        row.resize(t.nodes.size());
        for (int j : cpuNodes) {
            CpuSet m;
            for (int k : cpuNodes)
                if (schedDistance(j, k) <= distances[lvl]) m |= t.nodeCpus(k);
            row[static_cast<size_t>(t.nodeIndex(j))] = m;
        }
    }
    auto numaMask = [&t, masks](int lvl) {
        return [&t, masks, lvl](int cpu) {
            int idx = t.nodeIndex(cpuAt(t, cpu).node);
            return (*masks)[static_cast<size_t>(lvl)][static_cast<size_t>(idx)];
        };
    };
    // The NUMA identity level (4.15+): a domain per node, plain flags, no overlap. Without it
    // (the what-if, or older kernels) the NUMA levels sit directly on the arch levels.
    if (o.node && p.hasNodeLevel) tl.push_back({"NODE", numaMask(0), 0, false, 0, distances[0]});
    for (size_t j = 1; j < distances.size(); ++j)
        tl.push_back({"NUMA", numaMask(static_cast<int>(j)), SD_NUMA, true, static_cast<int>(j), distances[j]});
}

}  // namespace

std::vector<TopologyLevel> topologyLevels(const Topology& topology, const DomainBuildOptions& options,
                                          std::vector<std::string>& warnings, std::vector<std::string>& notes) {
    const KernelProfile& p = options.profile ? *options.profile : defaultProfile();
    std::vector<TopologyLevel> tl;
    addArchLevels(topology, options, p, tl, warnings);
    // a CLS level asked for and not built, by the kernel's own rule: said, or "CLS on" above a
    // tree without one reads as a bug
    if (options.arch == Arch::X86_64 && buildsClusterLevel(options, p) && topology.intelHybrid() && !p.clusterOnIntelHybrid)
        notes.push_back("no CLS level: 5.16-6.5 build none on an Intel hybrid CPU (\"sched,x86: Don't use cluster topology "
                        "for x86 hybrid CPUs\"; 6.6 builds it)");
    addNumaLevels(topology, options, p, tl, warnings, notes);
    return tl;
}

}  // namespace schedscope
