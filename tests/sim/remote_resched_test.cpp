// SimOptions::remoteReschedNs: a wakeup that would preempt the task of a CPU other than its
// waker's acts that long after (the IPI and that CPU's next preemption point), and only if the
// task still runs then; a task that blocks first was never preempted.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "sim/simulator.h"
#include "script_ops.h"
#include "sim_topologies.h"

namespace schedscope::test {
namespace {

using workload::OpKind;

// CPU 0 runs `hog` (bursts of `hogBurstNs`, 1 ms naps) and `wakee`, which a task running on CPU 1
// wakes every 300 us for 10 us of work: remote wakeups onto a busy CPU, most of them preempting
// a hog past its slice. The waker never sleeps, so the wakee's are most of the run's waits.
workload::Workload remoteWakeups(double hogBurstNs) {
    workload::Workload wl;
    wl.name = "remote wakeups";
    workload::TaskSpec hog, wakee, waker;
    hog.name = "hog";
    hog.affinity = CpuSet::single(0);
    workload::Op loop = op(OpKind::Loop);
    loop.to = 0;
    hog.script = {op(OpKind::Run, hogBurstNs), op(OpKind::Sleep, 1e6), loop};
    wakee.name = "wakee";
    wakee.affinity = CpuSet::single(0);
    wakee.script = {op(OpKind::Wait), op(OpKind::Run, 10e3), loop};
    waker.name = "waker";
    waker.affinity = CpuSet::single(1);
    waker.script = {op(OpKind::Run, 300e3), wakeOp(1), loop};
    wl.tasks = {hog, wakee, waker};
    return wl;
}

struct Outcome {
    long long remoteBusy = 0, remotePreempting = 0;
    long long waitsOf45UsOrMore = 0;
};

// how many of the histogram's samples are at least `ns` (to its percentiles' 0.1% steps)
long long samplesAtLeast(const sim::LatencyHistogram& h, double ns) {
    for (int tenths = 0; tenths <= 1000; ++tenths)
        if (h.percentileNs(tenths / 10.0) >= ns) return std::llround(static_cast<double>(h.count()) * (1000 - tenths) / 1000.0);
    return 0;
}

Outcome run(double hogBurstNs, int64_t remoteReschedNs) {
    Shape shape;
    shape.coresPerCluster = 2;
    const Topology topo = makeTopology("2 cores", shape);
    const auto wl = remoteWakeups(hogBurstNs);
    sim::SimOptions o;
    o.durationS = 0.3;
    o.remoteReschedNs = remoteReschedNs;
    const DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    auto st = sim::simulate(topo, tree, wl, o);
    EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error());
    if (!st.ok()) return {};
    const sim::Metrics& m = (*st)->metrics;
    const Outcome out{m.remoteBusyWakeups, m.remoteWakeupPreemptions, samplesAtLeast(m.waitLatency, 45e3)};
    std::printf("hog bursts %.0f us, remote resched %.0f us: %lld remote busy wakeups, %lld preempting; %lld waits of "
                "45 us or more\n",
                hogBurstNs / 1e3, static_cast<double>(remoteReschedNs) / 1e3, out.remoteBusy, out.remotePreempting,
                out.waitsOf45UsOrMore);
    return out;
}

TEST(RemoteResched, APreemptionActsAfterTheDelayIfItsTaskStillRuns) {
    const Outcome atOnce = run(5e6, 0), late = run(5e6, 50000);
    ASSERT_GT(atOnce.remoteBusy, 100);
    EXPECT_GT(atOnce.remotePreempting, atOnce.remoteBusy / 2) << "the wakee preempts the hog";
    // 5 ms bursts outlast a 50 us delay: as many preemptions, each wakee waiting the 50 us
    EXPECT_GE(late.remotePreempting, atOnce.remotePreempting * 9 / 10);
    // (against the run's waits of 45 us or more without the delay)
    EXPECT_GE(late.waitsOf45UsOrMore - atOnce.waitsOf45UsOrMore, late.remotePreempting * 8 / 10);
}

TEST(RemoteResched, ATaskThatBlocksFirstWasNotPreempted) {
    // a 10 ms delay: the hog always naps (after at most 5 ms) before the resched arrives, and
    // the wakeups meanwhile find it on its way and ask for no other
    const Outcome atOnce = run(5e6, 0), late = run(5e6, 10000000);
    ASSERT_GT(atOnce.remotePreempting, 10);
    ASSERT_GT(late.remoteBusy, 10);
    // (a tick that finds the hog past its slice may still put the wakee first, as the kernel's does)
    EXPECT_LE(late.remotePreempting, atOnce.remotePreempting / 20);
}

TEST(RemoteResched, OutOfRangeLatencyIsAnError) {
    Shape shape;
    const Topology topo = makeTopology("1 core", shape);
    sim::SimOptions o;
    o.remoteReschedNs = -1;
    const DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    const workload::Workload wl = remoteWakeups(1e6);
    auto st = sim::simulate(topo, tree, wl, o);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().find("remote resched latency"), std::string::npos) << st.error();
}

}  // namespace
}  // namespace schedscope::test
