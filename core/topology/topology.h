#pragma once
// The CPU topology model: what the kernel knows about each logical CPU when it builds its
// sched domains. Every loader (sysfs snapshot, hwloc XML / synthetic / this machine, presets)
// produces one of these; the domain builder consumes it.
#include <optional>
#include <string>
#include <vector>

#include "util/cpuset.h"
#include "util/result.h"

namespace schedscope {

// The architecture decides which masks the kernel uses for each level: x86's smpboot.c,
// powerpc's smp.c, s390's topology.c, or the generic default_topology[] with
// drivers/base/arch_topology.c's masks (arm64; Generic is the same rules for the other arches:
// riscv, ia64...).
enum class Arch { X86_64, Arm64, Ppc64, S390, Generic };
const char* archName(Arch a);
// "x86_64"/"x86"/"amd64", "arm64"/"aarch64", "ppc64"/"ppc64le"/"ppc"/"powerpc", "s390x"/"s390",
// "generic"/"riscv64"/"ia64"
Result<Arch> parseArch(const std::string& name);
Arch hostArch();

struct CacheInfo {
    int level = 0;
    std::string type;  // "Data", "Instruction", "Unified" as sysfs spells it
    CpuSet shared;     // shared_cpu_list
    long long sizeKB = 0;  // size (sysfs "512K", hwloc's cache size); 0 when the source does not say
};

// One logical CPU, with the sibling masks exactly as sysfs topology/ exports them.
struct CpuTopology {
    int id = -1;
    bool online = true;
    int node = 0;  // NUMA node id
    int packageId = -1;
    int dieId = -1;
    int clusterId = -1;
    int coreId = -1;
    CpuSet threadSiblings;  // thread_siblings_list: SMT siblings (includes itself)
    CpuSet clusterCpus;     // cluster_cpus_list (x86: L2 sharers; arm64: firmware cluster)
    CpuSet coreSiblings;    // core_siblings_list: the package as the kernel sees it
    CpuSet dieCpus;         // die_cpus_list (x86 only; package elsewhere)
    CpuSet packageCpus;     // package_cpus_list
    // s390's book_siblings_list and drawer_siblings_list (hwloc's Book and Drawer groups): the
    // boards and drawers that group its sockets; empty elsewhere
    CpuSet bookCpus, drawerCpus;
    std::vector<CacheInfo> caches;  // in sysfs cache/indexN order
    unsigned capacity = 1024;       // cpu_capacity (arm64 asymmetric systems); 1024 otherwise
    int kind = 0;                   // index into Topology::kindNames (hybrid CPUs)
};

struct NumaNode {
    int id = 0;
    CpuSet cpus;  // online CPUs only; empty for memory-only nodes
    // Without CPUs here only because the source hides them (an hwloc export from inside a
    // cpuset, offline CPUs): a CPU node to the firmware, not a memory-only one.
    bool cpusHidden = false;
};

// The kernel's MAX_NUMNODES at its largest (NODES_SHIFT 10 on x86-64 and arm64): node ids run
// below it, so no machine Linux runs on has more nodes.
inline constexpr int kMaxNumaNodes = 1024;

class Topology {
public:
    std::string name;    // short name, e.g. "kunpeng920-24" or the file name
    std::string source;  // where it came from, for humans ("sysfs snapshot /tmp/x")
    Arch arch = Arch::X86_64;
    std::vector<CpuTopology> cpus;  // indexed by logical id; offline ids have online=false
    std::vector<NumaNode> nodes;    // sorted by id
    std::vector<std::vector<int>> distance;  // [i][j] over `nodes` positions (SLIT values)
    std::vector<std::string> kindNames;      // hybrid CPU kinds, empty if homogeneous
    // The CPU model as the source names it (hwloc's CPUModel, /proc/cpuinfo's "model name" or
    // powerpc's "cpu"); empty when unknown. powerpc's SMT flags depend on it (POWER7's ASYM_SMT).
    std::string cpuModel;
    // x86's CPUID identity (/proc/cpuinfo's vendor_id, "cpu family" and "model"; hwloc's
    // CPUVendor, CPUFamilyNumber and CPUModelNumber), which arch code keys quirks on
    // (boot_cpu_data.x86_vfm): empty and -1 when the source does not say.
    std::string cpuVendor;
    int cpuFamily = -1, cpuModelNumber = -1;
    // /proc/sys/kernel/sched_itmt_enabled (since 6.14 debugfs x86/sched_itmt_enabled) when the
    // source had it (a machine's sysfs); unset otherwise. x86 ITMT gives its domains
    // SD_ASYM_PACKING (arch/x86/kernel/itmt.c).
    std::optional<bool> itmtEnabled;
    // Online CPUs the kernel builds no sched domains for (they stay attached to NULL): isolcpus=
    // (sys/devices/system/cpu/isolated, HK_TYPE_DOMAIN) and cpuset partitions of type "isolated"
    // (cgroup v2's cpuset.cpus.isolated). Read from a machine's sysfs; empty for other inputs.
    CpuSet isolated;
    // cgroup v2 cpuset partitions of type "root" below the top cpuset: the kernel builds each as
    // its own sched-domain hierarchy (a root domain of its own; partition_sched_domains()), and
    // the top cpuset's domains cover the online CPUs left (rootDomainSpans()). Disjoint. Read from
    // a machine's sysfs (sys/fs/cgroup/**/cpuset.cpus.partition), or set for a what-if.
    std::vector<CpuSet> rootPartitions;
    // Beyond this distance NUMA levels lose wake-affine/exec/fork balancing (RECLAIM_DISTANCE,
    // 30 by default; AMD Zen raises it to 32 in arch/x86/kernel/cpu/amd.c).
    int nodeReclaimDistance = 30;
    // The kernel profile whose domains the source showed (a kernel log's: the kernel its banner
    // names, else the newest its format allows), which builds default to; empty when the source
    // does not say.
    std::string kernelProfile;
    // What loading set aside from the input, as the kernel would (an invalid SLIT it ignores,
    // a CPU two nodes list); one line each, shown with the domains.
    std::vector<std::string> warnings;
    // What the source could not tell, which is no problem of the input (a kernel log's NUMA
    // distances are ranks; where the topology read from it rebuilds other domains than it shows).
    std::vector<std::string> notes;

