// Metrics::stalledAtNs: a run whose remaining tasks all wait in a Wait, a Barrier or a Take with nobody
// left to end it says when that happened and who waits; a run with a task still asleep on a
// timer, runnable or running at its end did not stall.
#include <gtest/gtest.h>

#include "sim/sim_json.h"
#include "sim/simulator.h"
#include "script_ops.h"
#include "sim_topologies.h"

namespace schedscope::test {
namespace {

using workload::OpKind;

// The state points at its machine and domains: they outlive every run here.
const Topology& twoCores() {
    static const Topology topo = [] {
        Shape shape;
        shape.coresPerCluster = 2;
        return makeTopology("2 cores", shape);
    }();
    return topo;
}

std::unique_ptr<sim::SimState> run(const workload::Workload& wl, double seconds) {
    static const DomainTree tree = buildTree(twoCores(), "linux-6.12", true, true);
    sim::SimOptions o;
    o.durationS = seconds;
    auto st = sim::simulate(twoCores(), tree, wl, o);
    EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error());
    return st.ok() ? std::move(*st) : nullptr;
}

TEST(Stall, TwoTasksWaitingForEachOtherStallWhenTheSecondBlocks) {
    workload::Workload wl;
    workload::TaskSpec a, b, c;
    a.name = "a";
    a.script = {op(OpKind::Run, 1e6), op(OpKind::Wait), wakeOp(1)};
    b.name = "b";
    b.script = {op(OpKind::Run, 3e6), op(OpKind::Wait), wakeOp(0)};
    c.name = "c";  // exits at 2 ms: not part of the stall
    c.script = {op(OpKind::Run, 2e6)};
    wl.tasks = {a, b, c};
    auto st = run(wl, 0.1);
    ASSERT_TRUE(st);
    EXPECT_EQ(st->metrics.stalledAtNs, 3000000);  // b blocks last, after its 3 ms
    EXPECT_EQ(st->metrics.stalledTasks, (std::vector<int>{0, 1}));
    EXPECT_EQ(sim::describeStall(*st), "stalled at 0.003000 s: 2 task(s) blocked in a Wait, a Barrier or a Take that no task "
                                       "left could end (a, b)");
    EXPECT_EQ(sim::simResultToJson(*st, wl, {})["metrics"]["stalled"]["tasks"], nlohmann::json({"a", "b"}));
}

TEST(Stall, ATaskAsleepOnATimerOrFinishedRunsAreNoStall) {
    workload::Workload wl;
    workload::TaskSpec waiter, sleeper;
    waiter.name = "waiter";
    waiter.script = {op(OpKind::Wait)};
    sleeper.name = "sleeper";  // wakes the waiter after a 50 ms sleep: at 10 ms nothing stalled
    sleeper.script = {op(OpKind::Sleep, 50e6), wakeOp(0)};
    wl.tasks = {waiter, sleeper};
    auto early = run(wl, 0.01);
    ASSERT_TRUE(early);
    EXPECT_EQ(early->metrics.stalledAtNs, -1);
    EXPECT_EQ(sim::describeStall(*early), "");
    auto done = run(wl, 0.1);
    ASSERT_TRUE(done);
    EXPECT_EQ(done->metrics.stalledAtNs, -1);
    EXPECT_TRUE(sim::simResultToJson(*done, wl, {})["metrics"]["stalled"].is_null());
}

}  // namespace
}  // namespace schedscope::test

namespace schedscope::test {
namespace {

// A workload none of whose tasks ever starts (all "start": false, nothing forks them) completed
// nothing: no completion time, where it said 0 s.
TEST(Completion, ARunWhereNothingStartedHasNoCompletionTime) {
    workload::Workload wl;
    workload::TaskSpec t;
    t.name = "never";
    t.startAtBegin = false;
    t.script = {op(OpKind::Run, 1e6)};
    wl.tasks = {t};
    const auto st = run(wl, 0.01);
    ASSERT_TRUE(st);
    const auto j = sim::simResultToJson(*st, wl, {"2 cores", "linux-6.12", true, true, "never"});
    EXPECT_TRUE(j["metrics"]["completion_s"].is_null()) << j["metrics"]["completion_s"].dump();
    // one that starts and exits has one
    wl.tasks[0].startAtBegin = true;
    const auto ran = run(wl, 0.01);
    ASSERT_TRUE(ran);
    const auto jr = sim::simResultToJson(*ran, wl, {"2 cores", "linux-6.12", true, true, "ran"});
    EXPECT_NEAR(jr["metrics"]["completion_s"].get<double>(), 0.001, 1e-4);
}

}  // namespace
}  // namespace schedscope::test
