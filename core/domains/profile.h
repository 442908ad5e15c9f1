#pragma once
// Kernel profiles: what changed across kernel versions in how domains are built and named,
// kept in one table instead of scattered ifs.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace schedscope {

// Scheduler Kconfig options that shape the domain levels.
struct KernelConfig {
    bool schedSmt = true;
    bool schedCluster = true;  // CONFIG_SCHED_CLUSTER (5.16+); off in Debian's arm64 6.1 kernel
    bool schedMc = true;
    bool numa = true;
};

enum class FairClass { Cfs, Eevdf };

struct KernelProfile {
    std::string name;           // "linux-6.1"
    std::string description;
    std::string pkgLevelName;   // "DIE" before 6.7, "PKG" since
    std::string llcFlagName;    // "SD_SHARE_PKG_RESOURCES" before 6.9, "SD_SHARE_LLC" since
    bool hasNodeLevel;          // NUMA identity NODE level, since 4.15
    bool hasClusterLevel;       // CLS level, since 5.16
    bool clusterFlag;           // SD_CLUSTER on the CLS level, since 6.8
    bool clusterScanOnWakeup;   // select_idle_cpu scans the cluster first, since 6.8
    FairClass fairClass;        // CFS before 6.6, EEVDF since
    // x86 ITMT (Turbo Boost Max 3.0, hybrid CPUs) and Intel hybrid CPUs, arch/x86/kernel/smpboot.c:
    bool asymPackingOnSmt;          // x86_smt_flags() adds ITMT's SD_ASYM_PACKING, until 6.5
    bool asymPackingOnHybridPkg;    // x86_die_flags(): SD_ASYM_PACKING on hybrid CPUs, since 6.5
    bool clusterOnIntelHybrid;      // CLS on hybrid CPUs: skipped 5.16-6.5, built since 6.6
    bool hybridCapacityWithoutSmt;  // intel_pstate: asym capacity, not ITMT, on hybrid without SMT (6.12)
    int sinceMajor, sinceMinor; // the first kernel this profile stands for (its changes' version)
};

const std::vector<KernelProfile>& kernelProfiles();
const KernelProfile* findProfile(const std::string& name);  // nullptr when unknown
const KernelProfile& defaultProfile();                      // the newest
// The profile of a kernel by its release ("6.1.0-13-amd64", uname -r): the newest whose changes
// that kernel has (a 5.10 kernel: linux-5.15, NODE and no CLS; 6.8: linux-6.6). nullptr when
// the release does not start with MAJOR.MINOR.
const KernelProfile* profileForKernelRelease(std::string_view release);
// The running kernel's profile (uname's release); nullptr when it cannot be told.
const KernelProfile* runningKernelProfile();
// The flag's name as this profile's kernel prints it.
std::string flagName(const KernelProfile& profile, uint32_t flag);
std::vector<std::string> flagNames(const KernelProfile& profile, uint32_t flags);
// Inverse of flagName under this profile; 0 when unknown.
uint32_t flagFromName(const KernelProfile& profile, const std::string& name);

}  // namespace schedscope
