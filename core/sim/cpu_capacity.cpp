#include "sim/cpu_capacity.h"

#include <algorithm>

#include "domains/sd_flags.h"
#include "sim/cpu_iter.h"

namespace schedscope::sim {

bool taskFitsCpu(SimState& s, const Task& p, int cpu) { return fitsCapacity(s.taskUtilEst(p.id), s.capacityOf(cpu)); }

void updateMisfitStatusAsym(SimState& s, int cpu, int task) {
    Cpu& rq = s.cpus[static_cast<size_t>(cpu)];
    const bool was = rq.misfitTaskLoad > 0;
    // affinity allows nothing bigger, it is on the biggest CPU it may use, or it fits here
    // (6.10's p->max_allowed_capacity; before, nr_cpus_allowed == 1 and the fit alone)
    const Task* p = task >= 0 ? &s.tasks[static_cast<size_t>(task)] : nullptr;
    if (!p || p->nrAllowed == 1 || s.capacityOf(cpu) >= p->maxAllowedCapacity || taskFitsCpu(s, *p, cpu)) {
        rq.misfitTaskLoad = 0;
    } else {
        rq.misfitTaskLoad = std::max(s.taskLoad(p->id), 1.0);  // never 0 while it is a misfit
    }
    const bool is = rq.misfitTaskLoad > 0;
    if (was != is) s.rdMisfitCpus[static_cast<size_t>(s.rootDomainOf[static_cast<size_t>(cpu)])] += is ? 1 : -1;
}

bool checkMisfitStatus(const SimState& s, int cpu) {
    return s.cpus[static_cast<size_t>(cpu)].misfitTaskLoad > 0 && s.capacityOf(cpu) < s.rdMaxCapacityOf(cpu);
}

bool wakeCap(SimState& s, const Task& p, int cpu, int prevCpu) {
    const double minCap = std::min(s.capacityOf(prevCpu), s.capacityOf(cpu));
    const double maxCap = s.rdMaxCapacityOf(cpu);
    // the smaller CPU is close to the biggest: no reason to give up the affine wakeup
    if (maxCap - minCap < maxCap / 8) return false;
    return !fitsCapacity(s.taskUtilEst(p.id), minCap);
}

bool asymFitsCpu(const SimState& s, double util, int cpu) { return !s.asymCapacity || fitsCapacity(util, s.capacityOf(cpu)); }

int selectIdleCapacity(SimState& s, const Task& p, int sdIndex, int target) {
    const double util = s.taskUtilEst(p.id);
    double bestCap = 0;
    int bestCpu = -1, found = -1;
    forEachCpuWrap(dom(s, target, sdIndex).span, target, [&](int cpu) {
        if (!(p.anyCpu || p.allowed.test(cpu)) || !s.idle(cpu)) return false;
        const double cap = s.capacityOf(cpu);
        if (fitsCapacity(util, cap)) {
            found = cpu;
            return true;
        }
        if (cap > bestCap) {
            bestCap = cap;
            bestCpu = cpu;
        }
        return false;
    });
    return found >= 0 ? found : bestCpu;
}

double maxAllowedCapacity(const SimState& s, const Task& p) {
    double best = 0;
    p.allowed.forEach([&](int c) { best = std::max(best, s.capacityOf(c)); });
    return best;
}

double hardwareCapacity(const Topology& topo, int cpu) {
    const unsigned cap = topo.cpus[static_cast<size_t>(cpu)].capacity;
    return cap > 0 ? static_cast<double>(cap) : 1024.0;
}

void setUpCapacities(SimState& s) {
    const size_t n = s.cpus.size();
    // the static key sched_asym_cpucapacity: some domain has SD_ASYM_CPUCAPACITY
    bool anyFull = false;
    for (size_t c = 0; c < n; ++c)
        for (const auto& d : s.domainsOf(static_cast<int>(c))) {
            anyFull = anyFull || (d.flags & SD_ASYM_CPUCAPACITY_FULL);
            s.asymCapacity = s.asymCapacity || (d.flags & SD_ASYM_CPUCAPACITY);
        }
    // x86 has no arch_scale_cpu_capacity() but for hybrid CPUs balanced by capacity (6.12+, the
    // domains then say so): elsewhere its kernel sees every CPU as 1024, whatever the hardware
    const bool kernelSeesCapacities = s.topo->arch != Arch::X86_64 || s.asymCapacity;
    s.capacity.assign(n, 1024.0);
    if (kernelSeesCapacities)
        for (size_t c = 0; c < n; ++c) s.capacity[c] = hardwareCapacity(*s.topo, static_cast<int>(c));
    const size_t roots = s.rdOverloadedCpus.size();
    s.rdMisfitCpus.assign(roots, 0);
    s.rdMaxCapacity.assign(roots, 0.0);
    for (size_t c = 0; c < n; ++c) {
        if (!s.online.test(static_cast<int>(c))) continue;
        double& m = s.rdMaxCapacity[static_cast<size_t>(s.rootDomainOf[c])];
        m = std::max(m, s.capacity[c]);
    }
    // sd_asym_cpucapacity: from 5.14 the lowest domain holding every capacity
    // (SD_ASYM_CPUCAPACITY_FULL), before it the highest with SD_ASYM_CPUCAPACITY
    for (size_t c = 0; c < n; ++c) {
        const auto& doms = s.domainsOf(static_cast<int>(c));
        int& at = s.info[c].sdAsymCapacity;
        for (size_t i = 0; i < doms.size(); ++i) {
            if (anyFull && (doms[i].flags & SD_ASYM_CPUCAPACITY_FULL)) {
                at = static_cast<int>(i);
                break;
            }
            if (!anyFull && (doms[i].flags & SD_ASYM_CPUCAPACITY)) at = static_cast<int>(i);
        }
    }
    for (Task& t : s.tasks) t.maxAllowedCapacity = maxAllowedCapacity(s, t);
}

}  // namespace schedscope::sim
