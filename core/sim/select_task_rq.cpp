#include "sim/select_task_rq.h"

#include <algorithm>
#include <limits>

#include "domains/sd_flags.h"
#include "sim/cpu_capacity.h"
#include "sim/cpu_iter.h"
#include "sim/numa_balancing.h"

namespace schedscope::sim {
namespace {

bool allowed(const Task& p, int cpu) { return p.anyCpu || p.allowed.test(cpu); }
bool shareCache(const SimState& s, int a, int b) {
    return s.info[static_cast<size_t>(a)].llc == s.info[static_cast<size_t>(b)].llc;
}
bool shareResources(const SimState& s, int a, int b) {
    return s.info[static_cast<size_t>(a)].shareId == s.info[static_cast<size_t>(b)].shareId;
}

}  // namespace

void recordWakee(SimState& s, Task& waker, const Task& wakee) {
    // a second of jiffies halves the flips
    if (s.now > waker.wakeeFlipDecayTs + 1000000000LL) {
        waker.wakeeFlips >>= 1;
        waker.wakeeFlipDecayTs = s.now;
    }
    if (waker.lastWakee != wakee.id) {
        waker.lastWakee = wakee.id;
        waker.wakeeFlips++;
    }
}

bool wakeWide(const SimState& s, const Task& waker, const Task& wakee, int thisCpu) {
    if (s.feat.wakeWide == WakeWide::Off) return false;
    unsigned master = waker.wakeeFlips, slave = wakee.wakeeFlips;
    const CpuInfo& ci = s.info[static_cast<size_t>(thisCpu)];
    const unsigned factor = static_cast<unsigned>(s.feat.wakeWide == WakeWide::Cluster ? ci.clusterSize : ci.llcSize);
    if (master < slave) std::swap(master, slave);
    if (slave < factor || master < slave * factor) return false;
    return true;
}

int wakeAffine(SimState& s, int sdIndex, const Task& p, int thisCpu, int prevCpu, bool sync, const Task* waker) {
    constexpr int kNone = -1;
    int target = kNone;
    // wake_affine_idle()
    if (s.idle(thisCpu) && shareCache(s, thisCpu, prevCpu)) target = s.idle(prevCpu) ? prevCpu : thisCpu;
    else if (sync && s.cpus[static_cast<size_t>(thisCpu)].nrRunning() == 1) target = thisCpu;  // (delayed ones left out)
    else if (s.idle(prevCpu)) target = prevCpu;
    if (target == kNone) {
        // wake_affine_weight(): compare the loads as if p ran here or there
        const SchedDomain& sd = dom(s, thisCpu, sdIndex);
        double thisLoad = s.cpuLoad(thisCpu);
        if (sync && waker) {
            const double cur = s.taskLoad(waker->id);
            if (cur > thisLoad) return thisCpu;
            thisLoad -= cur;
        }
        const double taskLoad = s.taskLoad(p.id);
        // WA_BIAS: prev's load weighs half the domain's imbalance_pct more (an integer: 117 ->
        // 108), each side scaled by the other CPU's capacity
        double thisEff = (thisLoad + taskLoad) * 100.0 * s.capacityOf(prevCpu);
        double prevEff = s.cpuLoad(prevCpu) - (p.cpu == prevCpu ? taskLoad : 0.0);
        const unsigned bias = 100 + (sd.imbalancePct - 100) / 2;  // integer arithmetic, as the kernel's
        prevEff *= static_cast<double>(bias) * s.capacityOf(thisCpu);
        // sync: an equal load leans towards the waker's CPU, as it is about to sleep
        if (sync) prevEff += 1;
        if (thisEff < prevEff) target = thisCpu;
    }
    return target == kNone ? prevCpu : target;
}

int selectIdleCore(SimState& s, const Task& p, int core, ScanMask& scan, int& idleCpu) {
    bool idle = true;
    for (int cpu : s.info[static_cast<size_t>(core)].siblings) {
        if (!s.idle(cpu)) {
            idle = false;
            if (idleCpu == -1) continue;
            break;
        }
        if (idleCpu == -1 && allowed(p, cpu)) idleCpu = cpu;
    }
    if (idle && allowed(p, core)) return core;
    for (int cpu : s.info[static_cast<size_t>(core)].siblings) scan.reset(cpu);
    return -1;
}

int selectIdleSmt(SimState& s, const Task& p, int target) {
    for (int cpu : s.info[static_cast<size_t>(target)].siblings) {
        if (cpu == target) continue;
        if (allowed(p, cpu) && s.idle(cpu)) return cpu;
    }
    return -1;
}

int selectIdleCpu(SimState& s, const Task& p, bool hasIdleCore, int target) {
    const CpuInfo& ti = s.info[static_cast<size_t>(target)];
    if (ti.sdLlc < 0) return -1;
    const SchedDomain& sd = dom(s, target, ti.sdLlc);
    ScanMask& scan = s.scanMask;
    scan.begin(s.cpus.size());
    for (int c : ti.llcSpan)
        if (allowed(p, c)) scan.set(c);
    int nr = std::numeric_limits<int>::max();
    if (s.feat.sisUtil) {
        nr = s.llcShared[static_cast<size_t>(ti.llc)].nrIdleScan + 1;  // because !--nr is the stop condition
        if (nr == 1) return -1;
    }
    int idleCpu = -1;
    const char* scanRule = "select_idle_cpu: first idle CPU in the LLC scan";
    auto visit = [&](int cpu) -> int {  // >= 0 found, -2 stop, -1 go on
        if (!scan.test(cpu)) return -1;
        if (hasIdleCore) {
            int i = selectIdleCore(s, p, cpu, scan, idleCpu);
            return i >= 0 ? i : -1;
        }
        if (--nr <= 0) return -2;
        if (s.idle(cpu) && allowed(p, cpu)) { idleCpu = cpu; return cpu; }
        return -1;
    };
    const int n = static_cast<int>(s.cpus.size());
    // 6.8+: the target's cluster first (the LLC domain's first group when it is a cluster)
    if (s.feat.clusterScan && s.clusterActive && !sd.groups.empty() && ti.sdLlc > 0 &&
        (dom(s, target, ti.sdLlc - 1).flags & SD_CLUSTER)) {
        const std::vector<int>& cl = ti.llcFirstGroup;  // sd.groups.front().span
        int r = -1;
        forEachCpuWrap(cl, (target + 1) % n, [&](int cpu) { return (r = visit(cpu)) != -1; });
        if (r >= 0) {
            s.why = {hasIdleCore ? "select_idle_core: idle core in the cluster scan"
                                 : "select_idle_cpu: first idle CPU in the cluster scan",
                     target, ti.sdLlc - 1};
            return r;
        }
        if (r == -2) return -1;
        for (int c : cl) scan.reset(c);
    }
    int r = -1;
    forEachCpuWrap(ti.llcSpan, (target + 1) % n, [&](int cpu) { return (r = visit(cpu)) != -1; });
    if (hasIdleCore) scanRule = "select_idle_core: idle core in the LLC scan";
    if (r >= 0) {
        s.why = {scanRule, target, ti.sdLlc};
        return r;
    }
    if (r == -2) return -1;
    if (hasIdleCore) s.llcShared[static_cast<size_t>(ti.llc)].hasIdleCores = false;  // set_idle_cores(target, false)
    if (idleCpu >= 0) s.why = {"select_idle_core: no idle core, the first idle CPU the scan saw", target, ti.sdLlc};
    return idleCpu;
}

int selectIdleSibling(SimState& s, Task& p, int prev, int target) {
    const CpuInfo& ti = s.info[static_cast<size_t>(target)];
    auto because = [&](const char* rule, int cpu) {
        s.why = {rule, target, ti.sdLlc};
        return cpu;
    };
    // asymmetric capacities (5.7+): the domain of interest is sd_asym_cpucapacity, not sd_llc
    // (a symmetric island of such a machine has none and goes the usual way)
    const bool asymScan = s.asymCapacity && ti.sdAsymCapacity >= 0 && s.feat.asymWakeup != AsymWakeup::WakeCap;
    auto capacityScan = [&] {
        const int i = selectIdleCapacity(s, p, ti.sdAsymCapacity, target);
        s.why = {i >= 0 ? "select_idle_capacity: an idle CPU the task fits, else the biggest idle one"
                        : "select_idle_capacity: no idle CPU, stay on target",
                 target, ti.sdAsymCapacity};
        return i >= 0 ? i : target;
    };
    if (asymScan && s.feat.asymWakeup == AsymWakeup::IdleCapacityFirst) return capacityScan();
    // 5.10+: target, prev and recent_used_cpu only when the task fits them (asym_fits_cpu())
    const double util = s.asymCapacity && s.feat.asymWakeup == AsymWakeup::FitsFirst ? s.taskUtilEst(p.id) : 0.0;
    auto fits = [&](int cpu) { return util == 0.0 || asymFitsCpu(s, util, cpu); };
    if (s.idle(target) && allowed(p, target) && fits(target)) return because("select_idle_sibling: target is idle", target);
    const bool cluster = s.feat.clusterScan && s.clusterActive;
    int prevAff = -1, recentAff = -1;
    if (prev != target && shareCache(s, prev, target) && s.idle(prev) && allowed(p, prev) && fits(prev)) {
        if (!cluster || shareResources(s, prev, target))
            return because(cluster ? "select_idle_sibling: prev is idle and shares the target's cluster"
                                   : "select_idle_sibling: prev is idle and shares the target's LLC",
                           prev);
        prevAff = prev;
    }
    const int recent = p.recentUsedCpu;
    p.recentUsedCpu = prev;
    if (recent >= 0 && recent != prev && recent != target && shareCache(s, recent, target) && s.idle(recent) &&
        allowed(p, recent) && fits(recent)) {
        if (!cluster || shareResources(s, recent, target))
            return because("select_idle_sibling: recent_used_cpu is idle and shares the cache", recent);
        recentAff = recent;
    }
    if (asymScan) return capacityScan();
    if (ti.sdLlc < 0) return because("select_idle_sibling: no LLC domain, stay on target", target);
    bool hasIdleCore = false;
    if (s.smtActive) {
        hasIdleCore = s.llcShared[static_cast<size_t>(ti.llc)].hasIdleCores;
        if (!hasIdleCore && shareCache(s, prev, target)) {
            int i = selectIdleSmt(s, p, prev);
            if (i >= 0) return because("select_idle_smt: an idle SMT sibling of prev", i);
        }
    }
    int i = selectIdleCpu(s, p, hasIdleCore, target);
    if (i >= 0) return i;  // selectIdleCpu set the rule
    if (prevAff >= 0) return because("select_idle_sibling: nothing idle in the cluster, prev is idle in the LLC", prevAff);
    if (recentAff >= 0)
        return because("select_idle_sibling: nothing idle in the cluster, recent_used_cpu is idle in the LLC", recentAff);
    return because("select_idle_sibling: no idle CPU found, stay on target", target);
}

SgStats sgWakeupStats(SimState& s, int cpu, int sdIndex, int groupIndex, const Task& p) {
    const SchedDomain& sd = dom(s, cpu, sdIndex);
    const SchedGroup& g = sd.groups[static_cast<size_t>(groupIndex)];
    SgStats st;
    st.maxCapacity = 0;
    const bool onRq = p.state == TaskState::Runnable || p.state == TaskState::Running;
    g.span.forEach([&](int i) {
        st.maxCapacity = std::max(st.maxCapacity, s.capacityOf(i));
        const bool mine = onRq && p.cpu == i;
        // (the three signals at one decay: a fork's or exec's walk reads every CPU once per level)
        const SimState::CpuSignals sig = s.cpuSignals(i);
        st.groupLoad += std::max(0.0, sig.load - (mine ? s.taskLoad(p.id) : 0.0));
        // cpu_util_without(): the average and the estimate, each without the task's own
        const Cpu& rq = s.cpus[static_cast<size_t>(i)];
        double util = std::max(0.0, std::min(1024.0, rq.util.value) - (mine ? s.taskUtil(p.id) : 0.0));
        if (s.feat.utilEst) {
            const double est = static_cast<double>(rq.utilEst) - (mine ? static_cast<double>(p.utilEst) : 0.0);
            util = std::min(1024.0, std::max(util, est));
        }
        st.groupUtil += util;
        st.groupRunnable += sig.runnable;
        // (rq->nr_running: a delayed-dequeue task still counts)
        const Cpu& r = s.cpus[static_cast<size_t>(i)];
        const int nr = r.nrQueued() - (mine ? 1 : 0);
        st.sumNrRunning += nr;
        st.sumHNrRunning += r.nrRunning() - (mine ? 1 : 0);
        if (nr == 0) st.idleCpus++;
    });
    st.groupWeight = s.info[static_cast<size_t>(cpu)].groupWeight[static_cast<size_t>(sdIndex)][static_cast<size_t>(groupIndex)];
    st.groupCapacity = g.capacity > 0 ? g.capacity : 1024.0 * st.groupWeight;
    // the task fits none of the group's CPUs
    if ((sd.flags & SD_ASYM_CPUCAPACITY) && !fitsCapacity(s.taskUtilEst(p.id), st.maxCapacity)) st.misfitTaskLoad = 1;
    st.type = groupClassify(sd.imbalancePct, st, false);
    if (st.type == GroupType::FullyBusy || st.type == GroupType::Overloaded)
        st.avgLoad = st.groupLoad * 1024.0 / st.groupCapacity;
    return st;
}

long adjustNumaImbalance(const SimState& s, long imbalance, int dstRunning, int imbNumaNr, int groupWeight) {
    constexpr long kNumaImbalanceMin = 2;
    if (s.feat.numaImbalance == 0) return imbalance;
    const bool allow = s.feat.numaImbalance == 1 ? dstRunning < (groupWeight >> 2) : dstRunning <= imbNumaNr;
    if (!allow) return imbalance;
    if (imbalance <= kNumaImbalanceMin) return 0;
    return imbalance;
}

int findIdlestGroup(SimState& s, int cpu, int sdIndex, const Task& p) {
    const SchedDomain& sd = dom(s, cpu, sdIndex);
    int idlest = -1, local = -1;
    SgStats idlestSgs, localSgs;
    idlestSgs.type = GroupType::Overloaded;
    idlestSgs.avgLoad = std::numeric_limits<double>::max();
    if (s.recording()) s.scratchGroups.clear();
    for (size_t gi = 0; gi < sd.groups.size(); ++gi) {
        const SchedGroup& g = sd.groups[gi];
        if (!g.span.intersects(p.allowed)) continue;
        const bool isLocal = g.span.test(cpu);
        SgStats sgs = sgWakeupStats(s, cpu, sdIndex, static_cast<int>(gi), p);
        if (s.recording())
            s.scratchGroups.push_back({g.span, sgs.groupLoad, sgs.groupUtil, sgs.sumNrRunning, sgs.idleCpus,
                                       groupTypeName(sgs.type), isLocal});
        if (isLocal) {
            local = static_cast<int>(gi);
            localSgs = sgs;
            continue;
        }
        // update_pick_idlest()
        bool pick = true;
        if (sgs.type > idlestSgs.type) pick = false;
        else if (sgs.type == idlestSgs.type) {
            switch (sgs.type) {
            case GroupType::Overloaded:
            case GroupType::FullyBusy:
                if (idlestSgs.avgLoad <= sgs.avgLoad) pick = false;
                break;
            case GroupType::Imbalanced:
            case GroupType::AsymPacking:
            case GroupType::SmtBalance:  // not used in the slow wakeup path
                pick = false;
                break;
            case GroupType::MisfitTask:  // the group with the biggest CPU
                if (idlestSgs.maxCapacity >= sgs.maxCapacity) pick = false;
                break;
            case GroupType::HasSpare:
                if (idlestSgs.idleCpus > sgs.idleCpus) pick = false;
                else if (idlestSgs.idleCpus == sgs.idleCpus && idlestSgs.groupUtil <= sgs.groupUtil) pick = false;
                break;
            }
        }
        if (idlest < 0 || pick) {
            if (idlest < 0 || pick) { idlest = static_cast<int>(gi); idlestSgs = sgs; }
        }
    }
    if (idlest < 0) return -1;
    if (local < 0) return idlest;
    if (localSgs.type < idlestSgs.type) return -1;
    if (localSgs.type > idlestSgs.type) return idlest;
    switch (localSgs.type) {
    case GroupType::Overloaded:
    case GroupType::FullyBusy: {
        const double imbalance = 1024.0 * (sd.imbalancePct - 100) / 100.0;
        if ((sd.flags & SD_NUMA) && idlestSgs.avgLoad + imbalance >= localSgs.avgLoad) return -1;
        if (idlestSgs.avgLoad >= localSgs.avgLoad + imbalance) return -1;
        if (100.0 * localSgs.avgLoad <= sd.imbalancePct * idlestSgs.avgLoad) return -1;
        break;
    }
    case GroupType::Imbalanced:
    case GroupType::AsymPacking:
    case GroupType::SmtBalance:  // not used in the slow wakeup path
        return -1;
    case GroupType::MisfitTask:  // stay unless the idlest group has a bigger CPU
        if (localSgs.maxCapacity >= idlestSgs.maxCapacity) return -1;
        break;
    case GroupType::HasSpare:
        if (sd.flags & SD_NUMA) {
            // NUMA balancing on: a task with a preferred node stays on it, or goes to it
            if (const int preferred = numaPreferredNode(s, p); preferred >= 0) {
                if (s.info[static_cast<size_t>(cpu)].node == preferred) return -1;
                if (s.info[static_cast<size_t>(sd.groups[static_cast<size_t>(idlest)].span.first())].node == preferred)
                    return idlest;
            }
            // the allowed imbalance, no more than the CPUs the task may use in the local group
            // (the kernel's `p->nr_cpus_allowed != NR_CPUS` holds for any task on a machine
            // with fewer CPUs than the kernel was built for)
            int imbNumaNr = static_cast<int>(sd.imbNumaNr);
            if (s.feat.numaImbalance == 2)
                imbNumaNr = std::min((sd.groups[static_cast<size_t>(local)].span & p.allowed).count(), imbNumaNr);
            const long imb = std::abs(localSgs.idleCpus - idlestSgs.idleCpus);
            if (!adjustNumaImbalance(s, imb, localSgs.sumNrRunning + 1, imbNumaNr,
                                     s.info[static_cast<size_t>(cpu)].groupWeight[static_cast<size_t>(sdIndex)][static_cast<size_t>(local)]))
                return -1;
        }
        if (localSgs.idleCpus >= idlestSgs.idleCpus) return -1;
        break;
    }
    return idlest;
}

int findIdlestGroupCpu(SimState& s, const CpuSet& group, const Task& p, int thisCpu) {
    if (!group.empty() && group.first() == group.last()) return group.first();
    int shallowest = -1, leastLoaded = thisCpu;
    int64_t latestIdle = 0;
    double minLoad = std::numeric_limits<double>::max();
    (group & p.allowed).forEach([&](int i) {
        if (s.idle(i)) {
            const int64_t stamp = s.cpus[static_cast<size_t>(i)].idleStamp;
            if (shallowest < 0 || stamp > latestIdle) { shallowest = i; latestIdle = stamp; }
        } else if (shallowest < 0) {
            const double load = s.cpuLoad(i);
            if (load < minLoad) { minLoad = load; leastLoaded = i; }
        }
    });
    return shallowest >= 0 ? shallowest : leastLoaded;
}

int findIdlestCpu(SimState& s, const Task& p, int cpu, int prevCpu, int sdIndex, uint32_t sdFlag) {
    if (!dom(s, cpu, sdIndex).span.intersects(p.allowed)) {
        s.why = {"find_idlest_cpu: no allowed CPU in the domain, keep prev", -1, -1};
        return prevCpu;
    }
    s.why = {"find_idlest_group: the local group is the idlest at every level, stay", cpu, sdIndex};
    if (s.recording()) s.whyGroups.clear();
    int newCpu = cpu;
    int sdi = sdIndex;
    while (sdi >= 0) {
        const SchedDomain& sd = dom(s, cpu, sdi);
        if (!(sd.flags & sdFlag)) { --sdi; continue; }
        const int g = findIdlestGroup(s, cpu, sdi, p);
        if (g < 0) { --sdi; continue; }
        newCpu = findIdlestGroupCpu(s, sd.groups[static_cast<size_t>(g)].span, p, cpu);
        if (newCpu == cpu) { --sdi; continue; }
        s.why = {s.idle(newCpu) ? "find_idlest_group: an idler group; find_idlest_group_cpu: its most recently idled CPU"
                                : "find_idlest_group: a less loaded group; find_idlest_group_cpu: its least loaded CPU",
                 cpu, sdi};
        if (s.recording()) s.whyGroups = s.scratchGroups;
        // now balance at a lower domain level of new_cpu
        const int weight = s.info[static_cast<size_t>(cpu)].spanWeight[static_cast<size_t>(sdi)];
        cpu = newCpu;
        sdi = -1;
        for (int i = 0; i < nrDomains(s, cpu); ++i) {
            const SchedDomain& t = dom(s, cpu, i);
            if (weight <= s.info[static_cast<size_t>(cpu)].spanWeight[static_cast<size_t>(i)]) break;
            if (t.flags & sdFlag) sdi = i;
        }
    }
    return newCpu;
}

namespace {

// Step mode: the statistics of the groups of `cpu`'s domain `sdIndex`, read without advancing
// any PELT signal (recording must not perturb the run).
std::vector<GroupView> peekGroups(const SimState& s, int cpu, int sdIndex) {
    std::vector<GroupView> out;
    if (sdIndex < 0) return out;
    for (const auto& g : dom(s, cpu, sdIndex).groups) {
        GroupView v;
        v.span = g.span;
        v.local = g.span.test(cpu);
        g.span.forEach([&](int i) {
            const Cpu& r = s.cpus[static_cast<size_t>(i)];
            v.load += r.load.peek(s.now);
            v.util += std::min(1024.0, s.withUtilEst(r.util.peek(s.now), r.utilEst));
            v.nrRunning += r.nrQueued();
            v.idleCpus += r.nrQueued() == 0;
        });
        out.push_back(std::move(v));
    }
    return out;
}

void recordPlacement(SimState& s, const Task& p, int prevCpu, int thisCpu, int wakeFlags, int newCpu,
                     const char* affineRule) {
    Decision d;
    d.timeNs = s.now;
    d.kind = (wakeFlags & WF_FORK)   ? DecisionKind::ForkPlacement
             : (wakeFlags & WF_EXEC) ? DecisionKind::ExecPlacement
                                     : DecisionKind::WakeupPlacement;
    d.task = p.id;
    d.cpu = thisCpu;
    d.prevCpu = prevCpu;
    d.chosenCpu = newCpu;
    if (s.why.domain >= 0) {
        const SchedDomain& sd = dom(s, s.why.cpu, s.why.domain);
        d.level = sd.level;
        d.span = sd.span;
        if (d.kind == DecisionKind::WakeupPlacement) d.groups = peekGroups(s, s.why.cpu, s.why.domain);
        else d.groups = s.whyGroups;
    } else {
        d.level = "none";
        d.span = s.why.cpu >= 0 ? CpuSet::single(s.why.cpu) : p.allowed;
    }
    d.rule = affineRule ? std::string(affineRule) + "; " + s.why.rule : std::string(s.why.rule);
    s.decisions->push_back(std::move(d));
}

}  // namespace

int selectTaskRqFair(SimState& s, Task& p, int prevCpu, int thisCpu, int wakeFlags, Task* waker) {
    const uint32_t sdFlag = (wakeFlags & WF_FORK) ? SD_BALANCE_FORK
                            : (wakeFlags & WF_EXEC) ? SD_BALANCE_EXEC
                                                    : SD_BALANCE_WAKE;
    const bool sync = (wakeFlags & WF_SYNC) != 0;
    // select_task_rq() (core.c): a task allowed one CPU goes there without the fair class's
    // placement, so without record_wakee() (its waker's flips do not count it) and without the
    // idle scan's recent_used_cpu
    if (p.nrAllowed == 1) {
        const int only = p.allowed.first();
        s.why = {"select_task_rq: allowed one CPU, no fair-class placement", only, -1};
        return only;
    }
    int newCpu = prevCpu;
    bool wantAffine = false;
    const char* affineRule = nullptr;
    if ((wakeFlags & WF_TTWU) && waker) {
        recordWakee(s, *waker, p);
        const bool wide = wakeWide(s, *waker, p, thisCpu);
        // until 5.6 a wakee too big for the smaller of the two CPUs gets no affine wakeup
        const bool cap = !wide && s.feat.asymWakeup == AsymWakeup::WakeCap && wakeCap(s, p, thisCpu, prevCpu);
        wantAffine = !wide && !cap && allowed(p, thisCpu);
        if (wide) affineRule = "wake_wide: many wakees, no affine wakeup";
        else if (cap) affineRule = "wake_cap: the wakee does not fit the smaller CPU, no affine wakeup";
        else if (!wantAffine) affineRule = "no affine wakeup: the waker's CPU is not in the wakee's affinity";
    } else if (wakeFlags & WF_TTWU) {
        // a timer's or an interrupt's wakeup, run where it fired (prev here), no waker's flips to
        // weigh: want_affine holds, and the first SD_WAKE_AFFINE domain ends the walk in the fast
        // path, even where a domain has SD_BALANCE_WAKE (4.20-5.6 asymmetric capacity)
        wantAffine = allowed(p, thisCpu) && !(s.feat.asymWakeup == AsymWakeup::WakeCap && wakeCap(s, p, thisCpu, prevCpu));
    }
    int sd = -1;
    for (int i = 0; i < nrDomains(s, thisCpu); ++i) {
        const SchedDomain& d = dom(s, thisCpu, i);
        if (wantAffine && (d.flags & SD_WAKE_AFFINE) && d.span.test(prevCpu)) {
            if (thisCpu != prevCpu) {
                newCpu = wakeAffine(s, i, p, thisCpu, prevCpu, sync, waker);
                affineRule = newCpu == thisCpu ? "wake_affine: pulled towards the waker's CPU"
                                               : "wake_affine: stays near prev";
            }
            sd = -1;
            break;
        }
        if (d.flags & sdFlag) sd = i;
        else if (!wantAffine) break;
    }
    if (sd >= 0) newCpu = findIdlestCpu(s, p, thisCpu, prevCpu, sd, sdFlag);
    else if (wakeFlags & WF_TTWU) newCpu = selectIdleSibling(s, p, prevCpu, newCpu);
    else s.why = {"select_task_rq_fair: no domain balances this kind of placement, keep prev", prevCpu, -1};
    if (!allowed(p, newCpu)) {
        // select_fallback_rq(): the first allowed online CPU (the kernel prefers the same node)
        int fb = -1;
        const int node = s.info[static_cast<size_t>(prevCpu >= 0 ? prevCpu : 0)].node;
        p.allowed.forEach([&](int c) {
            if (fb < 0 && s.info[static_cast<size_t>(c)].node == node) fb = c;
        });
        newCpu = fb >= 0 ? fb : p.allowed.first();
        s.why = {"select_fallback_rq: the choice is not allowed, first allowed CPU (same node first)", -1, -1};
    }
    if (s.recording()) recordPlacement(s, p, prevCpu, thisCpu, wakeFlags, newCpu, affineRule);
    return newCpu;
}

}  // namespace schedscope::sim
