// NUMA balancing's task side (task_numa_migrate()): a task running away from its memory goes
// back to an idle CPU of its memory's node when that node has room, or swaps with a task
// running there, preferring one whose own memory is on the task's node; and never when the
// swap partner may not run where the task was.
#include <gtest/gtest.h>

#include <algorithm>

#include "sim/numa_balancing.h"
#include "sim/simulator.h"
#include "script_ops.h"
#include "sim_topologies.h"

namespace schedscope::test {
namespace {

using workload::OpKind;

const DomainTree& tree() {
    static const DomainTree t = buildTree(twoNodesOfTwoCores(), "linux-6.12", true, true);
    return t;
}

// a task that runs for ever on `cpu`
workload::TaskSpec pinnedHog(const std::string& name, int cpu, double memFraction) {
    workload::TaskSpec t;
    t.name = name;
    t.memFraction = memFraction;
    t.affinity = CpuSet::single(cpu);
    t.script = {op(OpKind::Run, 100e9)};
    return t;
}

// Gives every task a scan delay of CPU time (1 s; its first 0.3 s ran): NUMA balancing has
// scanned its memory, so a task with memory traffic has faults and a preferred node.
void markScanned(sim::SimState& st) {
    for (auto& t : st.tasks) t.sumExec = std::max(t.sumExec, st.opt.numaMemoryFollowsS * 1e9);
}

// Runs `wl` (each task pinned) for 0.3 s so the loads settle, then frees every task to run
// anywhere: the state task_numa_migrate() then sees, with every task's memory scanned. The run keeps its workload, whose task specs
// the state points at.
struct Settled {
    std::unique_ptr<workload::Workload> wl;
    std::unique_ptr<sim::Simulation> sim;
    sim::SimState& state() { return sim->state(); }
};

Settled settle(workload::Workload wl) {
    Settled out;
    out.wl = std::make_unique<workload::Workload>(std::move(wl));
    sim::SimOptions o;
    o.durationS = 1;
    auto sim = sim::Simulation::create(twoNodesOfTwoCores(), tree(), *out.wl, o);
    EXPECT_TRUE(sim.ok()) << (sim.ok() ? "" : sim.error());
    out.sim = std::move(*sim);
    while (out.state().now < 300000000 && out.sim->stepEvent()) {
    }
    for (auto& t : out.state().tasks) t.setAllowed(CpuSet::range(0, 3), 4);
    markScanned(out.state());
    return out;
}

TEST(NumaBalancing, MovesATaskToAnIdleCpuOfItsMemorysNode) {
    workload::Workload wl;
    wl.tasks = {pinnedHog("away", 2, 0.5), pinnedHog("neighbour", 3, 0)};
    Settled s = settle(wl);
    sim::Task& away = s.state().tasks[0];
    away.homeNode = s.state().info[0].node;
    const sim::NumaPlacement m = sim::taskNumaMigrate(s.state(), away);
    EXPECT_EQ(m.dstCpu, 0);  // node 0's first idle CPU: one task on each node is no imbalance
    EXPECT_EQ(m.swapWith, -1);
    EXPECT_STREQ(m.rule, "task_numa_migrate: its memory's node has room, to an idle CPU there");
}

// Node 0 runs one task, node 1 only this one: moving it would leave 2 against 0, more than
// this machine's NUMA imbalance allowance (imb_numa_nr 1) lets the balancer keep, and a node
// with room is no place for a swap.
TEST(NumaBalancing, StaysWhenTheMoveWouldMakeAnImbalanceTheBalancerUndoes) {
    workload::Workload wl;
    wl.tasks = {pinnedHog("away", 2, 0.5), pinnedHog("home", 0, 0)};
    Settled s = settle(wl);
    ASSERT_EQ(tree().cpus[0].domains.back().imbNumaNr, 1u);
    sim::Task& away = s.state().tasks[0];
    away.homeNode = s.state().info[0].node;
    EXPECT_EQ(sim::taskNumaMigrate(s.state(), away).dstCpu, -1);
}

// Task 0 runs on CPU 2 (node 1) with its memory on node 0, where tasks 1 and 2 run: CPU-bound
// hogs unless `secondAway`, which makes task 2 memory bound with its memory on node 1.
Settled busyHomeNode(bool secondAway) {
    workload::Workload wl;
    wl.tasks = {pinnedHog("away", 2, 0.5), pinnedHog("a", 0, 0), pinnedHog("b", 1, secondAway ? 0.5 : 0)};
    Settled s = settle(wl);
    s.state().tasks[0].homeNode = s.state().info[0].node;
    if (secondAway) s.state().tasks[2].homeNode = s.state().info[2].node;
    return s;
}

TEST(NumaBalancing, SwapsWithATaskOnItsMemorysNodeWhenThatNodeIsBusy) {
    Settled s = busyHomeNode(false);
    const sim::NumaPlacement m = sim::taskNumaMigrate(s.state(), s.state().tasks[0]);
    EXPECT_EQ(m.dstCpu, 0);  // the first task compared that gains enough: equal loads, no imbalance
    EXPECT_EQ(m.swapWith, 1);
}

TEST(NumaBalancing, PrefersASwapPartnerWhoseMemoryIsOnTheTasksNode) {
    Settled s = busyHomeNode(true);
    const sim::NumaPlacement m = sim::taskNumaMigrate(s.state(), s.state().tasks[0]);
    EXPECT_EQ(m.dstCpu, 1);
    EXPECT_EQ(m.swapWith, 2);
}

TEST(NumaBalancing, NoSwapWithATaskThatMayNotRunWhereTheTaskIs) {
    Settled s = busyHomeNode(false);
    for (int id : {1, 2}) s.state().tasks[static_cast<size_t>(id)].setAllowed(CpuSet::range(0, 1), 4);
    EXPECT_EQ(sim::taskNumaMigrate(s.state(), s.state().tasks[0]).dstCpu, -1);
}

TEST(NumaBalancing, LeavesATaskAtItsMemoryAndATaskWithoutMemoryTraffic) {
    workload::Workload wl;
    wl.tasks = {pinnedHog("at-home", 2, 0.5), pinnedHog("cpu-bound", 3, 0)};
    Settled s = settle(wl);
    sim::SimState& st = s.state();
    EXPECT_EQ(st.tasks[0].homeNode, st.info[2].node);  // first touch
    EXPECT_EQ(sim::taskNumaMigrate(st, st.tasks[0]).dstCpu, -1);
    st.tasks[1].homeNode = st.info[0].node;
    EXPECT_EQ(sim::numaPreferredNode(st, st.tasks[1]), -1);
    EXPECT_EQ(sim::taskNumaMigrate(st, st.tasks[1]).dstCpu, -1);
}

// A task has no preferred node until NUMA balancing has scanned its memory, a scan delay of CPU
// time in (init_numa_balancing() starts it with NUMA_NO_NODE and numa_scan_period at
// numa_balancing_scan_delay_ms): before that it is not taken to its memory, and from then it is.
TEST(NumaBalancing, NoPreferredNodeBeforeTheFirstScan) {
    workload::Workload wl;
    wl.tasks = {pinnedHog("away", 2, 0.5), pinnedHog("neighbour", 3, 0)};
    Settled s = settle(wl);
    sim::SimState& st = s.state();
    sim::Task& away = st.tasks[0];
    away.homeNode = st.info[0].node;
    away.sumExec = 0.3e9;  // what it ran: less than the 1 s scan delay
    EXPECT_EQ(sim::numaPreferredNode(st, away), -1);
    EXPECT_EQ(sim::taskNumaMigrate(st, away).dstCpu, -1);
    away.sumExec = 1e9;
    EXPECT_EQ(sim::numaPreferredNode(st, away), st.info[0].node);
    EXPECT_EQ(sim::taskNumaMigrate(st, away).dstCpu, 0);
    st.opt.numaMemoryFollowsS = 0;  // numa_balancing=0: no task ever has a preferred node
    EXPECT_EQ(sim::numaPreferredNode(st, away), -1);
}

// 4 nodes of 2 cores (CPUs 2n, 2n+1 on node n) with Kunpeng 920's distances: a glueless mesh
// (nodes 0 and 3 at 22 have node 1 nearer to both), or every remote node at 20 (direct)
const Topology& fourNodesOfTwo(bool mesh) {
    static const auto make = [](bool m) {
        Shape shape;
        shape.packages = 4;
        shape.coresPerCluster = 2;
        if (m) shape.distance = {{10, 12, 20, 22}, {12, 10, 22, 20}, {20, 22, 10, 12}, {22, 20, 12, 10}};
        return makeTopology(m ? "4-node mesh" : "4 nodes", shape);
    };
    static const Topology meshTopo = make(true), directTopo = make(false);
    return mesh ? meshTopo : directTopo;
}

std::unique_ptr<sim::Simulation> settleOn(const Topology& topo, const DomainTree& tree, const workload::Workload& wl) {
    sim::SimOptions o;
    o.durationS = 1;
    auto sim = sim::Simulation::create(topo, tree, wl, o);
    EXPECT_TRUE(sim.ok()) << (sim.ok() ? "" : sim.error());
    while ((*sim)->state().now < 300000000 && (*sim)->stepEvent()) {
    }
    markScanned((*sim)->state());
    return std::move(*sim);
}

// Its memory's node (0) is full with tasks that may not leave it, its own node (1) runs another
// task too: the kernel then tries the other nodes. Idle nodes 2 and 3 both have room, and
// task_numa_assign() takes each in turn without comparing: the last one tried, node 3, wins.
TEST(NumaBalancing, GoesToTheLastOtherNodeWithRoomWhenItsMemorysNodeIsFull) {
    const Topology& topo = fourNodesOfTwo(false);
    static const DomainTree t = buildTree(topo, "linux-6.12", true, true);
    workload::Workload wl;
    wl.tasks = {pinnedHog("away", 2, 0.5), pinnedHog("neighbour", 3, 0), pinnedHog("a", 0, 0), pinnedHog("b", 1, 0)};
    auto sim = settleOn(topo, t, wl);
    sim::SimState& st = sim->state();
    st.tasks[0].setAllowed(CpuSet::range(0, 7), 8);
    st.tasks[0].homeNode = st.info[0].node;
    const sim::NumaPlacement m = sim::taskNumaMigrate(st, st.tasks[0]);
    EXPECT_EQ(st.info[static_cast<size_t>(std::max(0, m.dstCpu))].node, st.info[6].node) << "cpu " << m.dstCpu;
    EXPECT_EQ(m.swapWith, -1);
    // the decision log says it is a second choice (it said "its memory's node has room")
    EXPECT_TRUE(std::string(m.rule).starts_with("task_numa_migrate: no room on its memory's node: another node has room"))
        << m.rule;
}

// On a mesh, faults on a node near the one compared count in part (score_nearby_nodes()): of two
// swap partners on the task's memory's node, the one whose own memory is one hop from the task's
// node (node 3, at 12 from node 2) gains from the swap and is chosen; with all nodes at 20 the two
// gain alike and the first compared is kept.
TEST(NumaBalancing, OnAMeshASwapPartnerWithMemoryNearTheTaskCountsMore) {
    for (bool mesh : {true, false}) {
        const Topology& topo = fourNodesOfTwo(mesh);
        const DomainTree t = buildTree(topo, "linux-6.12", true, true);
        workload::Workload wl;
        wl.tasks = {pinnedHog("away", 4, 0.5), pinnedHog("a", 0, 0), pinnedHog("b", 1, 0.5)};
        auto sim = settleOn(topo, t, wl);
        sim::SimState& st = sim->state();
        for (auto& task : st.tasks) task.setAllowed(CpuSet::range(0, 7), 8);
        st.tasks[0].homeNode = st.info[0].node;
        st.tasks[2].homeNode = st.info[6].node;
        const sim::NumaPlacement m = sim::taskNumaMigrate(st, st.tasks[0]);
        EXPECT_EQ(m.swapWith, mesh ? 2 : 1) << (mesh ? "mesh" : "direct");
    }
}

// The whole path in a run: a memory-bound task moved off its memory's node (its affinity is
// narrowed to node 1 and widened again) is taken back within a sixteenth of a scan period,
// before its memory would follow it, and the move is counted as a NUMA migration.
TEST(NumaBalancing, ARunTakesATaskBackToItsMemory) {
    workload::Workload wl;
    workload::TaskSpec t;
    t.name = "mover";
    t.memFraction = 0.5;
    t.affinity = CpuSet::single(0);
    workload::Op away = op(OpKind::SetAffinity);
    away.cpus = CpuSet::single(2);
    workload::Op anywhere = op(OpKind::SetAffinity);
    anywhere.cpus = CpuSet::range(0, 3);
    t.script = {op(OpKind::Run, 1.5e9), away, op(OpKind::Run, 1e6), anywhere, op(OpKind::Run, 10e9)};
    wl.tasks = {t};
    sim::SimOptions o;
    o.durationS = 2;
    auto st = sim::simulate(twoNodesOfTwoCores(), tree(), wl, o);
    ASSERT_TRUE(st.ok()) << st.error();
    const sim::SimState& s = **st;
    EXPECT_EQ(s.info[static_cast<size_t>(s.tasks[0].cpu)].node, s.info[0].node);
    EXPECT_EQ(s.tasks[0].homeNode, s.info[0].node);
    EXPECT_EQ(s.metrics.numaTaskMoves, 1);
    EXPECT_EQ(s.metrics.numaMemoryMoves, 0);
    EXPECT_EQ(s.metrics.migrationsByCause[static_cast<size_t>(sim::MigrationCause::Numa)], 1);
    // away from its memory for at most a retry interval (62.5 ms) and a tick: nearly 2 s of work
    EXPECT_GT(s.tasks[0].workDone, 2e9 - 0.07e9);
}

}  // namespace
}  // namespace schedscope::test
