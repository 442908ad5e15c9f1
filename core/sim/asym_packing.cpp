#include "sim/asym_packing.h"

#include <algorithm>

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
    // x86 ITMT: a core's priority is its highest performance, here its kind (hybrid P-cores
    // above E-cores), the same for every core otherwise. Before 6.5 sched_set_itmt_core_prio()
    // gave a core's i-th SMT sibling prio x smp_num_siblings / i^2, so a core's second thread
    // came after every other core's first, an E-core's included.
    const bool hybrid = t.kindNames.size() >= 2;
    const bool scaled = tree.profile && tree.profile->itmtScalesSmtSiblings;
    int siblings = 1;  // smp_num_siblings
    for (const auto& c : t.cpus)
        if (c.online) siblings = std::max(siblings, c.threadSiblings.count());
    if (!hybrid && !(scaled && siblings > 1)) return {};  // one priority for all: nothing to prefer
    for (size_t c = 0; c < t.cpus.size(); ++c) {
        const int base = 64 * (hybrid ? t.cpus[c].kind + 1 : 1);  // room for the integer division below
        if (!scaled) {
            prio[c] = base;
            continue;
        }
        int i = 1;  // the CPU's place among its siblings, from 1 (for_each_cpu's order)
        t.cpus[c].threadSiblings.forEach([&](int sib) { i += sib < static_cast<int>(c); });
        prio[c] = base * siblings / (i * i);
    }
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
