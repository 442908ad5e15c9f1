// The placement spread a comparison reports (busy cores, clusters, LLCs, nodes) on the seed
// machines, and the statistics over seeds that leave unfinished runs out.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

#include "sim/metric_stats.h"
#include "sim/sim_json.h"
#include "sim/simulator.h"
#include "sim_topologies.h"
#include "support/fixtures.h"
#include "topology/topology_source.h"
#include "workload/workload_spec.h"

namespace schedscope::test {
namespace {

std::map<std::string, double> summary(const Topology& topo, const std::string& profile, bool cls, bool node,
                                      const std::string& spec, double duration,
                                      std::optional<sim::SimFeatures> features = std::nullopt) {
    auto wl = workload::parseWorkloadSpec(spec, static_cast<int>(topo.cpus.size()));
    EXPECT_TRUE(wl.ok()) << (wl.ok() ? "" : wl.error());
    sim::SimOptions o;
    o.durationS = duration;
    o.samplePeriodS = duration / 50;
    o.features = features;
    const DomainTree tree = buildTree(topo, profile, cls, node);
    auto st = sim::simulate(topo, tree, *wl, o);
    EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error());
    std::map<std::string, double> out;
    for (const auto& [name, v] : sim::summaryMetrics(**st, *wl)) out[name] = v;
    return out;
}

// Seed 002: stream's 4 threads share one cluster without CLS and take one cluster each with it.
TEST(PlacementSpread, StreamFourThreadsBusyClustersFollowTheClsLevel) {
    const Topology topo = kunpeng920_24();
    auto off = summary(topo, "linux-6.1", false, true, "stream:threads=4,cpus=0-23", 0.5);
    auto on = summary(topo, "linux-6.1", true, true, "stream:threads=4,cpus=0-23", 0.5);
    std::printf("busy clusters: CLS off %.2f, on %.2f; cores %.2f / %.2f\n", off["busy_clusters"], on["busy_clusters"],
                off["busy_cores"], on["busy_cores"]);
    ASSERT_TRUE(on.count("busy_clusters"));
    EXPECT_GE(on["busy_clusters"], 3.5);
    EXPECT_LE(off["busy_clusters"], 1.5);
    EXPECT_NEAR(on["busy_cores"], 4, 0.5);
    EXPECT_NEAR(off["busy_cores"], 4, 0.5);
    EXPECT_NEAR(on["busy_nodes"], 1, 1e-9);  // cpus=0-23 is node 0
    EXPECT_TRUE(std::isnan(on["completion_s"])) << "stream runs for the whole duration";
}

// Seed 003: 8 CPU-bound tasks on Naples spread to one per node with the NODE level (4.15 rules).
TEST(PlacementSpread, NaplesBusyNodesRiseWithTheNodeLevel) {
    const Topology topo = epyc7601_2s();
    const sim::SimFeatures k415 = sim::featuresFor(*findProfile("linux-4.14"));
    auto on = summary(topo, "linux-5.15", true, true, "sysbench-cpu:threads=8", 0.6, k415);
    auto off = summary(topo, "linux-5.15", true, false, "sysbench-cpu:threads=8", 0.6, k415);
    std::printf("busy nodes: NODE off %.2f, on %.2f\n", off["busy_nodes"], on["busy_nodes"]);
    EXPECT_GT(on["busy_nodes"], 7.0);
    EXPECT_LT(off["busy_nodes"], on["busy_nodes"]);
    // x86's cluster is the L2, one core's on Naples: no cluster to count
    EXPECT_EQ(on.count("busy_clusters"), 0u);
    EXPECT_NEAR(on["busy_cores"], 8, 0.5);
}

// Without SMT a busy core is a busy CPU: the mean busy cores over the run are the CPUs' summed
// utilisation. (A hundred samples of pgbench's 16 clients made 9.94 busy cores of 7.59.)
TEST(PlacementSpread, BusyCoresAreTheTimeAverageOfEverySwitch) {
    const Topology topo = kunpeng920_24();
    const DomainTree tree = buildTree(topo, "linux-6.12", true, true);
    auto wl = workload::parseWorkloadSpec("pgbench:clients=16", static_cast<int>(topo.cpus.size()));
    ASSERT_TRUE(wl.ok());
    sim::SimOptions o;
    o.durationS = 0.2;
    auto st = sim::simulate(topo, tree, *wl, o);
    ASSERT_TRUE(st.ok()) << st.error();
    const auto j = sim::simResultToJson(**st, *wl, {topo.name, "linux-6.12", true, true, "pgbench:clients=16"});
    double utilisation = 0;
    for (const auto& u : j["metrics"]["cpu_utilisation"]) utilisation += u.get<double>();
    const double busyCores = j["metrics"]["busy_cores"].get<double>();
    std::printf("pgbench 16 clients: busy cores %.4f, summed utilisation %.4f\n", busyCores, utilisation);
    EXPECT_GT(busyCores, 1.0);
    EXPECT_NEAR(busyCores, utilisation, 1e-6);
}

// A POWER8 export with 16 of 106 CPU ids: cpu_utilisation is by CPU id, and an id without an
// online CPU is null, not an idle CPU's 0.
TEST(PlacementSpread, UtilisationIsNullWhereThereIsNoCpu) {
    auto topo = loadTopology({TopologySpec::Kind::HwlocXml, dataPath("topologies/xml/power8gpudistances.xml")});
    ASSERT_TRUE(topo.ok()) << topo.error();
    const DomainTree tree = buildTree(*topo, "linux-6.12", true, true);
    auto wl = workload::parseWorkloadSpec("sysbench-cpu:threads=2", static_cast<int>(topo->cpus.size()));
    ASSERT_TRUE(wl.ok());
    sim::SimOptions o;
    o.durationS = 0.05;
    auto st = sim::simulate(*topo, tree, *wl, o);
    ASSERT_TRUE(st.ok()) << st.error();
    const auto j = sim::simResultToJson(**st, *wl, {topo->name, "linux-6.12", true, true, "sysbench-cpu:threads=2"});
    const auto& util = j["metrics"]["cpu_utilisation"];
    ASSERT_EQ(util.size(), topo->cpus.size());
    const CpuSet online = topo->onlineCpus();
    ASSERT_EQ(online.count(), 16);
    double busy = 0;
    for (size_t c = 0; c < util.size(); ++c) {
        EXPECT_EQ(util[c].is_null(), !online.test(static_cast<int>(c))) << "cpu " << c;
        if (!util[c].is_null()) busy += util[c].get<double>();
    }
    EXPECT_NEAR(busy, 2.0, 0.05) << "two CPU-bound threads";
}

TEST(MetricStats, UnfinishedRunsAreLeftOutAndCounted) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const sim::MetricStats s = sim::metricStats({10, nan, 12, 14});
    EXPECT_EQ(s.runs, 4);
    EXPECT_EQ(s.n, 3);
    EXPECT_DOUBLE_EQ(s.mean, 12);
    EXPECT_DOUBLE_EQ(s.sd, 2);
    EXPECT_DOUBLE_EQ(s.min, 10);
    EXPECT_DOUBLE_EQ(s.max, 14);
    const sim::MetricStats none = sim::metricStats({nan, nan});
    EXPECT_EQ(none.n, 0);
    EXPECT_EQ(none.runs, 2);
    EXPECT_DOUBLE_EQ(none.mean, 0);
}

// Seeds that gave the same run: alike to rounding, with metrics no run had left aside; one run,
// or a real difference, is no such finding.
TEST(MetricStats, SeedsThatGaveOneRunAreTold) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const sim::MetricStats alike = sim::metricStats({6.511373511786778, 6.511373511786777, 6.511373511786778});
    const sim::MetricStats unfinished = sim::metricStats({nan, nan, nan});
    EXPECT_TRUE(sim::seedsGaveOneRun({alike, unfinished, sim::metricStats({3, 3, 3})}));
    EXPECT_FALSE(sim::seedsGaveOneRun({alike, sim::metricStats({5.6668, 5.6667, 5.6668})}));
    EXPECT_FALSE(sim::seedsGaveOneRun({sim::metricStats({7})}));
    EXPECT_FALSE(sim::seedsGaveOneRun({unfinished}));
}

}  // namespace
}  // namespace schedscope::test
