#include "sim/load_balance.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "domains/sd_flags.h"
#include "sim/asym_packing.h"
#include "sim/cpu_capacity.h"
#include "sim/cpu_iter.h"
#include "sim/fair_rq.h"
#include "sim/numa_balancing.h"
#include "sim/select_task_rq.h"
#include "sim/util_est.h"

namespace schedscope::sim {

void setBalanceInterval(const SimState& s, DomainState& ds, double ms) {
    ds.balanceIntervalMs = ms;
    const int64_t j = s.jiffyNs();
    const int64_t maxJ = std::max<int64_t>(1, static_cast<int64_t>(s.opt.hz) * s.onlineCount / 10);
    // msecs_to_jiffies() rounds up; a busy interval is busy_factor times as long, one jiffy
    // short since 5.10 (so that a domain's busy balances do not fall on its children's ticks);
    // clamped to 1 .. max_load_balance_interval
    auto jiffiesOf = [&](double intervalMs) {
        return static_cast<int64_t>(std::ceil(intervalMs * 1e6 / static_cast<double>(j) - 1e-9));
    };
    ds.idleIntervalNs = std::clamp<int64_t>(jiffiesOf(ms), 1, maxJ) * j;
    const int64_t busy = jiffiesOf(ms * ds.busyFactor) - (s.feat.busyIntervalLessAJiffy ? 1 : 0);
    ds.busyIntervalNs = std::clamp<int64_t>(busy, 1, maxJ) * j;
}

namespace {

Cpu& rqOf(SimState& s, int cpu) { return s.cpus[static_cast<size_t>(cpu)]; }

// sd_parent->groups->sgc->imbalance: load_balance()'s note on the parent domain's local group
// that pinned tasks kept this domain unbalanced (looked up in the CPU's view, not through the
// parent's group ring, whose group masks missed the cache)
char& parentGroupImbalance(SimState& s, int cpu, int sdIndex) {
    const CpuInfo& ci = s.info[static_cast<size_t>(cpu)];
    return s.groupImbalance[ci.groupSpans[static_cast<size_t>(sdIndex) + 1].localImbalanceAt];
}

// get_sd_balance_interval(), in ns rounded to jiffies (DomainState keeps both, idle and busy,
// as setBalanceInterval() sets them)
int64_t balanceIntervalNs(const DomainState& ds, bool busy) { return busy ? ds.busyIntervalNs : ds.idleIntervalNs; }

int64_t jiffiesNow(const SimState& s) { return s.now - s.now % s.jiffyNs(); }

// one group is an SMT core (of more than one CPU) and the other is not: smt_vs_nonsmt_groups() (6.6)
bool smtVsNonsmt(const SgStats& a, const SgStats& b) { return (a.flags & SD_SHARE_CPUCAPACITY) != (b.flags & SD_SHARE_CPUCAPACITY); }

// What update_sd_pick_busiest() weighs in an SD_ASYM_CPUCAPACITY domain: the capacity of the
// CPU balancing and what its own group is.
struct AsymCapacityCheck {
    double dstCapacity = 1024;
    GroupType localType = GroupType::HasSpare;
};

bool busierOfSameType(const SimFeatures& feat, const SgStats& sgs, const SgStats& busiest);

// update_sd_pick_busiest(); `asym` only in an SD_ASYM_CPUCAPACITY domain
bool pickBusiest(const SimFeatures& feat, const SgStats& sgs, const SgStats& busiest, bool haveBusiest,
                 const AsymCapacityCheck* asym) {
    if (sgs.sumHNrRunning == 0) return false;
    // a misfit task this CPU cannot help: it is no bigger, or its own group is busy
    if (asym && sgs.type == GroupType::MisfitTask &&
        (!capacityGreater(asym->dstCapacity, sgs.maxCapacity) || asym->localType != GroupType::HasSpare))
        return false;
    // the kernel's first busiest is an empty has_spare group, which any group of a busier type
    // beats at once and one with spare capacity beats on its way past the capacity test below
    if (haveBusiest || sgs.type == GroupType::HasSpare) {
        if (haveBusiest && sgs.type > busiest.type) return true;
        if (haveBusiest && sgs.type < busiest.type) return false;
        if (haveBusiest && !busierOfSameType(feat, sgs, busiest)) return false;
        // no more than one task per CPU on bigger CPUs: moving them to a smaller one costs
        // throughput
        if (asym && sgs.type <= GroupType::FullyBusy && capacityGreater(sgs.minCapacity, asym->dstCapacity)) return false;
    }
    return true;
}

// update_sd_pick_busiest()'s comparison of two groups of one type
bool busierOfSameType(const SimFeatures& feat, const SgStats& sgs, const SgStats& busiest) {
    // the has_spare rule: no more idle CPUs than the busiest, and if as many, more tasks
    auto busierWithSpare = [&] {
        if (sgs.idleCpus > busiest.idleCpus) return false;
        if (sgs.idleCpus == busiest.idleCpus && sgs.sumNrRunning <= busiest.sumNrRunning) return false;
        return true;
    };
    switch (sgs.type) {
    case GroupType::Overloaded:
        return sgs.avgLoad > busiest.avgLoad;
    case GroupType::SmtBalance:
        // an idle CPU in either SMT core: judged as groups with spare capacity (6.6-rc2's fix)
        if (sgs.idleCpus != 0 || busiest.idleCpus != 0) return busierWithSpare();
        [[fallthrough]];
    case GroupType::FullyBusy:
        // avg_load is 0 unless overloaded: the first one stays, except that from 6.5 an SMT core
        // takes the place of a group that is not one ("SMT sched groups need more help")
        if (sgs.avgLoad != busiest.avgLoad || !feat.smtFullyBusyBusiest) return sgs.avgLoad > busiest.avgLoad;
        return !(busiest.flags & SD_SHARE_CPUCAPACITY);
    case GroupType::AsymPacking:  // prefer to move from the lowest priority CPU's work
        return busiest.asymPreferPrio > sgs.asymPreferPrio;
    case GroupType::MisfitTask:  // the biggest misfit
        return sgs.misfitTaskLoad >= busiest.misfitTaskLoad;
    case GroupType::Imbalanced:
        return false;
    case GroupType::HasSpare:
        // 6.6: never an SMT core running one task over a group that is not SMT (pulling its task
        // would leave the core idle), and a group that is not SMT over an SMT core
        if (feat.smtBalance && smtVsNonsmt(busiest, sgs))
            return !((sgs.flags & SD_SHARE_CPUCAPACITY) && sgs.sumHNrRunning <= 1);
        return busierWithSpare();
    }
    return false;
}

namespace {
// rq->cfs_tasks walked from its tail: the least recently enqueued, picked or passed over first
// (Task::cfsTasksStamp), the running task where its pick put it, at most `limit` of them:
// detach_tasks() looks at no more than sysctl_sched_nr_migrate, and sorting a queue of hundreds
// for each pass was most of a large hackbench run. Delayed-dequeue tasks are on it (only their
// dequeue takes them off): can_migrate_task() moves one for migrate_load only.
class CfsTasks {
public:
    CfsTasks(SimState& s, const Cpu& rq, size_t limit) : s_(s) {
        if (s.taskListsInUse == s.taskLists.size()) s.taskLists.emplace_back();
        tasks_ = &s.taskLists[s.taskListsInUse++];
        fill(rq, limit);
    }
    ~CfsTasks() { --s_.taskListsInUse; }
    CfsTasks(const CfsTasks&) = delete;
    CfsTasks& operator=(const CfsTasks&) = delete;
    std::vector<int>::const_iterator begin() const { return tasks_->begin(); }
    std::vector<int>::const_iterator end() const { return tasks_->end(); }

private:
    void fill(const Cpu& rq, size_t limit) {
        std::vector<int>& tasks = *tasks_;
        tasks.clear();
        tasks.assign(rq.queued.begin(), rq.queued.end());
        if (rq.curr >= 0) tasks.push_back(rq.curr);
        auto fromTail = [&](int a, int b) {
            return s_.tasks[static_cast<size_t>(a)].cfsTasksStamp < s_.tasks[static_cast<size_t>(b)].cfsTasksStamp;
        };
        if (tasks.size() > limit) {
            std::nth_element(tasks.begin(), tasks.begin() + static_cast<std::ptrdiff_t>(limit), tasks.end(), fromTail);
            tasks.resize(limit);
        }
        std::sort(tasks.begin(), tasks.end(), fromTail);
    }

