// Step mode: the decision records are consistent with the run and with the domain tree, and
// recording does not change the run.
#include <gtest/gtest.h>

#include "sim/sim_json.h"
#include "sim/simulator.h"
#include "sim_topologies.h"
#include "workload/workload_spec.h"

namespace schedscope::test {
namespace {

using namespace schedscope::sim;

struct StepSetup {
    Topology topo = kunpeng920_24();
    DomainTree tree;
    workload::Workload wl;
    SimOptions opt;
    explicit StepSetup(const std::string& spec, const std::string& profile = "linux-6.12") {
        tree = buildTree(topo, profile, true, true);
        auto w = workload::parseWorkloadSpec(spec, static_cast<int>(topo.cpus.size()));
        EXPECT_TRUE(w.ok()) << (w.ok() ? "" : w.error());
        wl = std::move(*w);
        opt.durationS = 0.05;
        opt.samplePeriodS = 0.01;
    }
};

TEST(StepMode, DecisionsAreConsistent) {
    // exec and wakeup placements plus balancing: pgbench (1:N wakeups) with more backends
    // than CPUs on one node, so the balancer has work
    StepSetup su("pgbench:clients=30,cpus=0-23");
    auto sim = Simulation::create(su.topo, su.tree, su.wl, su.opt);
    ASSERT_TRUE(sim.ok()) << sim.error();
    std::map<DecisionKind, int> kinds;
    int64_t lastTime = 0;
    int n = 0;
    while (auto d = (*sim)->nextDecision()) {
        ++n;
        kinds[d->kind]++;
        SCOPED_TRACE(decisionToText(*d));
        EXPECT_FALSE(d->rule.empty());
        EXPECT_GE(d->timeNs, lastTime) << "decisions come out in time order";
        lastTime = d->timeNs;
        EXPECT_FALSE(d->level.empty());
        ASSERT_GE(d->chosenCpu, 0);
        EXPECT_TRUE(d->span.test(d->chosenCpu)) << "the chosen CPU lies in the domain span";
        const bool placement = d->kind == DecisionKind::WakeupPlacement || d->kind == DecisionKind::ForkPlacement ||
                               d->kind == DecisionKind::ExecPlacement;
        if (placement) {
            EXPECT_GE(d->task, 0);
            EXPECT_TRUE((*sim)->state().tasks[static_cast<size_t>(d->task)].allowed.test(d->chosenCpu));
        } else {
            EXPECT_TRUE(d->span.test(d->cpu)) << "the balancing CPU lies in the domain it balances";
            for (int t : d->moved) EXPECT_GE(t, 0);
        }
        if (d->level != "none") {
            // the span is a real domain of some CPU, and its groups partition it
            CpuSet unionOfGroups;
            for (const auto& g : d->groups) {
                EXPECT_TRUE(g.span.isSubsetOf(d->span));
                EXPECT_GE(g.nrRunning, 0);
                EXPECT_GE(g.idleCpus, 0);
                unionOfGroups |= g.span;
            }
            if (!d->groups.empty() && d->level != "NUMA") {
                EXPECT_EQ(unionOfGroups, d->span);
            }
            int local = 0;
            for (const auto& g : d->groups) local += g.local;
            if (!d->groups.empty()) {
                EXPECT_EQ(local, 1) << "exactly one local group";
            }
        }
        if (n > 20000) break;
    }
    EXPECT_GT(kinds[DecisionKind::ExecPlacement], 0);
    EXPECT_GT(kinds[DecisionKind::WakeupPlacement], 100);
    EXPECT_GT(kinds[DecisionKind::NewidleBalance] + kinds[DecisionKind::LoadBalance], 0);
}

TEST(StepMode, RecordingDoesNotChangeTheRun) {
    for (const std::string spec : {"pgbench:clients=30,cpus=0-23", "kernbench:jobs=30,cpus=0-23", "stream:threads=6"}) {
        StepSetup su(spec);
        auto plain = simulate(su.topo, su.tree, su.wl, su.opt);
        ASSERT_TRUE(plain.ok());
        auto sim = Simulation::create(su.topo, su.tree, su.wl, su.opt);
        ASSERT_TRUE(sim.ok());
        int n = 0;
        while ((*sim)->nextDecision()) ++n;
        EXPECT_GT(n, 0) << spec;
        auto stepped = (*sim)->release();
        const RunConfig cfg{su.topo.name, "linux-6.12", true, true, spec};
        EXPECT_EQ(simResultToJson(**plain, su.wl, cfg).dump(), simResultToJson(*stepped, su.wl, cfg).dump()) << spec;
    }
}

TEST(StepMode, ClusterScanRuleIsNamed) {
    // with the cluster-first scan, some wakeups are explained by the cluster scan
    StepSetup su("pgbench:clients=8,cpus=0-23");
    auto sim = Simulation::create(su.topo, su.tree, su.wl, su.opt);
    ASSERT_TRUE(sim.ok());
    int cluster = 0;
    while (auto d = (*sim)->nextDecision())
        if (d->rule.find("cluster scan") != std::string::npos) {
            ++cluster;
            EXPECT_EQ(d->level, "CLS");
        }
    EXPECT_GT(cluster, 0);
}

}  // namespace
}  // namespace schedscope::test
