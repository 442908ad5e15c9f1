#include "sim/numa_balancing.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "domains/sd_flags.h"
#include "sim/select_task_rq.h"

namespace schedscope::sim {
namespace {

// SMALLIMP: a swap must gain more than this (of task_weight()'s 1000) to be worth its cost
constexpr long kSmallImp = 30;

enum class NumaNodeType { HasSpare, FullyBusy, Overloaded };  // enum numa_type

struct NumaStats {  // struct numa_stats
    double load = 0, runnable = 0, util = 0, computeCapacity = 0;
    int nrRunning = 0, weight = 0, idleCpu = -1;
    NumaNodeType type = NumaNodeType::HasSpare;
};

// sched_numa_topology_type (init_numa_topology_type()) and sched_max_numa_distance
enum class NumaTopologyType { Direct, GluelessMesh, Backplane };
struct NumaShape {
    NumaTopologyType type = NumaTopologyType::Direct;
    int maxDistance = 10;
};

// Node `a`'s distance to `b`, by position in Topology::nodes (the SLIT, else 10 / 20).
int distance(const Topology& t, size_t a, size_t b) {
    if (a < t.distance.size() && b < t.distance[a].size()) return t.distance[a][b];
    return a == b ? 10 : 20;
}

// init_numa_topology_type(): one or two distances is DIRECT; else two nodes at the largest
// distance with a node nearer to both is a GLUELESS_MESH (Kunpeng 920's 4 nodes), without one a
// BACKPLANE (EPYC's two sockets of 4 nodes)
NumaShape numaShapeOf(const Topology& t) {
    NumaShape out;
    std::vector<size_t> withCpus;
    std::vector<int> distances;
    for (size_t a = 0; a < t.nodes.size(); ++a) {
        if (t.nodes[a].cpus.empty()) continue;
        withCpus.push_back(a);
    }
    for (size_t a : withCpus)
        for (size_t b : withCpus) {
            const int d = distance(t, a, b);
            out.maxDistance = std::max(out.maxDistance, d);
            if (std::find(distances.begin(), distances.end(), d) == distances.end()) distances.push_back(d);
        }
    if (distances.size() <= 2) return out;
    for (size_t a : withCpus)
        for (size_t b : withCpus) {
            if (distance(t, a, b) < out.maxDistance) continue;
            out.type = NumaTopologyType::Backplane;
            for (size_t c : withCpus)
                if (distance(t, a, c) < out.maxDistance && distance(t, b, c) < out.maxDistance)
                    out.type = NumaTopologyType::GluelessMesh;
            return out;
        }
    return out;
}

struct NumaEnv {  // struct task_numa_env
    const Task* p = nullptr;
    int srcCpu = -1, srcNid = -1, dstNid = -1, dstCpu = -1;
    int preferredNid = -1;  // p's memory's node: dstNid is another once that one has no room
    bool secondChoice() const { return dstNid != preferredNid; }
    int dist = 0;
    NumaShape shape;
    unsigned imbalancePct = 0;
    int imbNumaNr = 0;
    NumaStats src, dst;
    const Task* bestTask = nullptr;
    long bestImp = 0;
    int bestCpu = -1;
    const char* rule = "";
};

// task_h_load(): whole units, as the kernel's unsigned longs, so two tasks whose averages have
// both settled weigh the same and a swap of them changes no node's load
double taskHLoad(SimState& s, const Task& t) { return std::floor(s.taskLoad(t.id)); }

// task_weight(): the share of the task's NUMA faults on `nid`, out of 1000, with
// score_nearby_nodes(): on a mesh or backplane machine the faults on nodes near `nid` count too
// (all of a task's faults are on its memory's node): on a mesh scaled down with their distance,
// on a backplane in full when nearer than `limDist`; the farthest nodes never count
long taskWeight(const SimState& s, const NumaShape& shape, const Task& t, int nid, int limDist) {
    const int memory = numaPreferredNode(s, t);
    if (memory < 0 || nid < 0) return 0;
    if (memory == nid) return 1000;
    if (shape.type == NumaTopologyType::Direct) return 0;
    const int d = distance(*s.topo, static_cast<size_t>(nid), static_cast<size_t>(memory));
    if (d >= shape.maxDistance) return 0;
    if (shape.type == NumaTopologyType::Backplane) return d < limDist ? 1000 : 0;
    return 1000L * (shape.maxDistance - d) / (shape.maxDistance - 10);
}

// numa_classify()
NumaNodeType numaClassify(unsigned imbalancePct, const NumaStats& ns) {
    const double pct = imbalancePct;
    if (ns.nrRunning > ns.weight &&
        (ns.computeCapacity * 100 < ns.util * pct || ns.computeCapacity * pct < ns.runnable * 100))
        return NumaNodeType::Overloaded;
    if (ns.nrRunning < ns.weight ||
        (ns.computeCapacity * 100 > ns.util * pct && ns.computeCapacity * pct > ns.runnable * 100))
        return NumaNodeType::HasSpare;
    return NumaNodeType::FullyBusy;
}

// update_numa_stats(): the node's load, util, runnable and tasks; with `findIdle` an idle CPU
// the task may use there, one whose whole core is idle first (numa_idle_core())
NumaStats updateNumaStats(SimState& s, const NumaEnv& env, int nid, bool findIdle) {
    NumaStats ns;
    int idleCore = -1;
    const CpuSet& cpus = s.topo->nodes[static_cast<size_t>(nid)].cpus;
    cpus.forEach([&](int c) {
        const SimState::CpuSignals sig = s.cpuSignals(c);
        ns.load += std::floor(sig.load);
        ns.runnable += std::floor(sig.runnable);
        ns.util += std::floor(sig.util);
        ns.nrRunning += s.cpus[static_cast<size_t>(c)].nrRunning();
        ns.computeCapacity += s.tree->cpus[static_cast<size_t>(c)].capacity;
        if (findIdle && idleCore < 0 && s.idle(c) && env.p->allowed.test(c)) {
            if (ns.idleCpu < 0) ns.idleCpu = c;
            if (s.smtActive && s.coreIdle(c)) idleCore = c;
        }
    });
    ns.weight = cpus.count();
    ns.type = numaClassify(env.imbalancePct, ns);
    if (idleCore >= 0) ns.idleCpu = idleCore;
    return ns;
}

// load_too_imbalanced(): would the nodes' loads, each over its capacity, be further apart?
bool loadTooImbalanced(double srcLoad, double dstLoad, const NumaEnv& env) {
    const double srcCapacity = env.src.computeCapacity, dstCapacity = env.dst.computeCapacity;
    const double imb = std::fabs(dstLoad * srcCapacity - srcLoad * dstCapacity);
    const double oldImb = std::fabs(env.dst.load * srcCapacity - env.src.load * dstCapacity);
    return imb > oldImb;
}

void taskNumaAssign(NumaEnv& env, const Task* cur, long imp) {  // task_numa_assign()
    env.bestTask = cur;
    env.bestImp = imp;
    env.bestCpu = env.dstCpu;
}

// task_numa_compare(): `env.dstCpu`, idle or running `cur`, as the place for p (a move) or
// cur's place (a swap); true stops the search
bool taskNumaCompare(SimState& s, NumaEnv& env, long taskImp, bool maybeMove) {
    const int curId = s.cpus[static_cast<size_t>(env.dstCpu)].curr;
    const Task* cur = curId >= 0 ? &s.tasks[static_cast<size_t>(curId)] : nullptr;
    long imp = taskImp;
    const long moveImp = taskImp;
    const char* rule = "";
    if (cur == env.p) return true;
    if (!cur) {
        if (!(maybeMove && moveImp >= env.bestImp)) return false;
        rule = env.secondChoice() ? "task_numa_migrate: no room on its memory's node: an idle CPU on another node, a "
                                    "second choice it leaves when its memory's node has room"
                                  : "task_numa_migrate: an idle CPU on the node of its memory";
    } else {
        if (!cur->allowed.test(env.srcCpu)) return false;
        if (env.bestTask && numaPreferredNode(s, *env.bestTask) == env.srcNid && numaPreferredNode(s, *cur) != env.srcNid)
            return false;
        // neither is in a NUMA group: a swap does not help the load while the node has room
        if (env.dst.type == NumaNodeType::HasSpare) return false;
        imp = taskImp + taskWeight(s, env.shape, *cur, env.srcNid, env.dist) -
              taskWeight(s, env.shape, *cur, env.dstNid, env.dist);
        if (numaPreferredNode(s, *cur) == env.dstNid) imp -= imp / 16;
        if (numaPreferredNode(s, *cur) == env.srcNid) imp += imp / 8;
        rule = env.secondChoice() ? "task_numa_migrate: no room on its memory's node: swap with a task running on another node"
                                  : "task_numa_migrate: swap with a task running on the node of its memory";
        if (maybeMove && moveImp > imp && moveImp > env.bestImp) {
            imp = moveImp;
            cur = nullptr;
            rule = "task_numa_migrate: moving beats swapping";
        } else if (!(env.bestTask && numaPreferredNode(s, *cur) == env.srcNid && numaPreferredNode(s, *env.bestTask) != env.srcNid)) {
            if (imp < kSmallImp || imp <= env.bestImp + kSmallImp / 2) return false;
            // in the overloaded case keep the nodes' loads balanced
            const double load = taskHLoad(s, *env.p) - taskHLoad(s, *cur);
            if (load != 0 && loadTooImbalanced(env.src.load - load, env.dst.load + load, env)) return false;
        }
    }
    if (!cur) {  // evaluate an idle CPU for the move
        int cpu = env.dst.idleCpu >= 0 ? env.dst.idleCpu : env.dstCpu;
        if (!s.idle(cpu) && env.bestCpu >= 0 && s.idle(env.bestCpu)) cpu = env.bestCpu;
        env.dstCpu = cpu;
    }
    taskNumaAssign(env, cur, imp);
    env.rule = rule;
    if (maybeMove && !cur && env.bestCpu >= 0 && s.idle(env.bestCpu)) return true;
    return !maybeMove && env.bestTask && numaPreferredNode(s, *env.bestTask) == env.srcNid;
}

// task_numa_find_cpu()
void taskNumaFindCpu(SimState& s, NumaEnv& env, long taskImp) {
    bool maybeMove = false;
    if (env.dst.type == NumaNodeType::HasSpare) {
        // would the move make an imbalance the balancer would undo? (more tasks on the source
        // is no imbalance: the move improves it as the balancer sees it)
        const long srcRunning = env.src.nrRunning - 1, dstRunning = env.dst.nrRunning + 1;
        long imbalance = std::max(0L, dstRunning - srcRunning);
        imbalance = adjustNumaImbalance(s, imbalance, static_cast<int>(dstRunning), env.imbNumaNr, env.dst.weight);
        if (imbalance == 0) {
            maybeMove = true;
            if (env.dst.idleCpu >= 0) {
                env.dstCpu = env.dst.idleCpu;
                taskNumaAssign(env, nullptr, 0);
                env.rule = env.secondChoice()
                               ? "task_numa_migrate: no room on its memory's node: another node has room (no imbalance "
                                 "the balancer would undo), to an idle CPU there; a second choice it leaves when its "
                                 "memory's node has room"
                               : "task_numa_migrate: its memory's node has room, to an idle CPU there";
                return;
            }
        }
    } else {
        const double load = taskHLoad(s, *env.p);
        maybeMove = !loadTooImbalanced(env.src.load - load, env.dst.load + load, env);
    }
    bool stop = false;
    s.topo->nodes[static_cast<size_t>(env.dstNid)].cpus.forEach([&](int c) {
        if (stop || !env.p->allowed.test(c)) return;
        env.dstCpu = c;
        stop = taskNumaCompare(s, env, taskImp, maybeMove);
    });
}

// sd_numa: the CPU's lowest domain with SD_NUMA, or -1
int sdNuma(const SimState& s, int cpu) {
    for (int i = 0; i < nrDomains(s, cpu); ++i)
        if (dom(s, cpu, i).flags & SD_NUMA) return i;
    return -1;
}

}  // namespace

int numaPreferredNode(const SimState& s, const Task& t) {
    if (s.opt.numaMemoryFollowsS <= 0 || t.spec->memFraction <= 0) return -1;
    return t.sumExec >= s.opt.numaMemoryFollowsS * 1e9 ? t.homeNode : -1;
}

std::string numaBalancingTooShort(const workload::Workload& wl, const SimOptions& opt) {
    const double runS = wl.durationS > 0 ? wl.durationS : opt.durationS;
    const double scanDelayS = SimOptions{}.numaMemoryFollowsS;
    if (runS > scanDelayS) return "";
    std::ostringstream why;
    why << "a run of " << runS << " s ends before any task has run NUMA balancing's scan delay (" << scanDelayS
        << " s of CPU time, when a task gets its preferred node and its memory may follow it)";
    return why.str();
}

NumaPlacement taskNumaMigrate(SimState& s, const Task& p) {
    NumaPlacement out;
    const int preferred = numaPreferredNode(s, p);
    const int srcNid = s.info[static_cast<size_t>(p.cpu)].node;
    if (preferred < 0 || preferred == srcNid) return out;
    const int sd = sdNuma(s, p.cpu);
    if (sd < 0) return out;  // no NUMA domain over the CPU (isolated): it stays
    NumaEnv env;
    env.p = &p;
    env.srcCpu = p.cpu;
    env.srcNid = srcNid;
    env.dstNid = env.preferredNid = preferred;
    const SchedDomain& numa = dom(s, p.cpu, sd);
    env.imbalancePct = 100 + (numa.imbalancePct - 100) / 2;
    env.imbNumaNr = static_cast<int>(numa.imbNumaNr);
    if (s.numaShape.type < 0) {  // once per run: the machine does not change
        const NumaShape shape = numaShapeOf(*s.topo);
        s.numaShape = {static_cast<int>(shape.type), shape.maxDistance};
    }
    env.shape = {static_cast<NumaTopologyType>(s.numaShape.type), s.numaShape.maxDistance};
    env.dist = distance(*s.topo, static_cast<size_t>(env.srcNid), static_cast<size_t>(env.dstNid));
    long taskWeightHere = taskWeight(s, env.shape, p, env.srcNid, env.dist);
    env.src = updateNumaStats(s, env, env.srcNid, false);
    const long taskImp = taskWeight(s, env.shape, p, env.dstNid, env.dist) - taskWeightHere;
    env.dst = updateNumaStats(s, env, env.dstNid, true);
    taskNumaFindCpu(s, env, taskImp);
    // No room on its memory's node: the other nodes (with no NUMA group, every one is tried,
    // whatever it gains). The distance is the one from the source to the node tried last, as the
    // kernel computes it.
    if (env.bestCpu < 0) {
        for (size_t nid = 0; nid < s.topo->nodes.size(); ++nid) {
            const int n = static_cast<int>(nid);
            if (n == env.srcNid || n == preferred || s.topo->nodes[nid].cpus.empty()) continue;
            const int dist = distance(*s.topo, static_cast<size_t>(env.srcNid), static_cast<size_t>(env.dstNid));
            if (env.shape.type == NumaTopologyType::Backplane && dist != env.dist)
                taskWeightHere = taskWeight(s, env.shape, p, env.srcNid, dist);
            const long imp = taskWeight(s, env.shape, p, n, dist) - taskWeightHere;
            env.dist = dist;
            env.dstNid = n;
            env.dst = updateNumaStats(s, env, n, true);
            taskNumaFindCpu(s, env, imp);
        }
    }
    if (env.bestCpu < 0) return out;
    out.dstCpu = env.bestCpu;
    out.swapWith = env.bestTask ? env.bestTask->id : -1;
    out.rule = env.rule;
    return out;
}

}  // namespace schedscope::sim