    SimState& s_;
    std::vector<int>* tasks_ = nullptr;
};
}  // namespace
}  // namespace

// detach_tasks() + attach_tasks()
int detachTasks(SimState& s, SchedOps& ops, LbEnv& env, MigrationCause cause) {
    if (env.imbalance <= 0) return 0;
    Cpu& src = rqOf(s, env.srcCpu);
    // (rq->nr_running: a delayed task counts until its dequeue finishes)
    const int loopMax = std::min(32, src.nrQueued());
    const CfsTasks cand(s, src, static_cast<size_t>(loopMax));
    env.srcPreferredRunning = -1;
    env.keepSrcPreferredRunning = true;
    const DomainState& ds = rqOf(s, env.sdOwner()).dom[static_cast<size_t>(env.sd)];
    int loops = 0, moved = 0;
    for (int id : cand) {
        if (env.idle != BalanceIdle::NotIdle && src.nrQueued() <= 1) break;
        if (++loops > loopMax) break;
        Task& p = s.tasks[static_cast<size_t>(id)];
        if (!canMigrateTask(s, env, p)) {
            toCfsTasksHead(s, p);  // next: list_move() to the head
            continue;
        }
        bool take = true;
        switch (env.type) {
        case MigrationType::Load: {
            const double load = std::max(1.0, s.taskLoad(id));
            const unsigned shift = std::min(ds.nrBalanceFailed, 30u);
            take = load / static_cast<double>(1u << shift) <= env.imbalance;  // shr_bound()
            if (take) env.imbalance -= load;
            break;
        }
        case MigrationType::Util: {
            const double util = s.taskUtilEst(id);  // task_util_est()
            const unsigned shift = s.feat.utilShrBound ? std::min(ds.nrBalanceFailed, 30u) : 0u;
            take = util / static_cast<double>(1u << shift) <= env.imbalance;  // shr_bound()
            if (take) env.imbalance -= util;
            break;
        }
        case MigrationType::Task:
            env.imbalance -= 1;
            break;
        case MigrationType::Misfit:
            take = !taskFitsCpu(s, p, env.srcCpu);  // else not the misfit
            if (take) env.imbalance = 0;
            break;
        }
        if (!take) {
            toCfsTasksHead(s, p);
            continue;
        }
        ops.migrateTask(id, env.dstCpu, cause);
        env.srcPreferredRunning = -1;  // the source changed
        if (s.recording()) env.moved.push_back(id);
        ++moved;
        if (env.idle == BalanceIdle::NewlyIdle) break;  // CONFIG_PREEMPTION: one task at a time
        if (env.imbalance <= 0) break;
    }
    return moved;
}

namespace {
// need_active_balance()
bool needActiveBalance(const SimState& s, const LbEnv& env) {
    const SchedDomain& sd = dom(s, env.dstCpu, env.sd);
    const DomainState& ds = s.cpus[static_cast<size_t>(env.dstCpu)].dom[static_cast<size_t>(env.sd)];
    // asym_active_balance(): push a lower priority CPU's running task up to an idle preferred
    // CPU (whole core idle); an SMT core with busy siblings may be helped by any idle CPU
    if (env.idle != BalanceIdle::NotIdle && schedUseAsymPrio(s, sd, env.dstCpu) &&
        (schedAsymPrefer(s, env.dstCpu, env.srcCpu) || !schedUseAsymPrio(s, sd, env.srcCpu)))
        return true;
    // a running misfit task goes to the bigger CPU at once (since 4.20, before the rework too)
    if (env.type == MigrationType::Misfit) return true;
    const bool failedEnough = ds.nrBalanceFailed > sd.cacheNiceTries + 2;
    if (s.feat.legacyActiveBalance) return failedEnough;
    // imbalanced_active_balance(): spreading tasks when there is spare capacity
    return env.type == MigrationType::Task && failedEnough;
}

}  // namespace

namespace {
// update_sg_lb_stats()'s loop over the group's CPUs still in env->cpus
SgStats sumCpuByCpu(SimState& s, const LbEnv& env, const CpuSet& span) {
    SgStats st;
    const CpuSet& cpus = env.candidates();
    span.forEach([&](int i) {
        if (!cpus.test(i)) return;
        const SimState::CpuSignals sig = s.cpuSignals(i);
        st.groupLoad += sig.load;
        st.groupUtil += sig.util;
        st.groupRunnable += sig.runnable;
        const Cpu& r = s.cpus[static_cast<size_t>(i)];
        const int nr = r.nrQueued();
        st.sumNrRunning += nr;
        st.sumHNrRunning += r.nrRunning();
        if (nr == 0) st.idleCpus++;
    });
    return st;
}

// the span sums and the CPU-by-CPU ones agree: the same counts, signals within the span sums'
// rounding to 1/1024 and a relative 1e-9 of accumulated rounding
bool sameSums(const SgStats& a, const SgStats& b) {
    auto close = [](double x, double y) { return std::abs(x - y) <= 1.0 / 1024 + 1e-9 * std::max(std::abs(x), std::abs(y)); };
    return a.sumNrRunning == b.sumNrRunning && a.sumHNrRunning == b.sumHNrRunning && a.idleCpus == b.idleCpus &&
           close(a.groupLoad, b.groupLoad) &&
           close(a.groupUtil, b.groupUtil) && close(a.groupRunnable, b.groupRunnable);
}
}  // namespace

namespace {
// update_sg_lb_stats() for group `g` of env.sd, `rg` its run-long facts and `local` whether it
// holds the balancing CPU. The group's own span is read only off the common path (a CPU subset,
// asymmetric capacities or priorities): reaching it through the domain's ring missed the cache.
void sgLbStats(SimState& s, const LbEnv& env, const SchedDomain& sd, size_t g, const SimState::RingGroup& rg, bool local,
               SgStats& st) {
    // every field is set below or here: the caller reuses one SgStats for all the groups of a
    // pass (zeroing it for each group was a `rep stos` per group)
    st.avgLoad = 0;
    st.misfitTaskLoad = 0;
    st.asymPacking = false;
    st.asymPreferPrio = 0;
    if (env.cpusWhole) {
        const SpanSums::Sums sum = s.groupSums(rg);
        st.groupLoad = sum.load;
        st.groupUtil = sum.util;
        // (a one-CPU group's sums are that CPU's cpu_util_cfs(), estimate included)
        if (s.feat.utilEst && rg.onlyCpu < 0) st.groupUtil += utilEstExcess(s, sd.groups[g].span);
        st.groupRunnable = sum.runnable;
        st.sumNrRunning = sum.nrRunning;
        st.sumHNrRunning = sum.nrRunnable;
        st.idleCpus = sum.idleCpus;
        if (s.verifySpanSums) {
            ++s.spanSumChecks;
            if (!sameSums(st, sumCpuByCpu(s, env, sd.groups[g].span))) ++s.spanSumMismatches;
        }
    } else {
        st = sumCpuByCpu(s, env, sd.groups[g].span);
    }
    st.groupWeight = rg.weight;
    st.groupCapacity = rg.capacity;
    const SimState::GroupShape& shape = rg.shape;
    st.cores = shape.cores;
    st.flags = shape.flags;
    st.minCapacity = shape.minCapacity;
    st.maxCapacity = shape.maxCapacity;
    // the misfit task load of another group's CPUs (which also marks the root domain overloaded:
    // SimState::rdOverloaded() counts misfit CPUs as they come)
    if ((sd.flags & SD_ASYM_CPUCAPACITY) && !local) {
        const CpuSet& cpus = env.candidates();
        sd.groups[g].span.forEach([&](int i) {
            if (cpus.test(i)) st.misfitTaskLoad = std::max(st.misfitTaskLoad, s.cpus[static_cast<size_t>(i)].misfitTaskLoad);
        });
    }
    const bool smtCore = shape.flags & SD_SHARE_CPUCAPACITY;  // an SMT core of more than one CPU
    // check if the idle dst CPU is preferred to this group: sched_group_asym(), where CPU
    // priorities do not count for an SMT core with more than one busy sibling
    if (!s.asymPrio.empty() && env.idle != BalanceIdle::NotIdle && st.sumHNrRunning > 0 && !local) {
        const int prefer = asymPreferCpu(s, sd.groups[g].span);
        st.asymPreferPrio = s.asymPrio[static_cast<size_t>(prefer)];
        st.asymPacking = !(smtCore && st.groupWeight - st.idleCpus != 1) && schedAsym(s, sd, env.dstCpu, prefer);
    }
    // smt_balance() (6.6): an SMT core running more than one task, for an idle CPU elsewhere
    st.smtBalance = s.feat.smtBalance && env.idle != BalanceIdle::NotIdle && smtCore && st.sumHNrRunning > 1 && !local;
    const bool imbalanced = s.groupImbalanceOf(sd.topologyLevel, rg.firstCpu) != 0;
    st.type = groupClassify(sd.imbalancePct, st, imbalanced);
    if (st.type == GroupType::Overloaded) st.avgLoad = st.groupLoad * 1024.0 / st.groupCapacity;
}
}  // namespace

SgStats updateSgLbStats(SimState& s, const LbEnv& env, int g) {
    const SchedDomain& sd = dom(s, env.dstCpu, env.sd);
    SgStats st;
    sgLbStats(s, env, sd, static_cast<size_t>(g), s.ringGroup(env.dstCpu, env.sd, g),
              sd.groups[static_cast<size_t>(g)].span.test(env.dstCpu), st);
    return st;
}

namespace {
// rq->nr_numa_running and rq->nr_preferred_running, which the kernel counts as tasks join and
// leave a runqueue (account_numa_enqueue()): the CPU's tasks with a preferred node, and those of
// them on it. Under NUMA balancing a task's preferred node is its memory's (numaPreferredNode());
// without it no task has one.
struct NumaRunning {
    int numa = 0, preferred = 0;
};
NumaRunning numaRunning(const SimState& s, int cpu) {
    NumaRunning out;
    if (s.opt.numaMemoryFollowsS <= 0) return out;
    const Cpu& rq = s.cpus[static_cast<size_t>(cpu)];
    const int node = s.info[static_cast<size_t>(cpu)].node;
    auto count = [&](int id) {
        const int preferred = numaPreferredNode(s, s.tasks[static_cast<size_t>(id)]);
        out.numa += preferred >= 0;
        out.preferred += preferred == node;
    };
    for (int id : rq.queued) count(id);
    if (rq.curr >= 0) count(rq.curr);
    return out;
}

// fbq_classify_group() / fbq_classify_rq() of `runnable` tasks, `n` of them numa ones
FbqType fbqClassOf(int runnable, const NumaRunning& n) {
    if (runnable > n.numa) return FbqType::Regular;
    if (runnable > n.preferred) return FbqType::Remote;
    return FbqType::All;
}

// fbq_classify_group() of the busiest group: its runnable tasks against the numa ones of its
// CPUs still in env->cpus (update_sg_lb_stats() adds these up at NUMA domains only, the one
// place they are read). Each of those CPUs' own class (fbq_classify_rq()) is kept on the way
// in SimState::fbqRqClass for find_busiest_queue(), which asks it of the same CPUs next,
// nothing changed in between: counting a runqueue's tasks reads each task, and that twice
// took a tenth of a pgbench run's time on 128 CPUs.
FbqType fbqClassifyBusiest(SimState& s, LbEnv& env, const SchedDomain& sd, const SdLbStats& sds) {
    NumaRunning group;
    const CpuSet& cpus = env.candidates();
    sd.groups[static_cast<size_t>(sds.busiest)].span.forEach([&](int i) {
        if (!cpus.test(i)) return;
        const NumaRunning n = numaRunning(s, i);
        group.numa += n.numa;
        group.preferred += n.preferred;
        s.fbqRqClass[static_cast<size_t>(i)] = static_cast<uint8_t>(fbqClassOf(s.cpus[static_cast<size_t>(i)].nrQueued(), n));
    });
    env.fbqClassesOfGroup = sds.busiest;
    return fbqClassOf(sds.busiestStat.sumHNrRunning, group);
}
}  // namespace

FbqType fbqClassifyRq(const SimState& s, int cpu) {
    return fbqClassOf(s.cpus[static_cast<size_t>(cpu)].nrQueued(), numaRunning(s, cpu));  // rq->nr_running
}

namespace {
// update_sd_lb_stats() into `sds`, which findBusiestGroup() and loadBalance() keep for the pass:
// the fields it adds to or may leave unset are reset here, the group stats are copied in
// when their group is found
void fillSdLbStats(SimState& s, LbEnv& env, SdLbStats& sds) {
    const SchedDomain& sd = dom(s, env.dstCpu, env.sd);
    sds.busiest = sds.local = -1;
    sds.totalLoad = sds.totalCapacity = sds.avgLoad = 0;
    sds.preferSibling = false;
    // the local CPU's child domain prefers siblings; from 6.5 the busiest group's (below)
    if (!s.feat.smtFullyBusyBusiest) sds.preferSibling = env.sd > 0 && (dom(s, env.dstCpu, env.sd - 1).flags & SD_PREFER_SIBLING);
    double sumUtil = 0;
    if (s.recording()) s.scratchGroups.clear();
    // the local group comes first in the ring, so its type is known when the others are weighed
    const bool asym = (sd.flags & SD_ASYM_CPUCAPACITY) != 0;
    AsymCapacityCheck asymCheck{s.capacityOf(env.dstCpu), GroupType::HasSpare};
    // the CPU's view of the group ring, walked alongside sd.groups
    const CpuInfo::GroupSpans& view = s.info[static_cast<size_t>(env.dstCpu)].groupSpans[static_cast<size_t>(env.sd)];
    const std::vector<SimState::RingGroup>& ring = s.ringGroups[static_cast<size_t>(view.ring)].groups;
    size_t at = view.first;
    const size_t nGroups = ring.size();
    SgStats sgs;
    for (size_t g = 0; g < nGroups; ++g, at = at + 1 < nGroups ? at + 1 : 0) {
        const bool local = view.ownFirst ? g == 0 : sd.groups[g].span.test(env.dstCpu);
        sgLbStats(s, env, sd, g, ring[at], local, sgs);
        if (s.recording())
            s.scratchGroups.push_back({sd.groups[g].span, sgs.groupLoad, sgs.groupUtil, sgs.sumNrRunning, sgs.idleCpus,
                                       groupTypeName(sgs.type), local});
        sumUtil += sgs.groupUtil;
        if (local) {
            sds.local = static_cast<int>(g);
            sds.localStat = sgs;
            asymCheck.localType = sgs.type;
        } else if (pickBusiest(s.feat, sgs, sds.busiestStat, sds.busiest >= 0, asym ? &asymCheck : nullptr)) {
            sds.busiest = static_cast<int>(g);
            sds.busiestStat = sgs;
        }
        sds.totalLoad += sgs.groupLoad;
        sds.totalCapacity += sgs.groupCapacity;
    }
    if (s.feat.smtFullyBusyBusiest) sds.preferSibling = sds.busiest >= 0 && (sds.busiestStat.flags & SD_PREFER_SIBLING);
    // at the top domain the balance sets rd->overloaded to what it saw: a CPU with 2 or more
    // tasks, or (capacity-asymmetric domains) a misfit task
    if (env.sd + 1 == nrDomains(s, env.dstCpu)) {
        const size_t rd = static_cast<size_t>(s.rootDomainOf[static_cast<size_t>(env.dstCpu)]);
        int misfits = asym ? s.rdMisfitCpus[rd] : 0;
        if (misfits > 0 && sds.local >= 0)  // (the local group's own do not count)
            sd.groups[static_cast<size_t>(sds.local)].span.forEach(
                [&](int c) { misfits -= s.cpus[static_cast<size_t>(c)].misfitTaskLoad > 0; });
        s.rdOverloadFlag[rd] = s.rdOverloadedCpus[rd] > 0 || misfits > 0;
    }
    // update_idle_cpu_scan() (SIS_UTIL): fewer CPUs to scan as the LLC fills up
    const CpuInfo& ci = s.info[static_cast<size_t>(env.dstCpu)];
    if (s.feat.sisUtil && env.idle != BalanceIdle::NewlyIdle && ci.spanWeight[static_cast<size_t>(env.sd)] == ci.llcSize) {
        const double llcWeight = ci.llcSize;
        const double x = sumUtil / llcWeight;
        const double pct = sd.imbalancePct / 100.0;
        const double tmp = std::min(1024.0, x * x * pct * pct / 1024.0);
        s.llcShared[static_cast<size_t>(ci.llc)].nrIdleScan = static_cast<int>((1024.0 - tmp) * llcWeight / 1024.0);
    }
}
}  // namespace

SdLbStats updateSdLbStats(SimState& s, LbEnv& env) {
    SdLbStats sds;
    fillSdLbStats(s, env, sds);
    return sds;
}

namespace {
// sibling_imbalance() (6.6): the tasks to move, doubled, so that both groups run as many tasks
// per core (before 6.6, and between groups of as many cores, the difference in tasks); 0 for a
// busy CPU. An empty local group takes at least one task of a busiest group running several.
long siblingImbalance(const LbEnv& env, const SgStats& busiest, const SgStats& local) {
    if (env.idle == BalanceIdle::NotIdle || busiest.sumNrRunning == 0) return 0;
    const long cb = busiest.cores, cl = local.cores;
    if (cb == cl) return std::max(0, busiest.sumNrRunning - local.sumNrRunning);
    long imbalance = std::max(0L, cl * busiest.sumNrRunning - cb * local.sumNrRunning);
    imbalance = (2 * imbalance + cl + cb) / (cl + cb);
    if (imbalance <= 1 && local.sumNrRunning == 0 && busiest.sumNrRunning > 1) imbalance = 2;
    return imbalance;
}

// the difference in tasks prefer_sibling spreads: by cores from 6.6, else by tasks
long preferSiblingImbalance(const SimState& s, const LbEnv& env, const SgStats& busiest, const SgStats& local) {
    if (s.feat.smtBalance) return siblingImbalance(env, busiest, local);
    return std::max(0, busiest.sumNrRunning - local.sumNrRunning);
}
}  // namespace

void calculateImbalance(SimState& s, LbEnv& env, SdLbStats& sds) {
    const SchedDomain& sd = dom(s, env.dstCpu, env.sd);
    SgStats& local = sds.localStat;
    SgStats& busiest = sds.busiestStat;
    if (busiest.type == GroupType::MisfitTask) {  // the misfit task, to a bigger CPU
        env.type = MigrationType::Misfit;
        env.imbalance = 1;
        return;
    }
    if (busiest.type == GroupType::AsymPacking) {  // move every task of the lower priority group
        env.type = MigrationType::Task;
        env.imbalance = busiest.sumHNrRunning;
        return;
    }
    if (busiest.type == GroupType::SmtBalance) {  // one task fewer sharing the core's capacity
        env.type = MigrationType::Task;
        env.imbalance = 1;
        return;
    }
    if (busiest.type == GroupType::Imbalanced) {
        env.type = MigrationType::Task;
        env.imbalance = 1;
        return;
    }
    if (local.type == GroupType::HasSpare) {
        if (busiest.type > GroupType::FullyBusy && !(sd.flags & SD_SHARE_LLC)) {
            // busiest overloaded: fill the local group's spare capacity
            env.type = MigrationType::Util;
            env.imbalance = std::max(local.groupCapacity, local.groupUtil) - local.groupUtil;
            if (env.idle != BalanceIdle::NotIdle && env.imbalance <= 0) {
                env.type = MigrationType::Task;
                env.imbalance = 1;
            }
            return;
        }
        long imb = 0;
        if (busiest.groupWeight == 1 || sds.preferSibling) {
            imb = preferSiblingImbalance(s, env, busiest, local);  // evenly spread tasks
        } else {
            imb = std::max(0, local.idleCpus - busiest.idleCpus);  // even the idle CPUs
        }
        env.type = MigrationType::Task;
        if (sd.flags & SD_NUMA) {
            if (s.feat.numaImbalance == 1)
                imb = adjustNumaImbalance(s, imb, busiest.sumNrRunning, 0, busiest.groupWeight);
            else
                imb = adjustNumaImbalance(s, imb, local.sumNrRunning + 1, static_cast<int>(sd.imbNumaNr), 0);
        }
        env.imbalance = static_cast<double>(imb >> 1);
        return;
    }
    if (local.type < GroupType::Overloaded) {
        local.avgLoad = local.groupLoad * 1024.0 / local.groupCapacity;
        if (local.avgLoad >= busiest.avgLoad) { env.imbalance = 0; return; }
        sds.avgLoad = sds.totalLoad * 1024.0 / sds.totalCapacity;
        if (local.avgLoad >= sds.avgLoad) { env.imbalance = 0; return; }
    }
    env.type = MigrationType::Load;
    env.imbalance = std::min((busiest.avgLoad - sds.avgLoad) * busiest.groupCapacity,
                             (sds.avgLoad - local.avgLoad) * local.groupCapacity) / 1024.0;
}

int findBusiestGroup(SimState& s, LbEnv& env, SdLbStats& sds) {
    const SchedDomain& sd = dom(s, env.dstCpu, env.sd);
    env.fbqClassesOfGroup = -1;
    fillSdLbStats(s, env, sds);
    if (sds.busiest < 0) return -1;
    SgStats& busiest = sds.busiestStat;
    SgStats& local = sds.localStat;
    bool force = busiest.type == GroupType::MisfitTask || busiest.type == GroupType::AsymPacking ||
                 busiest.type == GroupType::Imbalanced;
    if (!force) {
        if (local.type > busiest.type) return -1;
        if (local.type == GroupType::Overloaded) {
            if (local.avgLoad >= busiest.avgLoad) return -1;
            sds.avgLoad = sds.totalLoad * 1024.0 / sds.totalCapacity;
            if (local.avgLoad >= sds.avgLoad) return -1;
            if (100.0 * busiest.avgLoad <= sd.imbalancePct * local.avgLoad) return -1;
        }
        if (sds.preferSibling && local.type == GroupType::HasSpare && preferSiblingImbalance(s, env, busiest, local) > 1)
            force = true;
    }
    if (!force && busiest.type != GroupType::Overloaded) {
        if (env.idle == BalanceIdle::NotIdle) return -1;  // a busy CPU does not pull from a non-overloaded group
        // 6.6: a CPU outside an SMT core pulls from the core whose siblings share it
        const bool smtToNonsmt = busiest.type == GroupType::SmtBalance && smtVsNonsmt(local, busiest);
        if (!smtToNonsmt) {
            if (busiest.groupWeight > 1 && local.idleCpus <= busiest.idleCpus + 1) return -1;
            if (busiest.sumHNrRunning == 1) return -1;  // nothing waiting to run
        }
    }
    calculateImbalance(s, env, sds);
    if (env.imbalance <= 0) return -1;
    // env->fbq_type, which only find_busiest_queue() reads: counted once the balance goes there
    if (sd.flags & SD_NUMA) env.fbqType = fbqClassifyBusiest(s, env, sd, sds);
    return sds.busiest;
}

int findBusiestQueue(SimState& s, const LbEnv& env, int group) {
    const SchedDomain& sd = dom(s, env.dstCpu, env.sd);
    int busiest = -1, busiestNr = 0;
    double busiestLoad = 0, busiestUtil = -1, busiestCapacity = 1;
    const CpuSet& cpus = env.candidates();
    const bool asymCapacity = (sd.flags & SD_ASYM_CPUCAPACITY) != 0;
    const double dstCapacity = s.capacityOf(env.dstCpu);
    auto rqClass = [&](int i) {
        return env.fbqClassesOfGroup == group ? static_cast<FbqType>(s.fbqRqClass[static_cast<size_t>(i)]) : fbqClassifyRq(s, i);
    };
    sd.groups[static_cast<size_t>(group)].span.forEach([&](int i) {
        if (!cpus.test(i)) return;
        const int nr = s.cpus[static_cast<size_t>(i)].nrRunning();
        if (nr == 0) return;
        // a runqueue of a higher class than the group's: its tasks are better placed than some
        // of another runqueue's (nothing is above `All`, the class outside NUMA domains). The
        // kernel classifies before it skips an empty runqueue; an empty one is skipped either way.
        if (env.fbqType != FbqType::All && rqClass(i) > env.fbqType) return;
        const double capacity = s.capacityOf(i);
        // never a lone task of a CPU no smaller than dst: that could end in an active balance
        // from a big CPU down to a little one
        if (asymCapacity && nr == 1 && !capacityGreater(dstCapacity, capacity)) return;
        // only pull from a CPU of lower priority than dst, unless it has more than one task
        if (nr == 1 && !s.asymPrio.empty() && schedAsym(s, sd, i, env.dstCpu)) return;
        switch (env.type) {
        case MigrationType::Load: {
            const double load = s.cpuLoad(i);
            if (nr == 1 && load > env.imbalance) return;  // check_cpu_capacity(): no pressure modelled
            // the highest load per capacity (load_i * capacity_j > load_j * capacity_i)
            if (busiest < 0 || load * busiestCapacity > busiestLoad * capacity) {
                busiestLoad = load;
                busiestCapacity = capacity;
                busiest = i;
            }
            break;
        }
        case MigrationType::Util: {
            if (nr <= 1) return;
            const double util = s.cpuUtil(i);
            if (util > busiestUtil) { busiestUtil = util; busiest = i; }
            break;
        }
        case MigrationType::Task:
            if (busiestNr < nr) { busiestNr = nr; busiest = i; }
            break;
        case MigrationType::Misfit: {  // the biggest misfit task
            const double misfit = s.cpus[static_cast<size_t>(i)].misfitTaskLoad;
            if (misfit > busiestLoad) { busiestLoad = misfit; busiest = i; }
            break;
        }
        }
    });
    return busiest;
}

namespace {
// migrate_degrades_locality() under NUMA balancing, with a task's memory (its home node) as its
// preferred node once it has NUMA faults (numaPreferredNode()): 1 moving it away
// from its memory (while its CPU runs a task that prefers another node), 0 moving it to its
// memory, -1 no opinion (task_hot() decides). All of a task's faults are on its home node, so
// between two other nodes neither weighs more: no opinion.
int migrateDegradesLocality(const SimState& s, LbEnv& env, const Task& p, const SchedDomain& sd) {
    if (!(sd.flags & SD_NUMA)) return -1;
    const int preferredNode = numaPreferredNode(s, p);  // -1: no faults yet (!p->numa_faults)
    if (preferredNode < 0) return -1;
    const int srcNode = s.info[static_cast<size_t>(p.cpu)].node, dstNode = s.info[static_cast<size_t>(env.dstCpu)].node;
    if (srcNode == dstNode) return -1;
    if (srcNode == preferredNode) {
        // rq->nr_preferred_running: the tasks of the source whose memory is on its node
        const Cpu& src = s.cpus[static_cast<size_t>(p.cpu)];
        if (!env.keepSrcPreferredRunning || env.srcPreferredRunning < 0)
            env.srcPreferredRunning = numaRunning(s, p.cpu).preferred;
        return src.nrQueued() > env.srcPreferredRunning ? 1 : -1;
    }
    if (dstNode == preferredNode) return 0;
    // between two other nodes: an idle CPU leaves it to task_hot(), and so do the fault
    // weights, equal on both (src_weight - dst_weight = 0)
    return -1;
}
}  // namespace

bool canMigrateTask(SimState& s, LbEnv& env, const Task& p) {
    // a delayed-dequeue task (blocked, still queued) moves only when the balance moves load
    // (6.12+): its weight still counts in the source's load, but it is no runnable task or
    // utilization for a migrate_task or migrate_util balance to take
    if (p.delayed && env.type != MigrationType::Load) return false;
    // throttled_lb_pair(): not into a group throttled at the destination (a task of one
    // throttled at the source is off the runqueue, not a candidate)
    if (p.group >= 0 && groupThrottledOn(s.groups, p.group, env.dstCpu)) return false;
    // task_is_ineligible_on_dst_cpu() (6.14+): eligible tasks move first; one that would join a
    // busy destination with negative lag (judged on its own queue: place_entity() keeps the lag)
    // waits until this domain has failed to balance
    if (s.feat.migrateEligibleFirst && s.feat.fairClass == FairClass::Eevdf) {
        const Cpu& dst = s.cpus[static_cast<size_t>(env.dstCpu)];
        const bool dstQueued = dst.curr >= 0 || !dst.queued.empty();
        const int failed = s.cpus[static_cast<size_t>(env.sdOwner())].dom[static_cast<size_t>(env.sd)].nrBalanceFailed;
        if (!failed && dstQueued && !entityEligible(s, s.cpus[static_cast<size_t>(p.cpu)], p)) return false;
    }
    if (!p.anyCpu && !p.allowed.test(env.dstCpu)) {
        env.somePinned = true;
        if (env.idle == BalanceIdle::NewlyIdle || env.dstPinned) return false;
        // env->dst_grpmask: group_balance_mask() of the local group, which for an overlapping
        // NUMA group is only the CPUs it is the local group of (not the busiest CPU's node)
        const SchedGroup& local = dom(s, env.sdOwner(), env.sd).groups.front();
        ((local.balanceMask.empty() ? local.span : local.balanceMask) & env.candidates()).forEach([&](int c) {
            if (!env.dstPinned && p.allowed.test(c)) { env.dstPinned = true; env.newDstCpu = c; }
        });
        return false;
    }
    env.allPinned = false;
    if (p.state == TaskState::Running) return false;
    const SchedDomain& sd = dom(s, env.sdOwner(), env.sd);
    const int locality = migrateDegradesLocality(s, env, p, sd);
    // else task_hot(): ran within sysctl_sched_migration_cost, and not to an SMT sibling (5.10+)
    const bool smtSibling = s.feat.smtNeverCacheHot && (sd.flags & SD_SHARE_CPUCAPACITY);
    const bool hot = locality >= 0 ? locality == 1
                                   : !smtSibling && static_cast<double>(s.now - p.lastRan) < s.opt.migrationCostNs;
    const DomainState& ds = s.cpus[static_cast<size_t>(env.sdOwner())].dom[static_cast<size_t>(env.sd)];
    return !hot || ds.nrBalanceFailed > sd.cacheNiceTries;
}

namespace {
// should_we_balance() with env->cpus = `cpus` (and `also`, when given): the rebalance walk asks
// it for every domain on every tick, so it must not build masks.
bool shouldWeBalanceIn(SimState& s, int dstCpu, int sdIndex, BalanceIdle idle, const CpuSet& cpus, const CpuSet* also) {
    auto in = [&](int c) { return cpus.test(c) && (!also || also->test(c)); };
    if (!in(dstCpu)) return false;
    if (idle == BalanceIdle::NewlyIdle) return s.cpus[static_cast<size_t>(dstCpu)].nrRunning() == 0;
    const SchedDomain& sd = dom(s, dstCpu, sdIndex);
    const SchedGroup& g = sd.groups.front();
    const CpuSet& mask = g.balanceMask.empty() ? g.span : g.balanceMask;
    // 6.6: above the SMT level, a CPU of an idle core first, then an idle CPU of a busy core
    const bool coresFirst = s.feat.smtBalance && !(sd.flags & SD_SHARE_CPUCAPACITY);
    int first = -1, idleSmt = -1;
    for (int c = mask.first(); c >= 0; c = mask.next(c)) {
        if (!in(c)) continue;
        if (first < 0) first = c;
        if (!s.idle(c)) continue;
        if (coresFirst && !s.coreIdle(c)) {
            if (idleSmt < 0) idleSmt = c;
            continue;
        }
        return c == dstCpu;  // the first idle CPU (of an idle core) balances
    }
    if (idleSmt >= 0) return idleSmt == dstCpu;
    return first == dstCpu;
}
}  // namespace

bool shouldWeBalance(SimState& s, const LbEnv& env) {
    return shouldWeBalanceIn(s, env.dstCpu, env.sd, env.idle, env.candidates(), nullptr);
}

namespace {
const char* migrationTypeName(MigrationType t) {
    switch (t) {
    case MigrationType::Load: return "migrate_load";
    case MigrationType::Util: return "migrate_util";
    case MigrationType::Task: return "migrate_task";
    case MigrationType::Misfit: return "migrate_misfit";
    }
    return "?";
}

// Step mode: a load_balance() pass that found an imbalance and a busiest CPU.
void recordBalance(SimState& s, const LbEnv& env, const SdLbStats& sds, int busiest, int moved, bool active) {
    const SchedDomain& sd = dom(s, env.dstCpu, env.sd);
    Decision d;
    d.timeNs = s.now;
    d.kind = env.idle == BalanceIdle::NewlyIdle ? DecisionKind::NewidleBalance : DecisionKind::LoadBalance;
    d.cpu = env.dstCpu;
    d.level = sd.level;
    d.span = sd.span;
    d.groups = s.scratchGroups;
    d.chosenCpu = busiest;
    d.moved = env.moved;
    d.task = env.moved.empty() ? -1 : env.moved.front();
    char buf[200];
    std::snprintf(buf, sizeof buf, "find_busiest_group: busiest %s vs local %s; calculate_imbalance: %s %.0f; ",
                  groupTypeName(sds.busiestStat.type), groupTypeName(sds.localStat.type), migrationTypeName(env.type),
                  env.imbalance);
    d.rule = buf;
    d.rule += "find_busiest_queue: cpu " + std::to_string(busiest);
    // at a NUMA domain: the busy runqueues it did not look at (fbq_type), their tasks better
    // placed than some of the group's
    int skipped = 0;
    if (env.fbqType != FbqType::All && sds.busiest >= 0)
        sd.groups[static_cast<size_t>(sds.busiest)].span.forEach([&](int i) {
            skipped += env.candidates().test(i) && s.cpus[static_cast<size_t>(i)].nrRunning() > 0 &&
                       fbqClassifyRq(s, i) > env.fbqType;
        });
    if (skipped > 0)
        d.rule += " (" + std::to_string(skipped) + " busy runqueue(s) passed over: " +
                  (env.fbqType == FbqType::Regular
                       ? "every task on them has a preferred node, and the group has tasks without one"
                       : "every task on them is at its preferred node, and the group has tasks away from theirs") +
                  ")";
    d.rule += "; ";
    if (moved > 0) d.rule += "detach_tasks: moved " + std::to_string(moved);
    else if (active) d.rule += "nothing detachable: need_active_balance, the stopper will push the running task";
    else d.rule += "nothing detachable (running, cache hot or pinned)";
    s.decisions->push_back(std::move(d));
}
}  // namespace

namespace {
// sched_balance_rq()'s out_balanced (out_one_pinned when `onePinned`): the balance found
// nothing to do here, or was not this CPU's to do (should_we_balance()). Once balanced, the
// failures start again and the parent's imbalance note (left by pinned tasks below) is cleared,
// and a periodic balance backs off: its interval doubles, up to the domain's max_interval (512
// ms with every task pinned); from 6.10 not after a misfit balance (`type`), which says nothing
// of how busy the domain is
void balanced(SimState& s, int cpu, int sdIndex, BalanceIdle idle, MigrationType type, bool onePinned,
              bool allPinned) {
    DomainState& ds = rqOf(s, cpu).dom[static_cast<size_t>(sdIndex)];
    if (!onePinned) {
        ds.nrBalanceFailed = 0;
        if (sdIndex + 1 < nrDomains(s, cpu) && !allPinned) parentGroupImbalance(s, cpu, sdIndex) = false;
    }
    if (idle == BalanceIdle::NewlyIdle || (s.feat.misfitNoBackoff && type == MigrationType::Misfit)) return;
    const SchedDomain& sd = dom(s, cpu, sdIndex);
    if ((allPinned && ds.balanceIntervalMs < 512) || ds.balanceIntervalMs < sd.maxInterval)
        setBalanceInterval(s, ds, ds.balanceIntervalMs * 2);
}
}  // namespace

int loadBalance(SimState& s, SchedOps& ops, int cpu, int sdIndex, BalanceIdle idle, MigrationCause cause,
                bool weBalance) {
    const SchedDomain& sd = dom(s, cpu, sdIndex);
    DomainState& ds = rqOf(s, cpu).dom[static_cast<size_t>(sdIndex)];
    LbEnv env;
    env.sd = sdIndex;
    env.dstCpu = env.sdCpu = cpu;
    env.idle = idle;
    env.span = &sd.span;
    env.cpusWhole = s.info[static_cast<size_t>(cpu)].groupSpans[static_cast<size_t>(sdIndex)].spanOnline;
    if (!env.cpusWhole) env.cpus = sd.span & s.online;
    int moved = 0;
    bool activeStarted = false;
    bool onePinned = false;
    SdLbStats sds;  // one for the pass: findBusiestGroup() fills it anew on every redo
    for (;;) {  // redo:
        if (!weBalance && !shouldWeBalance(s, env)) break;
        weBalance = false;
        const int group = findBusiestGroup(s, env, sds);
        if (group < 0) break;
        const int busiest = findBusiestQueue(s, env, group);
        if (busiest < 0) break;
        env.srcCpu = busiest;
        env.allPinned = true;
        Cpu& src = rqOf(s, busiest);
        if (src.nrQueued() > 1) {
            moved = detachTasks(s, ops, env, cause);
            // LBF_DST_PINNED: tasks this CPU may not run but another CPU of its group may: the
            // same source again, for that CPU (goto more_balance), this one out of env->cpus
            while (env.dstPinned && env.imbalance > 0 && src.nrQueued() > 1) {
                env.dropCandidate(env.dstCpu);
                env.dstCpu = env.newDstCpu;
                env.dstPinned = false;
                moved += detachTasks(s, ops, env, cause);
            }
            // (the rest of the pass balances for this CPU again: a redo's statistics, an
            // active balance's push)
            env.dstCpu = cpu;
            if (env.somePinned && env.imbalance > 0 && sdIndex + 1 < nrDomains(s, cpu))
                parentGroupImbalance(s, cpu, sdIndex) = true;
            if (env.allPinned) {
                env.dropCandidate(busiest);
                if (!env.cpus.isSubsetOf(sd.groups.front().span)) continue;  // goto redo
                onePinned = true;
                break;
            }
        }
        if (moved == 0) {
            // (a newidle balance's failures would pollute the count; from 6.10 a misfit one's too)
            if (idle != BalanceIdle::NewlyIdle && !(s.feat.misfitNoBackoff && env.type == MigrationType::Misfit))
                ds.nrBalanceFailed++;
            if (needActiveBalance(s, env)) {
                if (src.curr >= 0 && !s.tasks[static_cast<size_t>(src.curr)].allowed.test(cpu)) {
                    onePinned = true;
                    break;
                }
                if (!src.activeBalance) {
                    src.activeBalance = true;
                    src.pushCpu = cpu;
                    ops.requestActiveBalance(busiest, cpu);
                    activeStarted = true;
                }
            }
        } else {
            ds.nrBalanceFailed = 0;
        }
        if (s.recording()) recordBalance(s, env, sds, busiest, moved, activeStarted);
        if (!activeStarted || needActiveBalance(s, env)) setBalanceInterval(s, ds, sd.minInterval);
        return moved;
    }
    balanced(s, cpu, sdIndex, idle, env.type, onePinned, env.allPinned);
    return 0;
}



void rebalanceDomains(SimState& s, SchedOps& ops, int cpu, BalanceIdle idle, MigrationCause cause) {
    Cpu& rq = rqOf(s, cpu);
    const int64_t jnow = jiffiesNow(s);
    bool busy = idle != BalanceIdle::Idle;
    int64_t next = jnow + 60LL * 1000000000LL;
    for (int i = 0; i < nrDomains(s, cpu); ++i) {
        const SchedDomain& sd = dom(s, cpu, i);
        DomainState& ds = rq.dom[static_cast<size_t>(i)];
        int64_t interval = balanceIntervalNs(ds, busy);
        if (jnow >= ds.lastBalance + interval) {
            // should_we_balance() failing stops the walk upwards (continue_balancing = 0), and
            // sched_balance_rq() leaves through out_balanced: the interval backs off
            if (!shouldWeBalanceIn(s, cpu, i, idle, sd.span, &s.online)) {
                balanced(s, cpu, i, idle, MigrationType::Load, false, false);
                ds.lastBalance = jnow;
                next = std::min(next, ds.lastBalance + balanceIntervalNs(ds, busy));
                break;
            }
            // the same question load_balance() asks first, with the same env->cpus (the span's
            // online CPUs): it gets the answer instead of asking again (1% of the bench run)
            if (loadBalance(s, ops, cpu, i, idle, cause, true) > 0) {
                idle = s.idle(cpu) ? BalanceIdle::Idle : BalanceIdle::NotIdle;
                busy = idle != BalanceIdle::Idle;
            }
            ds.lastBalance = jnow;
            interval = balanceIntervalNs(ds, busy);
        }
        next = std::min(next, ds.lastBalance + interval);
    }
    rq.nextBalance = next;
}

namespace {

// update_newidle_stats() (6.19): every 1024 calls the success count becomes the ratio and both
// halve, a running average over the last ~1k newidle balances of the domain. 7.1's NI_RATE adds
// the time those calls took, 1 per 2^22 ns (1024 when 512 calls took 4 s, 128 Hz: a domain
// balanced that rarely is always balanced), and caps the ratio at 1024.
void updateNewidleStats(const SimState& s, DomainState& ds, unsigned success) {
    ds.newidleCall++;
    ds.newidleSuccess += success;
    if (ds.newidleCall >= 1024) {
        if (s.feat.newidleRate) {
            const int64_t delta = std::max<int64_t>(0, s.now - ds.newidleStamp);
            ds.newidleStamp = s.now;
            const int64_t ratio = (delta >> 22) + ds.newidleSuccess;
            ds.newidleRatio = static_cast<unsigned>(std::min<int64_t>(1024, ratio));
        } else {
            ds.newidleRatio = ds.newidleSuccess;
        }
        ds.newidleCall /= 2;
        ds.newidleSuccess /= 2;
    }
}

// update_newidle_cost(): the domain's max pass cost, raised at once and, untouched for a second,
// decayed by 1% (253/256). With the 6.17 bump it is capped at sysctl_sched_migration_cost +
// 200 ns. (The kernel also decays it from the periodic balance; here only newidle visits do.)
void updateNewidleCost(const SimState& s, DomainState& ds, double cost) {
    if (cost > ds.maxNewidleLbCostNs) {
        ds.maxNewidleLbCostNs = s.feat.newidleFailBump ? std::min(cost, s.opt.migrationCostNs + 200) : cost;
        ds.lastDecayNs = s.now;
    } else if (s.now > ds.lastDecayNs + 1000000000LL) {
        ds.maxNewidleLbCostNs = ds.maxNewidleLbCostNs * 253 / 256;
        ds.lastDecayNs = s.now;
    }
}

}  // namespace

bool newidleBalance(SimState& s, SchedOps& ops, int cpu) {
    Cpu& rq = rqOf(s, cpu);
    rq.idleStamp = s.now;
    updateMisfitStatus(s, cpu, -1);
    int64_t next = jiffiesNow(s) + 1000000000LL;
    auto updateNext = [&](int i) {
        DomainState& ds = rq.dom[static_cast<size_t>(i)];
        next = std::min(next, ds.lastBalance + balanceIntervalNs(ds, false));
    };
    bool pulled = false;
    // Too short an expected idle for a pass: before 5.16 shorter than sysctl_sched_migration_cost;
    // since ("sched/fair: Remove sysctl_sched_migration_cost condition") than the lowest
    // domain's max_newidle_lb_cost, what a pass there has cost at most lately.
    const bool costGate = s.feat.newidleCostGate;
    const bool tooShort = costGate ? nrDomains(s, cpu) > 0 && rq.avgIdleNs < rq.dom[0].maxNewidleLbCostNs
                                   : rq.avgIdleNs < s.opt.migrationCostNs;
    if (tooShort || !s.rdOverloaded(cpu)) {
        if (nrDomains(s, cpu) > 0) updateNext(0);
    } else {
        double currCost = 0;
        for (int i = 0; i < nrDomains(s, cpu); ++i) {
            DomainState& ds = rq.dom[static_cast<size_t>(i)];
            updateNext(i);
            // the cost of a balance pass: modelled as 0.25 us per CPU in the span (the domain's
            // max_newidle_lb_cost once a pass ran, which is what the legacy gate compares)
            const double cost = ds.newidlePassCostNs;
            if (rq.avgIdleNs < currCost + (costGate ? ds.maxNewidleLbCostNs : cost)) break;
            if (ds.balancesNewidle) {  // sd->flags & SD_BALANCE_NEWIDLE
                unsigned weight = 1;
                // (7.1: no die at a ratio of 1024, which NI_RATE's time term reaches)
                if (s.feat.newidleRandom && !(s.feat.newidleRate && ds.newidleRatio >= 1024)) {
                    // sched_balance_newidle() (6.19): a 1024-sided die; a domain is balanced with
                    // the odds of its success ratio, and a success then counts 1024/odds, so the
                    // ratio estimates how often a balance would have pulled had it always run
                    const unsigned d1k = static_cast<unsigned>(s.rng() % 1024);
                    weight = 1 + ds.newidleRatio;
                    if (d1k > weight) {
                        updateNewidleStats(s, ds, 0);
                        ++s.metrics.newidleSkipped;
                        continue;
                    }
                    weight = (1024 + weight / 2) / weight;
                }
                ++s.metrics.newidleBalances;
                pulled = loadBalance(s, ops, cpu, i, BalanceIdle::NewlyIdle, MigrationCause::LbNewidle) > 0;
                // 6.17-6.18.4: a failed pass is charged half again the domain's max cost, so a
                // domain that keeps failing is soon gated off like before 5.16
                const double charged = s.feat.newidleFailBump && !pulled ? 1.5 * ds.maxNewidleLbCostNs : cost;
                if (costGate) updateNewidleCost(s, ds, charged);
                // update_newidle_cost(): a pass always costs something, so the stats are updated
                updateNewidleStats(s, ds, weight * (pulled ? 1 : 0));
            }
            currCost += cost;
            if (pulled || rq.nrRunning() > 0) break;
        }
    }
    if (pulled || rq.nrRunning() > 0) rq.idleStamp = 0;
    rq.nextBalance = std::min(rq.nextBalance > s.now ? rq.nextBalance : next, next);
    return pulled || rq.nrRunning() > 0;
}

void nohzBalancerKick(SimState& s, SchedOps& ops, int cpu) {
    if (!s.opt.nohz) return;
    if (s.now < s.nohzNextBalance) return;
    Cpu& rq = rqOf(s, cpu);
    bool kick = rq.nrQueued() >= 2;
    if (!kick && !s.asymPrio.empty()) {
        // ASYM_PACKING: an idle CPU preferred to this one (its whole core idle) may take the task
        if (const int a = sdAsymPacking(s, cpu); a >= 0) {
            const SchedDomain& sd = dom(s, cpu, a);
            sd.span.forEach([&](int i) { kick = kick || (s.idle(i) && schedAsym(s, sd, i, cpu)); });
        }
    }
    const CpuInfo& ci = s.info[static_cast<size_t>(cpu)];
    if (!kick && ci.sdAsymCapacity >= 0) {
        // asymmetric capacities: only a misfit task that a bigger CPU could take is worth a
        // kick; the LLC's busy count below is not looked at (capacity, not cache use, is what
        // the balance is for there)
        kick = checkMisfitStatus(s, cpu);
    } else if (!kick && ci.sdLlc >= 0) {
        // more than one busy CPU in this LLC: another LLC (or idle SMT siblings) may take some
        int busy = 0;
        dom(s, cpu, ci.sdLlc).span.forEach([&](int c) { busy += s.idle(c) ? 0 : 1; });
        kick = busy > 1;
    }
    if (!kick) return;
    // find_new_ilb(): the first idle CPU; it balances on behalf of every idle CPU
    int ilb = -1;
    s.online.forEach([&](int c) {
        if (ilb < 0 && s.idle(c)) ilb = c;
    });
    if (ilb < 0) return;
    int64_t next = s.now + 60LL * 1000000000LL;
    const int n = static_cast<int>(s.cpus.size());
    forEachCpuWrap(s.online, (ilb + 1) % n, [&](int c) {
        if (!s.idle(c)) return false;
        if (!s.idle(ilb)) return true;  // the ilb got work: stop balancing for the others
        Cpu& r = rqOf(s, c);
        if (jiffiesNow(s) >= r.nextBalance) rebalanceDomains(s, ops, c, BalanceIdle::Idle, MigrationCause::LbNohz);
        if (s.idle(c)) next = std::min(next, r.nextBalance);
        return false;
    });
    s.nohzNextBalance = std::max(next, s.now + s.jiffyNs());
}

int activeLoadBalanceCpuStop(SimState& s, SchedOps& ops, int srcCpu, int dstCpu) {
    Cpu& src = rqOf(s, srcCpu);
    src.activeBalance = false;
    if (src.nrQueued() < 1) return 0;
    int sdIndex = -1;
    for (int i = 0; i < nrDomains(s, dstCpu); ++i)
        if (dom(s, dstCpu, i).span.test(srcCpu)) { sdIndex = i; break; }
    if (sdIndex < 0) return 0;
    // detach_one_task() with LBF_ACTIVE_LB: the stopper preempted curr, so it may move too
    for (int id : CfsTasks(s, src, SIZE_MAX)) {
        const Task& t = s.tasks[static_cast<size_t>(id)];
        if (!t.allowed.test(dstCpu)) continue;
        if (t.group >= 0 && groupThrottledOn(s.groups, t.group, dstCpu)) continue;  // can_migrate_task()'s throttled_lb_pair()
        ops.migrateTask(id, dstCpu, MigrationCause::LbActive);
        rqOf(s, dstCpu).dom[static_cast<size_t>(sdIndex)].nrBalanceFailed = 0;
        if (s.recording()) {
            const SchedDomain& sd = dom(s, dstCpu, sdIndex);
            Decision d;
            d.timeNs = s.now;
            d.kind = DecisionKind::ActiveBalance;
            d.task = id;
            d.cpu = dstCpu;
            d.level = sd.level;
            d.span = sd.span;
            d.chosenCpu = srcCpu;
            d.moved = {id};
            d.rule = "active_load_balance_cpu_stop: the stopper on cpu " + std::to_string(srcCpu) + " pushes task " +
                     std::to_string(id) + " to cpu " + std::to_string(dstCpu);
            s.decisions->push_back(std::move(d));
        }
        return 1;
    }
    return 0;
}

}  // namespace schedscope::sim
