// Post and Take: a work queue shared by several takers, as a thread pool's condition variable
// is. One post hands one item to the taker that has waited longest, items posted before any
// take are kept, and each queue id is its own queue.
#include <gtest/gtest.h>

#include "sim/simulator.h"
#include "workload/workload_json.h"
#include "workload/workload_json_writer.h"
#include "workload/workload_spec.h"
#include "script_ops.h"
#include "sim_topologies.h"

namespace schedscope::test {
namespace {

using workload::OpKind;

workload::Op queueOp(OpKind kind, int queue) {
    workload::Op o = op(kind);
    o.id = queue;
    return o;
}

const Topology& fourCores() {
    static const Topology topo = [] {
        Shape shape;
        shape.coresPerCluster = 4;
        return makeTopology("4 cores", shape);
    }();
    return topo;
}

std::unique_ptr<sim::SimState> runQueues(const workload::Workload& wl) {
    static const DomainTree tree = buildTree(fourCores(), "linux-6.12", true, true);
    sim::SimOptions o;
    o.durationS = 0.1;
    auto st = sim::simulate(fourCores(), tree, wl, o);
    EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error());
    return st.ok() ? std::move(*st) : nullptr;
}

workload::TaskSpec named(const std::string& name, std::vector<workload::Op> script) {
    workload::TaskSpec t;
    t.name = name;
    t.script = std::move(script);
    return t;
}

TEST(WorkQueue, APostWakesTheTakerThatWaitedLongest) {
    // a, b and c block in take 1, 2 and 3 ms in; two posts at 5 and 6 ms go to a and b
    workload::Workload wl;
    for (int i = 0; i < 3; ++i)
        wl.tasks.push_back(named(std::string(1, static_cast<char>('a' + i)),
                                 {op(OpKind::Sleep, (i + 1) * 1e6), queueOp(OpKind::Take, 7), op(OpKind::Run, 1e6)}));
    wl.tasks.push_back(named("producer", {op(OpKind::Sleep, 5e6), queueOp(OpKind::Post, 7), op(OpKind::Sleep, 1e6),
                                          queueOp(OpKind::Post, 7)}));
    auto st = runQueues(wl);
    ASSERT_TRUE(st);
    const auto& t = st->tasks;
    EXPECT_EQ(t[0].state, sim::TaskState::Exited);
    EXPECT_EQ(t[1].state, sim::TaskState::Exited);
    EXPECT_EQ(t[2].state, sim::TaskState::Blocked);
    // each ran its 1 ms burst right after its post (four idle CPUs)
    EXPECT_NEAR(static_cast<double>(t[0].exitedAt), 6e6, 0.1e6);
    EXPECT_NEAR(static_cast<double>(t[1].exitedAt), 7e6, 0.1e6);
    EXPECT_EQ(st->metrics.stalledTasks, (std::vector<int>{2}));
}

TEST(WorkQueue, ItemsPostedBeforeAnyTakeAreKept) {
    workload::Workload wl;
    wl.tasks.push_back(named("producer", {queueOp(OpKind::Post, 1), queueOp(OpKind::Post, 1), queueOp(OpKind::Post, 1)}));
    wl.tasks.push_back(named("taker", {op(OpKind::Sleep, 1e6), queueOp(OpKind::Take, 1), queueOp(OpKind::Take, 1),
                                       queueOp(OpKind::Take, 1), op(OpKind::Run, 1e6)}));
    auto st = runQueues(wl);
    ASSERT_TRUE(st);
    EXPECT_EQ(st->tasks[1].state, sim::TaskState::Exited);
    // nothing blocked it: 1 ms asleep, then its burst
    EXPECT_NEAR(static_cast<double>(st->tasks[1].exitedAt), 2e6, 0.1e6);
    EXPECT_EQ(st->metrics.stalledAtNs, -1);
}

TEST(WorkQueue, EachQueueIdIsItsOwnQueue) {
    workload::Workload wl;
    wl.tasks.push_back(named("producer", {queueOp(OpKind::Post, 1), queueOp(OpKind::Post, 1)}));
    wl.tasks.push_back(named("taker", {queueOp(OpKind::Take, 1), queueOp(OpKind::Take, 2), op(OpKind::Run, 1e6)}));
    auto st = runQueues(wl);
    ASSERT_TRUE(st);
    EXPECT_EQ(st->tasks[1].state, sim::TaskState::Blocked);
    EXPECT_EQ(st->metrics.stalledTasks, (std::vector<int>{1}));
}

// A Wake is for a Wait: it does not release a task from a Take or a Barrier, it is kept for
// the task's next Wait (it used to end whatever the task was blocked in).
TEST(WorkQueue, AWakeDoesNotReleaseATakeOrABarrier) {
    workload::Workload wl;
    workload::Op barrier = op(OpKind::Barrier);
    barrier.id = 3;
    barrier.parties = 2;
    wl.tasks.push_back(named("taker", {queueOp(OpKind::Take, 1), op(OpKind::Run, 1e6)}));
    wl.tasks.push_back(named("arriver", {barrier, op(OpKind::Run, 1e6)}));
    // the wakes come 1 ms in, when both are blocked; the post and the barrier's second party at 2 ms
    wl.tasks.push_back(named("waker", {op(OpKind::Sleep, 1e6), wakeOp(0), wakeOp(1), op(OpKind::Sleep, 1e6),
                                       queueOp(OpKind::Post, 1), barrier}));
    auto st = runQueues(wl);
    ASSERT_TRUE(st);
    for (size_t i : {0, 1}) {
        EXPECT_EQ(st->tasks[i].state, sim::TaskState::Exited) << i;
        EXPECT_NEAR(static_cast<double>(st->tasks[i].exitedAt), 3e6, 0.1e6) << i;
        EXPECT_EQ(st->tasks[i].pendingWakes, 1) << i;  // kept for a Wait that never came
    }
    EXPECT_EQ(st->metrics.stalledAtNs, -1);
}

TEST(WorkQueue, JsonOpsParseAndWriteBack) {
    const char* text = R"({"tasks": [
        {"name": "producer", "script": [{"run_ms": 1}, {"post": 4, "sync": true}, {"loop_to": 0, "count": 3}]},
        {"name": "worker", "script": [{"take": 4}, {"run_ms": 2}, {"loop_to": 0}]}]})";
    auto wl = workload::parseWorkloadJson(text, "pool.json", 4);
    ASSERT_TRUE(wl.ok()) << wl.error();
    const auto& post = wl->tasks[0].script[1];
    EXPECT_EQ(post.kind, OpKind::Post);
    EXPECT_EQ(post.id, 4);
    EXPECT_TRUE(post.sync);
    EXPECT_EQ(wl->tasks[1].script[0].kind, OpKind::Take);
    EXPECT_EQ(wl->tasks[1].script[0].id, 4);
    const auto doc = workload::workloadToJson(*wl, 4);
    EXPECT_EQ(doc["tasks"][0]["script"][1], nlohmann::json({{"post", 4}, {"sync", true}}));
    EXPECT_EQ(doc["tasks"][1]["script"][0], nlohmann::json({{"take", 4}}));
    // a take waits, so a loop over it alone passes time; a loop over a post alone would spin
    EXPECT_TRUE(workload::parseWorkloadJson(R"({"tasks": [{"script": [{"take": 1}, {"loop_to": 0}]}]})", "p.json", 4).ok());
    auto spin = workload::parseWorkloadJson(R"({"tasks": [{"script": [{"post": 1}, {"loop_to": 0}]}]})", "p.json", 4);
    ASSERT_FALSE(spin.ok());
    EXPECT_NE(spin.error().find("runs no op that takes time"), std::string::npos) << spin.error();
    auto bad = workload::parseWorkloadJson(R"({"tasks": [{"script": [{"take": "x"}]}]})", "pool.json", 4);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error(), "pool.json: task 'task0' op 0: take must be an integer in -2147483648..2147483647");
}

