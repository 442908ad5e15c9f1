// A script's ops can start other scripts at the same instant: a Fork onto an idle CPU runs the
// child's script there at once, and that script's Wake can land back on the parent's CPU. The
// parent's script is still running then, so the wakeup must not switch the parent's CPU to the
// wakee (it is flagged and takes effect when the parent's script is done with the CPU): the
// parent's next Wait has to block the parent, not whatever a nested wakeup put on its CPU.
// A replayed trace hit this: a recorded fork followed by a wait stalled every task for good.
#include <gtest/gtest.h>

#include "sim/simulator.h"
#include "script_ops.h"
#include "sim_topologies.h"

namespace schedscope::test {
namespace {

using workload::OpKind;

// CPU 0: `sleeper` waits from the start; `parent` runs 2 ms, forks `child` and waits.
// CPU 1: `child` (pinned there) wakes `sleeper` (pinned to CPU 0) as its first op, runs, and
// wakes `parent`. The sleeper is nice -20: its wakeup preempts the parent under CFS and EEVDF.
workload::Workload forkThenWait() {
    workload::Workload wl;
    wl.name = "fork then wait";
    workload::TaskSpec sleeper, parent, child;
    sleeper.name = "sleeper";
    sleeper.nice = -20;
    sleeper.affinity = CpuSet::single(0);
    sleeper.script = {op(OpKind::Wait), op(OpKind::Run, 1e6)};
    parent.name = "parent";
    parent.affinity = CpuSet::single(0);
    workload::Op fork = op(OpKind::Fork);
    fork.targets = {2};
    parent.script = {op(OpKind::Run, 2e6), fork, op(OpKind::Wait), op(OpKind::Run, 1e6)};
    child.name = "child";
    child.startAtBegin = false;
    child.affinity = CpuSet::single(1);
    child.script = {wakeOp(0), op(OpKind::Run, 1e6), wakeOp(1)};
    wl.tasks = {sleeper, parent, child};
    return wl;
}

class NestedScript : public ::testing::TestWithParam<const char*> {};

TEST_P(NestedScript, AWakeupFromAForkedChildDoesNotTakeTheParentsWait) {
    Shape shape;
    shape.coresPerCluster = 2;
    const Topology topo = makeTopology("2 cores", shape);
    sim::SimOptions o;
    o.durationS = 0.1;
    const workload::Workload wl = forkThenWait();  // the tasks' specs point into it
    const DomainTree tree = buildTree(topo, GetParam(), true, true);
    auto st = sim::simulate(topo, tree, wl, o);
    ASSERT_TRUE(st.ok()) << st.error();
    const auto& tasks = (*st)->tasks;
    for (const auto& t : tasks) {
        EXPECT_EQ(t.state, sim::TaskState::Exited) << t.spec->name << " never finished its script";
        std::printf("%-8s work %.3f ms, exited at %.3f ms\n", t.spec->name.c_str(), t.workDone / 1e6,
                    static_cast<double>(t.exitedAt) / 1e6);
    }
    EXPECT_NEAR(tasks[0].workDone, 1e6, 1e3);  // the sleeper's whole burst ran
    EXPECT_NEAR(tasks[1].workDone, 3e6, 1e3);  // and so did both of the parent's
    // the parent waits for the child's last op, which comes after the child's 1 ms burst
    EXPECT_GE(tasks[1].exitedAt, tasks[2].exitedAt);
}

INSTANTIATE_TEST_SUITE_P(Profiles, NestedScript, ::testing::Values("linux-6.1", "linux-6.6", "linux-6.12"));

}  // namespace
}  // namespace schedscope::test
