// pick_eevdf() and wakeup preemption judge eligibility with entity_eligible()'s test
// (vruntime_eligible(): integer keys, no division), and avg_vruntime() floors as the kernel's
// does, so a task woken with no lag, placed at the average, is eligible: picked when its deadline
// is the earliest, as in the kernel, and never by a tolerance of the simulator's own.
#include <gtest/gtest.h>

#include <random>

#include "sim/fair_rq.h"
#include "sim/simulator.h"
#include "sim_topologies.h"

namespace schedscope::test {
namespace {

using namespace schedscope::sim;

// What pick_eevdf() returns, by its definition: the earliest deadline among the eligible queued
// entities, or the leftmost (smallest vruntime) when none is.
int pickByDefinition(const SimState& s, const Cpu& rq) {
    int best = -1, leftmost = rq.queued.front();
    for (int id : rq.queued) {
        const Task& t = s.tasks[static_cast<size_t>(id)];
        if (t.vruntime < s.tasks[static_cast<size_t>(leftmost)].vruntime) leftmost = id;
        if (entityEligible(s, rq, t) && (best < 0 || t.deadline < s.tasks[static_cast<size_t>(best)].deadline)) best = id;
    }
    return best >= 0 ? best : leftmost;
}

TEST(PickEevdf, ATaskWokenWithNoLagIsEligibleAndOneKeyAheadIsNot) {
    const Topology topo = kunpeng920_24();
    const DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    workload::Workload wl;
    wl.tasks.resize(8);
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> vr(0, 20e6);
    const double weights[] = {1024, 335, 3121, 110, 9548};
    for (int round = 0; round < 400; ++round) {
        auto st = makeSimState(topo, tree, wl, SimOptions{});
        ASSERT_TRUE(st.ok()) << st.error();
        SimState& s = **st;
        Cpu& rq = s.cpus[0];
        rq.curr = 0;
        Task& curr = s.tasks[0];
        curr.state = TaskState::Running;
        curr.vruntime = vr(rng);
        curr.weight = weights[rng() % 5];
        curr.deadline = curr.vruntime + 1e6;
        for (int id = 1; id < 1 + 1 + round % 5; ++id) {
            Task& t = s.tasks[static_cast<size_t>(id)];
            t.weight = weights[rng() % 5];
            t.vruntime = vr(rng);
            t.deadline = t.vruntime + 3e6;
            queueEntity(rq, t);
        }
        // woken with no lag: at the average, with the earliest deadline of all
        Task& woken = s.tasks[7];
        woken.weight = weights[rng() % 5];
        woken.vlag = 0;
        placeEntity(s, rq, woken, Place::Wakeup);
        woken.deadline = -1;
        queueEntity(rq, woken);
        ASSERT_TRUE(entityEligible(s, rq, woken)) << "round " << round << ": zero lag is eligible";
        EXPECT_EQ(pickNextEntity(s, rq), woken.id) << "round " << round;
        EXPECT_EQ(pickNextEntity(s, rq), pickByDefinition(s, rq)) << "round " << round;
        EXPECT_TRUE(checkPreemptWakeup(s, rq, woken)) << "round " << round << ": an earlier deadline, eligible";

        // one key (1/16 ns) ahead of the average: not eligible, so not picked and no preemption
        unqueueEntity(rq, woken);
        woken.vruntime += 1.0 / 16;
        queueEntity(rq, woken);
        ASSERT_FALSE(entityEligible(s, rq, woken)) << "round " << round;
        EXPECT_EQ(pickNextEntity(s, rq), pickByDefinition(s, rq)) << "round " << round;
        EXPECT_FALSE(checkPreemptWakeup(s, rq, woken)) << "round " << round;
        bool anyEligible = false;
        for (int id : rq.queued) anyEligible |= entityEligible(s, rq, s.tasks[static_cast<size_t>(id)]);
        if (anyEligible) {
            EXPECT_NE(pickNextEntity(s, rq), woken.id) << "round " << round;
        }
    }
}

}  // namespace
}  // namespace schedscope::test
