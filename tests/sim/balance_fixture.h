#pragma once
// A simulator state to put tasks on by hand and run one policy on, for the policy unit tests
// (policy_test.cpp, smt_balance_test.cpp): the situations are hand-built and the expectations
// worked out from the kernel functions the policies mirror.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sim/fair_rq.h"
#include "sim/load_balance.h"
#include "sim/simulator.h"
#include "sim_topologies.h"

namespace schedscope::test {

using namespace schedscope::sim;

inline workload::Workload dummyTasks(int n, const CpuSet& affinity = {}) {
    workload::Workload w;
    for (int i = 0; i < n; ++i) {
        workload::TaskSpec t;
        t.name = "t" + std::to_string(i);
        t.affinity = affinity;
        w.tasks.push_back(t);
    }
    return w;
}

struct Fixture {
    Topology topo;
    DomainTree tree;
    workload::Workload wl;
    std::unique_ptr<SimState> s;
    Fixture(Topology t, const std::string& profile, bool cls, int tasks) : topo(std::move(t)) {
        tree = buildTree(topo, profile, cls, true);
        wl = dummyTasks(tasks);
        auto st = makeSimState(topo, tree, wl, SimOptions{});
        EXPECT_TRUE(st.ok());
        s = std::move(*st);
        s->now = 1000000000;  // 1 s in: nothing is cache hot by accident
        s->verifySpanSums = true;
    }
    ~Fixture() { EXPECT_EQ(s->spanSumMismatches, 0) << "the balancer's group sums missed a change"; }
    // Puts task `id` on `cpu`: running if the CPU is idle, else queued.
    void place(int id, int cpu) {
        Task& t = s->tasks[static_cast<size_t>(id)];
        Cpu& r = s->cpus[static_cast<size_t>(cpu)];
        t.cpu = cpu;
        if (r.curr < 0) { r.curr = id; t.state = TaskState::Running; }
        else { queueEntity(*s, r, t); t.state = TaskState::Runnable; }
        r.loadWeight += t.weight;
        const double nr = r.nrRunning();
        r.runnable = {1024.0 * nr, 1024.0 * nr, s->now};
        r.util = {1024.0, 1024.0, s->now};
        r.load = {r.loadWeight, r.loadWeight, s->now};
        t.load = {t.weight, t.weight, s->now};
        t.util = {1024.0 / nr, 1024.0 / nr, s->now};
        s->cpuChanged(cpu);  // the balancer's group sums see the runqueue as set here
    }
};

class NullOps : public SchedOps {
public:
    std::vector<std::pair<int, int>> moved;
    int active = 0;
    void migrateTask(int task, int dst, MigrationCause) override { moved.push_back({task, dst}); }
    void requestActiveBalance(int, int) override { ++active; }
};

// the index of `cpu`'s domain of `level` (SMT, CLS, MC, NODE, ...), -1 when it has none
inline int domainIndex(const DomainTree& tree, int cpu, const std::string& level) {
    const auto& doms = tree.domainsOf(cpu);
    for (size_t i = 0; i < doms.size(); ++i)
        if (doms[i].level == level) return static_cast<int>(i);
    return -1;
}

// A detach_tasks() environment: CPU `dst` pulling from CPU 0 at its MC domain.
inline sim::LbEnv pullFromCpu0(const DomainTree& tree, int dst, sim::BalanceIdle idle, sim::MigrationType type,
                               double imbalance) {
    sim::LbEnv env;
    env.dstCpu = dst;
    env.sd = domainIndex(tree, dst, "MC");
    env.srcCpu = 0;
    env.idle = idle;
    env.type = type;
    env.imbalance = imbalance;
    return env;
}

}  // namespace schedscope::test
