// CFS's sched_slice() (kernel/sched/fair.c before 6.6) where the simulator uses it, computed by
// hand on one runqueue of a 24-CPU Kunpeng 920 (tunables scaled by 1 + ilog2(8) = 4: latency
// 24 ms, min_granularity 3 ms):
// - START_DEBIT places a forked task one vslice after min_vruntime of its parent's runqueue (or
//   at its parent's vruntime if further), its slice counted with the task itself in the
//   period's task count and in the queue's weight ("nr_running + !on_rq");
// - since 5.13 (BASE_SLICE) a slice is never under min_granularity, so a nice-19 task among
//   nice-0 ones is not preempted by the tick before it ran that long;
// - the buddies: a wakee that preempted curr runs next although another task is further left,
//   unless that would be unfair (beyond the wakeup granularity of 4 ms), and with 8 or more
//   tasks running the preempted task gets the CPU back after it.
#include <gtest/gtest.h>

#include "domains/profile.h"
#include "sim/fair_rq.h"
#include "sim/simulator.h"
#include "script_ops.h"
#include "sim_topologies.h"

namespace schedscope::test {
namespace {

using namespace schedscope::sim;

constexpr double kLatencyNs = 24e6, kMinGranNs = 3e6;
constexpr double kNice0 = 1024, kNice19 = 15;

// CPU 0 of the Kunpeng under a CFS kernel's features, with `n` tasks none of which is queued yet
struct CfsRq {
    Topology topo = kunpeng920_24();
    DomainTree tree;
    std::unique_ptr<SimState> s;
    CfsRq(const char* kernel, int n) : tree(buildTree(topo, kernel, true, true)) {
        workload::Workload wl;
        wl.tasks.resize(static_cast<size_t>(n));
        SimOptions opt;
        opt.features = featuresFor(*findProfile(kernel));
        auto st = makeSimState(topo, tree, wl, opt);
        EXPECT_TRUE(st.ok());
        s = std::move(*st);
        rq().minVruntime = 100e6;
    }
    Cpu& rq() { return s->cpus[0]; }
    Task& task(int id) { return s->tasks[static_cast<size_t>(id)]; }
    void run(int id, double weight) {
        task(id).weight = weight;
        task(id).vruntime = rq().minVruntime;
        task(id).state = TaskState::Running;
        rq().curr = id;
        rq().loadWeight += weight;
    }
    void queue(int id, double weight, double vruntime = -1) {
        task(id).weight = weight;
        task(id).vruntime = vruntime >= 0 ? vruntime : rq().minVruntime;
        task(id).state = TaskState::Runnable;
        task(id).cpu = 0;
        queueEntity(*s, rq(), task(id));
        rq().loadWeight += weight;
    }
    // what the engine does when the wakeup of `wakee` (queued) preempts curr: the buddies are
    // marked, curr goes back into the tree, and the CPU picks
    int preemptFor(int wakee) {
        EXPECT_TRUE(checkPreemptWakeup(*s, rq(), task(wakee)));
        setPreemptionBuddies(*s, rq(), task(wakee));
        const int prev = rq().curr;
        rq().curr = -1;
        queue(prev, task(prev).weight, task(prev).vruntime);
        rq().loadWeight -= task(prev).weight;  // (queue() added it again)
        return pickNextEntity(*s, rq());
    }
    // the engine's pick: the chosen task leaves the tree and runs (set_next_entity())
    void runPicked(int id) {
        clearBuddies(rq(), id);
        unqueueEntity(*s, rq(), task(id));
        task(id).state = TaskState::Running;
        rq().curr = id;
    }
    // the vruntime place_entity() gives task `id` (weight `weight`) as it is forked here
    double forkedAt(int id, double weight) {
        task(id).weight = weight;
        task(id).vruntime = 0;
        placeEntity(*s, rq(), task(id), Place::Fork);
        return task(id).vruntime - rq().minVruntime;
    }
};

TEST(CfsSlice, TheTunablesAreScaledForTwentyFourCpus) {
    CfsRq q("linux-6.1", 1);
    ASSERT_EQ(q.s->feat.fairClass, FairClass::Cfs);
    EXPECT_DOUBLE_EQ(q.s->latencyNs, kLatencyNs);
    EXPECT_DOUBLE_EQ(q.s->minGranNs, kMinGranNs);
}

TEST(CfsSlice, AForkedTaskCountsItselfInThePeriodAndTheWeight) {
    {  // beside one running nice-0 task: half of the 24 ms period, 12 ms (not all 24 ms)
        CfsRq q("linux-6.1", 2);
        q.run(0, kNice0);
        EXPECT_DOUBLE_EQ(q.forkedAt(1, kNice0), kLatencyNs / 2);
    }
    {  // beside three: a quarter, 6 ms (not a third)
        CfsRq q("linux-6.1", 4);
        q.run(0, kNice0);
        q.queue(1, kNice0);
        q.queue(2, kNice0);
        EXPECT_DOUBLE_EQ(q.forkedAt(3, kNice0), kLatencyNs / 4);
    }
    {  // beside nine (ten with it, over sched_nr_latency's 8): 10 x 3 ms shared by ten, 3 ms
        CfsRq q("linux-6.1", 10);
        q.run(0, kNice0);
        for (int i = 1; i < 9; ++i) q.queue(i, kNice0);
        EXPECT_DOUBLE_EQ(q.forkedAt(9, kNice0), kMinGranNs);
    }
    {  // on an idle CPU: the whole period
        CfsRq q("linux-6.1", 1);
        EXPECT_DOUBLE_EQ(q.forkedAt(0, kNice0), kLatencyNs);
    }
}

TEST(CfsSlice, AForkIsPlacedOnItsParentsRunqueueAndNeverBeforeItsParent) {
    {  // the parent running alone forks: half the period (the child counted in), 12 ms, which
       // the child keeps wherever it starts, an idle CPU's runqueue too (there a whole 24 ms)
        CfsRq q("linux-6.1", 2);
        q.run(0, kNice0);
        EXPECT_DOUBLE_EQ(forkVruntimeOffset(*q.s, q.rq(), q.task(1), &q.task(0)), kLatencyNs / 2);
        EXPECT_DOUBLE_EQ(forkVruntimeOffset(*q.s, q.s->cpus[1], q.task(1), nullptr), kLatencyNs);
    }
    {  // a parent 30 ms past min_vruntime (a task waits behind it): the child starts at the
       // parent's place, not before it
        CfsRq q("linux-6.1", 3);
        q.queue(1, kNice0);
        q.run(0, kNice0);
        q.task(0).vruntime = q.rq().minVruntime + 30e6;
        EXPECT_DOUBLE_EQ(forkVruntimeOffset(*q.s, q.rq(), q.task(2), &q.task(0)), 30e6);
    }
}

TEST(CfsSlice, SinceFiveThirteenASliceIsAtLeastTheMinimumGranularity) {
    // a nice-19 fork beside a nice-0 task: 24 ms x 15 / 1039 = 0.35 ms of slice, in its vtime
    // x 1024 / 15; 5.13 raises the slice to min_granularity's 3 ms first
    const double raw = kLatencyNs * kNice19 / (kNice0 + kNice19);
    {
        CfsRq q("linux-5.10", 2);
        q.run(0, kNice0);
        EXPECT_NEAR(q.forkedAt(1, kNice19), raw * 1024 / kNice19, 1e-6 * kLatencyNs);
    }
    {
        CfsRq q("linux-6.1", 2);
        q.run(0, kNice0);
        EXPECT_NEAR(q.forkedAt(1, kNice19), kMinGranNs * 1024 / kNice19, 1e-6 * kLatencyNs);
    }
}

TEST(CfsSlice, TheTickLeavesANice19TaskItsMinimumGranularitySince513) {
    // curr is a nice-19 task that ran 1 ms with a nice-0 task queued: past its 0.35 ms share,
    // within the 3 ms floor
    for (const char* kernel : {"linux-5.10", "linux-6.1"}) {
        CfsRq q(kernel, 2);
        q.run(0, kNice19);
        q.queue(1, kNice0);
        q.task(0).prevSumExec = 0;
        q.task(0).sumExec = 1e6;
        const bool floor = std::string(kernel) == "linux-6.1";
        EXPECT_EQ(checkPreemptTick(*q.s, q.rq()), !floor) << kernel;
        q.task(0).sumExec = kMinGranNs + 1;  // past the floor too
        EXPECT_TRUE(checkPreemptTick(*q.s, q.rq())) << kernel;
    }
}

constexpr double kWakeupGranNs = 4e6;  // 1 ms x 4

TEST(CfsBuddies, AWakeeThatPreemptedRunsBeforeALeftmostWithinTheGranularity) {
    for (const double wakeeAhead : {1e6, 3.9e6, 4.1e6, 6e6}) {
        // B waits at 100 ms of vruntime; curr C is at 115 ms; the wakee W at 100 ms + ahead
        // preempts C (more than 4 ms behind it) and runs before B while it is at most 4 ms ahead
        CfsRq q("linux-6.1", 3);
        q.run(0, kNice0);
        q.task(0).vruntime = 115e6;
        q.queue(1, kNice0, 100e6);
        q.queue(2, kNice0, 100e6 + wakeeAhead);
        const int picked = q.preemptFor(2);
        EXPECT_EQ(picked, wakeeAhead <= kWakeupGranNs ? 2 : 1) << "the wakee " << wakeeAhead / 1e6 << " ms ahead of the leftmost";
    }
    {  // without the preemption there is no buddy: the leftmost runs
        CfsRq q("linux-6.1", 3);
        q.queue(1, kNice0, 100e6);
        q.queue(2, kNice0, 101e6);
        EXPECT_EQ(pickNextEntity(*q.s, q.rq()), 1);
    }
}

TEST(CfsBuddies, WithEightRunningThePreemptedTaskGetsTheCpuBack) {
    for (const int running : {7, 8}) {
        // curr C at 110 ms, the others waiting at 108 ms and on, the wakee W far behind
        const int n = running;  // curr, running - 2 waiting, the wakee
        CfsRq q("linux-6.1", n);
        q.run(0, kNice0);
        q.task(0).vruntime = 110e6;
        for (int i = 1; i < n - 1; ++i) q.queue(i, kNice0, 108e6 + i * 1e3);
        q.queue(n - 1, kNice0, 90e6);
        ASSERT_EQ(q.rq().nrRunning(), running);
        ASSERT_EQ(q.preemptFor(n - 1), n - 1) << "the wakee is the leftmost anyway";
        q.runPicked(n - 1);
        // the wakee blocks: dequeued, the CPU picks among the others
        Task& wakee = q.task(n - 1);
        dequeueEntity(*q.s, q.rq(), wakee);
        wakee.state = TaskState::Blocked;
        q.rq().curr = -1;
        const int picked = pickNextEntity(*q.s, q.rq());
        // 2 ms past the leftmost, within the granularity: the last buddy, from 8 running on
        EXPECT_EQ(picked, running >= 8 ? 0 : 1) << running << " running";
    }
}

TEST(CfsBuddies, ATaskThatLeftIsNoBuddyAndEevdfKeepsNone) {
    {  // a buddy that was dequeued (slept, migrated) is forgotten
        CfsRq q("linux-6.1", 3);
        q.run(0, kNice0);
        q.task(0).vruntime = 110e6;
        q.queue(1, kNice0, 100e6);
        q.queue(2, kNice0, 101e6);
        q.preemptFor(2);
        unqueueEntity(*q.s, q.rq(), q.task(2));
        dequeueEntity(*q.s, q.rq(), q.task(2));
        EXPECT_EQ(q.rq().nextBuddy, -1);
        EXPECT_EQ(pickNextEntity(*q.s, q.rq()), 1);
    }
    {  // EEVDF keeps none (NEXT_BUDDY is off in every release)
        CfsRq q("linux-6.12", 2);
        q.run(0, kNice0);
        q.queue(1, kNice0);
        setPreemptionBuddies(*q.s, q.rq(), q.task(1));
        EXPECT_EQ(q.rq().nextBuddy, -1);
        EXPECT_EQ(q.rq().lastBuddy, -1);
    }
}

// dequeue_entity()'s update_min_vruntime(), on one CPU under linux-6.1: a parent that ran alone
// forks a child, which starts a START_DEBIT (3 ms) past min_vruntime and waits, then sleeps.
// With the parent gone min_vruntime moves up to the child's vruntime, the leftmost now, rather
// than staying where the parent held it until the child's first update_curr(); a task woken
// meanwhile is placed against that.
TEST(CfsMinVruntime, ADequeueMovesMinVruntimeUpToTheLeftmost) {
    Shape shape;
    const Topology topo = makeTopology("1 core", shape);
    const DomainTree tree = buildTree(topo, "linux-6.1", true, true);
    workload::Workload wl;
    workload::TaskSpec parent;
    parent.name = "parent";
    workload::Op fork = op(workload::OpKind::Fork);
    fork.targets = {1};
    parent.script = {op(workload::OpKind::Run, 1e6), fork, op(workload::OpKind::Sleep, 10e6)};
    workload::TaskSpec child;
    child.name = "child";
    child.startAtBegin = false;
    child.script = {op(workload::OpKind::Run, 5e6)};
    wl.tasks = {parent, child};
    SimOptions opt;
    opt.durationS = 0.05;
    auto sim = Simulation::create(topo, tree, wl, opt);
    ASSERT_TRUE(sim.ok()) << sim.error();
    SimState& s = (*sim)->state();
    while (s.tasks[0].state != TaskState::Sleeping) ASSERT_TRUE((*sim)->stepEvent());
    const Task& forked = s.tasks[1];
    ASSERT_NE(forked.state, TaskState::NotStarted);
    EXPECT_GT(forked.vruntime, s.tasks[0].vruntime) << "the child starts a START_DEBIT past its parent";
    EXPECT_DOUBLE_EQ(s.cpus[0].minVruntime, forked.vruntime) << "min_vruntime follows the leftmost once the parent left";
}

}  // namespace
}  // namespace schedscope::test
