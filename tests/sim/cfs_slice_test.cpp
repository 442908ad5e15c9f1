// CFS's sched_slice() (kernel/sched/fair.c before 6.6) where the simulator uses it, computed by
// hand on one runqueue of a 24-CPU Kunpeng 920 (tunables scaled by 1 + ilog2(8) = 4: latency
// 24 ms, min_granularity 3 ms):
// - START_DEBIT places a forked task one vslice after min_vruntime, its slice counted with the
//   task itself in the period's task count and in the queue's weight ("nr_running + !on_rq");
// - since 5.13 (BASE_SLICE) a slice is never under min_granularity, so a nice-19 task among
//   nice-0 ones is not preempted by the tick before it ran that long.
#include <gtest/gtest.h>

#include "domains/profile.h"
#include "sim/fair_rq.h"
#include "sim/simulator.h"
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
    void queue(int id, double weight) {
        task(id).weight = weight;
        task(id).vruntime = rq().minVruntime;
        queueEntity(*s, rq(), task(id));
        rq().loadWeight += weight;
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

}  // namespace
}  // namespace schedscope::test