TEST(WorkQueue, TheThreadPoolExampleRunsItsWorkersFromOneQueue) {
    auto wl = workload::loadWorkloadFile(std::string(SCHEDSCOPE_SOURCE_DIR) + "/resources/workloads/thread-pool.json", 24);
    ASSERT_TRUE(wl.ok()) << wl.error();
    const Topology topo = kunpeng920_24();
    const DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    sim::SimOptions o;
    o.durationS = 0.2;
    auto st = sim::simulate(topo, tree, *wl, o);
    ASSERT_TRUE(st.ok()) << st.error();
    // every worker took requests: the queue hands them to whichever waits, not to one
    int busyWorkers = 0;
    for (const auto& t : (*st)->tasks)
        if (t.spec->name.rfind("worker", 0) == 0 && t.workDone > 0) ++busyWorkers;
    EXPECT_EQ(busyWorkers, 8);
    EXPECT_EQ((*st)->metrics.stalledAtNs, -1);
}

// pixz's block buffers go round three queues (free -> read -> encoded -> free): only
// ceil(1.3 N + 1) exist, so a fixed amount of work, many times that many blocks, finishes
// only if the main thread frees every buffer it writes out.
TEST(WorkQueue, ThePixzPipelineRecyclesItsBuffersUntilEveryBlockIsDone) {
    const Topology topo = kunpeng920_24();
    auto wl = workload::parseWorkloadSpec("pixz:threads=3,work=3,cpus=0-23", static_cast<int>(topo.cpus.size()));
    ASSERT_TRUE(wl.ok()) << wl.error();
    const DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    sim::SimOptions o;
    o.durationS = 10;
    auto st = sim::simulate(topo, tree, *wl, o);
    ASSERT_TRUE(st.ok()) << st.error();
    EXPECT_EQ((*st)->metrics.stalledAtNs, -1);
    double encoded = 0;
    for (const auto& t : (*st)->tasks) {
        EXPECT_EQ(t.state, sim::TaskState::Exited) << t.spec->name;
        if (t.spec->name != "pixz/main" && t.spec->name != "pixz/read") {
            EXPECT_GT(t.workDone, 0.8e9) << t.spec->name;  // 30 blocks of ~0.1 s split 10/10/10
            encoded += t.workDone / 1e9;
        }
    }
    EXPECT_NEAR(encoded, 3.0, 0.1);  // each block's length varies by up to 10%
    EXPECT_LT((*st)->now, 10 * 1000000000LL);
}

}  // namespace
}  // namespace schedscope::test
