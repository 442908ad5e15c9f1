// EEVDF's pick, placement and wakeup preemption against the kernel's definitions:
// - pick_eevdf() and wakeup preemption judge eligibility with entity_eligible()'s test
//   (vruntime_eligible(): integer keys, no division), and avg_vruntime() floors as the kernel's
//   does, so a task woken with no lag, placed at the average, is eligible;
// - place_entity() keeps the lag a task left with (PLACE_LAG's (W + w) / W inflation);
// - update_curr() renews a used slice (update_deadline()); check_preempt_wakeup_fair() preempts
//   when pick_eevdf() over curr and the queue picks the wakee (and RUN_TO_PARITY, when on).
#include <gtest/gtest.h>

#include <random>

#include "sim/fair_rq.h"
#include "sim/simulator.h"
#include "sim_topologies.h"

namespace schedscope::test {
namespace {

using namespace schedscope::sim;

// What pick_eevdf() returns, by its definition: the earliest deadline among the eligible queued
// entities, or the leftmost (smallest vruntime) when none is; of equals, the earlier enqueued.
int pickByDefinition(const SimState& s, const Cpu& rq) {
    auto earlier = [&](int a, int b) { return enqueueOrder(s, a) < enqueueOrder(s, b); };
    int best = -1, leftmost = rq.queued.front();
    for (int id : rq.queued) {
        const Task& t = s.tasks[static_cast<size_t>(id)];
        const Task& l = s.tasks[static_cast<size_t>(leftmost)];
        if (t.vruntime < l.vruntime || (t.vruntime == l.vruntime && earlier(id, leftmost))) leftmost = id;
        if (!entityEligible(s, rq, t)) continue;
        if (best < 0) { best = id; continue; }
        const Task& b = s.tasks[static_cast<size_t>(best)];
        if (t.deadline < b.deadline || (t.deadline == b.deadline && earlier(id, best))) best = id;
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
            queueEntity(s, rq, t);
        }
        // woken with no lag: at the average, with the earliest deadline of all
        Task& woken = s.tasks[7];
        woken.weight = weights[rng() % 5];
        woken.vlag = 0;
        placeEntity(s, rq, woken, Place::Wakeup);
        woken.deadline = -1;
        queueEntity(s, rq, woken);
        ASSERT_TRUE(entityEligible(s, rq, woken)) << "round " << round << ": zero lag is eligible";
        EXPECT_EQ(pickNextEntity(s, rq), woken.id) << "round " << round;
        EXPECT_EQ(pickNextEntity(s, rq), pickByDefinition(s, rq)) << "round " << round;
        EXPECT_TRUE(checkPreemptWakeup(s, rq, woken)) << "round " << round << ": an earlier deadline, eligible";

        // one key (1/16 ns) ahead of the average: not eligible, so not picked and no preemption
        unqueueEntity(s, rq, woken);
        woken.vruntime += 1.0 / 16;
        queueEntity(s, rq, woken);
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

// One runqueue of the Kunpeng's CPU 0 with `n` tasks of weight 1024, none queued yet.
struct Rq {
    Topology topo = kunpeng920_24();
    DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    std::unique_ptr<SimState> s;
    explicit Rq(int n) {
        workload::Workload wl;
        wl.tasks.resize(static_cast<size_t>(n));
        auto st = makeSimState(topo, tree, wl, SimOptions{});
        EXPECT_TRUE(st.ok());
        s = std::move(*st);
        s->feat.runToParity = true;  // modelled, off in the profiles (featuresFor())
    }
    Cpu& rq() { return s->cpus[0]; }
    Task& task(int id) { return s->tasks[static_cast<size_t>(id)]; }
    void run(int id, double vruntime, double deadline) {
        task(id).vruntime = vruntime;
        task(id).deadline = deadline;
        task(id).state = TaskState::Running;
        rq().curr = id;
    }
    void queue(int id, double vruntime, double deadline) {
        task(id).vruntime = vruntime;
        task(id).deadline = deadline;
        queueEntity(*s, rq(), task(id));
    }
};

TEST(PlaceEntity, AWokenTaskKeepsTheLagItLeftWith) {
    for (const double lag : {2e6, -1.5e6, 3e5}) {
        for (int others = 1; others <= 3; ++others) {
            Rq q(5);
            q.run(0, 10e6, 11e6);
            for (int i = 1; i < others; ++i) q.queue(i, 10e6 + 1e6 * i, 12e6);
            Task& t = q.task(4);
            t.vlag = lag;
            placeEntity(*q.s, q.rq(), t, Place::Wakeup);
            queueEntity(*q.s, q.rq(), t);
            // joining moved the average towards it; the inflated lag leaves it `lag` behind it
            EXPECT_NEAR(avgVruntime(*q.s, q.rq()) - t.vruntime, lag, 1.0) << "lag " << lag << ", " << others << " on the rq";
        }
    }
}

// dequeue_entity() takes the lag (update_entity_lag()) before the entity leaves the tree, so a
// migrated task's lag is measured against an average it still counts in: equal weights, curr at
// 10 ms and the queued task at 8 ms, both lags are 1 ms (V = 9 ms), not the 2 ms the others'
// average alone would give. And since 6.12 (PLACE_REL_DEADLINE) what it had left of its slice
// goes with it: placed anew, its deadline keeps that distance instead of a fresh slice.
TEST(DequeueEntity, AMigrationTakesTheLagWhileTheTaskCountsAndKeepsItsDeadlineDistance) {
    for (const bool relDeadline : {true, false}) {
        Rq q(3);
        q.s->feat.placeRelDeadline = relDeadline;
        q.run(0, 10e6, 11e6);
        q.queue(1, 8e6, 8.4e6);
        Task& t = q.task(1);
        dequeueRunnable(*q.s, q.rq(), t, false);
        EXPECT_NEAR(t.vlag, 1e6, 1);
        EXPECT_TRUE(q.rq().queued.empty());
        EXPECT_EQ(t.relDeadline, relDeadline);
        // onto CPU 1, where task 2 runs at 20 ms: 1 ms behind the new average
        Cpu& dst = q.s->cpus[1];
        Task& other = q.task(2);
        other.vruntime = 20e6;
        other.state = TaskState::Running;
        dst.curr = 2;
        placeEntity(*q.s, dst, t, Place::Migrated);
        queueEntity(*q.s, dst, t);
        EXPECT_NEAR(avgVruntime(*q.s, dst) - t.vruntime, 1e6, 1);
        EXPECT_NEAR(t.vruntime, 18e6, 1);
        EXPECT_NEAR(t.deadline - t.vruntime, relDeadline ? 0.4e6 : q.s->baseSliceNs, 1)  // weight 1024: a slice in vtime is the slice
            << "relDeadline " << relDeadline;
        EXPECT_FALSE(t.relDeadline);
    }
    Rq q(2);  // curr leaving (active balance, an affinity change): it counts as curr
    q.s->feat.placeRelDeadline = true;
    q.run(0, 10e6, 11e6);
    q.queue(1, 8e6, 8.4e6);
    dequeueRunnable(*q.s, q.rq(), q.task(0), false);
    EXPECT_NEAR(q.task(0).vlag, -1e6, 1);
    EXPECT_EQ(q.rq().queued.size(), 1u) << "curr is not in the queue; the caller takes it off the CPU";
    EXPECT_NEAR(q.task(0).deadline, 1e6, 1);
}

TEST(UpdateDeadline, AUsedSliceIsRenewedAndYieldsOnlyToAQueuedTask) {
    Rq q(2);
    q.run(0, 5e6, 4e6);  // ran past its deadline, alone
    q.task(0).sliceProtected = true;
    EXPECT_FALSE(updateDeadline(*q.s, q.rq())) << "alone: a new slice, no resched";
    EXPECT_DOUBLE_EQ(q.task(0).deadline, 5e6 + q.s->baseSliceNs);
    EXPECT_FALSE(q.task(0).sliceProtected) << "the slice it was picked with is used: RUN_TO_PARITY's protection ends";
    EXPECT_FALSE(updateDeadline(*q.s, q.rq())) << "within the new slice";
    q.task(0).vruntime = q.task(0).deadline;
    q.queue(1, 6e6, 8e6);
    EXPECT_TRUE(updateDeadline(*q.s, q.rq())) << "slice used with another task queued";
}

TEST(CheckPreemptWakeup, PreemptsWhenPickEevdfWouldPickTheWakee) {
    {  // equal deadlines, both eligible: the queue's best wins unless curr's is strictly earlier
        Rq q(2);
        q.run(0, 10e6, 12e6);
        q.task(0).sliceProtected = false;  // its picked slice is used: no RUN_TO_PARITY protection
        q.queue(1, 10e6, 12e6);
        EXPECT_TRUE(checkPreemptWakeup(*q.s, q.rq(), q.task(1)));
        q.task(0).deadline = 11.9e6;
        EXPECT_FALSE(checkPreemptWakeup(*q.s, q.rq(), q.task(1)));
    }
    {  // another queued task, eligible with an earlier deadline, is the pick: no preemption
        Rq q(3);
        q.run(0, 10e6, 13e6);
        q.queue(2, 9e6, 11e6);
        q.queue(1, 9.5e6, 12e6);
        EXPECT_FALSE(checkPreemptWakeup(*q.s, q.rq(), q.task(1)));
        EXPECT_TRUE(checkPreemptWakeup(*q.s, q.rq(), q.task(2)));
    }
    {  // RUN_TO_PARITY: curr, eligible, in the slice it was picked with, runs on
        Rq q(2);
        q.run(0, 9e6, 12e6);
        q.task(0).sliceProtected = true;
        q.queue(1, 10e6, 11e6);  // average 9.5 ms: the wakee, at 10 ms, is not eligible
        EXPECT_FALSE(checkPreemptWakeup(*q.s, q.rq(), q.task(1)));
        unqueueEntity(*q.s, q.rq(), q.task(1));
        q.queue(1, 9e6, 11e6);  // average 9 ms: both eligible, the wakee's deadline earlier
        EXPECT_FALSE(checkPreemptWakeup(*q.s, q.rq(), q.task(1))) << "protected slice";
        q.task(0).sliceProtected = false;  // curr got a new deadline since its pick
        EXPECT_TRUE(checkPreemptWakeup(*q.s, q.rq(), q.task(1)));
        q.task(0).sliceProtected = true;
        q.task(0).vruntime = 9.5e6;  // ahead of the average (9.25 ms): not eligible, not protected
        EXPECT_TRUE(checkPreemptWakeup(*q.s, q.rq(), q.task(1)));
    }
}

// RUN_TO_PARITY is judged where check_preempt_wakeup_fair()'s find_matching_se() meets: curr's
// own slice protection when the wakee is of curr's group or one below it, else the protection of
// curr's group entity on the shared runqueue, which its slice and (before 7.0) its first
// reweight end. Tasks: 0 and 1 in group A, 2 in A's child A1, 3 in group B, 4 in the root.
TEST(CheckPreemptWakeup, RunToParityIsJudgedWhereTheHierarchiesMeet) {
    Topology topo = kunpeng920_24();
    DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    workload::Workload wl;
    wl.tasks.resize(5);
    wl.groups = {{"A", 1024, -1}, {"A1", 1024, 0}, {"B", 1024, -1}};
    for (auto [task, group] : {std::pair{0, 0}, {1, 0}, {2, 1}, {3, 2}})
        wl.tasks[static_cast<size_t>(task)].group = group;
    auto made = makeSimState(topo, tree, wl, SimOptions{});
    ASSERT_TRUE(made.ok()) << made.error();
    SimState& s = **made;
    s.feat.runToParity = true;
    s.now = 50'000'000;
    Cpu& rq = s.cpus[0];
    auto task = [&](int id) -> Task& { return s.tasks[static_cast<size_t>(id)]; };
    GroupOnCpu& entityA = s.groups[0].onCpu[0];
    // curr (task 0 of A) eligible in the slice it was picked with 0.1 ms ago, with A's entity
    auto runTask0 = [&] {
        task(0).vruntime = 9e6;
        task(0).deadline = 12e6;
        task(0).state = TaskState::Running;
        task(0).sliceProtected = true;
        task(0).pickedAt = s.now - 100'000;
        rq.curr = 0;
        entityA.pickedAt = s.now - 100'000;
        entityA.pickedStamp = ++s.groupEntityClock;
    };
    // the wakee, eligible with an earlier deadline than curr's: without protection it preempts
    auto preempts = [&](int wakee) {
        task(wakee).vruntime = 9e6;
        task(wakee).deadline = 11e6;
        queueEntity(s, rq, task(wakee));
        const bool p = checkPreemptWakeup(s, rq, task(wakee));
        unqueueEntity(s, rq, task(wakee));
        return p;
    };
    runTask0();
    EXPECT_FALSE(preempts(1)) << "A's runqueue: curr, a task entity, keeps its slice";
    EXPECT_FALSE(preempts(2)) << "A1 is below A: the hierarchies meet at A's runqueue";
    EXPECT_FALSE(preempts(3)) << "B's wakee meets curr's A at the root, picked 0.1 ms ago";
    EXPECT_FALSE(preempts(4)) << "a root task, too";
    entityA.reweightedStamp = ++s.groupEntityClock;  // update_cfs_group() moved A's shares since its pick
    EXPECT_FALSE(preempts(1)) << "curr's own protection does not see its group's reweight";
    EXPECT_TRUE(preempts(3)) << "the reweight wrote A's lag over its protection (before 7.0)";
    EXPECT_TRUE(preempts(4));
    s.feat.groupEntityKeepsProtection = true;  // 7.0: se->vprot apart, rescaled
    EXPECT_FALSE(preempts(3));
    entityA.pickedAt = s.now - static_cast<int64_t>(s.baseSliceNs);  // A's own slice is over
    EXPECT_TRUE(preempts(3));
    EXPECT_FALSE(preempts(1)) << "curr's slice, picked later, still runs";
    // curr in the root group meets every wakee as itself, a task entity
    s.feat.groupEntityKeepsProtection = false;
    task(0).state = TaskState::Runnable;
    task(4).vruntime = 9e6;
    task(4).deadline = 12e6;
    task(4).state = TaskState::Running;
    task(4).sliceProtected = true;
    rq.curr = 4;
    EXPECT_FALSE(preempts(3));
    task(4).sliceProtected = false;  // update_deadline() renewed its slice
    EXPECT_TRUE(preempts(3));
}

}  // namespace
}  // namespace schedscope::test
