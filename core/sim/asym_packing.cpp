#include "sim/asym_packing.h"

#include "domains/sd_flags.h"

namespace schedscope::sim {

std::vector<int> asymPriorities(const Topology& t, const DomainTree& tree) {
    bool packs = false;
    for (const auto& c : tree.cpus)
        for (const auto& d : c.domains) packs = packs || (d.flags & SD_ASYM_PACKING);
    if (!packs) return {};
    std::vector<int> prio(t.cpus.size(), 0);
    if (tree.arch != Arch::X86_64) {
        // arch_asym_cpu_priority()'s weak default, and powerpc's outside shared-processor LPARs:
        // -cpu, the lower CPU numbers first (POWER7's thread 0 of a core before thread 3)
        for (size_t c = 0; c < t.cpus.size(); ++c) prio[c] = -static_cast<int>(c);
        return prio;
    }
    if (t.kindNames.size() < 2) return {};
    for (size_t c = 0; c < t.cpus.size(); ++c) prio[c] = t.cpus[c].kind + 1;
    return prio;
}

bool schedUseAsymPrio(const SimState& s, const SchedDomain& sd, int cpu) {
    if (s.asymPrio.empty() || !(sd.flags & SD_ASYM_PACKING)) return false;
    if (!s.smtActive) return true;
    return (sd.flags & SD_SHARE_CPUCAPACITY) || s.coreIdle(cpu);
}

bool schedAsym(const SimState& s, const SchedDomain& sd, int dst, int src) {
    return schedUseAsymPrio(s, sd, dst) && schedAsymPrefer(s, dst, src);
}

int asymPreferCpu(const SimState& s, const CpuSet& span) {
    int best = span.first();
    span.forEach([&](int c) {
        if (schedAsymPrefer(s, c, best)) best = c;
    });
    return best;
}

int sdAsymPacking(const SimState& s, int cpu) {
    const auto& doms = s.domainsOf(cpu);
    for (int i = static_cast<int>(doms.size()) - 1; i >= 0; --i)
        if (doms[static_cast<size_t>(i)].flags & SD_ASYM_PACKING) return i;
    return -1;
}

}  // namespace schedscope::sim
