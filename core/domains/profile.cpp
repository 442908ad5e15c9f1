#include "domains/profile.h"

#include <sys/utsname.h>

#include <charconv>
#include <utility>

#include "domains/sd_flags.h"

namespace schedscope {

const std::vector<KernelProfile>& kernelProfiles() {
    // Versions: NODE level 4.15 (commit "sched/topology: Introduce NUMA identity node sched
    // domain"), CLS 5.16, DIE->PKG rename 6.7, SD_CLUSTER + cluster-first wakeup scan 6.8,
    // SD_SHARE_PKG_RESOURCES->SD_SHARE_LLC 6.9, EEVDF 6.6. x86: "sched,x86: Don't use cluster
    // topology for x86 hybrid CPUs" (5.16) until "sched/x86: Add cluster topology to hybrid CPU"
    // (6.6); "x86/sched: Remove SD_ASYM_PACKING from the SMT domain flags" and "x86/sched: Add
    // the SD_ASYM_PACKING flag to the die domain of hybrid processors" (6.5); "cpufreq:
    // intel_pstate: Set asymmetric CPU capacity on hybrid systems" (6.12).
    static const std::vector<KernelProfile> profiles = {
        {"linux-4.14", "before the NUMA identity NODE level and the cluster level", "DIE",
         "SD_SHARE_PKG_RESOURCES", false, false, false, false, FairClass::Cfs, true, false, false, false, 0, 0},
        {"linux-5.15", "NODE level, no cluster level", "DIE", "SD_SHARE_PKG_RESOURCES", true, false, false, false,
         FairClass::Cfs, true, false, false, false, 4, 15},
        {"linux-6.1", "CLS level (flags as MC; none on Intel hybrid CPUs), DIE, CFS", "DIE", "SD_SHARE_PKG_RESOURCES",
         true, true, false, false, FairClass::Cfs, true, false, false, false, 5, 16},
        {"linux-6.6", "as 6.1 with the EEVDF fair class, CLS on Intel hybrid CPUs", "DIE", "SD_SHARE_PKG_RESOURCES",
         true, true, false, false, FairClass::Eevdf, false, true, true, false, 6, 6},
        {"linux-6.12", "PKG, SD_CLUSTER, SD_SHARE_LLC, cluster-first wakeup scan, EEVDF", "PKG", "SD_SHARE_LLC", true,
         true, true, true, FairClass::Eevdf, false, true, true, true, 6, 12},
    };
    return profiles;
}

const KernelProfile* findProfile(const std::string& name) {
    for (const auto& p : kernelProfiles())
        if (p.name == name) return &p;
    if (name == "linux-6.6+" || name == "current" || name == "latest") return &defaultProfile();
    return nullptr;
}

const KernelProfile& defaultProfile() { return kernelProfiles().back(); }

const KernelProfile* profileForKernelRelease(std::string_view release) {
    int major = 0, minor = 0;
    const char* end = release.data() + release.size();
    auto [p, ec] = std::from_chars(release.data(), end, major);
    if (ec != std::errc{} || p == end || *p != '.') return nullptr;
    auto [q, ec2] = std::from_chars(p + 1, end, minor);
    if (ec2 != std::errc{} || q == p + 1) return nullptr;
    const KernelProfile* best = nullptr;
    for (const auto& k : kernelProfiles())
        if (std::pair(major, minor) >= std::pair(k.sinceMajor, k.sinceMinor)) best = &k;
    return best;
}

const KernelProfile* runningKernelProfile() {
    struct utsname u {};
    return uname(&u) == 0 ? profileForKernelRelease(u.release) : nullptr;
}

std::string flagName(const KernelProfile& profile, uint32_t flag) {
    if (flag == SD_SHARE_LLC) return profile.llcFlagName;
    for (const auto& f : sdFlagTable())
        if (f.flag == flag) return f.name;
    return "SD_UNKNOWN";
}

std::vector<std::string> flagNames(const KernelProfile& profile, uint32_t flags) {
    std::vector<std::string> out;
    for (const auto& f : sdFlagTable())
        if (flags & f.flag) out.push_back(flagName(profile, f.flag));
    return out;
}

uint32_t flagFromName(const KernelProfile& profile, const std::string& name) {
    if (name == "SD_SHARE_PKG_RESOURCES" || name == "SD_SHARE_LLC" || name == profile.llcFlagName) return SD_SHARE_LLC;
    for (const auto& f : sdFlagTable())
        if (name == f.name) return f.flag;
    return 0;
}

}  // namespace schedscope