    CpuSet onlineCpus() const;
    CpuSet nodeCpus(int nodeId) const;
    int nodeIndex(int nodeId) const;  // position in `nodes`, -1 if absent
    int nodeDistance(int nodeA, int nodeB) const;  // by node id; 10/20 defaults when unknown
    // The last-level cache of a CPU: its highest-level data or unified cache; null when the
    // source listed none.
    const CacheInfo* llc(int cpu) const;
    // The last-level cache sharers of a CPU (the CPU alone without a cache list).
    CpuSet llcCpus(int cpu) const;
    int onlineCount() const;
    int packageCount() const;
    // An Intel hybrid CPU (X86_FEATURE_HYBRID_CPU): kinds named as hwloc and the kernel's
    // cpu_core/cpu_atom PMUs name them (IntelCore, IntelAtom, ...).
    bool intelHybrid() const;
    bool hasSmt() const;  // some online CPU has an SMT sibling
    // two online CPUs of one package on different nodes (x86's x86_has_numa_in_package, set in
    // set_cpu_sibling_map(): sub-NUMA clustering, AMD's NPS2/NPS4, Naples' dies)
    bool hasNodesInPackage() const;
    // some CPU's last-level cache holds several NUMA nodes (Intel's sub-NUMA clustering shows its
    // L3 across the package's nodes): pictures nest the nodes inside the LLC, not the reverse
    bool llcHoldsNodes() const;
    // x86_vfm == IFM(family, model) for an Intel CPU (INTEL_GRANITERAPIDS_X is IFM(6, 0xAD))
    bool isIntelModel(int family, int model) const;

    // The CPU sets the kernel builds sched domains over, each on its own (generate_sched_domains():
    // doms[], every one with housekeeping CPUs only): the top cpuset's online CPUs that no root
    // partition took, then each root partition's, the isolated CPUs left out; empty sets dropped
    // (one empty set when every CPU is isolated).
    // One set, the online CPUs not isolated, when there is no partition.
    std::vector<CpuSet> rootDomainSpans() const;

    // hwloc_topology_check in spirit: masks contain their CPU, nest (SMT in cluster-or-package,
    // package), nodes are disjoint and numbered below kMaxNumaNodes, distance matrix square with
    // local distance 10 on the diagonal.
    // Errors begin with `what` (the file or description), else the topology's name.
    Status check(const std::string& what = {}) const;
};

// A cache size as lstopo writes it: whole MB, else KB below 10 MB, else MB to a tenth
// ("24 MB", "1280 KB", "27.5 MB").
std::string cacheSizeText(long long kb);

// The kernel ignores a whole distance table that breaks the SLIT rules (slit_valid() in
// drivers/acpi/numa/srat.c, the same test in of_numa's distance map): 10 on the diagonal, more
// than 10 elsewhere, a byte each. It keeps LOCAL_DISTANCE/REMOTE_DISTANCE, 10 and 20, instead.
// Applies that to `t.distance` and says so in `t.warnings`; a square table only.
void ignoreInvalidSlit(Topology& t);
// The first entry of `table` (square, over `t.nodes` positions) that breaks those rules, as
// "distance 9 from node 3 to node 3 is not a valid SLIT entry (local must be 10)"; "" when none.
std::string firstInvalidSlitEntry(const Topology& t, const std::vector<std::vector<int>>& table);

// CPUs that no NUMA node lists (their node offline, or left out of the input): the kernel's
// cpu_to_node() falls back to the first node for a CPU without an online node. Adds `cpus` to the
// first node with CPUs (else the first node; a node 0 of its own when there is none), says so
// in `t.warnings` (`input`: "export", "snapshot") and returns that node's id. Both loaders use
// it, so one machine gets one answer whichever way it comes in; a node invented for them would
// need invented distances.
int adoptNodelessCpus(Topology& t, const CpuSet& cpus, const std::string& input);

// Sets what the CPU's identity changes in the kernel's view (t.cpuVendor, t.cpuFamily): AMD Zen
// and Hygon raise node_reclaim_distance to 32 (init_amd_zn() in arch/x86/kernel/cpu/amd.c); on
// AMD family 15h a compute unit's two cores are SMT siblings (match_smt() on cu_id). Loaders
// call it once the CPUs are in place.
void applyCpuIdentity(Topology& t);

}  // namespace schedscope
