// After every event, each running task's speed is what the contention model gives for the
// placement at that moment: a context switch re-times every task whose speed it changes. Memory-
// bound tasks spread over several nodes run away from their home node (where their memory and
// its demand are), the case that once kept a stale speed.
#include <gtest/gtest.h>

#include <string>

#include "domains/domain_tree.h"
#include "sim/simulator.h"
#include "sim_topologies.h"
#include "workload/bursts_and_sleeps.h"
#include "workload/workload_spec.h"

namespace schedscope::test {
namespace {

void expectFreshSpeeds(const Topology& topo, const workload::Workload& wl, const std::string& profile, double seconds,
                       bool memoryBound = true, double numaMemoryFollowsS = 1.0) {
    const TestRun run = startRun(topo, profile, wl, seconds, numaMemoryFollowsS);
    ASSERT_TRUE(run.sim);
    long long events = 0;
    while (run.sim->stepEvent()) {
        ++events;
        ASSERT_EQ(run.sim->staleSpeeds(), 0) << wl.name << ": after event " << events << " at " << run.sim->state().now
                                             << " ns";
    }
    EXPECT_GT(events, 1000);
    if (!memoryBound) return;
    // the case in point happened: memory-bound tasks ran away from their home node
    int away = 0;
    for (const auto& t : run.sim->state().tasks)
        if (t.spec->memFraction > 0 && t.cpu >= 0 && t.homeNode >= 0 &&
            topo.nodeIndex(topo.cpus[static_cast<size_t>(t.cpu)].node) != t.homeNode)
            ++away;
    EXPECT_GT(away, 0);
}

workload::Workload fromSpec(const Topology& topo, const std::string& spec) {
    auto wl = workload::parseWorkloadSpec(spec, static_cast<int>(topo.cpus.size()));
    EXPECT_TRUE(wl.ok()) << (wl.ok() ? "" : wl.error());
    return wl.ok() ? *wl : workload::Workload{};
}

// bench sim's mix, smaller: short bursts and sleeps, every other task memory-bound, so wakeups
// scatter tasks over the nodes
workload::Workload burstsAndSleeps(int tasks) { return workload::burstsAndSleeps(tasks, 2, 0.6, 6.0); }

TEST(ContentionFresh, KunpengBurstsAcrossNodes) {
    expectFreshSpeeds(kunpeng920_24(), burstsAndSleeps(120), "linux-6.12", 0.2);
}

// NUMA balancing moving the memory of tasks that ran away from it: every move changes two
// nodes' demand and the task's own distance to its memory (a 2 ms scan period, so that moves
// happen in a short run; the tasks end up near their memory, so the away check is off)
TEST(ContentionFresh, KunpengMemoryFollowingItsTasks) {
    const Topology topo = kunpeng920_24();
    const workload::Workload wl = burstsAndSleeps(120);
    const TestRun probe = startRun(topo, "linux-6.12", wl, 0.8, 0.002);
    ASSERT_TRUE(probe.sim);
    while (probe.sim->stepEvent()) {
    }
    EXPECT_GT(probe.sim->state().metrics.numaMemoryMoves, 10) << "too few moves to test";
    expectFreshSpeeds(topo, wl, "linux-6.12", 0.8, false, 0.002);
}

TEST(ContentionFresh, EpycBurstsWithSmt) {
    expectFreshSpeeds(epyc7601_2s(), burstsAndSleeps(160), "linux-6.1", 0.2);
}

TEST(ContentionFresh, KunpengStreamMoreThreadsThanANode) {
    const Topology topo = kunpeng920_24();
    expectFreshSpeeds(topo, fromSpec(topo, "stream:threads=40"), "linux-6.12", 1.0);
}

// Cache footprints alone (no memory traffic): a switch re-times the tasks of its cluster whose
// share of the cluster's cache it changes
TEST(ContentionFresh, KunpengCacheFootprintsOnly) {
    workload::Workload wl = workload::burstsAndSleeps(120, 0, 0.0, 0.0);
    for (size_t i = 0; i < wl.tasks.size(); i += 2) {
        wl.tasks[i].cacheFraction = 0.4;
        wl.tasks[i].cacheMB = 3.0;
    }
    expectFreshSpeeds(kunpeng920_24(), wl, "linux-6.12", 0.2, false);
}

// hackbench on a 128-CPU EPYC 7763 node: every task has a little memory traffic, so each switch
// moves the node's stretch by a few parts in a million, less than the re-timing tolerance; the
// tasks that keep their speed must still run within it of the model's
TEST(ContentionFresh, MilanNodeOfLightMemoryTasks) {
    const Topology topo = preset("epyc7763-2s");
    expectFreshSpeeds(topo, fromSpec(topo, "hackbench:groups=4"), "linux-6.12", 0.01, false);
}

// pbzip2's compressors: cache footprints and memory traffic together, woken one by one from a queue
TEST(ContentionFresh, KunpengPbzip2) {
    const Topology topo = kunpeng920_24();
    expectFreshSpeeds(topo, fromSpec(topo, "pbzip2:threads=40"), "linux-6.12", 0.3, false);
}

}  // namespace
}  // namespace schedscope::test
