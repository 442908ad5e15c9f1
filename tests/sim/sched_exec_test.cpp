// A script's exec op: sched_exec() (core.c) asks the fair class for the idlest CPU with WF_EXEC,
// from the task's own CPU, whose load counts without the task itself, and the stopper moves the
// running task there.
#include <gtest/gtest.h>

#include <string>

#include "sim/simulator.h"
#include "sim_topologies.h"
#include "workload/workload_json.h"
#include "workload/workload_json_writer.h"

namespace schedscope {
namespace {

using sim::MigrationCause;

// "shell" runs 0.2 ms, execs, runs 20 ms; `others` are more tasks of the same JSON list
workload::Workload shellWorkload(const std::string& shellCpus, const std::string& others) {
    const std::string cpus = shellCpus.empty() ? "" : R"("cpus": ")" + shellCpus + R"(", )";
    const std::string json = R"({"name": "exec", "tasks": [{"name": "shell", )" + cpus +
                             R"("start_cpu": 0, "script": [{"run_ms": 0.2}, {"exec": true}, {"run_ms": 20}, {"exit": true}]})" +
                             others + "]}";
    auto w = workload::parseWorkloadJson(json, "exec.json", 96);
    EXPECT_TRUE(w.ok()) << w.error();
    return w.ok() ? *w : workload::Workload{};
}

struct ExecRun {
    long long execMoves = -1;
    std::vector<int> shellCpus;  // where the shell ran, ascending
};

ExecRun run(const workload::Workload& w) {
    const Topology topo = test::kunpeng920_24();
    DomainTree tree = test::buildTree(topo, "linux-6.18", true, true);
    sim::SimOptions o;
    o.durationS = 0.1;
    auto st = sim::simulate(topo, tree, w, o);
    EXPECT_TRUE(st.ok()) << st.error();
    ExecRun r;
    if (!st.ok()) return r;
    r.execMoves = (*st)->metrics.migrationsByCause[static_cast<size_t>(MigrationCause::Exec)];
    for (const auto& e : (*st)->tasks.front().cpuTime)
        if (e.ns > 0) r.shellCpus.push_back(e.cpu);
    return r;
}

const std::string kHogOnCpu0 = R"(, {"name": "hog", "start_cpu": 0, "script": [{"run_ms": 100}, {"exit": true}]})";

TEST(ExecBalance, ATaskSharingItsCpuExecsOntoAnIdleOne) {
    const ExecRun r = run(shellWorkload("", kHogOnCpu0));
    EXPECT_EQ(r.execMoves, 1);
    ASSERT_EQ(r.shellCpus.size(), 2u) << "the 0.2 ms before the exec on CPU 0, the rest elsewhere";
    EXPECT_EQ(r.shellCpus.front(), 0);
    // find_idlest_group() at MC: CPU 0's cluster has 3 idle CPUs, every other cluster 4, so the
    // task leaves its cluster (for the first CPU of the next)
    EXPECT_GE(r.shellCpus.back(), 4);
}

TEST(ExecBalance, ATaskAloneOnItsCpuStays) {
    // without itself its CPU is idle: no group has more idle CPUs than its own
    const ExecRun r = run(shellWorkload("", ""));
    EXPECT_EQ(r.execMoves, 0);
    EXPECT_EQ(r.shellCpus, std::vector<int>{0});
}

TEST(ExecBalance, APinnedTaskStays) {
    const ExecRun r = run(shellWorkload("0", kHogOnCpu0));
    EXPECT_EQ(r.execMoves, 0);
    EXPECT_EQ(r.shellCpus, std::vector<int>{0});
}

// find_idlest_group() at a NUMA level with room on both sides: NUMA balancing on, a task whose
// memory is on another node (its preferred node) goes there; off, the allowed NUMA imbalance
// keeps it near where it runs. The task first ran on node 1 (CPU 24), long enough for NUMA
// balancing to have scanned its memory (1 s), and was moved to node 0 by its affinity before
// it execs. Had it run there only 1 ms, it would have no preferred node yet and stay.
TEST(ExecBalance, WithNumaBalancingATaskExecsOntoItsPreferredNode) {
    const std::string json = R"({"name": "exec home", "tasks": [{"name": "shell", "start_cpu": 24, "mem_fraction": 0.5,
        "script": [{"run_ms": 1000}, {"affinity": "0-23"}, {"run_ms": 1}, {"affinity": "0-95"}, {"exec": true},
                   {"run_ms": 20}, {"exit": true}]}]})";
    auto w = workload::parseWorkloadJson(json, "exec.json", 96);
    ASSERT_TRUE(w.ok()) << w.error();
    const Topology topo = test::kunpeng920_24();
    DomainTree tree = test::buildTree(topo, "linux-6.18", true, true);
    for (const bool numaBalancing : {true, false}) {
        sim::SimOptions o;
        o.durationS = 1.1;
        o.numaMemoryFollowsS = numaBalancing ? 1.0 : 0.0;
        auto st = sim::simulate(topo, tree, *w, o);
        ASSERT_TRUE(st.ok()) << st.error();
        const sim::Task& t = (*st)->tasks.front();
        EXPECT_EQ(topo.cpus[static_cast<size_t>(t.cpu)].node, numaBalancing ? 1 : 0) << "NUMA balancing " << numaBalancing;
        EXPECT_EQ((*st)->metrics.migrationsByCause[static_cast<size_t>(MigrationCause::Exec)], numaBalancing ? 1 : 0);
    }
}

TEST(ExecBalance, TheOpReadsAndWritesAsExecTrue) {
    const workload::Workload w = shellWorkload("", "");
    ASSERT_EQ(w.tasks.size(), 1u);
    ASSERT_EQ(w.tasks[0].script.size(), 4u);
    EXPECT_EQ(w.tasks[0].script[1].kind, workload::OpKind::Exec);
    const auto j = workload::workloadToJson(w, 96);
    EXPECT_EQ(j["tasks"][0]["script"][1].dump(), R"({"exec":true})");
    auto back = workload::parseWorkloadJson(j.dump(), "round trip", 96);
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(back->tasks[0].script[1].kind, workload::OpKind::Exec);

    auto no = workload::parseWorkloadJson(R"({"tasks": [{"script": [{"run_ms": 1}, {"exec": false}]}]})", "w.json", 4);
    ASSERT_FALSE(no.ok());
    EXPECT_NE(no.error().find("\"exec\" must be true"), std::string::npos) << no.error();
    auto extra = workload::parseWorkloadJson(R"({"tasks": [{"script": [{"exec": true, "sync": true}]}]})", "w.json", 4);
    ASSERT_FALSE(extra.ok());
    EXPECT_NE(extra.error().find("an \"exec\" op has no field \"sync\""), std::string::npos) << extra.error();
}

}  // namespace
}  // namespace schedscope
