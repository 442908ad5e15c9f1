#include "domains/profile.h"

#include <sys/utsname.h>

#include <algorithm>
#include <charconv>
#include <optional>
#include <utility>

#include "domains/sd_flags.h"

namespace schedscope {

namespace {

// MAJOR.MINOR.SUBLEVEL; the sublevel only matters for the stable releases a change was
// backported to
struct Version {
    int major = 0, minor = 0, sublevel = 0;
    auto operator<=>(const Version&) const = default;
    bool sameBranch(const Version& o) const { return major == o.major && minor == o.minor; }
};

// What changed, when: each entry is a kernel release and what it changed in the behaviours a
// profile describes, and the stable releases of older branches that got the change too. A
// profile for a version applies the changes it has to the 4.14 base.
struct KernelChange {
    Version since;
    void (*apply)(KernelProfile&);
    std::vector<Version> backports = {};  // the first stable release of each branch with it

    bool in(const Version& v) const {
        if (since <= v) return true;
        return std::any_of(backports.begin(), backports.end(), [&](const Version& b) { return b.sameBranch(v) && b <= v; });
    }
};
const std::vector<KernelChange>& kernelChanges() {
    static const std::vector<KernelChange> changes = {
        // "sched/topology: Introduce NUMA identity node sched domain"
        {{4, 15}, [](KernelProfile& p) { p.hasNodeLevel = true; }},
        // "sched/fair: Add util_est on top of PELT" (UTIL_EST)
        {{4, 17}, [](KernelProfile& p) { p.hasUtilEst = true; }},
        // "sched/topology: Add SD_ASYM_CPUCAPACITY flag detection", "sched/topology: Disable
        // SD_PREFER_SIBLING on asymmetric CPU capacity domains"
        {{4, 20},
         [](KernelProfile& p) {
             p.asymCapacity = AsymCapacityRule::OneLevel;
             p.asymBalanceWake = true;
         }},
        // "sched/fair: Allow a small load imbalance between low utilisation SD_NUMA domains"
        {{5, 5}, [](KernelProfile& p) { p.numaImbalance = 1; }},
        // "sched/topology: Remove SD_BALANCE_WAKE on asymmetric capacity systems", "sched/fair:
        // Remove wake_cap()", "sched/fair: Add asymmetric CPU capacity wakeup scan"
        {{5, 7},
         [](KernelProfile& p) {
             p.asymBalanceWake = false;
             p.asymWakeup = AsymWakeup::IdleCapacityFirst;
         }},
        // "sched/fair: Reduce cases for active balance": only for migrate_task imbalances;
        // "sched/fair: Reduce minimal imbalance threshold", "sched/fair: Reduce busy load balance
        // interval", "sched/fair: Minimize concurrent LBs between domain level";
        // "sched/topology: Use prebuilt SD flag degeneration mask" (sd_flags.h); "sched/topology:
        // Propagate SD_ASYM_CPUCAPACITY upwards"
        {{5, 10},
         [](KernelProfile& p) {
             p.legacyActiveBalance = false;
             p.legacyDegenerateMasks = false;
             p.smtNeverCacheHot = true;  // "sched/fair: ignore cache hotness for SMT migration"
             p.defaultImbalancePct = 117;
             p.busyFactor = 16;
             p.busyIntervalLessAJiffy = true;
             p.asymCapacity = AsymCapacityRule::FromLevel;
             p.asymWakeup = AsymWakeup::FitsFirst;  // "sched/fair: Prefer prev cpu in asymmetric wakeup path"
         }},
        // "sched/topology: Make sched_init_numa() use a set for the deduplicating sort": the
        // distances of every row, not node 0's (Kunpeng 920's 24 between nodes 1 and 3)
        {{5, 12}, [](KernelProfile& p) { p.numaDistancesFromEveryRow = true; }},
        // "sched/topology: fix the issue groups don't span domain->span for NUMA diameter > 2"
        {{5, 13}, [](KernelProfile& p) { p.numaDescendedSibling = true; }},
        // "sched,fair: Alternative sched_slice()": BASE_SLICE, a task's CFS slice is never under
        // sysctl_sched_min_granularity (ALT_PERIOD, the CPU's task count for the period, is what
        // the simulator's flattened groups count in every version)
        {{5, 13}, [](KernelProfile& p) { p.cfsSliceFloor = true; }},
        // "sched/topology: Rework CPU capacity asymmetry detection", "sched/core: Introduce
        // SD_ASYM_CPUCAPACITY_FULL sched_domain flag"
        {{5, 14}, [](KernelProfile& p) { p.asymCapacity = AsymCapacityRule::PerSpan; }},
        // "sched: Add cluster scheduler level in core and related Kconfig for ARM64"; "sched/fair:
        // Remove sysctl_sched_migration_cost condition" (newidle balance)
        {{5, 16},
         [](KernelProfile& p) {
             p.hasClusterLevel = true;
             p.newidleCostGate = true;
         }},
        // "sched/fair: Adjust the allowed NUMA imbalance when SD_NUMA spans multiple LLCs"
        {{5, 18}, [](KernelProfile& p) { p.numaImbalance = 2; }},
        // "sched/numa: Fix NUMA topology for systems with CPU-less nodes"
        {{5, 18}, [](KernelProfile& p) { p.numaDistancesFromCpuNodesOnly = true; }},
        // "sched/fair: Introduce SIS_UTIL to search idle CPU based on sum of util_avg"
        {{6, 0}, [](KernelProfile& p) { p.sisUtil = true; }},
        // "x86/sched: Remove SD_ASYM_PACKING from the SMT domain flags", "x86/sched: Add the
        // SD_ASYM_PACKING flag to the die domain of hybrid processors", "x86/sched/itmt: Give all
        // SMT siblings of a core the same priority"
        {{6, 5},
         [](KernelProfile& p) {
             p.asymPackingOnSmt = false;
             p.asymPackingOnHybridPkg = true;
             p.itmtScalesSmtSiblings = false;
         }},
        // "sched/fair: Keep a fully_busy SMT sched group as busiest", "sched/fair: Use the busiest
        // group to set prefer_sibling"
        {{6, 5}, [](KernelProfile& p) { p.smtFullyBusyBusiest = true; }},
        // "sched/fair: Determine active load balance for SMT sched groups", "sched/topology: Record
        // number of cores in sched group", "sched/fair: Implement prefer sibling imbalance
        // calculation between asymmetric groups", "sched/fair: Consider the idle state of the
        // whole core for load balance", with 6.6-rc2's "sched/fair: Fix SMT4 group_smt_balance
        // handling"
        {{6, 6}, [](KernelProfile& p) { p.smtBalance = true; }},
        // EEVDF ("sched/fair: Implement an EEVDF-like scheduling policy"); "sched/x86: Add
        // cluster topology to hybrid CPU" (5.16-6.5 had "sched,x86: Don't use cluster topology
        // for x86 hybrid CPUs")
        {{6, 6},
         [](KernelProfile& p) {
             p.fairClass = FairClass::Eevdf;
             p.clusterOnIntelHybrid = true;
         }},
        // "sched/topology: Rename 'DIE' domain to 'PKG'"
        {{6, 7}, [](KernelProfile& p) { p.pkgLevelName = "PKG"; }},
        // "sched: Add cpus_share_resources API" (SD_CLUSTER), "sched/fair: Scan cluster before
        // scanning LLC in wake-up path"
        {{6, 8},
         [](KernelProfile& p) {
             p.clusterFlag = true;
             p.clusterScanOnWakeup = true;
             // "sched/fair: Use all little CPUs for CPU-bound workloads" (migrate_util's bound
             // shifted by nr_balance_failed, as migrate_load's); also taken into stable branches
             p.utilShrBound = true;
         }},
        // "sched/topology: Rename SD_SHARE_PKG_RESOURCES to SD_SHARE_LLC"
        {{6, 9}, [](KernelProfile& p) { p.llcFlagName = "SD_SHARE_LLC"; }},
        // "sched/topology: Remove max_cpu_capacity from root_domain" (Qais Yousef's misfit series,
        // the 6.10 merge window): the boot log's root domain line loses its capacity; "sched/fair:
        // Don't double balance_interval for migrate_misfit" (the same series)
        {{6, 10},
         [](KernelProfile& p) {
             p.rootDomainCapacityInLog = false;
             p.misfitNoBackoff = true;
         }},
        // "sched/fair: Implement delayed dequeue", "sched/fair: Avoid re-setting virtual deadline
        // on 'migrations'" (PLACE_REL_DEADLINE); "cpufreq: intel_pstate: Set asymmetric CPU
        // capacity on hybrid systems"
        {{6, 12},
         [](KernelProfile& p) {
             p.delayDequeue = true;
             p.placeRelDeadline = true;
             p.hybridCapacityWithoutSmt = true;
         }},
        // "x86/topology: Use x86_sched_itmt_flags for PKG domain unconditionally" (after 6.13's
        // "x86/cpu: Enable SD_ASYM_PACKING for PKG domain on AMD"); "sched/fair: Prioritize
        // migrating eligible tasks in sched_balance_rq()"
        {{6, 14},
         [](KernelProfile& p) {
             p.asymPackingOnPkg = true;
             p.migrateEligibleFirst = true;
         }},
        // "sched/fair: Reduce the default slice to avoid tasks getting an extra tick"
        {{6, 15}, [](KernelProfile& p) { p.baseSliceMs = 0.70; }},
        // "sched/topology: Remove sched_domain_topology_level::flags": no SD_OVERLAP
        {{6, 17}, [](KernelProfile& p) { p.overlapFlag = false; }},
        // "sched/fair: Bump sd->max_newidle_lb_cost when newidle balance fails"; taken into the
        // stable branches in August 2025 (the linux-stable-rc pushes of 6.12.43-rc1, 6.6.103-rc1
        // and 6.1.149-rc1, and the 6.6.103 release notes), until the revert below
        {{6, 17}, [](KernelProfile& p) { p.newidleFailBump = true; }, {{6, 1, 149}, {6, 6, 103}, {6, 12, 43}}},
        // "sched/fair: Revert max_newidle_lb_cost bump" and "sched/fair: Proportional newidle
        // balance" (NI_RANDOM); taken into the stable branches in January 2026 (the
        // linux-stable-rc pushes of 6.1.160-rc2, 6.6.120-rc1, 6.12.65-rc1 and 6.18.5-rc1)
        {{6, 19},
         [](KernelProfile& p) {
             p.newidleFailBump = false;
             p.newidleRandom = true;
         },
         {{6, 1, 160}, {6, 6, 120}, {6, 12, 65}, {6, 18, 5}}},
        // "sched: Create architecture specific sched domain distances" and "sched/topology: Fix
        // sched domain build error for GNR, CWF in SNC-3 mode" (x86's arch_sched_node_distance())
        {{6, 19}, [](KernelProfile& p) { p.x86SncDistances = X86SncDistances::AverageRemote; }},
        // "x86/topo: Add topology_num_nodes_per_package()", "x86/topo: Replace
        // x86_has_numa_in_package" and "x86/topo: Fix SNC topology mess" (7.0-rc3); taken into
        // 6.19.7 only (its stable review shortlog; 6.18 never had the 6.19 change it fixes)
        {{7, 0},
         [](KernelProfile& p) {
             p.x86SncDistances = X86SncDistances::PackageMeans;
             p.pkgByNodesPerPackage = true;
         },
         {{6, 19, 7}}},
        // "sched/fair: Separate se->vlag from se->vprot" (tip sched/core in December 2025, after
        // the 6.19 merge window) and "sched/eevdf: Update se->vprot in reweight_entity()": a
        // reweight keeps the protection, rescaled. The latter's 6.18 stable backport reads
        // vprot after update_entity_lag() has written the lag over it (6.18 keeps the union),
        // so there nothing changes.
        {{7, 0}, [](KernelProfile& p) { p.groupEntityKeepsProtection = true; }},
        // "sched/fair: More complex proportional newidle balance" (NI_RATE; tip sched/core in
        // February 2026, the 7.1 merge window's sched-core-2026-04-13)
        {{7, 1}, [](KernelProfile& p) { p.newidleRate = true; }},
        // "sched/topology: Compute sd_weight considering cpuset partitions" (the same pull), with
        // its fix "sched/topology: Fix sched_domain_span()"; both in the 6.18.33-rc1 stable queue
        // (after "Linux 6.18.32", May 2026). A 7.0.y release with it is not known, so none is
        // modelled.
        {{7, 1}, [](KernelProfile& p) { p.sdWeightWithinCpuMap = true; }, {{6, 18, 33}}},
    };
    return changes;
}

constexpr Version kOldest{4, 14};

// the last change point a kernel of version `v` has: a release that changed something, or a
// stable release of v's branch that took a later change in; kOldest when none
Version lastChangeBy(Version v) {
    Version last = kOldest;
    for (const auto& c : kernelChanges()) {
        if (c.since <= v) last = std::max(last, c.since);
        for (const Version& b : c.backports)
            if (b.sameBranch(v) && b <= v) last = std::max(last, b);
    }
    return last;
}

KernelProfile profileAt(Version v, std::string name, std::string description) {
    KernelProfile p;
    p.name = std::move(name);
    p.description = std::move(description);
    p.pkgLevelName = "DIE";
    p.llcFlagName = "SD_SHARE_PKG_RESOURCES";
    for (const auto& c : kernelChanges())
        if (c.in(v)) c.apply(p);
    const Version since = lastChangeBy(v);
    p.sinceMajor = since.major;
    p.sinceMinor = since.minor;
    p.sinceSublevel = since.sublevel;
    return p;
}

// "linux-6.12", or "linux-6.12.65" for a stable release a change was backported to
std::string versionName(Version v) {
    std::string name = "linux-" + std::to_string(v.major) + "." + std::to_string(v.minor);
    return v.sublevel ? name + "." + std::to_string(v.sublevel) : name;
}
Version sinceOf(const KernelProfile& k) { return {k.sinceMajor, k.sinceMinor, k.sinceSublevel}; }

// The profiles of the change points no named profile stands for ("linux-6.10": 6.10 and 6.11),
// built once so that their addresses last.
const std::vector<KernelProfile>& unnamedProfiles() {
    static const std::vector<KernelProfile> profiles = [] {
        std::vector<KernelProfile> out;
        std::vector<Version> points{kOldest}, backports;
        for (const auto& c : kernelChanges()) {
            points.push_back(c.since);
            backports.insert(backports.end(), c.backports.begin(), c.backports.end());
        }
        auto named = [](const Version& v) {
            return std::any_of(kernelProfiles().begin(), kernelProfiles().end(),
                               [&](const KernelProfile& k) { return sinceOf(k) == v; });
        };
        for (size_t i = 0; i < points.size(); ++i) {
            if (named(points[i])) continue;
            std::string description = "as the kernels from " + versionName(points[i]).substr(6);
            description += i + 1 < points.size() ? " until " + versionName(points[i + 1]).substr(6) : " and later";
            out.push_back(profileAt(points[i], versionName(points[i]), description));
        }
        // a stable branch from the release that took a backport in
        std::sort(backports.begin(), backports.end());
        backports.erase(std::unique(backports.begin(), backports.end()), backports.end());
        for (const Version& b : backports) {
            if (named(b)) continue;
            const std::string branch = versionName({b.major, b.minor, 0}).substr(6);
            out.push_back(profileAt(b, versionName(b), "as " + branch + ", with the stable backports up to " +
                                                              versionName(b).substr(6)));
        }
        return out;
    }();
    return profiles;
}

// "linux-6.10", "6.10", "6.10.3-arch1" or "6.18.5" -> (6, 10, 0), (6, 10, 3), (6, 18, 5); the
// sublevel is 0 when there is none (also in "6.1.0-13-amd64", Debian's ABI name for 6.1.x)
std::optional<Version> parseVersion(std::string_view text) {
    if (text.starts_with("linux-")) text.remove_prefix(6);
    Version v;
    const char* end = text.data() + text.size();
    auto [p, ec] = std::from_chars(text.data(), end, v.major);
    if (ec != std::errc{} || p == end || *p != '.') return std::nullopt;
    auto [q, ec2] = std::from_chars(p + 1, end, v.minor);
    if (ec2 != std::errc{} || q == p + 1) return std::nullopt;
    if (q != end && *q == '.') {
        auto [r, ec3] = std::from_chars(q + 1, end, v.sublevel);
        if (ec3 != std::errc{}) v.sublevel = 0;
    }
    return v;
}

// older kernels than the first profile's get it: it describes the kernels before 4.15
const KernelProfile* profileForVersion(Version v) {
    const Version since = lastChangeBy(v);
    for (const auto& k : kernelProfiles())
        if (sinceOf(k) == since) return &k;
    for (const auto& k : unnamedProfiles())
        if (sinceOf(k) == since) return &k;
    return nullptr;
}

}  // namespace

const std::vector<KernelProfile>& kernelProfiles() {
    static const std::vector<KernelProfile> profiles = {
        profileAt({4, 14}, "linux-4.14", "before the NUMA identity NODE level and the cluster level"),
        profileAt({5, 15}, "linux-5.15", "NODE level, no cluster level"),
        profileAt({6, 1}, "linux-6.1", "CLS level (flags as MC; none on Intel hybrid CPUs), DIE, CFS"),
        profileAt({6, 6}, "linux-6.6", "as 6.1 with the EEVDF fair class, CLS on Intel hybrid CPUs"),
        profileAt({6, 8}, "linux-6.8", "PKG, SD_CLUSTER and the cluster-first wakeup scan, SD_SHARE_PKG_RESOURCES"),
        profileAt({6, 12}, "linux-6.12", "PKG, SD_CLUSTER, SD_SHARE_LLC, cluster-first wakeup scan, EEVDF, delayed dequeue"),
        profileAt({6, 18}, "linux-6.18",
                  "as 6.12, no SD_OVERLAP, x86 PKG packing under ITMT, 0.70 ms slices, eligible tasks migrate first, "
                  "failed newidle balance bumps its cost"),
        profileAt({6, 19}, "linux-6.19",
                  "as 6.18 with newidle balance proportional to its success (NI_RANDOM; stable since 6.1.160, "
                  "6.6.120, 6.12.65, 6.18.5); Granite Rapids / Clearwater Forest NUMA levels from the mean remote "
                  "distance"),
        profileAt({7, 0}, "linux-7.0",
                  "as 6.19; x86 leaves PKG out by nodes per package, and averages only SNC-3's distances between "
                  "packages"),
        profileAt({7, 1}, "linux-7.1",
                  "as 7.0 with NI_RATE (a domain balanced rarely when newly idle keeps a high newidle ratio); "
                  "balance intervals count only the CPUs domains are built for"),
    };
    return profiles;
}

std::string profileNameList() {
    std::string out;
    for (const auto& p : kernelProfiles()) out += (out.empty() ? "" : ", ") + p.name;
    return out;
}

std::string unknownProfileError(const std::string& name) {
    const std::string oldest = std::to_string(kOldest.major) + "." + std::to_string(kOldest.minor);
    const std::string newest = defaultProfile().name.substr(std::string("linux-").size());
    return "unknown kernel profile '" + name + "' (known: " + profileNameList() + ", or any linux-X.Y[.Z] from " + oldest +
           " to " + newest + ")";
}

const KernelProfile* findProfile(const std::string& name) {
    for (const auto& p : kernelProfiles())
        if (p.name == name) return &p;
    if (name == "current" || name == "latest") return &defaultProfile();
    if (!name.starts_with("linux-")) return nullptr;
    const auto v = parseVersion(name);
    // "linux-6.10" (or "linux-6.10.0"), not "linux-6.10x"
    if (!v || (name.size() != versionName(*v).size() && name != versionName(*v) + ".0")) return nullptr;
    // a version after the newest profile's is not one we know the changes of (a running kernel
    // that new still gets the newest: profileForKernelRelease())
    const Version newest = parseVersion(defaultProfile().name).value_or(*v);
    if (Version{v->major, v->minor, 0} > newest) return nullptr;
    if (*v < kOldest) return nullptr;  // nor before the oldest (a running 4.9 kernel gets 4.14's)
    // nor a minor past a major's last: 4.20 was followed by 5.0, 5.19 by 6.0, 6.19 by 7.0
    constexpr std::pair<int, int> kLastMinor[] = {{4, 20}, {5, 19}, {6, 19}};
    for (const auto& [major, last] : kLastMinor)
        if (v->major == major && v->minor > last) return nullptr;
    return profileForVersion(*v);
}

const KernelProfile& defaultProfile() { return kernelProfiles().back(); }

const KernelProfile* profileForKernelRelease(std::string_view release) {
    if (release.starts_with("linux-")) return nullptr;
    const auto v = parseVersion(release);
    return v ? profileForVersion(*v) : nullptr;
}

const KernelProfile* runningKernelProfile() {
    struct utsname u {};
    return uname(&u) == 0 ? profileForKernelRelease(u.release) : nullptr;
}

std::string flagName(const KernelProfile& profile, uint32_t flag) {
    if (flag == SD_SHARE_LLC) return profile.llcFlagName;
    if (flag == SD_OVERLAP && !profile.overlapFlag) return "";
    for (const auto& f : sdFlagTable())
        if (f.flag == flag) return f.name;
    return "SD_UNKNOWN";
}

std::vector<std::string> flagNames(const KernelProfile& profile, uint32_t flags) {
    std::vector<std::string> out;
    for (const auto& f : sdFlagTable())
        if (shownFlags(profile, flags) & f.flag) out.push_back(flagName(profile, f.flag));
    return out;
}

uint32_t shownFlags(const KernelProfile& profile, uint32_t flags) {
    return profile.overlapFlag ? flags : flags & ~static_cast<uint32_t>(SD_OVERLAP);
}

uint32_t flagFromName(const KernelProfile& profile, const std::string& name) {
    if (name == "SD_SHARE_PKG_RESOURCES" || name == "SD_SHARE_LLC" || name == profile.llcFlagName) return SD_SHARE_LLC;
    for (const auto& f : sdFlagTable())
        if (name == f.name) return f.flag;
    return 0;
}

}  // namespace schedscope
