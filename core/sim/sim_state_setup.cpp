// makeSimState(): the simulator's state for a machine, its sched domains and a workload: per
// CPU its runqueue, domain state and the facts the policies look up on every pass (LLC, cluster,
// group rings and their span sums, root domain), and per task its weight, affinity and group.
// Built once before a run; the engine (simulator.cpp) and the policy tests start from it.
#include <algorithm>
#include <unordered_map>

#include "domains/sd_flags.h"
#include "sim/asym_packing.h"
#include "sim/contention.h"
#include "sim/cpu_capacity.h"
#include "sim/fair_rq.h"
#include "sim/group_runqueues.h"
#include "sim/load_balance.h"
#include "sim/simulator.h"

namespace schedscope::sim {
namespace {

using workload::OpKind;

// The scheduler tunables scale with the CPU count (sched_update_scaling(), SCHED_TUNABLESCALING_LOG).
void scaleTunables(SimState& s) {
    const int n = std::min(8, std::max(1, s.online.count()));
    int log2 = 0;
    while ((1 << (log2 + 1)) <= n) ++log2;
    const double factor = 1 + log2;
    s.latencyNs = 6e6 * factor;
    s.minGranNs = 0.75e6 * factor;
    s.wakeupGranNs = 1e6 * factor;
    s.baseSliceNs = s.feat.baseSliceNs * factor;
}

// The index of `groups`' ring in s.ringGroups, its groups' spans registered in s.spanSums the
// first time a CPU's view of it comes by (their shapes are filled in by describeSpans()). update_sg_lb_stats() adds up a group's CPUs within
// env->cpus, the domain's: a group reaching past `domainSpan` (before 5.13, on NUMA diameters
// above 2) is summed over the CPUs it shares with the domain, in a ring of this CPU's own.
int ringSpanIds(SimState& s, std::unordered_map<const void*, int>& rings, const GroupRing& groups, const CpuSet& domainSpan) {
    const bool inside = std::all_of(groups.begin(), groups.end(), [&](const SchedGroup& g) { return g.span.isSubsetOf(domainSpan); });
    if (inside) {
        const auto [it, added] = rings.try_emplace(groups.ringId(), static_cast<int>(s.ringGroups.size()));
        if (!added) return it->second;
    }
    const size_t n = groups.size();
    SimState::GroupRingFacts facts;
    std::vector<SimState::RingGroup>& ring = facts.groups;
    ring.resize(n);
    CpuSet seen;
    for (size_t i = 0; i < n; ++i) {
        const size_t at = groups.first() + i;
        SimState::RingGroup& g = ring[at < n ? at : at - n];
        const SchedGroup& sg = groups[i];
        g.spanId = s.spanSums.addSpan(inside ? sg.span : sg.span & domainSpan);
        g.weight = sg.span.count();
        g.firstCpu = sg.span.first();
        g.capacity = sg.capacity > 0 ? sg.capacity : 1024.0 * g.weight;
        if (sg.span.intersects(seen)) facts.disjoint = false;
        seen |= sg.span;
    }
    s.ringGroups.push_back(std::move(facts));
    return static_cast<int>(s.ringGroups.size()) - 1;
}

// SimState::spanShapes: a group's cores are its CPUs' distinct SMT cores, and its flags those of
// the domain of its first CPU that spans exactly the group (the child it was built from, or the
// lower level that took its place when the kernel removed the child as a copy of it)
void describeSpans(SimState& s, const DomainTree& tree) {
    s.spanShapes.assign(s.spanSums.spanCount(), SimState::GroupShape{});
    for (size_t id = 0; id < s.spanShapes.size(); ++id) {
        const CpuSet& span = s.spanSums.span(static_cast<int>(id));
        SimState::GroupShape& shape = s.spanShapes[id];
        std::vector<int> cores;
        double minCap = 0, maxCap = 0;
        span.forEach([&](int c) {
            if (c >= static_cast<int>(s.info.size())) return;
            cores.push_back(s.info[static_cast<size_t>(c)].core);
            const double capacity = hardwareCapacity(*s.topo, c);
            minCap = minCap == 0 ? capacity : std::min(minCap, capacity);
            maxCap = std::max(maxCap, capacity);
        });
        if (maxCap > 0) {
            shape.minCapacity = minCap;
            shape.maxCapacity = maxCap;
        }
        std::sort(cores.begin(), cores.end());
        shape.cores = std::max<int>(1, static_cast<int>(std::unique(cores.begin(), cores.end()) - cores.begin()));
        const int first = span.first();
        if (first < 0 || first >= tree.cpuCount()) continue;
        for (const auto& d : tree.domainsOf(first))
            if (d.span == span) shape.flags = d.flags;
    }
    for (auto& ring : s.ringGroups)
        for (SimState::RingGroup& g : ring.groups) {
            g.onlyCpu = s.spanSums.onlyCpu(g.spanId);
            g.shape = s.spanShapes[static_cast<size_t>(g.spanId)];
        }
}
}  // namespace

Result<std::unique_ptr<SimState>> makeSimState(const Topology& topo, const DomainTree& tree,
                                               const workload::Workload& wl, const SimOptions& opt) {
    auto s = std::make_unique<SimState>();
    s->topo = &topo;
    s->tree = &tree;
    s->opt = opt;
    s->feat = opt.features ? *opt.features : featuresFor(tree.profile ? *tree.profile : defaultProfile());
    s->contention = contentionParamsFor(topo);
    s->rng.seed(opt.seed);
    s->online = topo.onlineCpus();
    s->onlineCount = s->online.count();
    if (s->online.empty()) return Error{"simulate: the topology has no online CPU"};
    s->unpinned = opt.unpinnedCpus.empty() ? s->online : (opt.unpinnedCpus & s->online);
    if (s->unpinned.empty())
        return Error{"simulate: none of the CPUs " + opt.unpinnedCpus.toList() + " for unpinned tasks is online"};
    // isolcpus=domain: sched_init_smp() gives init the housekeeping CPUs' affinity and every
    // task inherits it, so only a task pinned there runs on an isolated CPU (an isolated cpuset
    // partition likewise leaves the other cpusets' tasks out)
    if (const CpuSet housekeeping = s->unpinned.minus(tree.isolated); !housekeeping.empty()) s->unpinned = housekeeping;
    if (opt.hz < 10 || opt.hz > 10000) return Error{"simulate: HZ must be in 10..10000, not " + std::to_string(opt.hz)};
    s->jiffyLengthNs = 1000000000LL / opt.hz;
    if (opt.idleExitNs < 0 || opt.idleExitNs > 1000000000LL)
        return Error{"simulate: the idle exit latency must be in 0..1 s, not " + std::to_string(opt.idleExitNs) + " ns"};
    if (opt.remoteReschedNs < 0 || opt.remoteReschedNs > 1000000000LL)
        return Error{"simulate: the remote resched latency must be in 0..1 s, not " + std::to_string(opt.remoteReschedNs) +
                     " ns"};
    const int n = static_cast<int>(topo.cpus.size());
    if (tree.cpuCount() != n) return Error{"simulate: the domain tree does not match the topology"};
    scaleTunables(*s);
    s->cpus.resize(static_cast<size_t>(n));
    s->info.resize(static_cast<size_t>(n));
    std::unordered_map<const void*, int> rings;  // GroupRing::ringId() -> index into s->ringGroups
    for (int c = 0; c < n; ++c) {
        Cpu& r = s->cpus[static_cast<size_t>(c)];
        r.id = c;
        r.avgIdleNs = 2 * opt.migrationCostNs;
        const auto& doms = tree.domainsOf(c);
        r.dom.resize(doms.size());
        for (size_t i = 0; i < doms.size(); ++i) {
            DomainState& ds = r.dom[i];
            ds.busyFactor = static_cast<uint8_t>(std::clamp(doms[i].busyFactor, 1u, 255u));
            setBalanceInterval(*s, ds, std::max(1u, doms[i].minInterval));
            ds.newidlePassCostNs = 250.0 * doms[i].span.count();
            ds.balancesNewidle = (doms[i].flags & SD_BALANCE_NEWIDLE) != 0;
        }
        CpuInfo& ci = s->info[static_cast<size_t>(c)];
        const CpuTopology& ct = topo.cpus[static_cast<size_t>(c)];
        const CpuSet llc = topo.llcCpus(c).empty() ? CpuSet::single(c) : topo.llcCpus(c);
        ci.llc = llc.first();
        ci.cluster = ct.clusterCpus.empty() ? c : ct.clusterCpus.first();
        ci.node = std::max(0, topo.nodeIndex(ct.node));
        ci.core = ct.threadSiblings.empty() ? c : ct.threadSiblings.first();
        ci.siblings = (ct.threadSiblings.empty() ? CpuSet::single(c) : ct.threadSiblings & s->online).toVector();
        int clusterDomain = -1, clusterWeight = 0;  // the lowest SD_CLUSTER domain's first CPU and weight
        for (const auto& d : doms) {
            ci.spanWeight.push_back(d.span.count());
            ci.groupWeight.emplace_back();
            for (const auto& g : d.groups) ci.groupWeight.back().push_back(g.span.count());
            const int ring = ringSpanIds(*s, rings, d.groups, d.span);
            const bool ownFirst = s->ringGroups[static_cast<size_t>(ring)].disjoint && !d.groups.empty() &&
                                  d.groups.front().span.test(c);
            const size_t localImbalanceAt =
                d.groups.empty() ? 0
                                 : static_cast<size_t>(d.topologyLevel) * static_cast<size_t>(n) +
                                       static_cast<size_t>(d.groups.front().span.first());
            ci.groupSpans.push_back({ring, d.groups.first(), ownFirst, d.span.isSubsetOf(s->online), localImbalanceAt});
        }
        for (size_t i = 0; i < doms.size(); ++i) {
            if (doms[i].flags & SD_SHARE_LLC) {  // sd_llc: the highest domain sharing the LLC
                ci.sdLlc = static_cast<int>(i);
                ci.llcSize = doms[i].span.count();
                ci.llc = doms[i].span.first();
            }
            if ((doms[i].flags & SD_CLUSTER) && clusterDomain < 0) {
                clusterDomain = doms[i].span.first();
                clusterWeight = doms[i].span.count();
            }
            if (doms[i].flags & SD_CLUSTER) s->clusterActive = true;
        }
        if (ci.sdLlc >= 0) {
            const auto& llcDomain = doms[static_cast<size_t>(ci.sdLlc)];
            ci.llcSpan = llcDomain.span.toVector();
            if (!llcDomain.groups.empty()) ci.llcFirstGroup = llcDomain.groups.front().span.toVector();
        }
        // sd_share_id: the cluster when an SD_CLUSTER domain exists, else the LLC (6.8+)
        ci.shareId = clusterDomain >= 0 ? clusterDomain : ci.llc;
        ci.clusterSize = clusterDomain >= 0 ? clusterWeight : ci.llcSize;
        // ci.cluster stays the hardware cluster: contention is physical even with CLS off
    }
    s->spanSums.reset(n);
    describeSpans(*s, tree);
    // root domains: one per cpuset root partition (none: one for all), the isolated CPUs' last
    const size_t rootDomains = std::max<size_t>(1, tree.rootDomains.size());
    s->rootDomainOf.assign(static_cast<size_t>(n), static_cast<int>(rootDomains));
    s->rdOverloadedCpus.assign(rootDomains + 1, 0);
    s->rdOverloadFlag.assign(rootDomains + 1, 0);
    for (int c = 0; c < n; ++c) {
        if (tree.isolated.test(c)) continue;
        int& rd = s->rootDomainOf[static_cast<size_t>(c)];
        rd = 0;
        for (size_t i = 0; i < tree.rootDomains.size(); ++i)
            if (tree.rootDomains[i].test(c)) rd = static_cast<int>(i);
    }
    for (const auto& ci : s->info) s->smtActive = s->smtActive || ci.siblings.size() > 1;
    s->asymPrio = asymPriorities(topo, tree);
    s->llcShared.resize(static_cast<size_t>(n));
    // a tree read from a kernel may number its levels without a level table: size by the domains
    int levelCount = 0;
    for (int c = 0; c < n; ++c)
        for (const auto& d : tree.domainsOf(c)) levelCount = std::max(levelCount, d.topologyLevel + 1);
    s->groupImbalance.assign(static_cast<size_t>(levelCount) * static_cast<size_t>(n), 0);
    s->fbqRqClass.assign(static_cast<size_t>(n), 0);
    for (const auto& ci : s->info) s->llcShared[static_cast<size_t>(ci.llc)].nrIdleScan = ci.llcSize;

    s->tasks.resize(wl.tasks.size());
    s->entityNodes.resize(wl.tasks.size());
    for (size_t i = 0; i < wl.tasks.size(); ++i) {
        const auto& spec = wl.tasks[i];
        Task& t = s->tasks[i];
        t.id = static_cast<int>(i);
        t.spec = &spec;
        t.weight = t.niceWeight = niceToWeight(spec.nice);
        if (spec.group >= static_cast<int>(wl.groups.size()))
            return Error{"workload task '" + spec.name + "': its group " + std::to_string(spec.group) + " is not one of the " +
                         std::to_string(wl.groups.size()) + " the workload has"};
        if (opt.taskGroups) t.group = spec.group;
        t.setAllowed(spec.affinity.empty() ? s->unpinned : (spec.affinity & s->online), s->onlineCount);
        if (t.allowed.empty())
            return Error{"workload task '" + spec.name + "': its CPUs " + spec.affinity.toList() +
                         " are not online (the online CPUs are " + s->online.toList() + ")"};
        bool loops = false;
        for (const auto& op : spec.script) {
            loops = loops || op.kind == OpKind::Loop;
            // sched_setaffinity() to CPUs none of which is online fails (EINVAL): said now, as
            // for the task's own CPUs, rather than the op leaving the task free to go anywhere
            if (op.kind == OpKind::SetAffinity && !op.cpus.empty() && !op.cpus.intersects(s->online))
                return Error{"workload task '" + spec.name + "': an affinity op names CPUs " + op.cpus.toList() +
                             ", none of them online"};
            for (int target : op.targets)
                if (target < 0 || static_cast<size_t>(target) >= wl.tasks.size())
                    return Error{"workload task '" + spec.name + "': refers to task " + std::to_string(target) +
                                 ", which does not exist"};
        }
        // only scripts with a Loop need the counters (a derived workload's long scripts have none)
        if (loops) t.loopLeft.assign(spec.script.size(), -2);
        s->workloadCpus |= t.allowed;
    }
    if (auto groups = setUpTaskGroups(*s, wl); !groups) return Error{groups.error()};
    setUpCapacities(*s);
    return s;
}


}  // namespace schedscope::sim
